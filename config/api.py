"""The read-only JSON API (contract: shared design API.md), assembled from each app's router.

Every answer that is not a success is JSON {"detail": "..."} with a 4xx status: 404 for an unknown
slug, code or path, 405 for anything but GET (and HEAD), 422 for a bad parameter, naming it.
Ninja's own validation errors keep their list under "errors" and gain a "detail" sentence. The "detail" is in
the language Accept-Language asks for (config.i18n); parameter names, and the "errors" list, stay as they are.
"""

import logging
import re
from functools import wraps

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import re_path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from ninja import NinjaAPI
from ninja.errors import ValidationError

from config.input import CONTROL_CHARACTERS
from grants.api import FISCAL_YEAR_PATTERN
from grants.api import router as grants_router
from negotiations.api import CODE_PATTERN, NO_CONTROL_CHARACTERS, SLUG_PATTERN
from negotiations.api import router as negotiations_router

logger = logging.getLogger("django.request")

READ_METHODS = ("GET", "HEAD")


def _error(status: int, detail: str, **headers: str) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status, headers=headers)


def _read_only(view):
    """Answer 405 (JSON) to a method other than GET or HEAD; serve HEAD as GET (ninja routes only GET)."""

    @wraps(view)
    def read_only_view(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in READ_METHODS:
            return _error(
                405, _("Method %(method)s is not allowed: the API is read-only.") % {"method": request.method},
                Allow=", ".join(READ_METHODS),
            )
        if request.method != "HEAD":
            return view(request, *args, **kwargs)
        # Serve HEAD as GET, then say HEAD again so that the server drops the body.
        request.method = "GET"
        try:
            return view(request, *args, **kwargs)
        finally:
            request.method = "HEAD"

    # Nothing here writes, so there is nothing for CSRF to guard: a POST to any address, the OpenAPI document
    # and the docs included, gets its JSON 405 rather than the CSRF failure's HTML page.
    read_only_view.csrf_exempt = True
    return read_only_view


def no_endpoint(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    return _error(404, _("No endpoint at %(path)s; the endpoints are listed at /api/openapi.json.") % {"path": request.path})


no_endpoint.csrf_exempt = True


# Answers every operation may give besides its own, as the OpenAPI document says.
COMMON_RESPONSES = {
    "414": {"description": "The address is too long (over 4,094 characters): refused by the server in front "
                           "of the application (nginx, or gunicorn's limit_request_line), not in JSON."},
    "422": {"description": "A parameter is not valid (out of range, unknown, or holding a control character such as NUL); "
                           "`detail` names it.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
}


class ReadOnlyAPI(NinjaAPI):
    """A NinjaAPI whose URLs are all read-only and whose unknown paths answer a JSON 404."""

    def get_openapi_schema(self, *args, **kwargs):
        schema = super().get_openapi_schema(*args, **kwargs)
        for operations in schema["paths"].values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, response in COMMON_RESPONSES.items():
                    if status not in responses and int(status) not in responses:
                        responses[status] = response
        return schema

    @property
    def urls(self):
        patterns, app_name, namespace = super().urls
        for pattern in patterns:
            # The API root only tells ninja where the API starts; there is nothing to read there.
            pattern.callback = no_endpoint if pattern.name == "api-root" else _read_only(pattern.callback)
        return [*patterns, re_path(r"", no_endpoint)], app_name, namespace


api = ReadOnlyAPI(
    title="FPT Negotiations Tracker API",
    version="1.0.0",
    description=(
        "Read-only access to the negotiation record and the fiscal effect of every offer. "
        'Money is a string with two decimals ("300000000.00"); lists are {"items": [...], "count": N} '
        "with limit (1 to 1000, default 100) and offset; errors are {\"detail\": \"...\"}."
    ),
    urls_namespace="api",
)
api.add_router("", negotiations_router)
api.add_router("", grants_router)


def _parameter(location: tuple | list) -> str:
    """`limit` for ("query", "limit"): the parameter as the client wrote it."""
    parts = [str(part) for part in location]
    if len(parts) > 1 and parts[0] in ("query", "path", "header", "cookie", "body", "form", "file"):
        parts = parts[1:]
    return ".".join(parts)


# Pydantic's messages for the errors a parameter of this API can have, as msgids that write them as pydantic does
# (placeholders: the error's "ctx"), so that a reader asking for French reads them in French.
VALIDATION_MESSAGES = {
    "int_parsing": gettext_noop("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": gettext_noop("Input should be a valid integer, got a number with a fractional part"),
    "decimal_parsing": gettext_noop("Input should be a valid decimal"),
    "finite_number": gettext_noop("Input should be a finite number"),
    "greater_than_equal": gettext_noop("Input should be greater than or equal to %(ge)s"),
    "greater_than": gettext_noop("Input should be greater than %(gt)s"),
    "less_than_equal": gettext_noop("Input should be less than or equal to %(le)s"),
    "less_than": gettext_noop("Input should be less than %(lt)s"),
    "string_pattern_mismatch": gettext_noop("String should match pattern '%(pattern)s'"),
    "string_too_long": (gettext_noop("String should have at most %(max_length)s character"),
                        gettext_noop("String should have at most %(max_length)s characters")),
    "string_too_short": (gettext_noop("String should have at least %(min_length)s character"),
                         gettext_noop("String should have at least %(min_length)s characters")),
    "literal_error": gettext_noop("Input should be %(expected)s"),
    "enum": gettext_noop("Input should be %(expected)s"),
    "missing": gettext_noop("Field required"),
}


# A parameter that does not match its pattern is told what the pattern asks for, not shown the pattern.
PATTERN_MESSAGES = {
    CODE_PATTERN: gettext_noop("must be a jurisdiction code such as ON"),
    SLUG_PATTERN: gettext_noop("must be a slug such as canada-job-grant (letters, digits, hyphens and underscores)"),
    FISCAL_YEAR_PATTERN: gettext_noop("must be a fiscal year written like 2017-18"),
    NO_CONTROL_CHARACTERS: CONTROL_CHARACTERS,
}


def _message(item: dict) -> str:
    """One validation error's message in the current language; pydantic's own where the table does not write it
    exactly as pydantic does (a message with other words, or a context it does not name)."""
    if item.get("type") == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") in PATTERN_MESSAGES:
        return _(PATTERN_MESSAGES[item["ctx"]["pattern"]])
    english = item.get("msg", "is not valid")
    msgids = VALIDATION_MESSAGES.get(item.get("type", ""), ())
    context = dict(item.get("ctx", {}))
    for msgid in (msgids,) if isinstance(msgids, str) else msgids:
        try:
            if msgid % context == english:
                if "expected" in context:  # "'tabled', 'accepted' or 'withdrawn'": the list's last "or" too
                    context["expected"] = re.sub(r" or (?='[^']*'$)", " " + pgettext("the last of a list of choices", "or")
                                                 + " ", str(context["expected"]))
                return _(msgid) % context
        except (KeyError, TypeError, ValueError):
            continue
    return english


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    detail = "; ".join(f"{_parameter(item.get('loc', ()))}: {_message(item)}" for item in error.errors)
    return api.create_response(request, {"detail": detail, "errors": error.errors}, status=422)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return api.create_response(request, {"detail": str(error) or _("Not found.")}, status=404)


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def database_unavailable(request: HttpRequest, error: Exception) -> HttpResponse:
    # As config.database.DatabaseUnavailableMiddleware does for pages.
    logger.error("Database unavailable for %s: %s", request.path, error)
    response = api.create_response(request, {"detail": _("The database is not answering; try again shortly.")},
                                   status=503)
    response["Retry-After"] = "30"
    return response


@api.exception_handler(Exception)
def server_error(request: HttpRequest, error: Exception) -> HttpResponse:
    # A bug, not bad input: report it as Django would (the log, and the signal that error
    # trackers and the test client listen to), and still answer in JSON.
    got_request_exception.send(sender=None, request=request)
    logger.error("Internal Server Error: %s", request.path, exc_info=error, extra={"status_code": 500, "request": request})
    return api.create_response(request, {"detail": _("Internal server error.")}, status=500)
