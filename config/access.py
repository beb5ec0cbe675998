"""Read access: public by default; with READ_REQUIRES_LOGIN, a login and the view permissions.

With READ_REQUIRES_LOGIN an anonymous visitor is sent to the login page (the API answers 401), and
an account with none of the view permissions of the record (the Viewer group has them all; Editor
and Admin too) is refused with 403, pages, API and CSV alike: an account is not a permission to read.
"""

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse

# Paths anyone may reach even when reads require a login.
OPEN_PREFIXES = ("/accounts/", "/admin/", "/static/", "/healthz", "/alerts/unsubscribe/")

# What reading the record takes: a view permission of one of its main kinds of rows (a fixed list, so
# that a model added later does not lock out the Viewer group made by migration 0002).
READ_PERMISSIONS = tuple(
    f"negotiations.view_{model}"
    for model in ("negotiation", "jurisdiction", "person", "source", "meeting", "statement", "position", "offer")
)


class ReadAccessMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.READ_REQUIRES_LOGIN and not request.path.startswith(OPEN_PREFIXES):
            api = request.path.startswith("/api/")
            if not request.user.is_authenticated:
                if api:
                    return JsonResponse({"detail": "Authentication required."}, status=401)
                return redirect_to_login(request.get_full_path())
            if not any(request.user.has_perm(permission) for permission in READ_PERMISSIONS):
                if api:
                    return JsonResponse({"detail": "This account may not read the record."}, status=403)
                raise PermissionDenied("This account may not read the record.")
        return self.get_response(request)
