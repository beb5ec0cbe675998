"""Read pages rendered through the record cache: the page's own part is cached, the frame is not.

A cached page template defines two partials, ``title`` and ``content``, and shows them in its blocks
(``{% block title %}{{ page.title }}{% endblock %}``, ``{% block content %}{{ page.content }}{% endblock %}``).
They are rendered once per record version, address (path and query), permissions that change them,
htmx-ness and language; the frame around them (``base.html``: the reader's name, the CSRF token,
messages) is rendered for every request. So nothing cached names a reader, and the selectors run
only when the record has changed since the page was last rendered.
"""

from collections.abc import Callable, Iterable

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from negotiations import record_cache


def _key(request, template: str, region: str | None, perms: Iterable[str], vary: tuple = ()) -> tuple:
    return (
        *vary,
        template,
        region,
        request.get_full_path(),
        bool(getattr(request, "htmx", False)),
        tuple(request.user.has_perm(perm) for perm in perms),
    )


def render_page(
    request,
    template: str,
    build: Callable[[], dict],
    *,
    region: str | None = None,
    perms: Iterable[str] = (),
    cacheable: bool = True,
    vary: tuple = (),
) -> HttpResponse:
    """The page (or, with ``region``, that partial alone) from the context ``build()`` returns.

    ``build`` runs only when nothing is cached for this address at this record version; it may set
    ``status`` in the context it returns (a refused filter, say). ``perms`` lists the permissions the
    template's cached parts look at. An exception in ``build`` (Http404) is raised, not cached.
    ``cacheable=False`` renders afresh: for a reader whose part of the page carries a form with their
    CSRF token. ``vary`` names what else the page depends on besides the record (today's date, for a
    page that lists what is upcoming).
    """
    perms = tuple(perms)

    def rendered() -> dict:
        context = build()
        status = context.get("status", 200)
        if region:
            return {"content": render_to_string(f"{template}#{region}", context, request), "status": status}
        return {
            "title": mark_safe(render_to_string(f"{template}#title", context, request).strip()),
            "content": render_to_string(f"{template}#content", context, request),
            "status": status,
        }

    page = record_cache.cached(("page", *_key(request, template, region, perms, vary)), rendered) if cacheable else rendered()
    if region:
        return HttpResponse(page["content"], status=page["status"])
    return render(request, template, {"page": page}, status=page["status"])
