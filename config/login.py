"""Login throttling with django-axes, configured so that it can be neither bypassed nor turned against users.

- Failures are counted per (username, client address): a stranger's failures from elsewhere do not
  lock out a user (AXES_LOCKOUT_PARAMETERS in the settings).
- The username is counted as Django logs it in: NFKC-normalised (what the login form does; so
  ``ｔhrottle1`` in fullwidth letters counts as ``throttle1``), and case-folded.
- The client address is REMOTE_ADDR, or, behind TRUSTED_PROXY_COUNT proxies of our own, the address
  the outermost of them saw (the entry of X-Forwarded-For that many places from the right); what a
  client writes in X-Forwarded-For itself is never trusted.
- Attempts for one (username, address) are evaluated one at a time, under a lock held while the
  password is checked and the failure recorded: 20 guesses sent at once evaluate at most the limit.
- A correct password refused for another reason (a non-staff account at /admin/login/) is not a
  failure: axes counts only failed authentications.
"""

import hashlib
import ipaddress
import unicodedata

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from negotiations.forms import RefuseControlCharacters

# A username longer than this is not one (auth.User's is at most 150); axes stores at most 255.
USERNAME_LIMIT = 150

LOCKED_MESSAGE = _("Too many failed attempts. Wait a few minutes and try again.")


def normalised_username(username) -> str:
    """The username as Django compares it at login (NFKC), case-folded, capped."""
    text = unicodedata.normalize("NFKC", str(username or ""))
    return text.casefold()[:USERNAME_LIMIT]


def axes_username(request, credentials) -> str:
    """AXES_USERNAME_CALLABLE."""
    username = (credentials or {}).get("username")
    if username is None and request is not None:
        username = request.POST.get("username")
    return normalised_username(username)


def client_address(request) -> str:
    """AXES_CLIENT_IP_CALLABLE: the client's address, through TRUSTED_PROXY_COUNT proxies of our own."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    chain = [part for part in forwarded if part] + [remote]
    # Each proxy appends the address it saw; the last `proxies` hops (REMOTE_ADDR included) are ours.
    candidate = chain[max(len(chain) - 1 - proxies, 0)]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def locked_out(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the login page again, saying why, with 429."""
    form = AuthenticationForm(request, initial={"username": axes_username(request, credentials)})
    context = {"form": form, "locked_message": LOCKED_MESSAGE, "next": request.POST.get("next", "")}
    return render(request, "registration/login.html", context, status=429)


def _lock(request, username: str) -> None:
    """Hold, until the transaction ends, the lock of this (username, address)'s attempts."""
    key = f"{normalised_username(username)}\x1f{client_address(request)}".encode()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            number = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big", signed=True)
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])
        else:
            # SQLite has one write lock: take it now (an update that changes nothing) rather than at
            # the failure's write, so that the next attempt reads the count after this one's failure.
            cursor.execute("UPDATE axes_accessattempt SET id = id WHERE id = -1")


class SerializedLoginMixin:
    """Check the password, and record a failure, under the lock of this (username, address)."""

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password") or self.request is None:
            return super().clean()
        refusal = None
        with transaction.atomic():
            _lock(self.request, username)
            try:
                cleaned = super().clean()
            except ValidationError as error:
                refusal = error  # raised after the commit, which keeps the failure axes recorded
        if refusal is not None:
            raise refusal
        return cleaned


class LoginForm(RefuseControlCharacters, SerializedLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(RefuseControlCharacters, SerializedLoginMixin, AdminAuthenticationForm):
    def confirm_login_allowed(self, user):
        # Editors and Admins curate in the admin without being staff (config.admin_access).
        from config.admin_access import can_use_admin

        if not can_use_admin(user):
            super().confirm_login_allowed(user)
