"""Reads of the record that several pages share. Each owns its joins, so query counts stay flat."""

import datetime
from collections.abc import Sequence

from django.db.models import Prefetch

from negotiations.models import Jurisdiction, Negotiation, Offer, Position


def negotiation_list():
    return Negotiation.objects.all()


def default_negotiation() -> Negotiation | None:
    """The negotiation a page shows when none is named: the most recently started one."""
    return Negotiation.objects.first()


def jurisdictions_with_current_stance(*, negotiation: Negotiation | None) -> list[Jurisdiction]:
    """Every jurisdiction with `.current_position` set to its latest position on the negotiation (or None),
    and `.stance_since`: when the current stance began, the first position of the latest run of
    positions with that stance.

    Three queries whatever the number of positions.
    """
    jurisdictions = list(Jurisdiction.objects.all())
    if negotiation is None:
        for jurisdiction in jurisdictions:
            jurisdiction.current_position = None
        return jurisdictions
    # perf: one query of four columns gives each jurisdiction's positions newest first, the first
    # being its current one, instead of a query for the current ones and another for the runs
    # (bench/run "record cache off: home").
    history: dict[int, list[tuple[int, str, object]]] = {}
    rows = (Position.objects.filter(negotiation=negotiation).order_by("jurisdiction_id", "-as_of", "-pk")
            .values_list("jurisdiction_id", "pk", "stance", "as_of"))
    for jurisdiction_id, pk, stance, as_of in rows:
        history.setdefault(jurisdiction_id, []).append((pk, stance, as_of))
    positions = Position.objects.in_bulk([own[0][0] for own in history.values()])
    for jurisdiction in jurisdictions:
        own = history.get(jurisdiction.pk, [])
        jurisdiction.current_position = positions.get(own[0][0]) if own else None
        jurisdiction.stance_since = stance_since([(stance, as_of) for _pk, stance, as_of in own])
    return jurisdictions


def stance_since(newest_first: Sequence[tuple[str, datetime.date]]) -> datetime.date | None:
    """When the current stance began: the date of the first position of the latest run of positions
    with the same stance, given (stance, date) of one jurisdiction's positions newest first."""
    since = None
    for stance, as_of in newest_first:
        if stance != newest_first[0][0]:
            break
        since = as_of
    return since


def offer_list(*, negotiation: Negotiation | None = None, status: str | None = None,
               tabled_by: str | None = None):
    """Offers, newest first, with who tabled them and what they answer (three queries)."""
    offers = Offer.objects.select_related("negotiation", "responds_to").prefetch_related(
        Prefetch("tabled_by", queryset=Jurisdiction.objects.only("code", "name", "order"))
    )
    if negotiation is not None:
        offers = offers.filter(negotiation=negotiation)
    if status:
        offers = offers.filter(status=status)
    if tabled_by:
        offers = offers.filter(tabled_by__code=tabled_by)
    return offers

