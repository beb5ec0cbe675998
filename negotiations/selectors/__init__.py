"""Reads of the record that several pages share. Each owns its joins, so query counts stay flat."""

from django.db.models import OuterRef, Prefetch, Subquery

from negotiations.models import Jurisdiction, Meeting, Negotiation, Offer, Position


def negotiation_list():
    return Negotiation.objects.all()


def default_negotiation() -> Negotiation | None:
    """The negotiation a page shows when none is named: the most recently started one."""
    return Negotiation.objects.first()


def jurisdictions_with_current_stance(*, negotiation: Negotiation | None) -> list[Jurisdiction]:
    """Every jurisdiction with `.current_position` set to its latest position on the negotiation (or None).

    Two queries whatever the number of positions.
    """
    jurisdictions = list(Jurisdiction.objects.all())
    if negotiation is None:
        for jurisdiction in jurisdictions:
            jurisdiction.current_position = None
        return jurisdictions
    latest = Position.objects.filter(negotiation=negotiation, jurisdiction=OuterRef("pk")).order_by("-as_of", "-pk")
    ids = dict(
        Jurisdiction.objects.annotate(latest_id=Subquery(latest.values("pk")[:1])).values_list("pk", "latest_id")
    )
    positions = Position.objects.in_bulk([pk for pk in ids.values() if pk])
    for jurisdiction in jurisdictions:
        jurisdiction.current_position = positions.get(ids.get(jurisdiction.pk))
    _set_stance_since(jurisdictions, negotiation)
    return jurisdictions


def _set_stance_since(jurisdictions: list[Jurisdiction], negotiation: Negotiation) -> None:
    """``.stance_since``: when the current stance began, the first position of the latest run of
    positions with that stance (one query)."""
    history: dict[int, list[tuple[str, object]]] = {}
    rows = (Position.objects.filter(negotiation=negotiation).order_by("jurisdiction_id", "-as_of", "-pk")
            .values_list("jurisdiction_id", "stance", "as_of"))
    for jurisdiction_id, stance, as_of in rows:
        history.setdefault(jurisdiction_id, []).append((stance, as_of))
    for jurisdiction in jurisdictions:
        current = jurisdiction.current_position
        jurisdiction.stance_since = None
        if current is None:
            continue
        for stance, as_of in history.get(jurisdiction.pk, []):
            if stance != current.stance:
                break
            jurisdiction.stance_since = as_of


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


def latest_meetings(*, negotiation: Negotiation | None = None, limit: int = 8):
    meetings = Meeting.objects.select_related("negotiation").order_by("-date", "title")
    if negotiation is not None:
        meetings = meetings.filter(negotiation=negotiation)
    return meetings[:limit]
