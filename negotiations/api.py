"""The record as read-only JSON (contract: shared design API.md).

Jurisdictions, offers with their terms, a jurisdiction's timeline, people, meetings, statements and
positions. Every list is paginated the same way (ninja's `paginate` with `LimitOffset`) and costs a fixed number of
queries whatever the amount of data: the selectors own the joins.

`Money` and `Fraction` are the one place where amounts and shares are written for JSON;
the grants API uses them too (grants reads negotiations, never the other way round).
"""

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Annotated, Any, Literal

from django.db.models import Prefetch, Q, QuerySet, TextChoices
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError
from ninja.pagination import PaginationBase, paginate
from pydantic import PlainSerializer, WithJsonSchema

from negotiations.acceptance import resolve_term
from negotiations.models import (
    Condition,
    DatePrecision,
    FundingSource,
    Jurisdiction,
    JurisdictionTreatment,
    Language,
    Liability,
    Meeting,
    Negotiation,
    Offer,
    PhaseInStep,
    Position,
    Program,
    Source,
    Stance,
    Statement,
    Treatment,
)
from negotiations.selectors import offer_list, verdicts
from negotiations.selectors.record import meeting_list, person_list, statement_list
from negotiations.term_basis import failure_reason, offer_basis
from negotiations.timeline import EventKind, jurisdiction_timeline

router = Router(tags=["record"])

# ---------------------------------------------------------------------------
# How values are written


_CENT = Decimal("0.01")


def money_json(value: Decimal) -> str:
    """An amount of money for JSON: a string with exactly two decimals, such as "300000000.00"."""
    cents = Decimal(value).quantize(_CENT, rounding=ROUND_HALF_EVEN)
    return f"{cents if cents else abs(cents):f}"  # never "-0.00"


def fraction_json(value: Decimal) -> str:
    """A share for JSON: a decimal string without trailing zeros, such as "0.15" or "1.0"."""
    text = f"{Decimal(value).normalize():f}" if value else "0"
    return text if "." in text else f"{text}.0"


Money = Annotated[
    Decimal,
    PlainSerializer(money_json, return_type=str),
    WithJsonSchema({"type": "string", "pattern": r"^-?[0-9]+\.[0-9]{2}$", "examples": ["300000000.00"]}),
]
Fraction = Annotated[
    Decimal,
    PlainSerializer(fraction_json, return_type=str),
    WithJsonSchema({"type": "string", "pattern": r"^[0-9]+\.[0-9]+$", "examples": ["0.15"]}),
]


def choices(enum: type[TextChoices]) -> Any:
    """A model's choices as a Literal type, so that the OpenAPI document lists the values."""
    return Literal[tuple(enum.values)]


SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
CODE_PATTERN = r"^[A-Za-z]{2}$"
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f]+$"


def _or_none(text: str) -> str | None:
    """Blank optional text is written as null."""
    return text or None


# ---------------------------------------------------------------------------
# Pagination: {"items": [...], "count": N} with limit and offset, through ninja's own `paginate`

MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000_000  # far beyond any real list, and within every database's OFFSET


@dataclass(frozen=True)
class Counted:
    """One page a list read itself (such as the timeline, which windows its events), and the total count."""

    items: list
    count: int


class Page(Schema):
    limit: int = Field(100, ge=1, le=MAX_LIMIT, description=f"How many items to return (1 to {MAX_LIMIT}).")
    offset: int = Field(0, ge=0, le=MAX_OFFSET, description="How many items to skip.")


class LimitOffset(PaginationBase):
    """ninja's pagination with the contract's `limit` and `offset`, each bounded (out of range is 422).

    `item` writes each row of the page as JSON. The count is one query, then the page is the queryset's
    own queries; a view that reads its page itself (``pass_parameter``) returns it as `Counted`.
    """

    Input = Page

    class Output(Schema):
        items: list[Any]
        count: int = Field(description="How many items match, over all pages.")

    def __init__(self, *, item: Callable[[Any], dict] | None = None, **kwargs: Any) -> None:
        self.item = item
        super().__init__(**kwargs)

    def paginate_queryset(self, queryset: QuerySet | Counted, pagination: Page, request, **params) -> dict:
        if isinstance(queryset, Counted):
            return {"items": queryset.items, "count": queryset.count}
        count = queryset.count()
        rows = queryset[pagination.offset: pagination.offset + pagination.limit]
        return {"items": [self.item(row) for row in rows], "count": count}


