"""Where a form sends its reader back to: the page it was posted from, when that is an address on this site."""

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def posted_next(request: HttpRequest, fallback: str) -> str:
    """The posted ``next`` if it is a path on this site, else ``fallback`` (an address, not a view's name).

    A path and nothing else: ``redirect()`` reads "statements" or "zz" as a view's name and fails (a 500), and a
    scheme-relative or other host's address would send the reader off the site."""
    back = request.POST.get("next", "")
    if back.startswith("/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return fallback
