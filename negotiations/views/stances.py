"""The stance matrix of a negotiation and the evidence behind one of its cells."""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.vary import vary_on_headers

from negotiations import selectors, stances
from negotiations.cached_pages import render_page
from negotiations.models import Jurisdiction, Negotiation
from negotiations.selectors import verdicts

TEMPLATE = "negotiations/stances.html"


def current_matrix(request):
    """The main menu's "Stances": the matrix of the current negotiation."""
    negotiation = selectors.default_negotiation()
    if negotiation is None:
        raise Http404(_("No negotiation is recorded yet."))
    return redirect("negotiations:stances", slug=negotiation.slug)


def matrix(request, slug):
    def build():
        negotiation = get_object_or_404(stances.matrix_negotiations(), slug=slug)
        matrix = stances.stance_matrix(negotiation=negotiation)
        return {"matrix": matrix, "legend": stances.LEGEND,
                **_offers_and_verdicts(negotiation, matrix.months, request.GET.get("offer", ""))}

    return render_page(request, TEMPLATE, build, params=("offer",))


def _offers_and_verdicts(negotiation, months, slug: str) -> dict:
    """Each offer marked in its month, and for the offer chosen (``?offer=``), who would sign it."""
    by_month = verdicts.offers_by_month(negotiation.pk)
    context = {
        "offer_marks": [by_month.get((month.year, month.month), []) for month in months],
        "offer_choices": [mark for marks in by_month.values() for mark in marks],
        "chosen_offer": None, "acceptance": None, "offer_error": None,
    }
    if slug:
        offer = verdicts.offer_with_term_rows(slug=slug, negotiation_id=negotiation.pk)
        if offer is None:
            context["offer_error"] = _("No offer of this negotiation is recorded as “%(slug)s”; choose one in the list.") % {
                "slug": slug}
            context["status"] = 400
        else:
            context["chosen_offer"] = offer
            context["acceptance"] = verdicts.offer_acceptance(offer)
    return context


@vary_on_headers("HX-Request")
def cell(request, slug, code, month):
    """One cell's evidence: the side panel for htmx, otherwise the whole matrix with the panel filled."""
    wants_panel = bool(request.htmx) and not request.htmx.history_restore_request

    def build():
        # The whole page's matrix reads its months with the negotiation; the panel alone needs no months.
        negotiations = Negotiation.objects.all() if wants_panel else stances.matrix_negotiations()
        negotiation = get_object_or_404(negotiations, slug=slug)
        jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
        context = {"legend": stances.LEGEND}
        try:
            first_day = stances.parse_month(month)
        except ValueError:
            context["month_error"] = _("“%(month)s” is not a month. Write it as YYYY-MM, such as 2013-11.") % {
                "month": month
            }
            context["status"] = 400
        else:
            context["evidence"] = stances.stance_cell_evidence(
                negotiation=negotiation, jurisdiction=jurisdiction, month=first_day
            )
        if not wants_panel:
            context["matrix"] = stances.stance_matrix(negotiation=negotiation)
            context.update({**_offers_and_verdicts(negotiation, context["matrix"].months, ""), **context})
        return context

    return render_page(request, TEMPLATE, build, region="evidence" if wants_panel else None, params=())
