"""How the fiscal pages show an effect: labels, formatted figures, rows in display order, chart series.

The engine (grants.fiscal) returns exact numbers; this module turns them into what the templates
display, so that templates only display (no arithmetic, no formatting). Money is formatted from
Decimal, never through float; chart series carry money as strings (JSON money is a string) and
only the browser turns them into numbers to draw bars.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, gettext_noop, pgettext_lazy
from django.utils.translation import gettext as _

from config.numbers import (
    colon,
    format_count,
    format_decimal,
    format_fiscal_year,
    format_money,
    format_percent,
    numbers,
)
from config.sentences import sentence_patterns, translated
from grants import fiscal
from negotiations.models import Liability, Offer, Program, Treatment
from negotiations.terms import TERM_FIELDS

# Labels of the twelve output lines, short enough for a column header.
LINE_LABELS = {
    "trainees": gettext_lazy("Trainees"),
    "federal_cost": gettext_lazy("Federal cost"),
    "provincial_cost": gettext_lazy("Provincial cost"),
    "employer_cost": gettext_lazy("Employer cost"),
    "lma_diverted": gettext_lazy("LMA diverted"),
    "lmda_redirected": gettext_lazy("LMDA redirected"),
    "provincial_new_money": gettext_lazy("P/T new money"),
    "lma_allocation": gettext_lazy("LMA allocation"),
    "lma_remaining": gettext_lazy("LMA remaining"),
    "provinces_need": gettext_lazy("P/Ts must find"),
    "employer_shortfall": gettext_lazy("Employer shortfall"),
    "provincial_liability": gettext_lazy("P/T liability"),
}

# What each line means (FISCAL_MODEL.md), for readers who do not know the model.
LINE_MEANINGS = {
    "trainees": gettext_lazy("Grants at the maximum amount."),
    "federal_cost": gettext_lazy("What the federal government puts in."),
    "provincial_cost": gettext_lazy("What the province or territory puts in."),
    "employer_cost": gettext_lazy("What employers put in."),
    "lma_diverted": gettext_lazy(
        "Taken out of the Labour Market Agreements: programs for people not eligible for Employment Insurance."
    ),
    "lmda_redirected": gettext_lazy(
        "Taken out of the Labour Market Development Agreements: programs for Employment Insurance clients."
    ),
    "provincial_new_money": gettext_lazy("New money from the province's or territory's own revenue."),
    "lma_allocation": gettext_lazy("The province's or territory's Labour Market Agreement before the grant."),
    "lma_remaining": gettext_lazy("What is left of it for current programs."),
    "provinces_need": gettext_lazy(
        "New money plus the backfill of the LMA diverted: what a province or territory must find to keep "
        "its current programs and pay its share."
    ),
    "employer_shortfall": gettext_lazy("Employer money expected but not put in, at the participation rate."),
    "provincial_liability": gettext_lazy("The shortfall, when the province or territory is liable for it."),
}

# How a rise in each line reads for the provinces and territories, from what the line means: "better",
# "worse", or "" for neither (a rise in trainees or in the employers' cost is no gain or loss for a P/T's
# treasury; what an employer shortfall costs them is the P/T liability line). A fall reads the other
# way. The comparison page colours and marks each difference by this, and its legend says so.
RISE_FOR_PROVINCES = {
    "trainees": "",
    "federal_cost": "better",
    "provincial_cost": "worse",
    "employer_cost": "",
    "lma_diverted": "worse",
    "lmda_redirected": "worse",
    "provincial_new_money": "worse",
    "lma_allocation": "better",
    "lma_remaining": "better",
    "provinces_need": "worse",
    "employer_shortfall": "",
    "provincial_liability": "worse",
}

# What a difference means for the provinces and territories, in words (the mark's text for screen readers).
READINGS = {
    "better": gettext_lazy("better for the provinces and territories"),
    "worse": gettext_lazy("worse for the provinces and territories"),
}

# The national figures shown as cards, in reading order.
CARD_LINES = (
    "trainees",
    "federal_cost",
    "provincial_cost",
    "employer_cost",
    "lma_diverted",
    "lmda_redirected",
    "provinces_need",
    "employer_shortfall",
    "provincial_liability",
)

# The two charts: who pays, and what each P/T's programs lose.
WHO_PAYS_LINES = ("federal_cost", "provincial_cost", "employer_cost")
PROGRAM_LINES = ("lma_diverted", "lmda_redirected")

# The terms' fields (negotiations.terms.OfferTerms, as the engine's problems name them) as people
# know them from the offer form.
TERMS_FIELD_LABELS = {
    **{term.name: term.label for term in TERM_FIELDS},
    "funding_sources": gettext_lazy("Funding sources"),
    "treatments": gettext_lazy("Treatment of the provinces and territories"),
    "phase_in": gettext_lazy("Phase-in"),
}

SCENARIO_FIELD_LABELS = {
    "participation": gettext_lazy("Employer participation rate"),
    "fiscal_year": gettext_lazy("Fiscal year"),
}
SCENARIO_FIELD_HELP = {
    "participation": gettext_lazy("Give a number from 0 to 1, such as 0.85."),
    "fiscal_year": gettext_lazy("Write it like 2014-15: two consecutive years."),
}

# Who covers the small-employer gap, as the end of a sentence ("... is covered by the federal government").
GAP_COVERED_BY = {
    "federal": gettext_lazy("the federal government"),
    "provincial": gettext_lazy("the province or territory"),
}

# The engine's explanations (grants.fiscal traces) are written in English, phrase by phrase; these are
# their phrases as another language writes them, longest first (see trace_text).
TRACE_PHRASES = (
    ("sum of the P/T trainees; national trainees", gettext_lazy("sum of the P/T trainees; national trainees")),
    ("shared by population", gettext_lazy("shared by population")),
    ("to the dollar (largest remainder)", gettext_lazy("to the dollar (largest remainder)")),
    ("in whole trainees (largest remainder)", gettext_lazy("in whole trainees (largest remainder)")),
    ("status quo: nothing is diverted", gettext_lazy("status quo: nothing is diverted")),
    ("status quo: no grant", gettext_lazy("status quo: no grant")),
    ("opts out with compensation: keeps its transfer, no grant",
     gettext_lazy("opts out with compensation: keeps its transfer, no grant")),
    ("opts out with compensation: keeps its transfer", gettext_lazy("opts out with compensation: keeps its transfer")),
    ("fewer grants: nobody is liable", gettext_lazy("fewer grants: nobody is liable")),
    ("carried by Ottawa", gettext_lazy("carried by Ottawa")),
    ("Ottawa delivers here, so it carries the shortfall", gettext_lazy("Ottawa delivers here, so it carries the shortfall")),
    ("the P/T is liable", gettext_lazy("the P/T is liable")),
    ("Ottawa delivers the grant here and pays the provincial portion",
     gettext_lazy("Ottawa delivers the grant here and pays the provincial portion")),
    ("Ottawa delivers: the provincial portion draws on no P/T program",
     gettext_lazy("Ottawa delivers: the provincial portion draws on no P/T program")),
    ("the backfill that keeps LMA programs going", gettext_lazy("the backfill that keeps LMA programs going")),
    ("trainees allocated by population before opting out",
     gettext_lazy("trainees allocated by population before opting out")),
    ("trainees allocated by population", gettext_lazy("trainees allocated by population")),
    ("population of the provinces and territories", gettext_lazy("population of the provinces and territories")),
    ("provinces and territories", gettext_lazy("provinces and territories")),
    ("fiscal years of the phase-in", gettext_lazy("fiscal years of the phase-in")),
    ("per-trainee federal amount", gettext_lazy("per-trainee federal amount")),
    ("per-trainee provincial amount", gettext_lazy("per-trainee provincial amount")),
    ("per-trainee employer amount", gettext_lazy("per-trainee employer amount")),
    ("per-trainee draws on the LMA and the CJF", gettext_lazy("per-trainee draws on the LMA and the CJF")),
    ("per-trainee draws on the LMDA", gettext_lazy("per-trainee draws on the LMDA")),
    ("per-trainee provincial draw on its own revenue", gettext_lazy("per-trainee provincial draw on its own revenue")),
    ("per-trainee federal draw on", gettext_lazy("per-trainee federal draw on")),
    ("per-trainee provincial draw on", gettext_lazy("per-trainee provincial draw on")),
    ("per-trainee draw on", gettext_lazy("per-trainee draw on")),
    ("national trainees", gettext_lazy("national trainees")),
    ("employer shortfall", gettext_lazy("employer shortfall")),
    ("provincial liability", gettext_lazy("provincial liability")),
    ("provincial new money", gettext_lazy("provincial new money")),
    ("shortfall liability", gettext_lazy("shortfall liability")),
    ("participation rate", gettext_lazy("participation rate")),
    ("phase-in fraction", gettext_lazy("phase-in fraction")),
    ("population share", gettext_lazy("population share")),
    ("LMA allocation", gettext_lazy("LMA allocation")),
    ("LMA diverted", gettext_lazy("LMA diverted")),
    ("LMA envelope", gettext_lazy("LMA envelope")),
    ("scale amount", gettext_lazy("scale amount")),
    ("population", gettext_lazy("population")),
    ("treatment", gettext_lazy("treatment")),
    ("trainees", gettext_lazy("trainees")),
    ("sum of", gettext_lazy("sum of")),
    ("over the", gettext_lazy("over the")),
    ("to the cent", gettext_lazy("to the cent")),
    # a program's code after "draw on" (the phrases above that name a program come first)
    ("LMDA", pgettext_lazy("a program drawn on", "LMDA")),
    ("LMA", pgettext_lazy("a program drawn on", "LMA")),
    ("CJF", pgettext_lazy("a program drawn on", "CJF")),
)
_TRACE_PATTERN = re.compile("|".join(re.escape(english) for english, _french in TRACE_PHRASES))
_TRACE_FRENCH = dict(TRACE_PHRASES)
_LINE_CODE = re.compile(r"\b(?:" + "|".join(re.escape(line) for line in LINE_LABELS if "_" in line) + r")\b")


def trace_text(text: str) -> str:
    """An engine's formula or input name in the current language, a line named by its label, not its code."""
    if (get_language() or "en").startswith("en"):
        # "sum of employer_cost over the …" showed the code; a code with "_" is never an English word ("trainees" is)
        return _LINE_CODE.sub(lambda match: f"“{LINE_LABELS[match.group(0)]}”", text)
    text = _TRACE_PATTERN.sub(lambda match: str(_TRACE_FRENCH[match.group(0)]), text)
    for line, label in LINE_LABELS.items():  # "sum of federal_cost over the …": the line's name
        text = text.replace(line, f"«\u00a0{label}\u00a0»")
    return text