class Error(Schema):
    detail: str


# ---------------------------------------------------------------------------
# Jurisdictions and negotiations named by a parameter

CodeFilter = Annotated[
    str | None,
    Field(None, pattern=CODE_PATTERN, description="A jurisdiction code, such as ON; a code no jurisdiction has is 422."),
]
SlugFilter = Annotated[
    str | None, Field(None, pattern=SLUG_PATTERN, max_length=150,
                        description="A slug, such as canada-job-grant; a slug nothing has is 422.")
]


class JurisdictionAndNegotiation(Schema):
    jurisdiction: CodeFilter
    negotiation: SlugFilter


def _jurisdiction_named(code: str | None, *, parameter: str = "jurisdiction") -> Jurisdiction | None:
    """The jurisdiction a filter names (one query; none without a filter), or 422 naming the parameter."""
    if code is None:
        return None
    jurisdiction = Jurisdiction.objects.filter(code=code.upper()).first()
    if jurisdiction is None:
        raise HttpError(422, f"{parameter}: " + _("no jurisdiction has the code '%(code)s'.") % {"code": code})
    return jurisdiction


def _negotiation_named(slug: str | None) -> Negotiation | None:
    """The negotiation a filter names (one query; none without a filter), or 422 naming the parameter."""
    if slug is None:
        return None
    negotiation = Negotiation.objects.filter(slug=slug).first()
    if negotiation is None:
        raise HttpError(422, "negotiation: " + _("no negotiation has the slug '%(slug)s'.") % {"slug": slug})
    return negotiation


# ---------------------------------------------------------------------------
# Jurisdictions


class JurisdictionOut(Schema):
    code: str
    name_en: str
    name_fr: str
    kind: choices(Jurisdiction.Kind)
    population: int
    population_date: datetime.date


def _jurisdiction_item(jurisdiction: Jurisdiction) -> dict:
    return {
        "code": jurisdiction.code,
        "name_en": jurisdiction.name_en,
        "name_fr": jurisdiction.name_fr,
        "kind": jurisdiction.kind,
        "population": jurisdiction.population,
        "population_date": jurisdiction.population_date,
    }


@router.get("/jurisdictions", response={200: list[JurisdictionOut], 422: Error}, summary="Jurisdictions")
@paginate(LimitOffset, item=_jurisdiction_item)
def jurisdictions(request):
    """The federal government and the 13 provinces and territories, in display order (two queries)."""
    return Jurisdiction.objects.order_by("order", "code")


class TimelineEventOut(Schema):
    date: datetime.date
    date_precision: choices(DatePrecision)
    kind: choices(EventKind)
    title: str
    url: str = Field(description="The page that shows the event.")


class TimelineFilters(Schema):
    kind: choices(EventKind) | None = Field(None, description="Only events of this kind.")
    negotiation: SlugFilter


@router.get("/jurisdictions/{code}/timeline", response={200: list[TimelineEventOut], 404: Error, 422: Error},
            summary="A jurisdiction's timeline")
@paginate(LimitOffset, pass_parameter="page")
def jurisdiction_timeline_events(request, code: str, filters: Query[TimelineFilters], **kwargs):
    """A jurisdiction's dated positions, statements, meetings and offers, newest first (at most seven queries, one
    more with a negotiation)."""
    # Only two letters reach the database: any other code is unknown, whatever it holds.
    jurisdiction = Jurisdiction.objects.filter(code=code.upper()).first() if re.fullmatch(CODE_PATTERN, code) else None
    if jurisdiction is None:
        raise Http404(_("No jurisdiction has the code '%(code)s'.") % {"code": code})
    # A slug no negotiation has is 422, as the parameter says (it answered an empty list).
    negotiation = _negotiation_named(filters.negotiation)
    events, count = jurisdiction_timeline(
        jurisdiction=jurisdiction,
        negotiation_slug=negotiation.slug if negotiation else None,
        kinds=[filters.kind] if filters.kind else None,
        offset=kwargs["page"].offset,
        limit=kwargs["page"].limit,
    )
    items = [
        {
            "date": event.date,
            "date_precision": event.date_precision,
            "kind": event.kind,
            "title": event.title,
            "url": request.build_absolute_uri(event.url),
        }
        for event in events
    ]
    return Counted(items, count)


