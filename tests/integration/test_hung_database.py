"""Issue 13.7: a database that accepts connections but never answers does not hang the site."""

import runpy
import socket
import threading
import time
from pathlib import Path

import pytest
from django.db import connections

pytest.importorskip("psycopg")

SETTINGS = Path(__file__).resolve().parents[2] / "config" / "settings.py"


@pytest.fixture
def silent_listener():
    """A TCP server that accepts every connection and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.1)
    held, stop = [], threading.Event()

    def accept():
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


@pytest.fixture
def hung_database(silent_listener, monkeypatch, django_db_blocker):
    """The default database as the settings make it from DATABASE_URL, pointed at the silent listener."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    monkeypatch.setenv("DATABASE_URL", f"postgres://postgres@127.0.0.1:{silent_listener}/fpt_nowhere")
    monkeypatch.setenv("CONN_MAX_AGE", "0")
    configured = runpy.run_path(str(SETTINGS))["DATABASES"]["default"]
    assert configured["OPTIONS"]["connect_timeout"] == 2
    assert "statement_timeout" in configured["OPTIONS"]["options"]
    wrapper = DatabaseWrapper(connections.configure_settings({"default": configured})["default"], alias="default")
    original = connections["default"]
    connections["default"] = wrapper
    with django_db_blocker.unblock():
        yield
    connections["default"] = original


def timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def test_healthz_answers_503_within_two_seconds(client, hung_database):
    response, seconds = timed(lambda: client.get("/healthz"))
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unreachable"}
    assert seconds < 2.0
    response, seconds = timed(lambda: client.head("/healthz"))
    assert response.status_code == 503 and seconds < 2.0


def test_pages_answer_a_styled_503(client, hung_database):
    response, seconds = timed(lambda: client.get("/"))
    assert response.status_code == 503
    page = response.content.decode()
    assert "Temporarily unavailable" in page and 'class="site-header"' in page
    assert response["Retry-After"] == "30"
    assert seconds < 5  # connect_timeout, not gunicorn's 30 s


def test_the_api_answers_503_in_json(client, hung_database):
    response = client.get("/api/offers")
    assert response.status_code == 503
    assert "not answering" in response.json()["detail"]


def test_head_healthz_answers_200(client, db):
    response = client.head("/healthz")
    assert response.status_code == 200 and response.content == b""
