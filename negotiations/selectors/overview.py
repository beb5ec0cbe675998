"""Reads for the home page: each of its lists as the page shows it, in narrow queries.

# perf: the home page's own reads (bench/run "record cache off: home"): five queries of the few
# columns it shows, as tuples, instead of model instances with every column, their history
# subqueries and joins it does not show; the key dates are read once for both the upcoming dates
# and the key dates on record; the stances without the positions' own rows; who tabled each offer
# named from the jurisdictions already read, in the offers' query.
"""

import datetime
from dataclasses import dataclass

from django.db.models import FilteredRelation, Q
from django.urls import reverse

from config.numbers import format_date
from negotiations.calendar_dates import order_key
from negotiations.models import Jurisdiction, KeyDate, Meeting, Negotiation, Offer, Position
from negotiations.selectors import stance_since


@dataclass(frozen=True, slots=True)
class CurrentStance:
    """A jurisdiction's current stance, read by negotiations/_stance.html as it reads a position."""

    stance: str
    label: str

    def get_stance_display(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class StanceRow:
    """A jurisdiction, its current stance (None for none) and since when (ISO and in words; "" if unknown)."""

    url: str
    name: str
    position: CurrentStance | None
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
    `today` on and its key dates (five queries)."""
    # perf: the jurisdictions with their positions on the negotiation in one query (a filtered left
    # join), each one's newest first (bench/run "record cache off: home").
    history: dict[int, list[tuple[str, datetime.date]]] = {}
    jurisdictions = {}  # pk: (code, name), in the jurisdictions' order
    for pk, code, name, stance, as_of in (
        Jurisdiction.objects.annotate(own=FilteredRelation("positions", condition=Q(positions__negotiation=negotiation)))
        .order_by("order", "code", "-own__as_of", "-own__pk")
        .values_list("pk", "code", "name", "own__stance", "own__as_of")
    ):
        jurisdictions.setdefault(pk, (code, name))
        own = history.setdefault(pk, [])
        if stance is not None:
            own.append((stance, as_of))
    return HomePage(
        jurisdictions=_stances(jurisdictions, history),
        offers=_offers(negotiation, jurisdictions),
        meetings=[
            MeetingRow(reverse("negotiations:meeting", args=[slug]), title, format_date(date))
            for slug, title, date in Meeting.objects.filter(negotiation=negotiation)
            .values_list("slug", "title", "date")[:latest]  # ordered by -date, title
        ],
        **_dates(negotiation, today, upcoming),
    )


def _stances(jurisdictions: dict, history: dict) -> list[StanceRow]:
    """As ``selectors.jurisdictions_with_current_stance``: each jurisdiction's latest stance and when
    the run of positions with that stance began (`history`: each one's stances, newest first)."""
    labels = _labels(Position, "stance")
    result = []
    for pk, (code, name) in jurisdictions.items():
        own = history[pk]
        since = stance_since(own) if own else None
        result.append(StanceRow(
            url=reverse("negotiations:jurisdiction", args=[code]), name=name,
            position=CurrentStance(own[0][0], _label(labels, own[0][0])) if own else None,
            since=since.isoformat() if since else "", since_text=format_date(since) if since else "",
        ))
    return result


def _offers(negotiation: Negotiation, jurisdictions: dict) -> list[OfferRow]:
    """The negotiation's offers, newest first, who tabled each named in the jurisdictions' order."""
    labels = _labels(Offer, "status")
    # perf: who tabled each offer in the offers' query (a row per offer and jurisdiction) instead of a
    # query of its own (bench/run "record cache off: home").
    offers: dict[int, tuple] = {}
    tabled_by: dict[int, set[int]] = {}
    for offer_id, slug, title, status, tabled_on, jurisdiction_id in (
        Offer.objects.filter(negotiation=negotiation)
        .values_list("pk", "slug", "title", "status", "tabled_on", "tabled_by")  # ordered by -tabled_on, title
    ):
        offers.setdefault(offer_id, (slug, title, status, tabled_on))
        tabled_by.setdefault(offer_id, set()).add(jurisdiction_id)
    return [
        OfferRow(
            url=reverse("negotiations:offer", args=[slug]), fiscal_url=reverse("grants:fiscal", args=[slug]),
            title=title, status=status, status_label=_label(labels, status), tabled_on=format_date(tabled_on),
            tabled_by=", ".join(code for pk, (code, _name) in jurisdictions.items() if pk in tabled_by[offer_id]),
        )
        for offer_id, (slug, title, status, tabled_on) in offers.items()
    ]


def _dates(negotiation: Negotiation, today: datetime.date, limit: int) -> dict[str, list[DatedItem]]:
    """The first `limit` meetings and key dates from `today` on (as ``calendar_dates.calendar_dates``
    orders them), and every key date of the negotiation, oldest first."""
    meeting_kinds, key_date_kinds = _labels(Meeting, "kind"), _labels(KeyDate, "kind")
    stances_url = reverse("negotiations:stances", args=[negotiation.slug])
    upcoming = [
        DatedItem(reverse("negotiations:meeting", args=[slug]), title, date, precision, None,
                  _label(meeting_kinds, kind), order_key(date, None, f"meeting-{slug}"))
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
                                   order_key(date, time, f"keydate-{slug}")))
    upcoming += [
        DatedItem(stances_url, *(item.title, item.date, item.date_precision, item.time, item.kind_label),
                  item.sort_key)
        for item in [item for item in key_dates if item.date >= today][:limit]
    ]
    upcoming.sort(key=lambda item: item.sort_key)
    return {"upcoming": upcoming[:limit], "key_dates": key_dates}
