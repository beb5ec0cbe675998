from django.shortcuts import render
from django.utils import timezone

from negotiations import calendar_dates, selectors
from negotiations.cached_pages import render_page

UPCOMING = 5


def home(request):
    today = timezone.localdate()

    def build():
        negotiation = selectors.default_negotiation()
        return {
            "today": today,
            "upcoming": calendar_dates.calendar_dates(negotiation=negotiation, date_from=today, limit=UPCOMING)
            if negotiation else [],
            "key_dates": calendar_dates.key_dates(negotiation=negotiation) if negotiation else [],
            "negotiation": negotiation,
            "negotiations": selectors.negotiation_list(),
            "jurisdictions": selectors.jurisdictions_with_current_stance(negotiation=negotiation),
            "offers": selectors.offer_list(negotiation=negotiation),
            "meetings": selectors.latest_meetings(negotiation=negotiation),
        }

    return render_page(request, "negotiations/home.html", build, perms=["negotiations.add_offer"],
                       vary=(today,))


def jurisdiction_list(request):
    negotiation = selectors.default_negotiation()
    context = {
        "negotiation": negotiation,
        "jurisdictions": selectors.jurisdictions_with_current_stance(negotiation=negotiation),
    }
    return render(request, "negotiations/jurisdiction_list.html", context)
