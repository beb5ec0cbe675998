"""Where each government stood, month by month, on one negotiation, and the evidence for one month.

The matrix reads every position of the negotiation once and walks them in Python,
so its query count is the same for ten positions or ten thousand.
"""

import calendar
import datetime
import re
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import OuterRef, Prefetch, Q, Subquery
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from negotiations import bounds
from negotiations.models import Jurisdiction, Meeting, Negotiation, Offer, Position, SourcePassage, Stance, Statement

# Short labels for the matrix cells; the full stance is in each cell's title and aria-label.
SHORT_LABELS = {
    Stance.SUPPORTS: _("Supp."),
    Stance.CONDITIONAL: _("Cond."),
    Stance.OPPOSES: _("Opp."),
    Stance.OPTS_OUT: _("Out"),
    Stance.UNKNOWN: _("?"),
}
NO_POSITION_LABEL = "–"
# (CSS class, short label, meaning) for the matrix legend.
LEGEND = [(stance.value, SHORT_LABELS[stance], stance.label) for stance in Stance] + [
    (Stance.UNKNOWN.value, NO_POSITION_LABEL, _("no position recorded yet")),
]

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def parse_month(text: str) -> datetime.date:
    """The first day of the month written `YYYY-MM`; ValueError for anything else."""
    match = _MONTH.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a month written YYYY-MM")
    year, month = int(match[1]), int(match[2])
    if not 1 <= month <= 12:
        raise ValueError(f"{text!r} is not a month written YYYY-MM")
    first_day = datetime.date(year, month, 1) if year >= 1 else None
    if first_day is None or not bounds.date_in_range(first_day):
        raise ValueError(f"{text!r} is outside {bounds.EARLIEST_DATE} to {bounds.LATEST_DATE}")
    return first_day


def month_end(month: datetime.date) -> datetime.date:
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


class InForce(NamedTuple):
    """The position in force in a matrix cell: only what the matrix reads of it."""

    as_of: datetime.date
    stance: str


class MatrixJurisdiction(NamedTuple):
    """A matrix row's government: its code, its name in the language shown and its page."""

    code: str
    name: str
    url: str


class StanceCell(NamedTuple):
    """One jurisdiction (its row's) in one month: the position in force at the month's end, if any.

    perf: the template unpacks each cell into its fields, in this order (a name is cheaper to look up
    than an attribute; bench/run "record cache off: stance matrix").
    """

    # The link, the texts and the stance's CSS value are made by stance_matrix rather than in the
    # template: a matrix has hundreds of cells, and template tags cost far more per cell than Python does.
    url: str
    # The Stance value of the position in force ("unknown" without one): the cell's CSS class.
    stance: str
    recorded: bool
    description: str
    # The accessible name: the visible short label first (WCAG 2.5.3), then the description.
    label: str
    short_label: str
    month: datetime.date
    position: InForce | None

    @property
    def stance_label(self):
        return STANCE_LABELS.get(self.position.stance, self.position.stance) if self.position else _(
            "no position recorded")


STANCE_LABELS = dict(Stance.choices)


@dataclass(frozen=True)
class StanceRow:
    jurisdiction: MatrixJurisdiction
    cells: list[StanceCell]


@dataclass(frozen=True)
class StanceMatrix:
    negotiation: Negotiation
    months: list[datetime.date]
    rows: list[StanceRow]
    # Set when the record spans more than bounds.MAX_SPAN_MONTHS (or has dates outside the bounds):
    # the first and last days of the whole span; the matrix shows its densest part.
    whole_span: tuple[datetime.date, datetime.date] | None = None