# ---------------------------------------------------------------------------
# Offers


class OfferOut(Schema):
    slug: str
    title: str
    negotiation: str = Field(description="The negotiation's slug.")
    tabled_by: list[str] = Field(description="Codes of the jurisdictions that tabled the offer.")
    tabled_on: datetime.date
    date_precision: choices(DatePrecision)
    status: choices(Offer.Status)
    responds_to: str | None = Field(description="The slug of the offer this one answers, or null.")


class Split(Schema):
    federal: Money
    provincial: Money
    employer: Money


class Sources(Schema):
    federal: dict[choices(Program), Money]
    provincial: dict[choices(Program), Money]


class Scale(Schema):
    program: choices(Program)
    amount: Money


class PhaseInOut(Schema):
    fiscal_year: str
    fraction: Fraction


class TermsOut(Schema):
    max_grant: Money
    split: Split = Field(description="Money per trainee from each payer; they add up to max_grant.")
    sources: Sources = Field(description="Where each government's money per trainee comes from, by program.")
    scale: Scale = Field(description="The national amount drawn from one program.")
    employer_min_share: Fraction | None
    small_employer_gap_payer: Literal["federal", "provincial"] | None = Field(
        description="Who covers the gap the employer minimum share opens; null: nobody, the grant is smaller."
    )
    shortfall_liability: choices(Liability)
    treatments: dict[str, choices(Treatment)] = Field(description="Each of the 13 P/Ts by code.")
    phase_in: list[PhaseInOut]
    assumptions: str = Field(description="How the sources were read where they leave a term open.")


class TermBasisOut(Schema):
    status: Literal["reported", "inferred", "assumed"] | None = Field(
        description="How the term is known; null when no basis was given (never taken as reported)."
    )
    source: str | None = Field(description="The slug of the source it rests on, or null.")
    note: str = Field(
        description="How it was read: the passage (reported), the reasoning (inferred) or the assumption."
    )


class OfferDetailOut(OfferOut):
    terms: TermsOut
    terms_basis: dict[str, TermBasisOut] = Field(description="Every term path's basis (API.md).")
    agreed_on: datetime.date | None = Field(
        description="When the tabling governments agreed the offer, when that differs from tabled_on; else null."
    )


def _terms_basis(offer: Offer) -> dict:
    """Every term path of the offer with its basis (two queries)."""
    result = {}
    for line in offer_basis(offer).lines:
        row = line.row
        if row is None:
            result[line.term] = {"status": None, "source": None, "note": "No basis given."}
        else:
            result[line.term] = {"status": row.status, "source": row.source.slug if row.source_id else None,
                                 "note": row.note or row.passage}
    return result


class OfferFilters(Schema):
    negotiation: SlugFilter
    status: choices(Offer.Status) | None = None
    tabled_by: CodeFilter


def _offer_item(offer: Offer) -> dict:
    return {
        "slug": offer.slug,
        "title": offer.title,
        "negotiation": offer.negotiation.slug,
        "tabled_by": [jurisdiction.code for jurisdiction in offer.tabled_by.all()],
        "tabled_on": offer.tabled_on,
        "date_precision": offer.date_precision,
        "status": offer.status,
        "responds_to": offer.responds_to.slug if offer.responds_to_id else None,
    }


@router.get("/offers", response={200: list[OfferOut], 422: Error}, summary="Offers")
@paginate(LimitOffset, item=_offer_item)
def offers(request, filters: Query[OfferFilters]):
    """Offers, newest first (three queries, one more for each of negotiation and tabled_by)."""
    tabled_by = _jurisdiction_named(filters.tabled_by, parameter="tabled_by")
    queryset = offer_list(
        negotiation=_negotiation_named(filters.negotiation),
        status=filters.status,
        tabled_by=tabled_by.code if tabled_by else None,
    ).order_by("-tabled_on", "title", "pk")
    return queryset


