"""The stance matrix of a negotiation and the evidence behind one of its cells."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.vary import vary_on_headers

from negotiations import stances
from negotiations.cached_pages import render_page
from negotiations.models import Jurisdiction, Negotiation

TEMPLATE = "negotiations/stances.html"


def matrix(request, slug):
    def build():
        negotiation = get_object_or_404(Negotiation, slug=slug)
        return {"matrix": stances.stance_matrix(negotiation=negotiation), "legend": stances.LEGEND}

    return render_page(request, TEMPLATE, build, params=())


@vary_on_headers("HX-Request")
def cell(request, slug, code, month):
    """One cell's evidence: the side panel for htmx, otherwise the whole matrix with the panel filled."""
    wants_panel = bool(request.htmx) and not request.htmx.history_restore_request

    def build():
        negotiation = get_object_or_404(Negotiation, slug=slug)
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
        return context

    return render_page(request, TEMPLATE, build, region="evidence" if wants_panel else None, params=())
