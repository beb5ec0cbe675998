"""Accounts: groups from the migration, login throttling, password change, logout, read access."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache, caches
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    caches["shared"].clear()
    yield
    cache.clear()


def test_migration_creates_the_three_groups_with_graded_permissions():
    viewer = set(Group.objects.get(name="Viewer").permissions.values_list("codename", flat=True))
    editor = set(Group.objects.get(name="Editor").permissions.values_list("codename", flat=True))
    admin = set(Group.objects.get(name="Admin").permissions.values_list("codename", flat=True))
    assert "view_offer" in viewer and "add_offer" not in viewer
    assert {"add_offer", "change_offer", "add_statement", "add_position"} <= editor
    assert "delete_offer" not in editor
    assert {"delete_offer", "change_programenvelope"} <= admin
    assert viewer < editor < admin


def test_login_and_logout(client):
    UserFactory(username="ana")
    response = client.post(reverse("login"), {"username": "ana", "password": "correct horse battery staple"})
    assert response.status_code == 302
    assert client.get(reverse("negotiations:home")).context["user"].username == "ana"
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("negotiations:home")).context["user"].is_authenticated


# Login throttling: tests/integration/test_login_throttling.py


def test_password_change(client):
    user = UserFactory(username="cleo")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct horse battery staple",
            "new_password1": "a much longer passphrase 42",
            "new_password2": "a much longer passphrase 42",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a much longer passphrase 42")


def test_reads_are_public_by_default(client):
    assert client.get(reverse("negotiations:home")).status_code == 200


def test_reads_can_require_login(client, settings):
    settings.READ_REQUIRES_LOGIN = True
    response = client.get(reverse("negotiations:jurisdiction_list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.get(reverse("login")).status_code == 200
    assert client.get("/healthz").status_code == 200


def test_production_settings_pass_the_deploy_check():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 30 + "a-long-random-production-secret-value",
        "ALLOWED_HOSTS": "tracker.example.org",
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests; never in a deployment
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "", "ALLOWED_HOSTS": "x"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_collectstatic_works_with_production_storage(tmp_path):
    """The manifest storage refuses a static file that names a missing one (e.g. a source map)."""
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "y" * 60, "ALLOWED_HOSTS": "x", "STATIC_ROOT": str(tmp_path)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "staticfiles.json").exists()