def _offer_with_terms(slug: str) -> Offer:
    """One offer with the rows its terms are made of (five queries)."""
    offer = (
        Offer.objects.select_related("negotiation", "responds_to")
        .prefetch_related(
            Prefetch("tabled_by", queryset=Jurisdiction.objects.only("code", "order")),
            Prefetch("funding_sources", queryset=FundingSource.objects.order_by("payer", "program")),
            Prefetch("treatments", queryset=JurisdictionTreatment.objects.select_related("jurisdiction")),
            Prefetch("phase_in", queryset=PhaseInStep.objects.order_by("fiscal_year")),
        )
        .filter(slug=slug)
        .first()
    )
    if offer is None:
        raise no_offer(slug)
    return offer


def no_offer(slug: str) -> Http404:
    """The API's 404 for an offer slug nothing has (both apps' endpoints raise it)."""
    return Http404(_("No offer has the slug '%(slug)s'.") % {"slug": slug})


def _terms(offer: Offer) -> dict:
    sources: dict[str, dict[str, Decimal]] = {"federal": {}, "provincial": {}}
    for row in offer.funding_sources.all():
        sources[row.payer][row.program] = row.amount
    # A province or territory without a row participates.
    codes = Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).order_by("order", "code")
    treatments = dict.fromkeys(codes.values_list("code", flat=True), Treatment.PARTICIPATES.value)
    treatments.update((row.jurisdiction.code, row.treatment) for row in offer.treatments.all())
    return {
        "max_grant": offer.max_grant,
        "split": {
            "federal": offer.federal_amount,
            "provincial": offer.provincial_amount,
            "employer": offer.employer_amount,
        },
        "sources": sources,
        "scale": {"program": offer.scale_program, "amount": offer.scale_amount},
        "employer_min_share": offer.employer_min_share,
        "small_employer_gap_payer": offer.small_employer_gap_payer or None,
        "shortfall_liability": offer.shortfall_liability,
        "treatments": treatments,
        "phase_in": [{"fiscal_year": step.fiscal_year, "fraction": step.fraction} for step in offer.phase_in.all()],
        "assumptions": offer.assumptions,
    }


@router.get("/offers/{slug:slug}", response={200: OfferDetailOut, 404: Error}, summary="One offer and its terms")
def offer(request, slug: str):
    """One offer with its terms and their basis (eight queries)."""
    offer = _offer_with_terms(slug)
    return {**_offer_item(offer), "terms": _terms(offer), "terms_basis": _terms_basis(offer),
            "agreed_on": offer.agreed_on if offer.agreed_on != offer.tabled_on else None}


class FailingOut(Schema):
    term: str = Field(description="The term path checked, such as sources.federal.LMA.")
    text: str = Field(description="The condition, in words.")
    reason: str = Field(description="What the terms give against what the condition asks, and by how much.")


class VerdictOut(Schema):
    jurisdiction: str
    verdict: Literal["meets", "fails", "unknown"]
    failing: list[FailingOut]


class AcceptanceOut(Schema):
    items: list[VerdictOut]
    count: int
    meets: int = Field(description="How many provinces and territories the offer meets.")


def acceptance_json(acceptance: verdicts.Acceptance, page: Page | None = None) -> dict:
    """The API's shape of the 13 verdicts (also used for scenarios); with ``page``, that page of them (``count`` and
    ``meets`` stay the whole list's)."""
    verdicts_shown = acceptance.verdicts if page is None else acceptance.verdicts[page.offset: page.offset + page.limit]
    items = [
        {"jurisdiction": v.jurisdiction, "verdict": v.verdict,
         "failing": [{"term": f.term, "text": f.condition.text, "reason": failure_reason(f)} for f in v.failing]}
        for v in verdicts_shown
    ]
    return {"items": items, "count": len(acceptance.verdicts), "meets": acceptance.meets}


@router.get("/offers/{slug:slug}/acceptance", response={200: AcceptanceOut, 404: Error, 422: Error},
            summary="Who would sign an offer")
