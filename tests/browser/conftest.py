"""Playwright driving Debian's Chromium against pytest-django's live_server.

Screenshots land in test-artifacts/ (ignored by git). Every page fixture fails its
test when the browser console reports an error.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.dataset import load_cjg

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"Chromium not found at {CHROMIUM} (REQUIRE_BROWSER is set)")
        pytest.skip("Chromium is not installed (apt-get install chromium); browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(10_000)
    _track_requests(page)
    yield page
    _settle(page)
    context.close()
    assert errors == [], f"browser console errors: {errors}"


@pytest.fixture
def phone_page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    _track_requests(page)
    yield page
    _settle(page)
    context.close()


def _track_requests(page) -> None:
    page._in_flight = set()
    page.on("request", lambda r: page._in_flight.add(r))
    page.on("requestfinished", lambda r: page._in_flight.discard(r))
    page.on("requestfailed", lambda r: page._in_flight.discard(r))


def _settle(page) -> None:
    """Let a request still in flight (a preview fired by the last page) finish before the test's database
    is flushed: the live server's thread would otherwise hold a table while the flush runs."""
    for _ in range(50):
        if not getattr(page, "_in_flight", None):
            return
        page.wait_for_timeout(100)


@pytest.fixture
def screenshot():
    """Save a full-page screenshot under test-artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def cjg_data(transactional_db):
    """The Canada Job Grant data set, as the real command loads it (tests.dataset)."""
    load_cjg()


@pytest.fixture
def editor_login(transactional_db, live_server):
    """Log a page in as a user who may add and change offers, positions and statements."""
    from django.contrib.auth.models import Permission

    from tests.factories import UserFactory

    user = UserFactory(username="editor")
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="negotiations"))

    def login(page):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "editor")
        page.fill("input[name=password]", "correct horse battery staple")
        page.click("form [type=submit]")
        page.wait_for_load_state("networkidle")

    return login
