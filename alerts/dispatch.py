"""Fanning events out: which readers each new event is owed to, and when it is due.

An event goes to every follow that matches it and existed when the event was recorded (following
something is no request for its past). A reader who follows an event by several routes gets it
once (one Delivery per reader and event, a database constraint), on the quickest of their
frequencies. Fanning out is idempotent: two runs doing it at once make the same rows once.
"""

import datetime
from collections import defaultdict
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction

from alerts.models import AlertEvent, Delivery, Follow
from negotiations import search as record_search
from negotiations.models import Jurisdiction, Offer

BATCH = 500


def daily_due(moment: datetime.datetime) -> datetime.datetime:
    """When a daily digest holding an event recorded at `moment` is due: the next ALERTS_DAILY_HOUR
    (local time) after it."""
    zone = ZoneInfo(settings.TIME_ZONE)
    local = moment.astimezone(zone)
    due = local.replace(hour=settings.ALERTS_DAILY_HOUR, minute=0, second=0, microsecond=0)
    if due <= local:
        due += datetime.timedelta(days=1)
    return due


def fan_out() -> int:
    """Make the deliveries of every event not yet fanned out; returns how many events were handled."""
    handled = 0
    while True:
        with transaction.atomic():
            events = AlertEvent.objects.filter(fanned_out=False).order_by("pk")
            if connection.vendor == "postgresql":
                events = events.select_for_update(skip_locked=True, of=("self",))
            events = list(events[:BATCH])
            if not events:
                return handled
            Delivery.objects.bulk_create(_deliveries(events), ignore_conflicts=True)
            AlertEvent.objects.filter(pk__in=[event.pk for event in events]).update(fanned_out=True)
            handled += len(events)


def _deliveries(events: list[AlertEvent]) -> list[Delivery]:
    follows = list(Follow.objects.all())  # bounded by readers × their follows; read once per batch
    by_negotiation, by_jurisdiction, by_person = defaultdict(list), defaultdict(list), defaultdict(list)
    searches = defaultdict(list)
    for follow in follows:
        if follow.negotiation_id:
            by_negotiation[follow.negotiation_id].append(follow)
        elif follow.jurisdiction_id:
            by_jurisdiction[follow.jurisdiction_id].append(follow)
        elif follow.person_id:
            by_person[follow.person_id].append(follow)
        else:
            searches[follow.query].append(follow)

    offer_ids = [event.offer_id for event in events if event.offer_id]
    tabled = defaultdict(set)
    federal = set(Jurisdiction.objects.filter(kind=Jurisdiction.Kind.FEDERAL).values_list("pk", flat=True))
    for offer_id, jurisdiction_id in Offer.tabled_by.through.objects.filter(offer_id__in=offer_ids).values_list(
            "offer_id", "jurisdiction_id"):
        tabled[offer_id].add(jurisdiction_id)
    found = _search_matches(searches, events)

    owed: dict[tuple[int, int], tuple[Follow, datetime.datetime]] = {}
    for event in events:
        matches = list(by_negotiation[event.negotiation_id])
        if event.kind == AlertEvent.Kind.OFFER:
            tablers = tabled[event.offer_id]
            # An offer from Ottawa concerns every province and territory; a P/T's offer, those who tabled it.
            for jurisdiction_id, followers in by_jurisdiction.items():
                if jurisdiction_id in tablers or tablers & federal:
                    matches.extend(followers)
        elif event.jurisdiction_id:
            matches.extend(by_jurisdiction[event.jurisdiction_id])
        if event.person_id:
            matches.extend(by_person[event.person_id])
        for query, followers in searches.items():
            if event.pk in found[query]:
                matches.extend(followers)
        for follow in matches:
            if follow.created_at > event.created_at:
                continue
            due = event.created_at if follow.frequency == Follow.Frequency.IMMEDIATE else daily_due(event.created_at)
            key = (follow.user_id, event.pk)
            if key not in owed or due < owed[key][1]:
                owed[key] = (follow, due)
    return [
        Delivery(user_id=user_id, event_id=event_id, follow=follow, due_at=due)
        for (user_id, event_id), (follow, due) in owed.items()
    ]


def _search_matches(searches: dict[str, list[Follow]], events: list[AlertEvent]) -> dict[str, set[int]]:
    """Event ids each saved search finds among the batch's statements and offers (two queries a search)."""
    by_statement = {event.statement_id: event.pk for event in events if event.statement_id}
    by_offer = {event.offer_id: event.pk for event in events if event.offer_id}
    found: dict[str, set[int]] = {}
    for query in searches:
        statements = record_search.matching_pks(query=query, kind="statements", pks=by_statement) if by_statement else set()
        offers = record_search.matching_pks(query=query, kind="offers", pks=by_offer) if by_offer else set()
        found[query] = {by_statement[pk] for pk in statements} | {by_offer[pk] for pk in offers}
    return found