def offer_acceptance(request, slug: str, page: Query[Page]):
    """For each P/T, whether the offer meets the conditions of its position in force when the offer was
    tabled: ``meets``, ``fails`` (with the conditions it fails) or ``unknown`` (seven queries). Paged with
    ``limit`` and ``offset`` as every list is."""
    return acceptance_json(verdicts.offer_acceptance(_offer_with_terms(slug)), page)


# ---------------------------------------------------------------------------
# People, meetings, statements, positions


class RoleOut(Schema):
    title: str
    jurisdiction: str | None = Field(description="The jurisdiction's code, or null for an organisation's role.")
    organization: str | None
    start: datetime.date | None
    end: datetime.date | None


class PersonOut(Schema):
    name: str
    roles: list[RoleOut] = Field(description="Newest first.")


def _person_item(person) -> dict:
    return {
        "name": person.name,
        "roles": [
            {
                "title": role.title,
                "jurisdiction": role.jurisdiction.code if role.jurisdiction_id else None,
                "organization": _or_none(role.organization),
                "start": role.start,
                "end": role.end,
            }
            for role in person.roles.all()
        ],
    }


@router.get("/people", response={200: list[PersonOut], 422: Error}, summary="People")
@paginate(LimitOffset, item=_person_item)
def people(request):
    """People by name with their roles (three queries)."""
    return person_list().order_by("name", "pk")


class MeetingOut(Schema):
    slug: str
    title: str
    date: datetime.date
    date_precision: choices(DatePrecision)
    kind: choices(Meeting.Kind)
    location: str | None
    jurisdictions: list[str] = Field(description="Codes of the jurisdictions present.")


def _meeting_item(meeting: Meeting) -> dict:
    return {
        "slug": meeting.slug,
        "title": meeting.title,
        "date": meeting.date,
        "date_precision": meeting.date_precision,
        "kind": meeting.kind,
        "location": _or_none(meeting.location),
        "jurisdictions": [jurisdiction.code for jurisdiction in meeting.jurisdictions.all()],
    }


@router.get("/meetings", response={200: list[MeetingOut], 422: Error}, summary="Meetings")
@paginate(LimitOffset, item=_meeting_item)
def meetings(request, filters: Query[JurisdictionAndNegotiation]):
    """Meetings, newest first (three queries, one more for each filter)."""
    queryset = meeting_list().order_by("-date", "title", "pk")
    jurisdiction = _jurisdiction_named(filters.jurisdiction)
    if jurisdiction is not None:
        queryset = queryset.filter(jurisdictions=jurisdiction)
    negotiation = _negotiation_named(filters.negotiation)
    if negotiation is not None:
        queryset = queryset.filter(negotiation=negotiation)
    return queryset


class SourceOut(Schema):
    outlet: str
    title: str
    url: str | None


class SourceListOut(Schema):
    slug: str
    outlet: str
    author: str | None
    title: str
    published: datetime.date
    date_precision: choices(DatePrecision)
    url: str | None = Field(description="Where the article is online; null when it is not known.")
    archive_url: str | None = Field(description="An archived copy, when there is one.")
    citation: str = Field(description="Outlet, author, title and date: enough to find the source without a link.")


def citation(source: Source) -> str:
    """A full citation of a source in plain text: outlet, author (when known), title, date."""
    parts = [source.outlet]
    if source.author:
        parts.append(source.author)
    parts.append(f"“{source.title}”")
    parts.append(source.published_on.isoformat() + ("" if source.date_precision == DatePrecision.DAY
                                                    else f" ({source.date_precision})"))
    return ", ".join(parts)


def _source_item(source: Source) -> dict:
    return {
        "slug": source.slug,
        "outlet": source.outlet,
        "author": _or_none(source.author),
        "title": source.title,
        "published": source.published_on,
        "date_precision": source.date_precision,
        "url": _or_none(source.url),
        "archive_url": _or_none(source.archive_url),
        "citation": citation(source),
    }


@router.get("/sources", response={200: list[SourceListOut], 422: Error}, summary="Sources")
@paginate(LimitOffset, item=_source_item)
def sources(request):
    """Sources, newest first (two queries)."""
    return Source.objects.defer("text", "summary").order_by("-published_on", "outlet", "pk")