def stance_matrix(*, negotiation: Negotiation) -> StanceMatrix:
    """Rows: the federal government, then the provinces and territories in order. Columns: every
    month from the negotiation's first dated meeting, statement, offer or position to its last,
    at most bounds.MAX_SPAN_MONTHS of them (the span holding the most of its dates), and none outside
    the bounds of dates, whatever the database holds. Three queries, two for a negotiation read by
    matrix_negotiations()."""
    # perf: the governments and the positions are read as tuples of the columns the matrix shows,
    # not as model instances (bench/run "record cache off: stance matrix").
    jurisdictions = sorted(
        Jurisdiction.objects.values_list("pk", "code", "name", "kind", "order"),
        key=lambda row: (row[3] != Jurisdiction.Kind.FEDERAL, row[4], row[1]),
    )
    by_jurisdiction: dict[int, list[InForce]] = {}
    position_dates = []
    for jurisdiction_id, as_of, stance in (Position.objects.filter(negotiation=negotiation)
                                           .order_by("as_of", "pk").values_list("jurisdiction_id", "as_of", "stance")):
        by_jurisdiction.setdefault(jurisdiction_id, []).append(InForce(as_of, stance))
        position_dates.append(as_of)
    months, whole_span = _months(negotiation, position_dates)

    month_names = [(month, month.strftime("%Y-%m"), date_format(month, "F Y"), month_end(month)) for month in months]
    stance_names = {stance: str(label) for stance, label in STANCE_LABELS.items()}
    # perf: each phrase translated once per matrix, not once per cell (hundreds of cells; bench/run
    # "record cache off: stance matrix").
    no_position = gettext("no position recorded")
    recorded_phrase = gettext("%(name)s, %(month)s: %(stance)s (position recorded this month)")
    in_force_phrase = gettext("%(name)s, %(month)s: %(stance)s")
    label_phrase = gettext("%(short)s: %(description)s")
    short_labels = {stance: str(label) for stance, label in SHORT_LABELS.items()}
    unknown = Stance.UNKNOWN.value
    rows = []
    for pk, code, name, _kind, _order in jurisdictions:
        jurisdiction = MatrixJurisdiction(code, name, reverse("negotiations:jurisdiction", args=[code]))
        positions = by_jurisdiction.get(pk, [])
        # One reverse() per row: the month is the URL's last part.
        url_prefix = reverse("negotiations:stance_cell", args=[negotiation.slug, code, "0000-00"])[:-7]
        cells = []
        index = 0  # positions[:index] are on or before the current month's end
        for month, month_key, month_name, end in month_names:
            recorded = False
            while index < len(positions) and positions[index].as_of <= end:
                recorded = recorded or positions[index].as_of >= month
                index += 1
            in_force = positions[index - 1] if index else None
            if in_force:
                values = {"name": name, "month": month_name, "stance": stance_names[in_force.stance]}
                description = (recorded_phrase if recorded else in_force_phrase) % values
                short = short_labels[in_force.stance]
                cells.append(StanceCell(url_prefix + month_key, in_force.stance, recorded, description,
                                        label_phrase % {"short": short, "description": description}, short,
                                        month, in_force))
            else:
                description = in_force_phrase % {"name": name, "month": month_name, "stance": no_position}
                cells.append(StanceCell(url_prefix + month_key, unknown, False, description, description,
                                        NO_POSITION_LABEL, month, None))
        rows.append(StanceRow(jurisdiction=jurisdiction, cells=cells))
    return StanceMatrix(negotiation=negotiation, months=months, rows=rows, whole_span=whole_span)


# The dated kinds of record besides the positions (whose dates stance_matrix reads with them), and
# the name of each one's first and last date.
_DATED = (("meeting", Meeting, "date"), ("statement", Statement, "date"), ("offer", Offer, "tabled_on"))
_RECORD_ENDS = tuple(f"{name}_{end}" for name, _model, _field in _DATED for end in ("first", "last"))


def _record_ends() -> dict:
    """The first and last date of each kind of record of the negotiation (OuterRef "pk"), as subqueries."""
    ends = {}
    for name, model, field in _DATED:
        dated = model.objects.filter(negotiation=OuterRef("pk")).values(field)
        ends[f"{name}_first"] = Subquery(dated.order_by(field)[:1])
        ends[f"{name}_last"] = Subquery(dated.order_by(f"-{field}")[:1])
    return ends


def matrix_negotiations():
    """Negotiations, each read with the first and last dates of its meetings, statements and offers:
    stance_matrix then needs no query of its own for its months."""
    return Negotiation.objects.annotate(**_record_ends())


