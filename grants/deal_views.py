"""Pages of where the deal is, on the fiscal side: what every offer would cost one government.

The jurisdiction page (negotiations) loads the region here into itself, as the offer page loads
the fiscal summary: ``negotiations`` never imports ``grants``.
"""

from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from grants import deal
from grants.views import _render
from negotiations.models import Jurisdiction, Negotiation


@require_safe
def jurisdiction_offers(request, code):
    """Every offer of the negotiation (``?negotiation=``, else all) as it falls on one P/T: a fragment."""

    def build():
        jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
        slug = request.GET.get("negotiation", "")
        negotiation = Negotiation.objects.filter(slug=slug).first() if slug else None
        context = {"jurisdiction": jurisdiction, "negotiation": negotiation, "costs": None}
        if slug and negotiation is None:
            context["problem"] = slug
            context["status"] = 400
        elif not jurisdiction.is_federal:
            context["costs"] = deal.costs_to_jurisdiction(jurisdiction=jurisdiction, negotiation=negotiation)
        return context

    return _render(request, "grants/jurisdiction_offers.html", "region", build, always_region=True)