_ENUM_LABELS = {
    **{value: label for value, label in Treatment.choices},
    **{value: label for value, label in Liability.choices},
}


def format_line(line: str, value: int | Decimal) -> str:
    """A line's value as the pages show it: trainees as a count, every other line as money."""
    return numbers().line(line, value)


def format_change(line: str, value: int | Decimal) -> str:
    """A difference, always signed so the direction reads without colour."""
    return numbers().change(line, value)


def direction(value: int | Decimal) -> str:
    """"up", "down" or "" for a difference (the live preview's change column)."""
    return "up" if value > 0 else "down" if value < 0 else ""


def reading(line: str, value: int | Decimal) -> str:
    """How a difference in ``line`` reads for the provinces and territories: "better", "worse" or ""."""
    rise = RISE_FOR_PROVINCES[line]
    if not rise or not value:
        return ""
    if value > 0:
        return rise
    return "worse" if rise == "better" else "better"


# Trace inputs that are rates or shares, not money, though they may be written with two decimals.
_NOT_MONEY_INPUTS = frozenset({"participation rate", "phase-in fraction", "population share"})


def format_input(name: str, value: object) -> str:
    """A trace input: money (in cents) as dollars, counts grouped, rates and labels as they are."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return format_count(value)
    if isinstance(value, Decimal):
        if name not in _NOT_MONEY_INPUTS and value.as_tuple().exponent == -2:
            return format_money(value)
        return format_decimal(value, max(0, -value.as_tuple().exponent))
    if isinstance(value, str):
        return str(_ENUM_LABELS.get(value, value))
    return str(value)


# ---------------------------------------------------------------------------
# Value objects the templates read.


@dataclass(frozen=True)
class Figure:
    """One displayed number: its line, its text, and where its explanation is."""

    line: str
    text: str
    explain_url: str = ""
    reading: str = ""  # for a difference: "better" or "worse" for the provinces and territories, or ""

    @property
    def label(self) -> str:
        return LINE_LABELS[self.line]

    @property
    def meaning(self) -> str:
        return LINE_MEANINGS[self.line]

    @property
    def reading_text(self) -> str:
        return str(READINGS[self.reading]) if self.reading else ""


@dataclass(frozen=True)
class Row:
    """One row of a table: a P/T, a fiscal year or a total, with one figure per line."""

    key: str
    name: str
    figures: tuple[Figure, ...]
    note: str = ""
    current: bool = False

    @property
    def cells(self) -> tuple[tuple[str, str, str], ...]:
        """The figures as table cells: (line, explain address, text).

        perf: the fiscal page's tables show ~180 figures, each with its address twice: tuples unpacked by
        ``{% for %}`` spare the template ~500 attribute lookups (bench/run "record cache off: fiscal page").
        """
        return tuple((figure.line, figure.explain_url, figure.text) for figure in self.figures)


@dataclass(frozen=True)
class Column:
    line: str

    @property
    def label(self) -> str:
        return LINE_LABELS[self.line]

    @property
    def meaning(self) -> str:
        return LINE_MEANINGS[self.line]


COLUMNS = tuple(Column(line) for line in fiscal.LINE_NAMES)


class ColumnText(NamedTuple):
    """A column's label and meaning in the reader's language."""

    line: str
    label: str
    meaning: str


def column_texts() -> tuple[ColumnText, ...]:
    """``COLUMNS`` translated once, for a page that shows them several times (the fiscal page: three)."""
    # perf: 24 translations a page instead of 72 lazy ones, read by unpacking (bench/run "record cache off:
    # fiscal page").
    return tuple(ColumnText(column.line, str(column.label), str(column.meaning)) for column in COLUMNS)


@dataclass(frozen=True)
class Gap:
    """The small-employer gap, per trainee, in words and figures."""

    share: str
    max_grant: str
    employer_minimum: str
    employer_regular: str
    gap: str
    covered_by: str


@dataclass(frozen=True)
class ScenarioSummary:
    participation: str
    fiscal_year: str
    fraction: str
    has_phase_in: bool


@dataclass(frozen=True)
class FiscalTables:
    """Everything the results region of the fiscal page shows."""

    scenario: ScenarioSummary
    cards: tuple[Figure, ...]
    columns: tuple[ColumnText, ...]
    rows: tuple[Row, ...]
    total: Row
    gap: Gap | None
    who_pays_chart: dict
    programs_chart: dict
    years: tuple[Row, ...]
    years_total: Row | None
    csv_url: str
    page_url: str


@dataclass(frozen=True)
class YearOption:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class ScenarioControls:
    """The values the scenario form shows (what was asked, or what was used)."""

    action: str
    participation: str
    fiscal_years: tuple[YearOption, ...]
    error: ScenarioProblem | None


@dataclass(frozen=True)
class ScenarioProblem:
    field: str
    label: str
    value: str
    help: str
    detail: str

    @property
    def detail_says_more(self) -> bool:
        """Whether ``detail`` tells what ``help`` does not (a year outside the record, too many decimal places),
        rather than the same in other words (not written like 2014-15, not between 0 and 1)."""
        return not any(pattern.fullmatch(self.detail_in_english) for pattern, _msgid in _RESTATED_BY_HELP)

    detail_in_english: str = ""


@dataclass(frozen=True)
class TermsProblem:
    field: str
    label: str
    message: str


@dataclass(frozen=True)
class TermsLine:
    label: str
    value: str


@dataclass(frozen=True)
class TraceView:
    """One explained number: what it is, where, its value, the formula and the named inputs."""

    label: str
    where: str
    value: str
    formula: str
    inputs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Explanation:
    trace: TraceView | None
    problem: str
    close_url: str


# ---------------------------------------------------------------------------
# Links


@dataclass(frozen=True)
class ExplainLinks:
    """Builds the explain address of any number, carrying the scenario that produced it."""

    base_url: str
    participation: Decimal
    fiscal_year: str | None
    # perf: each part of the query (line, code, the scenario) is encoded once, not for each of the
    # ~180 figures of the fiscal page; the address is the one urlencode(params) writes
    # (bench/run "record cache off: fiscal page").
    _encoded: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def _encode(self, key: tuple) -> str:
        encoded = self._encoded.get(key)
        if encoded is None:
            kind, value = key
            params = scenario_params(self.participation, value) if kind == "scenario" else {kind: value}
            encoded = self._encoded[key] = urlencode(params)
        return encoded

    def url(self, line: str, code: str | None = None, *, fiscal_year: str | None = None,
            all_years: bool = False) -> str:
        parts = [self._encode(("line", line))]
        if code:
            parts.append(self._encode(("code", code)))
        parts.append(self._encode(("scenario", fiscal_year or self.fiscal_year)))
        if all_years:
            parts.append("years=all")
        return f"{self.base_url}?{'&'.join(parts)}"


def scenario_params(participation: Decimal, fiscal_year: str | None) -> dict[str, str]:
    """The query parameters that reproduce a scenario."""
    params = {"participation": str(participation)}
    if fiscal_year:
        params["fiscal_year"] = fiscal_year
    return params


def _with_query(url: str, params: dict[str, str]) -> str:
    return f"{url}?{urlencode(params)}" if params else url


# ---------------------------------------------------------------------------
# The fiscal page


def fiscal_tables(*, offer: Offer, effect: fiscal.Effect, names: dict[str, str],
                  columns: tuple[ColumnText, ...]) -> FiscalTables:
    """Shape one offer's effect for the fiscal page: cards, the table by P/T, charts, years
    (``columns``: ``column_texts()``, which the page shows elsewhere too)."""
    slug = offer.slug
    scenario = effect.scenario
    links = ExplainLinks(reverse("grants:explain", args=[slug]), scenario.participation, scenario.fiscal_year)
    query = scenario_params(scenario.participation, scenario.fiscal_year)

    # perf: the reader's number formats looked up once for the ~180 figures, not per figure as format_line
    # does (bench/run "record cache off: fiscal page").
    line_text = numbers().line

    def row(lines: fiscal.Lines, name: str, *, key: str, fiscal_year: str | None = None) -> Row:
        figures = tuple(
            Figure(line, line_text(line, getattr(lines, line)), links.url(line, lines.code, fiscal_year=fiscal_year))
            for line in fiscal.LINE_NAMES
        )
        return Row(key=key, name=name, figures=figures)

    rows = tuple(row(lines, names.get(lines.code, lines.code), key=lines.code) for lines in effect.by_jurisdiction)
    total = row(effect.national, _("All provinces and territories"), key="total")

    years = tuple(
        Row(
            key=year.fiscal_year,
            name=format_fiscal_year(year.fiscal_year),
            note=_("%(fraction)s of the full scale") % {"fraction": format_percent(year.fraction)},
            current=year.fiscal_year == scenario.fiscal_year,
            figures=row(year.national, year.fiscal_year, key=year.fiscal_year, fiscal_year=year.fiscal_year).figures,
        )
        for year in effect.years
    )
    years_total = None
    if effect.multi_year_total is not None:
        figures = tuple(
            Figure(line, line_text(line, getattr(effect.multi_year_total, line)), links.url(line, all_years=True))
            for line in fiscal.LINE_NAMES
        )
        years_total = Row(key="all-years", name=_("All years"), figures=figures)

    return FiscalTables(
        scenario=ScenarioSummary(
            participation=format_percent(scenario.participation),
            fiscal_year=scenario.fiscal_year or "",
            fraction=format_percent(effect.fraction),
            has_phase_in=bool(effect.years),
        ),
        cards=tuple(Figure(line, format_line(line, getattr(effect.national, line)), links.url(line))
                    for line in CARD_LINES),
        columns=columns,
        rows=rows,
        total=total,
        gap=_gap(effect.small_employer_gap, offer),
        who_pays_chart=_chart(effect, names, WHO_PAYS_LINES, stacked=True),
        programs_chart=_chart(effect, names, PROGRAM_LINES, stacked=False),
        years=years,
        years_total=years_total,
        csv_url=_with_query(reverse("grants:fiscal_csv", args=[slug]), query),
        page_url=_with_query(reverse("grants:fiscal", args=[slug]), query),
    )


def _chart(effect: fiscal.Effect, names: dict[str, str], lines: tuple[str, ...], *, stacked: bool) -> dict:
    """Chart data for json_script: labels by P/T code, money as strings; each series' label for the legend,
    and with its colon for the tooltip ("Coût fédéral : 300 000 000 $")."""
    return {
        "stacked": stacked,
        "labels": [lines_.code for lines_ in effect.by_jurisdiction],
        "names": [names.get(lines_.code, lines_.code) for lines_ in effect.by_jurisdiction],
        "series": [
            {
                "key": line,
                "label": str(LINE_LABELS[line]),
                "label_colon": colon(LINE_LABELS[line]),
                "values": [str(fiscal.money(getattr(lines_, line))) for lines_ in effect.by_jurisdiction],
            }
            for line in lines
        ],
    }


def _gap(gap: fiscal.SmallEmployerGap | None, offer: Offer) -> Gap | None:
    if gap is None or offer.employer_min_share is None:
        return None
    if gap.covered_by is None:
        covered_by = _("nobody: the grant is that much smaller")
    else:
        covered_by = str(GAP_COVERED_BY[gap.covered_by.value])
    return Gap(
        share=format_percent(offer.employer_min_share),
        max_grant=format_money(offer.max_grant),
        employer_minimum=format_money(gap.employer_minimum),
        employer_regular=format_money(offer.employer_amount),
        gap=format_money(gap.gap),
        covered_by=covered_by,
    )


def scenario_controls(*, offer: Offer, params, effect: fiscal.Effect | None,
                      error: fiscal.InvalidScenario | None) -> ScenarioControls:
    """The scenario form's values: the scenario used when there is one, else what was typed."""
    phase_in = [(step.fiscal_year, step.fraction) for step in offer.phase_in.all()]
    if effect is not None:
        participation = format_decimal(effect.scenario.participation, 10)  # "0,5" on a French page
        chosen = effect.scenario.fiscal_year or ""
    else:
        participation = params.get("participation", "1") or "1"
        chosen = params.get("fiscal_year", "")
    options = [
        # Short enough for a phone's select; the help under it says what the share is.
        YearOption(year, _("%(year)s (%(fraction)s)")
                   % {"year": format_fiscal_year(year), "fraction": format_percent(fraction)}, year == chosen)
        for year, fraction in phase_in
    ]
    if phase_in and chosen and chosen not in {year for year, _fraction in phase_in}:
        options.append(YearOption(chosen, chosen, True))
    return ScenarioControls(
        action=reverse("grants:fiscal", args=[offer.slug]),
        participation=participation,
        fiscal_years=tuple(options),
        error=scenario_problem(error, params) if error else None,
    )


