"""A negotiation's calendar as iCalendar (RFC 5545), for calendar programs to subscribe to.

A date known to the day or more roughly is an all-day event; a key date with a time is a timed event
in Ottawa's time zone. Each event's UID is stable (`meeting-<slug>@<host>`), and its SEQUENCE,
LAST-MODIFIED and DTSTAMP come from the row's history, so an edited meeting replaces the copy a
calendar already has instead of appearing twice, and the same record always gives the same file.
"""

import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from config.i18n import language_tag
from negotiations import bounds
from negotiations.calendar_dates import CalendarDate
from negotiations.models import DatePrecision, Negotiation

PRODID = "-//FPT Negotiations Tracker//Calendar//EN"
# An event's length when only its start time is known.
TIMED_LENGTH = datetime.timedelta(hours=1)

_PRECISION_NOTE = {
    DatePrecision.MONTH: gettext_lazy("The date is known only to the month."),
    DatePrecision.YEAR: gettext_lazy("The date is known only to the year."),
    DatePrecision.APPROXIMATE: gettext_lazy("The date is approximate."),
}


def calendar_bytes(*, negotiation: Negotiation, dates: list[CalendarDate], host: str, base_url: str) -> bytes:
    """The iCalendar file of `dates`, its words in the current language (French under /fr/); `base_url`
    (scheme and host) makes the events' links absolute."""
    zone = ZoneInfo(settings.TIME_ZONE)
    # Each text says its language (RFC 5545's LANGUAGE parameter): en-CA, or fr-CA under /fr/.
    words = {"LANGUAGE": language_tag(get_language())}
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", _("%(negotiation)s: meetings and key dates") % {"negotiation": negotiation.title},
                 parameters=words)
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    for item in dates:
        if not bounds.date_in_range(item.date):
            # Only a row written past the forms' and the database's checks can be here: a calendar
            # program has no use for it, and the day after 9999-12-31 cannot be written.
            continue
        calendar.add_component(_event(item, host=host, base_url=base_url, zone=zone, words=words))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(item: CalendarDate, *, host: str, base_url: str, zone: ZoneInfo, words: dict) -> Event:
    event = Event()
    event.add("uid", f"{item.uid_key}@{host}")
    event.add("summary", item.title, parameters=words)
    if item.time is not None and item.date_precision == DatePrecision.DAY:
        start = datetime.datetime.combine(item.date, item.time, tzinfo=zone)
        event.add("dtstart", start)
        event.add("dtend", start + TIMED_LENGTH)
    else:
        event.add("dtstart", item.date)
        event.add("dtend", item.date + datetime.timedelta(days=1))
        event.add("transp", "TRANSPARENT")  # an all-day marker does not make anyone busy
    description = [item.kind_label.capitalize() + ".", item.description]
    note = _PRECISION_NOTE.get(item.date_precision)
    if note:
        description.append(str(note))
    event.add("description", "\n\n".join(part for part in description if part), parameters=words)
    event.add("categories", [item.kind_label], parameters=words)
    if item.location:
        event.add("location", item.location)
    event.add("url", f"{base_url}{item.url}")
    changed = item.last_modified or datetime.datetime.combine(item.date, datetime.time.min, tzinfo=datetime.UTC)
    event.add("sequence", item.sequence)
    event.add("last-modified", changed.astimezone(datetime.UTC))
    # DTSTAMP is when this copy of the event was last revised: the row's last change, so that the same
    # record gives the same file (and the cached file stays right until the record changes).
    event.add("dtstamp", changed.astimezone(datetime.UTC))
    return event
