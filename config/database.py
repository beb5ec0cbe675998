"""A database that accepts connections but never answers must not hang the site.

- PostgreSQL connections give up after DATABASE_CONNECT_TIMEOUT seconds (libpq's floor is 2) and
  statements after DATABASE_STATEMENT_TIMEOUT_MS milliseconds (the OPTIONS in config/settings.py);
- /healthz asks the database to answer within HEALTH_TIMEOUT seconds whatever the state of the
  request's connection (``database_answers``): on PostgreSQL on a connection of its own, made and
  queried without blocking under one deadline, so that neither a server that stays silent nor a
  persistent connection to a server that froze can hold it; on SQLite with a short lock timeout;
- a page whose database fails answers a styled 503 (``DatabaseUnavailableMiddleware``), rendered
  without the database.
"""

import functools
import logging
import math
import selectors
import time

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

HEALTH_TIMEOUT = 1.0  # seconds


def database_answers(connection, timeout: float = HEALTH_TIMEOUT) -> bool:
    """Whether the database of `connection` (a Django connection) answers a query within about `timeout` seconds.

    A query waits for the server's answer for as long as the connection lasts: a statement timeout is
    enforced by the server, and a server that froze (or a network that dropped it) never answers.
    So on PostgreSQL the check waits for the answer itself, until a deadline (``_postgresql_answers``).
    On SQLite the file is local: the check reads the schema, which waits for another process's lock
    at most `timeout` seconds.
    """
    if connection.vendor == "postgresql":
        return _postgresql_answers(connection, timeout)
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                _read_sqlite_schema(cursor, timeout)
            else:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except DatabaseError:
        return False
    return True


def _read_sqlite_schema(cursor, timeout: float) -> None:
    cursor.execute("PRAGMA busy_timeout")
    previous = int(cursor.fetchone()[0])
    cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    try:
        cursor.execute("SELECT count(*) FROM sqlite_master")  # takes the shared lock that SELECT 1 does not
        cursor.fetchone()
    finally:
        cursor.execute(f"PRAGMA busy_timeout = {previous}")


@functools.cache
def _libpq_keywords() -> frozenset[str]:
    from psycopg import pq

    return frozenset(default.keyword.decode() for default in pq.Conninfo.get_defaults())


def _postgresql_conninfo(settings_dict: dict, timeout: float) -> str:
    """The libpq parameters of the settings (OPTIONS such as sslmode included), with short timeouts."""
    from psycopg.conninfo import make_conninfo

    options = settings_dict.get("OPTIONS") or {}
    params = {key: value for key, value in options.items() if key in _libpq_keywords()}
    params.update({"dbname": settings_dict.get("NAME") or "postgres", "user": settings_dict.get("USER"),
                   "password": settings_dict.get("PASSWORD"), "host": settings_dict.get("HOST"),
                   "port": settings_dict.get("PORT")})
    params = {key: value for key, value in params.items() if value not in (None, "")}
    # The server gives up on the query too (the last -c of a setting wins); libpq's floor is 2 s, and
    # the deadline below is what bounds the check.
    params["options"] = f"{params.get('options', '')} -c statement_timeout={max(1, int(timeout * 1000))}".strip()
    params["connect_timeout"] = max(2, math.ceil(timeout))
    params["application_name"] = "healthz"
    return make_conninfo(**params)


def _wait(sock: int, *, write: bool, deadline: float) -> bool:
    """Whether `sock` is ready to read (or write) before `deadline` (time.monotonic())."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return False
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_WRITE if write else selectors.EVENT_READ)
        return bool(selector.select(remaining))


def _postgresql_answers(connection, timeout: float) -> bool:
    """SELECT 1 on the open connection, or on a connection of its own, with libpq's non-blocking calls
    under one deadline.

    An open connection that does not answer in time is closed (its query may still be pending) and
    the check fails; one that is broken is closed and a new one tried. With none open, the check
    connects by itself (libpq's connect_timeout cannot be under 2 s), then opens the connection the
    next checks and pages use.
    """
    import psycopg
    from psycopg import pq

    deadline = time.monotonic() + timeout
    pgconn = getattr(connection.connection, "pgconn", None)  # psycopg 3's connection, when one is open
    if pgconn is not None:
        try:
            if _select_1(pgconn, deadline):
                return True
        except (psycopg.Error, OSError, ValueError):
            pass
        try:
            connection.close()
        except DatabaseError:
            pass
    try:
        conninfo = _postgresql_conninfo(connection.settings_dict, timeout).encode()
        pgconn = pq.PGconn.connect_start(conninfo)
    except (psycopg.Error, OSError, ValueError):
        return False
    try:
        if pgconn.status == pq.ConnStatus.BAD:
            return False
        polling = pq.PollingStatus.WRITING  # as libpq asks, before the first connect_poll
        while polling != pq.PollingStatus.OK:
            if polling == pq.PollingStatus.FAILED:
                return False
            if not _wait(pgconn.socket, write=polling == pq.PollingStatus.WRITING, deadline=deadline):
                return False
            polling = pgconn.connect_poll()
        pgconn.nonblocking = 1
        if not _select_1(pgconn, deadline):
            return False
    except (psycopg.Error, OSError, ValueError):
        return False
    finally:
        pgconn.finish()
    try:
        connection.ensure_connection()
    except DatabaseError:
        return False
    return True


def _select_1(pgconn, deadline: float) -> bool:
    """Send SELECT 1 on `pgconn` (psycopg.pq.PGconn, idle) and read its answer before `deadline`."""
    from psycopg import pq

    pgconn.send_query(b"SELECT 1")
    while pgconn.flush():
        if not _wait(pgconn.socket, write=True, deadline=deadline):
            return False
    answered = False
    while True:
        pgconn.consume_input()
        while not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:
                return answered
            answered = result.status == pq.ExecStatus.TUPLES_OK
        if not _wait(pgconn.socket, write=False, deadline=deadline):
            return False


class DatabaseUnavailableMiddleware:
    """A page whose database does not answer (or refuses) gets a 503 page, not a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("Database unavailable for %s: %s", request.path, exception)
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": "The database is not answering; try again shortly."}, status=503)
        else:
            # No request in the context: nothing that would read the session or the user.
            response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "30"
        return response
