from django.shortcuts import render
from django.utils import timezone

from negotiations import selectors
from negotiations.cached_pages import render_page
from negotiations.selectors.overview import home_page

UPCOMING = 5
LATEST_MEETINGS = 8


def home(request):
    today = timezone.localdate()

    def build():
        negotiation = selectors.default_negotiation()
        if negotiation is None:
            return {"today": today, "negotiation": None}
        page = home_page(negotiation=negotiation, today=today, upcoming=UPCOMING, latest=LATEST_MEETINGS)
        return {
            "today": today,
            "negotiation": negotiation,
            "upcoming": page.upcoming,
            "key_dates": page.key_dates,
            "jurisdictions": page.jurisdictions,
            "offers": page.offers,
            "meetings": page.meetings,
        }

    return render_page(request, "negotiations/home.html", build, params=(), vary=(today,))


def jurisdiction_list(request):
    negotiation = selectors.default_negotiation()
    context = {
        "negotiation": negotiation,
        "jurisdictions": selectors.jurisdictions_with_current_stance(negotiation=negotiation),
    }
    return render(request, "negotiations/jurisdiction_list.html", context)
