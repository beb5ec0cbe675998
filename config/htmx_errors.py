"""What an htmx request gets when it is refused, so no answer ever replaces the page with bare text.

- A region answered with 400 (a refused filter or scenario, with its message by the field at fault) is
  sent as a 200 with ``X-Refused: 400``: htmx swaps only 2xx answers into their region (and
  django-htmx's debug script replaces the whole page with a 4xx one). The address is not pushed.
- A whole page answered with 401, 403, 404 or 500 (the site's own error pages) is shown as a page:
  htmx is asked to go to that address (a GET) or to reload the page it is on (anything else).
"""

from django.conf import settings

REGION_REFUSED = 400
WHOLE_PAGE = {401, 403, 404, 500}


class HtmxRefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or htmx.history_restore_request or getattr(response, "streaming", False):
            return response
        if response.status_code == REGION_REFUSED and not _is_whole_page(response):
            response.status_code = 200
            response["X-Refused"] = str(REGION_REFUSED)
            response["HX-Push-Url"] = "false"
        elif response.status_code in WHOLE_PAGE and not settings.DEBUG:
            if request.method == "GET":
                response["HX-Redirect"] = request.get_full_path()
            else:
                response["HX-Refresh"] = "true"
        return response


def _is_whole_page(response) -> bool:
    if "html" not in response.get("Content-Type", ""):
        return True
    return response.content[:200].lstrip().lower().startswith((b"<!doctype", b"<html"))
