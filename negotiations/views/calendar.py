"""A negotiation's meetings and key dates as an iCalendar feed."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from negotiations import calendar_dates, ical, record_cache
from negotiations.models import Negotiation


@require_safe
def calendar(request, slug):
    def build() -> bytes:
        negotiation = get_object_or_404(Negotiation, slug=slug)
        return ical.calendar_bytes(
            negotiation=negotiation,
            dates=calendar_dates.calendar_dates(negotiation=negotiation),
            host=request.get_host().split(":")[0],
            base_url=f"{request.scheme}://{request.get_host()}",
        )

    content = record_cache.cached(("calendar", request.scheme, request.get_host(), slug), build)
    response = HttpResponse(content, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{slug}.ics"'
    return response
