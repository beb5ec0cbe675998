"""The health check answers for the app and its database; security headers are on every page."""

from unittest import mock

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db


def test_healthz_checks_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_healthz_is_503_when_the_database_is_unreachable(client):
    # On SQLite the check asks through the connection's cursor (on PostgreSQL through libpq: test_hung_database).
    if connection.vendor == "postgresql":
        patched = mock.patch("config.health.database_answers", return_value=False)
    else:
        patched = mock.patch("config.health.connection.cursor", side_effect=OperationalError("down"))
    with patched:
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"


def test_security_headers_on_pages(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_script(client):
    html = client.get("/").content.decode()
    import re

    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag, f"inline script found: {tag}"
