"""Reads for the home page: each of its lists as the page shows it, in narrow queries.

# perf: the home page's own reads (bench/run "record cache off: home"): seven queries of the few
# columns it shows, as tuples, instead of model instances with every column, their history
# subqueries and joins it does not show; the key dates are read once for both the upcoming dates
# and the key dates on record; the stances without the positions' own rows; who tabled each offer
# named from the jurisdictions already read.
"""

import datetime
from dataclasses import dataclass

from django.urls import reverse

from config.numbers import format_date
from negotiations.models import Jurisdiction, KeyDate, Meeting, Negotiation, Offer, Position


@dataclass(frozen=True, slots=True)
class StanceRow:
    """A jurisdiction, its current stance ("" for none) and since when (ISO and in words; "" if unknown)."""

    url: str
    name: str
    stance: str
    stance_label: str
    since: str
    since_text: str


@dataclass(frozen=True, slots=True)
class OfferRow:
    url: str
    fiscal_url: str
    title: str
    status: str
    status_label: str
    tabled_on: str  # in words
    tabled_by: str  # the codes, in the jurisdictions' order, comma-separated


@dataclass(frozen=True, slots=True)
class DatedItem:
    """A meeting or key date among the upcoming dates, or a key date on record."""

    url: str
    title: str
    date: datetime.date
    date_precision: str
    time: datetime.time | None
    kind_label: str
    sort_key: tuple = ()


@dataclass(frozen=True, slots=True)
class MeetingRow:
    url: str
    title: str
    date: str  # in words


@dataclass(frozen=True, slots=True)
class HomePage:
    jurisdictions: list[StanceRow]
    offers: list[OfferRow]
    meetings: list[MeetingRow]
    upcoming: list[DatedItem]
    key_dates: list[DatedItem]


def _labels(model, field: str) -> dict:
    return dict(model._meta.get_field(field).flatchoices)


def _label(labels: dict, value: str) -> str:
    """As ``get_FOO_display``: the choice's label, or the value itself if it is no choice."""
    return str(labels.get(value, value))


def home_page(*, negotiation: Negotiation, today: datetime.date, upcoming: int, latest: int) -> HomePage:
    """The negotiation's stances by jurisdiction, offers, latest `latest` meetings, `upcoming` dates from
    `today` on and its key dates (seven queries)."""
    jurisdictions = list(Jurisdiction.objects.values_list("pk", "code", "name"))  # ordered by order, code
    return HomePage(
        jurisdictions=_stances(negotiation, jurisdictions),
        offers=_offers(negotiation, jurisdictions),
        meetings=[
            MeetingRow(reverse("negotiations:meeting", args=[slug]), title, format_date(date))
            for slug, title, date in Meeting.objects.filter(negotiation=negotiation)
            .values_list("slug", "title", "date")[:latest]  # ordered by -date, title
        ],
        **_dates(negotiation, today, upcoming),
    )


def _stances(negotiation: Negotiation, jurisdictions) -> list[StanceRow]:
    """As ``selectors.jurisdictions_with_current_stance``: each jurisdiction's latest stance and when
    the run of positions with that stance began."""
    labels = _labels(Position, "stance")
    history: dict[int, list[tuple[str, datetime.date]]] = {}
    rows = (Position.objects.filter(negotiation=negotiation).order_by("jurisdiction_id", "-as_of", "-pk")
            .values_list("jurisdiction_id", "stance", "as_of"))
    for jurisdiction_id, stance, as_of in rows:
        history.setdefault(jurisdiction_id, []).append((stance, as_of))
    result = []
    for pk, code, name in jurisdictions:
        own = history.get(pk)
        stance, since = (own[0][0], None) if own else ("", None)
        for other, as_of in own or ():
            if other != stance:
                break
            since = as_of
        result.append(StanceRow(
            url=reverse("negotiations:jurisdiction", args=[code]), name=name,
            stance=stance, stance_label=_label(labels, stance) if stance else "",
            since=since.isoformat() if since else "", since_text=format_date(since) if since else "",
        ))
    return result


def _offers(negotiation: Negotiation, jurisdictions) -> list[OfferRow]:
    labels = _labels(Offer, "status")
    codes = {pk: code for pk, code, _name in jurisdictions}  # in the jurisdictions' order
    tabled_by: dict[int, set[int]] = {}
    for offer_id, jurisdiction_id in Offer.tabled_by.through.objects.filter(
        offer__negotiation=negotiation
    ).values_list("offer_id", "jurisdiction_id"):
        tabled_by.setdefault(offer_id, set()).add(jurisdiction_id)
    return [
        OfferRow(
            url=reverse("negotiations:offer", args=[slug]), fiscal_url=reverse("grants:fiscal", args=[slug]),
            title=title, status=status, status_label=_label(labels, status), tabled_on=format_date(tabled_on),
            tabled_by=", ".join(code for pk, code in codes.items() if pk in tabled_by.get(offer_id, ())),
        )
        for offer_id, slug, title, status, tabled_on in Offer.objects.filter(negotiation=negotiation)
        .values_list("pk", "slug", "title", "status", "tabled_on")  # ordered by -tabled_on, title
    ]


def _dates(negotiation: Negotiation, today: datetime.date, limit: int) -> dict[str, list[DatedItem]]:
    """The first `limit` meetings and key dates from `today` on (as ``calendar_dates.calendar_dates``
    orders them), and every key date of the negotiation, oldest first."""
    meeting_kinds, key_date_kinds = _labels(Meeting, "kind"), _labels(KeyDate, "kind")
    stances_url = reverse("negotiations:stances", args=[negotiation.slug])
    upcoming = [
        DatedItem(reverse("negotiations:meeting", args=[slug]), title, date, precision, None,
                  _label(meeting_kinds, kind), (date, datetime.time.min, f"meeting-{slug}"))
        for slug, title, date, precision, kind in Meeting.objects.filter(negotiation=negotiation, date__gte=today)
        .order_by("date", "pk").values_list("slug", "title", "date", "date_precision", "kind")[:limit]
    ]
    key_dates = []
    for slug, title, date, precision, time, kind, source_slug in (
        KeyDate.objects.filter(negotiation=negotiation).order_by("date", "pk")
        .values_list("slug", "title", "date", "date_precision", "time", "kind", "source__slug")
    ):
        key_dates.append(DatedItem(reverse("negotiations:source", args=[source_slug]), title, date, precision,
                                   time, _label(key_date_kinds, kind),
                                   (date, time or datetime.time.min, f"keydate-{slug}")))
    upcoming += [
        DatedItem(stances_url, *(item.title, item.date, item.date_precision, item.time, item.kind_label),
                  item.sort_key)
        for item in [item for item in key_dates if item.date >= today][:limit]
    ]
    upcoming.sort(key=lambda item: item.sort_key)
    return {"upcoming": upcoming[:limit], "key_dates": key_dates}
