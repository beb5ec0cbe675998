"""Read access: public by default, login required when READ_REQUIRES_LOGIN is set."""

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import JsonResponse

# Paths anyone may reach even when reads require a login.
OPEN_PREFIXES = ("/accounts/", "/admin/", "/static/", "/healthz", "/alerts/unsubscribe/")


class ReadAccessMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            settings.READ_REQUIRES_LOGIN
            and not request.user.is_authenticated
            and not request.path.startswith(OPEN_PREFIXES)
        ):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": "Authentication required."}, status=401)
            return redirect_to_login(request.get_full_path())
        return self.get_response(request)
