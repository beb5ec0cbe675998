"""Read pages rendered through the record cache: the page's own part is cached, the frame is not.

A cached page template defines the partials ``title``, ``content`` and, where it adds to the head,
``head``, and shows them in its blocks (``{% block title %}{{ page.title }}{% endblock %}``,
``{% block head %}{{ page.head }}{% endblock %}``, ``{% block content %}{{ page.content }}{% endblock %}``).
They are rendered once per record version, path, the query parameters the page understands, the
reader's whole set of permissions (whatever ``{% if perms.… %}`` a template may add), htmx-ness and
language; the frame around them (``base.html``: the reader's name, the CSRF token,
messages) is rendered for every request. So nothing cached names a reader, and the selectors run
only when the record has changed since the page was last rendered.
"""

import hashlib
from collections.abc import Callable, Iterable
from contextlib import contextmanager

from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe

from negotiations import record_cache


def _permissions(user) -> str:
    """The reader's whole set of permissions, as a short digest (anonymous readers and readers with
    the same permissions share their entries)."""
    if not user.is_authenticated:
        return ""
    names = sorted(user.get_all_permissions())
    return hashlib.blake2b("\n".join(names).encode(), digest_size=8).hexdigest()


def query_key(request, params: Iterable[str] | None) -> tuple | str:
    """What of the query string goes into the key: the parameters the page understands, in a fixed
    order; any other parameter makes no new entry. ``None``: the whole query string."""
    if params is None:
        return request.META.get("QUERY_STRING", "")
    return tuple((name, tuple(request.GET.getlist(name))) for name in params if name in request.GET)


@contextmanager
def _reading_only(request, params: tuple[str, ...] | None):
    """While a page is built and rendered, its request's query holds only the parameters its key holds: what the
    page reads is what it is kept under. A parameter a page reads but does not name is then not read at all, where
    it was kept under the first value asked and served to every reader (the comparison's fiscal year)."""
    if params is None:
        yield
        return
    query = request.GET
    kept = QueryDict(mutable=True)
    for name in params:
        if name in query:
            kept.setlist(name, query.getlist(name))
    kept._mutable = False
    request.GET = kept
    try:
        yield
    finally:
        request.GET = query


def _key(request, template: str, region: str | None, params: Iterable[str] | None, vary: tuple = ()) -> tuple:
    return (
        *vary,
        template,
        region,
        request.path,
        query_key(request, params),
        bool(getattr(request, "htmx", False)),
        _permissions(request.user),
    )


def _head(template: str, context: dict, request) -> str:
    """The page's ``head`` partial rendered, or nothing for a page that adds nothing to the head."""
    try:
        head = get_template(f"{template}#head")
    except TemplateDoesNotExist:
        return ""
    return head.render(context, request)


def render_page(
    request,
    template: str,
    build: Callable[[], dict],
    *,
    region: str | None = None,
    params: Iterable[str] | None = None,
    cacheable: bool = True,
    vary: tuple = (),
) -> HttpResponse:
    """The page (or, with ``region``, that partial alone) from the context ``build()`` returns.

    ``build`` runs only when nothing is cached for this address at this record version; it may set
    ``status`` in the context it returns (a refused filter, say). ``params`` names the query
    parameters the page reads (``()`` for none): only they go into the cache key, so an address
    with any other query string is served the same entry. Left ``None``, the whole query string is
    part of the key (safe for a page whose parameters are not listed). An exception in ``build`` (Http404) is raised, not cached.
    ``cacheable=False`` renders afresh: for a reader whose part of the page carries a form with their
    CSRF token. ``vary`` names what else the page depends on besides the record (today's date, for a
    page that lists what is upcoming).
    """
    params = None if params is None else tuple(params)

    def rendered() -> dict:
        with _reading_only(request, params):
            context = build()
            status = context.get("status", 200)
            if region:
                return {"content": render_to_string(f"{template}#{region}", context, request), "status": status}
            return {
                "title": mark_safe(render_to_string(f"{template}#title", context, request).strip()),
                # perf: the head's stylesheets, scripts and feed links are kept with the page, not rendered
                # per request (bench/run's read pages: 0.1-0.2 ms of a cached timeline's, matrix's or fiscal
                # page's ~2 ms in one process).
                "head": _head(template, context, request),
                "content": render_to_string(f"{template}#content", context, request),
                "status": status,
            }

    page = record_cache.cached(("page", *_key(request, template, region, params, vary)), rendered) if cacheable else rendered()
    if region:
        return HttpResponse(page["content"], status=page["status"])
    return render(request, template, {"page": page}, status=page["status"])
