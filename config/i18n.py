"""The two official languages: which one a request is in, and where the same page is in the other.

Pages are in English at their own addresses and in French under /fr/ (config.urls, i18n_patterns
without a prefix for English). The API (/api/) has no prefix: it answers in the language that the
Accept-Language header asks for.
"""

from django.conf import settings
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language

# Unprefixed addresses whose language comes from the Accept-Language header.
HEADER_LANGUAGE_PREFIXES = ("/api/",)


class HeaderLanguageMiddleware:
    """Under /api/, activate the language of Accept-Language (LocaleMiddleware gives unprefixed paths English)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(HEADER_LANGUAGE_PREFIXES):
            return self.get_response(request)
        language = header_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return said_in(self.get_response(request), language)


def header_language(request) -> str:
    """The language an address without a language prefix (the API) answers in: what Accept-Language asks for."""
    return translation.get_language_from_request(request, check_path=False)


def said_in(response, language: str):
    """``response``, saying which language it is in and that it depends on Accept-Language."""
    response.headers.setdefault("Content-Language", language)
    vary = response.headers.get("Vary", "")
    if "accept-language" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Language" if vary else "Accept-Language"
    return response


class Alternate:
    """The same page in one language: its code, its name in that language, its address."""

    def __init__(self, code: str, name: str, url: str, absolute: str):
        self.code, self.name, self.url, self.absolute = code, name, url, absolute


def _in_language(request, path: str, code: str) -> str:
    """The request's address in language ``code`` (what ``translate_url`` gives), reversed from the URL
    pattern the request was resolved to instead of resolving its path again for each language."""
    match = request.resolver_match
    if match is None or match.url_name is None:  # a page no pattern answered (a 404, say)
        return translate_url(path, code)
    # perf: one resolve per request, not one more per language (every page's frame; bench/run's read
    # pages with the cache on, where the frame is what is rendered).
    try:
        with translation.override(code):
            url = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
    except NoReverseMatch:
        return path
    query = request.META.get("QUERY_STRING", "")
    return f"{url}?{path.partition('?')[2]}" if query else url


def _alternates(request) -> dict:
    current = get_language()
    path = request.get_full_path()
    links = []
    for code, name in settings.LANGUAGES:
        url = _in_language(request, path, code)
        links.append(Alternate(code, name, url, request.build_absolute_uri(url)))
    other = next((link for link in links if link.code != current), links[0])
    default = next(link for link in links if link.code == settings.LANGUAGE_CODE)
    return {"all": links, "other": other, "default": default}


def alternates(request) -> dict:
    """Context processor: ``alternates.all`` (hreflang links), ``.other`` (the toggle), ``.default`` (x-default)."""
    return {"alternates": SimpleLazyObject(lambda: _alternates(request))}


# The languages of what the site publishes, as tags for feeds and calendars: Canadian English and French.
LANGUAGE_TAGS = {"en": "en-CA", "fr": "fr-CA"}


def language_tag(code: str) -> str:
    """The published language tag of one of settings.LANGUAGES (``fr`` -> ``fr-CA``)."""
    return LANGUAGE_TAGS.get(code, code)