class StatementOut(Schema):
    ref: str | None = Field(description="The statement's stable slug, which a position's evidence names it by.")
    speaker: str = Field(description="The speaker's name.")
    jurisdiction: str | None = Field(description="The code of the government spoken for; null for stakeholders.")
    date: datetime.date
    date_precision: choices(DatePrecision)
    language: choices(Language)
    quote: str
    source: SourceOut


class StatementFilters(Schema):
    jurisdiction: CodeFilter
    speaker: str | None = Field(
        None, min_length=1, max_length=150, pattern=NO_CONTROL_CHARACTERS,
        description="A person's slug, or their name (any case).",
    )
    negotiation: SlugFilter


def _statement_item(statement) -> dict:
    return {
        "ref": statement.ref,
        "speaker": statement.speaker.name,
        "jurisdiction": statement.jurisdiction.code if statement.jurisdiction_id else None,
        "date": statement.date,
        "date_precision": statement.date_precision,
        "language": statement.language,
        "quote": statement.quote,
        "source": {
            "outlet": statement.source.outlet,
            "title": statement.source.title,
            "url": _or_none(statement.source.url),
        },
    }


@router.get("/statements", response={200: list[StatementOut], 422: Error}, summary="Statements")
@paginate(LimitOffset, item=_statement_item)
def statements(request, filters: Query[StatementFilters]):
    """Statements, newest first, without retracted ones (two queries, one more for each of jurisdiction and
    negotiation)."""
    queryset = statement_list(
        jurisdiction=_jurisdiction_named(filters.jurisdiction),
        negotiation=_negotiation_named(filters.negotiation),
    ).filter(retracted=False)
    if filters.speaker:
        queryset = queryset.filter(Q(speaker__slug=filters.speaker) | Q(speaker__name__iexact=filters.speaker))
    return queryset


class ConditionOut(Schema):
    term: str = Field(description="A term path, such as sources.federal.LMA or treatments.QC.")
    operator: str = Field(description="eq, ne, le, ge, lt, gt or in.")
    value: str
    text: str


class PositionOut(Schema):
    jurisdiction: str
    negotiation: str = Field(description="The negotiation's slug.")
    as_of: datetime.date
    date_precision: choices(DatePrecision)
    stance: choices(Stance)
    summary: str
    conditions: list[ConditionOut] = Field(description="The conditions that can be checked against an offer's terms.")
    evidence: list[str] = Field(description="The refs of the statements that evidence the position.")


def _position_item(position: Position) -> dict:
    return {
        "jurisdiction": position.jurisdiction.code,
        "negotiation": position.negotiation.slug,
        "as_of": position.as_of,
        "date_precision": position.date_precision,
        "stance": position.stance,
        "summary": position.summary,
        "conditions": [
            {"term": resolve_term(c.term, position.jurisdiction.code), "operator": c.operator, "value": c.value,
             "text": c.text}
            for c in position.checks.all()
        ],
        "evidence": [statement.ref for statement in position.evidence.all() if statement.ref],
    }


@router.get("/positions", response={200: list[PositionOut], 422: Error}, summary="Positions")
@paginate(LimitOffset, item=_position_item)
def positions(request, filters: Query[JurisdictionAndNegotiation]):
    """Positions, newest first, with their conditions and evidence (four queries, one more for each filter)."""
    queryset = Position.objects.select_related("jurisdiction", "negotiation").prefetch_related(
        Prefetch("checks", queryset=Condition.objects.filter(kind=Condition.Kind.CHECK).order_by("order", "pk")),
        Prefetch("evidence", queryset=Statement.objects.only("pk", "ref").order_by("date", "pk")),
    ).order_by("-as_of", "jurisdiction__order", "pk")
    jurisdiction = _jurisdiction_named(filters.jurisdiction)
    if jurisdiction is not None:
        queryset = queryset.filter(jurisdiction=jurisdiction)
    negotiation = _negotiation_named(filters.negotiation)
    if negotiation is not None:
        queryset = queryset.filter(negotiation=negotiation)
    return queryset
