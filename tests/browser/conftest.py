"""Playwright driving Debian's Chromium against pytest-django's live_server.

Screenshots land in test-artifacts/ (ignored by git). Every page fixture fails its
test when the browser console reports an error.
"""

import datetime
import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import get_commands

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


@pytest.fixture
def page_at(browser):
    """Open a page at a width of one's choosing, ``page_at(320)`` (900 px high), its request for /favicon.ico
    answered with a 204; it is closed after the test."""
    contexts = []

    def open_page(width: int):
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
        _track_requests(page)
        return page

    yield open_page
    for context in contexts:
        for page in context.pages:
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
def no_favicon():
    """Call it with a page: the page's request for /favicon.ico is answered with a 204, so that a 404 for it
    never counts as a console error."""

    def route(page):
        page.route("**/favicon.ico", lambda route: route.fulfill(status=204))

    return route


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


def _fiscal_factory_data():
    """The four offers' shapes and the real reference data, for fiscal_data when `load_cjg` is not there."""
    from negotiations.models import Jurisdiction, Offer, PhaseInStep
    from tests.factories import JurisdictionFactory, NegotiationFactory, OfferFactory, ProgramEnvelopeFactory
    from tests.shared import PTS

    D = datetime.date
    canada = JurisdictionFactory(code="CA", kind=Jurisdiction.Kind.FEDERAL, order=0, name_en="Government of Canada",
                                 population=35158304)
    for order, (code, name, _kind, population) in enumerate(PTS, start=1):
        JurisdictionFactory(code=code, name_en=name, order=order, population=population)
    ProgramEnvelopeFactory(program="LMA", annual_amount=Decimal("500000000"))
    ProgramEnvelopeFactory(program="LMDA", name_en="Labour Market Development Agreements",
                           annual_amount=Decimal("1950000000"))
    cjg = NegotiationFactory(slug="canada-job-grant", title="Canada Job Grant", started_on=D(2013, 3, 21))
    budget = OfferFactory(negotiation=cjg, slug="budget-2013", title="Budget 2013", tabled_on=D(2013, 3, 21),
                          tabled_by=[canada], status=Offer.Status.SUPERSEDED,
                          assumptions="Ottawa's third comes out of the LMA; the provinces' third is new money.")
    november = OfferFactory(negotiation=cjg, slug="federal-nov-2013", title="November 2013 flexibility",
                            tabled_on=D(2013, 11, 8), tabled_by=[canada], responds_to=budget,
                            employer_min_share=Decimal("0.15"), small_employer_gap_payer="provincial")
    for year, fraction in (("2014-15", "0.25"), ("2015-16", "0.5"), ("2016-17", "0.75"), ("2017-18", "1")):
        PhaseInStep.objects.create(offer=november, fiscal_year=year, fraction=Decimal(fraction))
    OfferFactory(negotiation=cjg, slug="federal-dec-2013", title="The federal “Christmas Eve” offer",
                 tabled_on=D(2013, 12, 24), tabled_by=[canada], responds_to=november,
                 federal_amount=Decimal("10000"), provincial_amount=Decimal("0"),
                 funding=[("federal", "LMA", 5000), ("federal", "LMDA", 5000)], shortfall_liability="province")


@pytest.fixture
def fiscal_data(request, transactional_db):
    """The data the fiscal pages are drawn from: the data set (cjg_data), or the offers' shapes built by
    factories when the `load_cjg` command is not there; the reference data read afresh before and after."""
    from grants import selectors

    selectors.forget_reference_data()
    if "load_cjg" in get_commands():
        request.getfixturevalue("cjg_data")
    else:
        _fiscal_factory_data()
    selectors.forget_reference_data()
    yield
    selectors.forget_reference_data()