# The engine's and the scenario parser's sentences (English, as the API gives them), in the reader's language: first
# those the field's help already says in other words, then those that say more (shown with the help).
_SAID_BY_HELP = (
    gettext_noop("must be between 0 and 1 (got %(value)s)"),
    gettext_noop("Participation must be a number between 0 and 1."),
    gettext_noop("'%(year)s' is not a fiscal year written like 2014-15"),
    gettext_noop("'%(year)s' does not span two consecutive years"),
)
_RESTATED_BY_HELP = sentence_patterns(_SAID_BY_HELP)
_SCENARIO_DETAILS = _RESTATED_BY_HELP + sentence_patterns((
    gettext_noop("Participation has at most %(places)s decimal places."),
    gettext_noop("'%(year)s' is not a year of the record: from %(first)s to %(last)s"),
))


def scenario_detail(error: fiscal.InvalidScenario) -> str:
    """What is wrong with the assumption, in the reader's language (the page's message, the API's detail)."""
    return translated(error.message, _SCENARIO_DETAILS)


def scenario_problem(error: fiscal.InvalidScenario, params) -> ScenarioProblem:
    return ScenarioProblem(
        field=error.field,
        label=str(SCENARIO_FIELD_LABELS.get(error.field, error.field)),
        value=params.get(error.field, ""),
        help=str(SCENARIO_FIELD_HELP.get(error.field, "")),
        detail=scenario_detail(error),
        detail_in_english=error.message,
    )


