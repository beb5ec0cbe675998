from django.shortcuts import render

from negotiations import selectors
from negotiations.cached_pages import render_page


def home(request):
    def build():
        negotiation = selectors.default_negotiation()
        return {
            "negotiation": negotiation,
            "negotiations": selectors.negotiation_list(),
            "jurisdictions": selectors.jurisdictions_with_current_stance(negotiation=negotiation),
            "offers": selectors.offer_list(negotiation=negotiation),
            "meetings": selectors.latest_meetings(negotiation=negotiation),
        }

    return render_page(request, "negotiations/home.html", build, params=())


def jurisdiction_list(request):
    negotiation = selectors.default_negotiation()
    context = {
        "negotiation": negotiation,
        "jurisdictions": selectors.jurisdictions_with_current_stance(negotiation=negotiation),
    }
    return render(request, "negotiations/jurisdiction_list.html", context)
