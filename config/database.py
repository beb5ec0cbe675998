"""A database that accepts connections but never answers must not hang the site.

- PostgreSQL connections give up after DATABASE_CONNECT_TIMEOUT seconds (libpq's floor is 2) and
  statements after DATABASE_STATEMENT_TIMEOUT_MS milliseconds (the OPTIONS in config/settings.py);
- /healthz first asks the server to answer one protocol message within HEALTH_TIMEOUT seconds when
  it has no connection open (``answers``), so that it says 503 quickly;
- a page whose database fails answers a styled 503 (``DatabaseUnavailableMiddleware``), rendered
  without the database.
"""

import logging
import socket
import struct

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

HEALTH_TIMEOUT = 1.0  # seconds
_SSL_REQUEST = struct.pack("!ii", 8, 80877103)  # PostgreSQL answers it with one byte, S or N


def answers(host: str, port: int, timeout: float = HEALTH_TIMEOUT) -> bool:
    """Whether a PostgreSQL server at host:port answers the first message of a connection in time."""
    try:
        with socket.create_connection((host or "localhost", port or 5432), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(_SSL_REQUEST)
            return sock.recv(1) in (b"S", b"N")
    except OSError:
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
