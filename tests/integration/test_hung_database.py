"""Issue 13.7: a database that accepts connections but never answers does not hang the site."""

import os
import runpy
import selectors
import socket
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

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


class FreezableProxy:
    """A TCP proxy to a real server that, once frozen, passes nothing either way and answers no one:
    a connection made before then stays open, as to a server whose host froze."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.frozen, self.stopped = threading.Event(), threading.Event()
        self.sockets = [self.server]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        with selectors.DefaultSelector() as selector:
            selector.register(self.server, selectors.EVENT_READ)
            while not self.stopped.is_set():
                if self.frozen.is_set():
                    time.sleep(0.05)
                    continue
                for key, _ in selector.select(0.05):
                    if key.data is None:
                        client = self.server.accept()[0]
                        upstream = socket.create_connection(self.upstream)
                        self.sockets += [client, upstream]
                        selector.register(client, selectors.EVENT_READ, upstream)
                        selector.register(upstream, selectors.EVENT_READ, client)
                        continue
                    try:
                        data = key.fileobj.recv(65536)
                    except OSError:
                        data = b""
                    if data:
                        key.data.sendall(data)
                    else:
                        selector.unregister(key.fileobj)
                        key.fileobj.close()

    def close(self):
        self.stopped.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


POSTGRESQL_URL = os.environ.get("FROZEN_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


@pytest.fixture
def frozen_database(monkeypatch, django_db_blocker):
    """The default database as the settings make it (persistent connections), reached through a
    FreezableProxy to a real PostgreSQL, with a connection open; yields the proxy."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    real = urlsplit(POSTGRESQL_URL)
    try:
        socket.create_connection((real.hostname, real.port or 5432), timeout=1).close()
    except OSError:
        pytest.skip(f"needs a PostgreSQL server at {real.hostname}:{real.port or 5432} (FROZEN_TEST_DATABASE_URL)")
    proxy = FreezableProxy((real.hostname, real.port or 5432))
    user = real.netloc.rpartition("@")[0]
    monkeypatch.setenv("DATABASE_URL", real._replace(netloc=f"{user}@127.0.0.1:{proxy.port}" if user
                                                     else f"127.0.0.1:{proxy.port}").geturl())
    monkeypatch.setenv("CONN_MAX_AGE", "600")
    configured = runpy.run_path(str(SETTINGS))["DATABASES"]["default"]
    wrapper = DatabaseWrapper(connections.configure_settings({"default": configured})["default"], alias="default")
    original = connections["default"]
    connections["default"] = wrapper
    with django_db_blocker.unblock():
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
        yield proxy
    connections["default"] = original
    proxy.close()  # the frozen connection ends: a request still waiting on it returns
    wrapper.close()


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


def test_healthz_answers_503_within_two_seconds_over_a_persistent_connection_to_a_frozen_database(
        client, frozen_database):
    assert client.get("/healthz").status_code == 200
    assert connections["default"].connection is not None  # the persistent connection stays open
    frozen_database.frozen.set()
    # Were /healthz to wait on the open connection, it would wait for ever: after 5 s the proxy hangs up.
    watchdog = threading.Timer(5, frozen_database.close)
    watchdog.start()
    try:
        response, seconds = timed(lambda: client.get("/healthz"))
    finally:
        watchdog.cancel()
    assert seconds < 2.0, f"/healthz waited {seconds:.1f} s on the open connection"
    assert response.status_code == 503


@pytest.fixture
def locked_sqlite_database(tmp_path, django_db_blocker):
    """The default database as a SQLite file on which another process holds an exclusive lock."""
    from django.db.backends.sqlite3.base import DatabaseWrapper

    path = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    settings = connections.configure_settings({"default": {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": {"timeout": 20}}})["default"]
    wrapper = DatabaseWrapper(settings, alias="default")
    original = connections["default"]
    connections["default"] = wrapper
    holder.execute("BEGIN EXCLUSIVE")
    with django_db_blocker.unblock():
        yield
    connections["default"] = original
    holder.execute("ROLLBACK")
    holder.close()
    wrapper.close()


def test_healthz_waits_for_a_locked_sqlite_database_at_most_a_second(client, locked_sqlite_database):
    response, seconds = timed(lambda: client.get("/healthz"))
    assert response.status_code == 503 and seconds < 2.0


def test_two_writers_on_the_sqlite_file_queue_instead_of_one_failing(tmp_path, django_db_blocker):
    """Two transactions that each read, then write, at the same time (two editors saving). With SQLite's default
    (DEFERRED) the first to write while the other read was refused at once, "database is locked": a 503. The
    project's SQLite settings begin each transaction IMMEDIATE, so the second waits for the first and both save."""
    import threading

    from django.conf import settings as django_settings
    from django.db import transaction
    from django.db.backends.sqlite3.base import DatabaseWrapper

    if django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("the SQLite settings are what this reads")
    path = tmp_path / "writers.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE saved (who TEXT)").connection.commit()
    options = django_settings.DATABASES["default"]["OPTIONS"]
    first_read, failures = threading.Event(), []

    def save(who, *, wait_first):
        # Each thread its own connection with the project's options (Django's connections are per thread).
        alias = f"writer-{who}"
        connections[alias] = wrapper = DatabaseWrapper(connections.configure_settings({"default": {
            "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": dict(options)}})["default"],
            alias=alias)
        try:
            if wait_first:
                first_read.wait(5)
            with transaction.atomic(using=alias), wrapper.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM saved")  # read first (a version check), write second
                if not wait_first:
                    first_read.set()
                    threading.Event().wait(0.3)  # the other writer arrives meanwhile
                cursor.execute("INSERT INTO saved VALUES (%s)", [who])
        except Exception as error:  # noqa: BLE001 - what the editor would have seen
            failures.append(f"{who}: {error}")
        finally:
            wrapper.close()
            del connections[alias]

    with django_db_blocker.unblock():
        threads = [threading.Thread(target=save, args=("first",), kwargs={"wait_first": False}),
                   threading.Thread(target=save, args=("second",), kwargs={"wait_first": True})]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert failures == []
    assert sorted(row[0] for row in sqlite3.connect(path).execute("SELECT who FROM saved")) == ["first", "second"]