def _months(
    negotiation: Negotiation, position_dates: list[datetime.date]
) -> tuple[list[datetime.date], tuple[datetime.date, datetime.date] | None]:
    """First days of the months the matrix shows (one query, none for a negotiation read by
    matrix_negotiations()), and the whole span when it shows less.

    The negotiation's dated record within the bounds of dates, cut to its densest
    bounds.MAX_SPAN_MONTHS months: a row dated 9999-12-31 or 0001-01-01 (written by hand in SQL:
    the forms, the admin and the loader refuse it) cannot stretch it.
    """
    # perf: a negotiation read by matrix_negotiations() brings these dates with it: one query fewer
    # (bench/run "record cache off: stance matrix").
    if all(hasattr(negotiation, name) for name in _RECORD_ENDS):
        row = {name: getattr(negotiation, name) for name in _RECORD_ENDS}
    else:
        row = Negotiation.objects.filter(pk=negotiation.pk).annotate(**_record_ends()).values(*_RECORD_ENDS).get()
    firsts = [value for key, value in row.items() if key.endswith("_first") and value]
    lasts = [value for key, value in row.items() if key.endswith("_last") and value]
    if position_dates:
        firsts.append(min(position_dates))
        lasts.append(max(position_dates))
    if not firsts:
        return [], None
    whole = (min(firsts), max(lasts))
    first = min(max(whole[0], bounds.EARLIEST_DATE), bounds.LATEST_DATE)
    last = max(min(whole[1], bounds.LATEST_DATE), bounds.EARLIEST_DATE)
    # The positions, and the first and last date of each kind: the window holding the most of them,
    # then only as far as those in it go.
    known = [day for day in (*row.values(), *position_dates) if day and bounds.date_in_range(day)]
    start, end = bounds.densest_window(known, first, last)
    inside = [day for day in known if start <= day.replace(day=1) <= end]
    if not inside:  # every date is outside the bounds: nothing to draw
        return [], whole
    month, last = min(inside).replace(day=1), max(inside).replace(day=1)
    count = bounds.months_between(month, last)
    months = [bounds.add_months(month, index) for index in range(count)]
    shows_all = months[0] <= whole[0] and month_end(months[-1]) >= whole[1]
    return months, None if shows_all else whole


@dataclass(frozen=True)
class CellEvidence:
    """What one matrix cell rests on.

    `positions` are those recorded in the month, newest first, each with its evidence.
    `in_force` is the position carried over from before the month when none was recorded in it.
    `statements` are the jurisdiction's statements of the month not already shown as evidence.
    """

    negotiation: Negotiation
    jurisdiction: Jurisdiction
    month: datetime.date
    positions: list[Position]
    in_force: Position | None
    statements: list[Statement]

    @property
    def stance(self) -> str:
        current = self.positions[0] if self.positions else self.in_force
        return current.stance if current else Stance.UNKNOWN


def stance_cell_evidence(
    *, negotiation: Negotiation, jurisdiction: Jurisdiction, month: datetime.date
) -> CellEvidence:
    """The evidence behind the jurisdiction's stance at the end of `month`, with the passages of the
    sources that support each position (four queries)."""
    start, end = month.replace(day=1), month_end(month)
    own = Position.objects.filter(negotiation=negotiation, jurisdiction=jurisdiction)
    carried_over = own.filter(as_of__lt=start).order_by("-as_of", "-pk").values("pk")[:1]
    # The month's positions and the one in force before it, in one query.
    positions = list(
        own.filter(Q(as_of__range=(start, end)) | Q(pk=Subquery(carried_over)))
        .select_related("triggered_by_offer", "triggered_by_meeting")
        .prefetch_related(Prefetch("evidence", queryset=Statement.objects.select_related("speaker", "source")),
                          Prefetch("passages", queryset=SourcePassage.objects.select_related("source").order_by("pk")))
        .order_by("-as_of", "-pk")
    )
    recorded = [position for position in positions if position.as_of >= start]
    in_force = None if recorded else next(iter(positions), None)
    shown = {statement.pk for position in (recorded or positions) for statement in position.evidence.all()}
    statements = [
        statement
        for statement in Statement.objects.filter(
            negotiation=negotiation, jurisdiction=jurisdiction, date__range=(start, end)
        ).select_related("speaker", "source").order_by("-date", "-pk")
        if statement.pk not in shown
    ]
    return CellEvidence(
        negotiation=negotiation, jurisdiction=jurisdiction, month=start,
        positions=recorded, in_force=in_force, statements=statements,
    )