def terms_problems(error: fiscal.InvalidTerms) -> tuple[TermsProblem, ...]:
    """Each problem with an offer's terms, naming the term as the offer form does."""
    return tuple(
        TermsProblem(field=problem.field, label=str(TERMS_FIELD_LABELS.get(problem.field, problem.field)),
                     message=problem.message)
        for problem in error.errors
    )


def terms_summary(offer: Offer) -> tuple[TermsLine, ...]:
    """The offer's terms in words (its funding sources, treatments and phase-in prefetched)."""
    sources: dict[str, list[str]] = {"federal": [], "provincial": []}
    for row in offer.funding_sources.all():
        sources[row.payer].append(f"{Program(row.program).label} {format_money(row.amount)}")

    def with_sources(amount: Decimal, payer: str) -> str:
        listed = sources.get(payer)
        return f"{format_money(amount)} ({'; '.join(listed)})" if listed else format_money(amount)

    summary = [
        TermsLine(_("Maximum grant per trainee"), format_money(offer.max_grant)),
        TermsLine(_("Federal per trainee"), with_sources(offer.federal_amount, "federal")),
        TermsLine(_("Provincial per trainee"), with_sources(offer.provincial_amount, "provincial")),
        TermsLine(_("Employer per trainee"), format_money(offer.employer_amount)),
        TermsLine(_("Scale"), _("%(amount)s a year from the %(program)s") % {
            "amount": format_money(offer.scale_amount), "program": Program(offer.scale_program).label}),
        TermsLine(_("Liable for an employer shortfall"), str(offer.get_shortfall_liability_display())),
    ]
    if offer.employer_min_share is not None:
        covered = GAP_COVERED_BY.get(offer.small_employer_gap_payer) or _("nobody: the grant is smaller")
        summary.append(TermsLine(_("Employer minimum share"), _("%(share)s, gap covered by %(payer)s") % {
            "share": format_percent(offer.employer_min_share), "payer": covered}))
    treatments = [f"{colon(row.jurisdiction.name)} {row.get_treatment_display()}"
                  for row in offer.treatments.all() if row.treatment != Treatment.PARTICIPATES]
    summary.append(TermsLine(_("Provinces and territories"),
                             "; ".join(treatments) if treatments else _("all participate")))
    steps = [f"{colon(format_fiscal_year(row.fiscal_year))} {format_percent(row.fraction)}"
             for row in offer.phase_in.all()]
    summary.append(TermsLine(_("Phase-in"), "; ".join(steps) if steps else _("none: full scale every year")))
    return tuple(summary)


