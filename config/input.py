"""Refuse control characters (NUL and the like) in a request's address before any view reads it.

A NUL reaches PostgreSQL as part of a lookup (a slug, a code) and makes it raise, which was a 500 in
16 places; no address of this site has a control character in it. The path and the query string
are checked here (a 400; the API answers 404 for an address, 422 naming a parameter); posted form fields are checked by
the forms (negotiations.forms.RefuseControlCharacters), which show the error next to the field
without losing the rest of what was typed.
"""

from urllib.parse import parse_qsl

from django.core.exceptions import BadRequest
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.i18n import header_language, said_in
from negotiations.bounds import has_control_characters

# What is wrong with a parameter holding one (the API's parameters with a pattern say the same: config.api).
CONTROL_CHARACTERS = gettext_noop("must not contain control characters (such as NUL)")


def refused_parameter(query_string: str) -> str | None:
    """The name of the first query parameter holding a control character ('' for one in a name)."""
    for name, value in parse_qsl(query_string, keep_blank_values=True):
        if has_control_characters(name, allow_line_breaks=False):
            return ""
        if has_control_characters(value):
            return name
    return None


class RefuseControlCharactersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query_string = request.META.get("QUERY_STRING", "")
        if has_control_characters(request.path, allow_line_breaks=False):
            parameter, where = None, "address"
        else:
            parameter = refused_parameter(query_string) if query_string else None
            where = "query" if parameter is not None else None
        if where is None:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            # (Before the language middleware: in the API's language, as config.i18n gives it.)
            language = header_language(request)
            with translation.override(language):
                if where == "address":  # no slug or code holds one: as for any unknown address
                    response = JsonResponse({"detail": _("Nothing at %(path)s: an address has no control characters.")
                                             % {"path": repr(request.path)}}, status=404)
                else:
                    response = JsonResponse({"detail": f"{parameter}: {_(CONTROL_CHARACTERS)}"}, status=422)
            return said_in(response, language)
        raise BadRequest("Control characters in the request's " + where)
