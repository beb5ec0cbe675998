"""The stance matrix of a negotiation and the evidence behind one of its cells."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.vary import vary_on_headers

from negotiations import stances
from negotiations.models import Jurisdiction, Negotiation

TEMPLATE = "negotiations/stances.html"


def matrix(request, slug):
    negotiation = get_object_or_404(Negotiation, slug=slug)
    context = {"matrix": stances.stance_matrix(negotiation=negotiation), "legend": stances.LEGEND}
    return render(request, TEMPLATE, context)


@vary_on_headers("HX-Request")
def cell(request, slug, code, month):
    """One cell's evidence: the side panel for htmx, otherwise the whole matrix with the panel filled."""
    negotiation = get_object_or_404(Negotiation, slug=slug)
    jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
    context = {"legend": stances.LEGEND}
    status = 200
    try:
        first_day = stances.parse_month(month)
    except ValueError:
        context["month_error"] = _("“%(month)s” is not a month. Write it as YYYY-MM, such as 2013-11.") % {
            "month": month
        }
        status = 400
    else:
        context["evidence"] = stances.stance_cell_evidence(
            negotiation=negotiation, jurisdiction=jurisdiction, month=first_day
        )
    if request.htmx and not request.htmx.history_restore_request:
        return render(request, f"{TEMPLATE}#evidence", context, status=status)
    context["matrix"] = stances.stance_matrix(negotiation=negotiation)
    return render(request, TEMPLATE, context, status=status)
