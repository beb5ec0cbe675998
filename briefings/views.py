"""The briefing of a negotiation or of a jurisdiction: a page to print, a PDF and a Word document.

`?since=YYYY-MM-DD` picks the date from which changes are listed; a jurisdiction's brief also takes
`?negotiation=<slug>` (by default the latest started). A value that is not one (a date that is no date, a slug
no negotiation has) is explained next to its field and left out, as a bad filter is on the rest of the site:
the page shows the brief as without it (the default period, the default negotiation) and links to its files
without it. A file asked with such a value is not made (a file cannot carry the message, and it would not be
the brief asked for): the answer is that page, 400. Each format is kept in the record cache per path and the
parameters it reads (``since``, and ``negotiation`` for a jurisdiction) until the record changes.
"""

from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from briefings import brief as briefs
from briefings import docx, pdf
from briefings.forms import BriefingForm, JurisdictionBriefingForm
from negotiations import record_cache, selectors
from negotiations.cached_pages import query_key, render_page
from negotiations.models import Jurisdiction, Negotiation

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _subject(*, slug: str | None, code: str | None, form: BriefingForm):
    """(negotiation, jurisdiction) named by the address; 404 for an unknown one. A jurisdiction's negotiation is
    the form's (an unknown one was refused there, next to its field: the default's brief is shown)."""
    if code is None:
        return get_object_or_404(Negotiation, slug=slug), None
    jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
    negotiation = form.chosen_negotiation
    if negotiation is None:
        raise Http404(_("No negotiation is recorded under this address."))
    return negotiation, jurisdiction


def _fields(code: str | None) -> dict:
    """The query parameters the brief reads: a negotiation's reads ``since``, a jurisdiction's its negotiation too."""
    return (BriefingForm if code is None else JurisdictionBriefingForm).base_fields


def _form(request, *, code: str | None) -> BriefingForm:
    """The form, checked: a field that is not valid is left out of ``cleaned_data`` (``since``: the default
    period; ``negotiation``: the default negotiation)."""
    if code is None:
        form = BriefingForm(request.GET)
    else:
        form = JurisdictionBriefingForm(request.GET, negotiations=list(selectors.negotiation_list()))
    form.is_valid()
    return form


def _urls(request, *, slug, code, form: BriefingForm) -> dict:
    # Only what the brief reads: the page is kept per those (any other query string is served the same entry);
    # a value refused (a date that is not one, an unknown negotiation) is left out, so the links give the brief
    # the page shows.
    kept = [(name, values) for name, values in query_key(request, _fields(code)) if name not in form.errors]
    query = f"?{urlencode([(name, value) for name, values in kept for value in values])}" if kept else ""
    if code is None:
        return {"page_url": reverse("briefings:negotiation", args=[slug]),
                "pdf_url": reverse("briefings:negotiation_pdf", args=[slug]) + query,
                "docx_url": reverse("briefings:negotiation_docx", args=[slug]) + query}
    return {"page_url": reverse("briefings:jurisdiction", args=[code.upper()]),
            "pdf_url": reverse("briefings:jurisdiction_pdf", args=[code.upper()]) + query,
            "docx_url": reverse("briefings:jurisdiction_docx", args=[code.upper()]) + query}


def _page(request, *, slug=None, code=None, status: int = 200):
    def build() -> dict:
        form = _form(request, code=code)
        negotiation, jurisdiction = _subject(slug=slug, code=code, form=form)
        return {
            "form": form,
            "brief": briefs.brief(negotiation=negotiation, jurisdiction=jurisdiction,
                                  since=form.cleaned_data.get("since")),
            **_urls(request, slug=slug, code=code, form=form),
            "status": status,
        }

    return render_page(request, "briefings/brief.html", build, params=_fields(code))


def _file(request, *, slug=None, code=None, kind: str):
    form = _form(request, code=code)
    if form.errors:
        # The page, 400: the message next to the field, the brief as without that value and its files' links.
        return _page(request, slug=slug, code=code, status=400)
    if kind == "pdf" and pdf.missing():
        return render(request, "briefings/unavailable.html", {"reason": pdf.missing(), **_urls(
            request, slug=slug, code=code, form=form)}, status=503)

    def build() -> bytes:
        negotiation, jurisdiction = _subject(slug=slug, code=code, form=form)
        brief = briefs.brief(negotiation=negotiation, jurisdiction=jurisdiction, since=form.cleaned_data.get("since"))
        if kind == "docx":
            return docx.docx_bytes(brief)
        address = request.build_absolute_uri(request.path.removesuffix(".pdf"))
        html = render_to_string("briefings/brief_print.html", {"brief": brief, "address": address}, request)
        return pdf.pdf_bytes(html, base_url=request.build_absolute_uri("/"))

    # Keyed on what the brief reads, as its page is, not the address: "?a=1", "?a=2"… each made a new PDF (0.3-0.7 s).
    key = ("brief", kind, request.get_host(), request.path, query_key(request, _fields(code)))
    content = record_cache.cached(key, build)
    word = pgettext("a file name", "briefing")
    name = f"{slug or code.upper()}-{word}"
    if kind == "pdf":
        response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    else:
        response = HttpResponse(content, content_type=DOCX_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{name}.docx"'
    return response


@require_safe
def negotiation_html(request, slug):
    return _page(request, slug=slug)


@require_safe
def negotiation_pdf(request, slug):
    return _file(request, slug=slug, kind="pdf")


@require_safe
def negotiation_docx(request, slug):
    return _file(request, slug=slug, kind="docx")


@require_safe
def jurisdiction_html(request, code):
    return _page(request, code=code)


@require_safe
def jurisdiction_pdf(request, code):
    return _file(request, code=code, kind="pdf")


@require_safe
def jurisdiction_docx(request, code):
    return _file(request, code=code, kind="docx")
