"""The briefing of a negotiation or of a jurisdiction: a page to print, a PDF and a Word document.

`?since=YYYY-MM-DD` picks the date from which changes are listed. A date that is not one is explained next
to the field and left out, as a bad filter is on the rest of the site: the page shows the brief of the
default period (a month before the latest event) and links to its files without that date. A file asked
with such a date is not made (a file cannot carry the message, and its period would not be the one asked
for): the answer is that page, 400. Each format is kept
in the record cache per path and the parameters it reads (``since``, ``negotiation``) until the record changes.
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
from briefings.forms import BriefingForm
from negotiations import record_cache, selectors
from negotiations.cached_pages import query_key, render_page
from negotiations.models import Jurisdiction, Negotiation

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _subject(*, slug: str | None, code: str | None, form: BriefingForm):
    """(negotiation, jurisdiction) named by the address; 404 for an unknown one."""
    if code is None:
        return get_object_or_404(Negotiation, slug=slug), None
    jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
    chosen = form.data.get("negotiation")
    negotiation = Negotiation.objects.filter(slug=chosen).first() if chosen else selectors.default_negotiation()
    if negotiation is None:
        raise Http404(_("No negotiation is recorded under this address."))
    return negotiation, jurisdiction


def _form(request) -> BriefingForm:
    """The form, checked: a field that is not valid is left out of ``cleaned_data`` (``since``: the default period)."""
    form = BriefingForm(request.GET)
    form.is_valid()
    return form


def _urls(request, *, slug, code, form: BriefingForm) -> dict:
    # Only what the brief reads: the page is kept per those (any other query string is served the same entry);
    # a value refused (a date that is not one) is left out, so the links give the brief the page shows.
    kept = [(name, values) for name, values in query_key(request, BriefingForm.base_fields) if name not in form.errors]
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
        form = _form(request)
        negotiation, jurisdiction = _subject(slug=slug, code=code, form=form)
        return {
            "form": form,
            "brief": briefs.brief(negotiation=negotiation, jurisdiction=jurisdiction,
                                  since=form.cleaned_data.get("since")),
            **_urls(request, slug=slug, code=code, form=form),
            "status": status,
        }

    return render_page(request, "briefings/brief.html", build, params=BriefingForm.base_fields)


def _file(request, *, slug=None, code=None, kind: str):
    form = _form(request)
    if "since" in form.errors:
        # The page, 400: the message next to the date, the brief of the default period and its files' links.
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
    key = ("brief", kind, request.get_host(), request.path, query_key(request, BriefingForm.base_fields))
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