def explanation(*, effect: fiscal.Effect, names: dict[str, str], line: str, code: str, all_years: bool,
                close_url: str) -> Explanation:
    """The trace of one number, or why there is none (an unknown line, P/T or total)."""
    if line not in fiscal.LINE_NAMES:
        return Explanation(None, _("There is no line called “%(line)s”.") % {"line": line}, close_url)
    codes = {lines.code for lines in effect.by_jurisdiction}
    if code and code not in codes:
        return Explanation(None, _("“%(code)s” is not a province or territory.") % {"code": code}, close_url)
    if all_years:
        if effect.multi_year_total is None:
            return Explanation(None, _("This offer has no phase-in, so there is no multi-year total."), close_url)
        trace = fiscal.Trace(
            line=line,
            code=None,
            value=getattr(effect.multi_year_total, line),
            formula=f"sum of {line} over the {len(effect.years)} fiscal years of the phase-in",
            inputs=tuple((format_fiscal_year(year.fiscal_year), getattr(year.national, line)) for year in effect.years),
        )
        where = _("All provinces and territories, all years")
    else:
        trace = effect.explain(line, code or None)
        where = names.get(code, code) if code else _("All provinces and territories")
        if effect.scenario.fiscal_year:
            where = f"{where}, {format_fiscal_year(effect.scenario.fiscal_year)}"
    return Explanation(
        trace=TraceView(
            label=str(LINE_LABELS[line]),
            where=where,
            value=format_line(line, trace.value),
            formula=trace_text(trace.formula),
            inputs=tuple((names.get(name) or trace_text(name), format_input(name, value))
                         for name, value in trace.inputs),
        ),
        problem="",
        close_url=close_url,
    )


