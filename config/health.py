"""The health check: the app answers and its database does too, within about a second whatever the
state of the request's database connection (config.database.database_answers)."""

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.database import database_answers


def _unavailable() -> JsonResponse:
    return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)


@never_cache
@require_safe  # GET and HEAD: load balancers probe with HEAD
def healthz(request):
    if not database_answers(connection):
        return _unavailable()
    return JsonResponse({"status": "ok", "database": "ok"})
