"""Login that slows down guessing: after too many failures for a username from one address,
further attempts are refused for a while, whatever the password."""

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def _client_address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") if request is not None else ""


def _key(request, username: str) -> str:
    return f"login-failures:{_client_address(request)}:{(username or '').strip().lower()}"


class ThrottledLoginMixin:
    """Counts failed logins per (address, username) in the cache and refuses when over the limit."""

    locked_message = _("Too many failed attempts. Wait a few minutes and try again.")

    def clean(self):
        cache = caches["shared"]  # one count across all worker processes
        username = self.data.get("username", "")
        key = _key(self.request, username)
        if cache.get(key, 0) >= settings.LOGIN_FAILURE_LIMIT:
            raise ValidationError(self.locked_message, code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError:
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, settings.LOGIN_FAILURE_WINDOW_SECONDS)
            raise
        cache.delete(key)
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    def confirm_login_allowed(self, user):
        # Editors and Admins curate in the admin without being staff (config.admin_access).
        from config.admin_access import can_use_admin

        if not can_use_admin(user):
            super().confirm_login_allowed(user)