# ---------------------------------------------------------------------------
# The comparison page


@dataclass(frozen=True)
class CompareLine:
    line: str
    a: str
    b: str
    change: Figure

    @property
    def label(self) -> str:
        return LINE_LABELS[self.line]


@dataclass(frozen=True)
class CompareJurisdiction:
    code: str
    name: str
    lines: tuple[CompareLine, ...]


@dataclass(frozen=True)
class ComparisonTables:
    national: tuple[CompareLine, ...]
    columns: tuple[Column, ...]
    change_rows: tuple[Row, ...]
    change_total: Row
    jurisdictions: tuple[CompareJurisdiction, ...]


def comparison_tables(comparison: fiscal.Comparison, names: dict[str, str]) -> ComparisonTables:
    """Offer b against offer a: both sides and b − a, nationally and for each P/T."""

    def compare_lines(a: fiscal.Lines, b: fiscal.Lines, change: fiscal.Lines) -> tuple[CompareLine, ...]:
        return tuple(
            CompareLine(line, format_line(line, getattr(a, line)), format_line(line, getattr(b, line)),
                        _change(line, getattr(change, line)))
            for line in fiscal.LINE_NAMES
        )

    def change_row(change: fiscal.Lines, name: str, key: str) -> Row:
        figures = tuple(_change(line, getattr(change, line)) for line in fiscal.LINE_NAMES)
        return Row(key=key, name=name, figures=figures)

    triples = list(zip(comparison.a.by_jurisdiction, comparison.b.by_jurisdiction, comparison.by_jurisdiction))
    return ComparisonTables(
        national=compare_lines(comparison.a.national, comparison.b.national, comparison.national),
        columns=COLUMNS,
        change_rows=tuple(change_row(change, names.get(change.code, change.code), change.code)
                          for _a, _b, change in triples),
        change_total=change_row(comparison.national, _("All provinces and territories"), "total"),
        jurisdictions=tuple(
            CompareJurisdiction(change.code, names.get(change.code, change.code), compare_lines(a, b, change))
            for a, b, change in triples
        ),
    )


def _change(line: str, value: int | Decimal) -> Figure:
    return Figure(line, format_change(line, value), reading=reading(line, value))
