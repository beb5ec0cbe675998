"""The health check: the app answers and its database does too."""

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.database import answers


def _unavailable() -> JsonResponse:
    return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)


@never_cache
@require_safe  # GET and HEAD: load balancers probe with HEAD
def healthz(request):
    # With no connection open, first ask the server for one byte, with a short timeout: a server that
    # accepts connections but never answers is reported in about a second, not after connect_timeout.
    if connection.vendor == "postgresql" and connection.connection is None:
        params = connection.settings_dict
        if not answers(params.get("HOST") or "localhost", int(params.get("PORT") or 5432)):
            return _unavailable()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return _unavailable()
    return JsonResponse({"status": "ok", "database": "ok"})
