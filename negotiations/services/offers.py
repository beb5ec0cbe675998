"""Writes of offers: an offer and all its terms in one transaction, with the acting user in history.

Terms that do not add up are refused with the rule set the admin uses
(`negotiations.terms.check_terms`), so the web form, the admin and these
services give the same messages. An edit names the version it started from:
when someone else saved the offer in between, it is refused rather than
silently overwriting their change.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.numbers import format_date
from negotiations import record_cache
from negotiations.models import (
    DatePrecision,
    FundingSource,
    Jurisdiction,
    JurisdictionTreatment,
    Meeting,
    Negotiation,
    Offer,
    PhaseInStep,
    Source,
    TermBasis,
    Treatment,
)
from negotiations.terms import SCALAR_FIELDS, OfferTerms, TermBasisEntry, TermsProblem, check_basis

__all__ = [
    "InvalidOfferTerms",
    "OfferAlreadyWithdrawn",
    "OfferChangedMeanwhile",
    "OfferSlugTaken",
    "offer_create",
    "offer_update",
    "offer_withdraw",
]

SLUG_MAX_LENGTH = Offer._meta.get_field("slug").max_length
# simple_history stores the change reason in a CharField(max_length=100).
CHANGE_REASON_MAX_LENGTH = 100


# ---------------------------------------------------------------------------
# What can go wrong


class InvalidOfferTerms(Exception):
    """The terms do not add up; ``problems`` lists each broken rule with the field at fault."""

    def __init__(self, problems: Iterable[TermsProblem]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{problem.field}: {problem.message}" for problem in self.problems))


class OfferChangedMeanwhile(Exception):
    """Someone saved the offer after the editor opened it; nothing was written."""

    def __init__(self, *, offer: Offer, expected_version: int, current_version: int | None):
        self.offer = offer
        self.expected_version = expected_version
        self.current_version = current_version
        super().__init__(
            _("Someone else saved this offer while you were editing it (you started from version %(expected)s, "
              "it is now at version %(current)s). Nothing was saved.")
            % {"expected": expected_version, "current": current_version}
        )


class OfferSlugTaken(Exception):
    """Another offer already has this address."""

    def __init__(self, *, slug: str):
        self.slug = slug
        super().__init__(
            _("Another offer already uses the address “%(slug)s”. Choose another one, or leave it empty to "
              "have one made from the title.") % {"slug": slug}
        )


class OfferAlreadyWithdrawn(Exception):
    """An offer is withdrawn once."""

    def __init__(self, *, offer: Offer):
        self.offer = offer
        super().__init__(_("This offer was already withdrawn."))


# ---------------------------------------------------------------------------
# Services


def offer_create(
    *,
    actor: AbstractBaseUser | None,
    negotiation: Negotiation,
    title: str,
    tabled_by: Iterable[Jurisdiction],
    tabled_on: datetime.date,
    terms: OfferTerms,
    slug: str = "",
    date_precision: str = DatePrecision.DAY,
    responds_to: Offer | None = None,
    status: str = Offer.Status.TABLED,
    summary: str = "",
    sources: Iterable[Source] = (),
    meeting: Meeting | None = None,
    title_fr: str = "",
    summary_fr: str = "",
    assumptions_fr: str = "",
    agreed_on: datetime.date | None = None,
    basis: Iterable[TermBasisEntry] | None = None,
) -> Offer:
    """Record a new offer with its terms: funding sources, treatments and phase-in, all or nothing.

    An empty ``slug`` is made from the title (with a number added if needed). ``basis`` gives
    the basis of its terms (``negotiations.terms.check_basis`` rules; source keys are slugs).
    Raises InvalidOfferTerms, OfferSlugTaken, or ValidationError keyed by field.
    """
    tabled_by = list(tabled_by)
    _refuse_broken_terms(terms)
    basis_rows = _basis_rows(basis)
    with transaction.atomic():
        # the version's lock first, as every writer takes it: a second post of the same offer waits for the first
        record_cache.record_changed()
        jurisdictions = _treated_jurisdictions(terms)
        offer = Offer(
            negotiation=negotiation, slug=slug or _free_slug(title),
            tabled_on=tabled_on, date_precision=date_precision, responds_to=responds_to, status=status,
            meeting=meeting, agreed_on=agreed_on,
        )
        _apply_texts(offer, title=title, summary=summary, title_fr=title_fr, summary_fr=summary_fr,
                     assumptions_fr=assumptions_fr)
        _apply_scalar_terms(offer, terms)
        _validate(offer, tabled_by=tabled_by, previous_status=None)
        _attribute_to(offer, actor)
        # One history record for the creation, holding the governments and sources too: the first
        # save and the many-to-many writes record nothing, the last save records the whole offer.
        offer.skip_history_when_saving = True
        _save(offer)
        offer.tabled_by.set(tabled_by)
        offer.sources.set(list(sources))
        del offer.skip_history_when_saving
        offer.save(update_fields=["version"])
        offer.history.filter(history_type="~").update(history_type="+")
        _write_rows(offer, terms, jurisdictions, actor)
        if basis_rows is not None:
            _write_basis(offer, basis_rows, actor)
    return offer


def offer_update(
    *,
    actor: AbstractBaseUser | None,
    offer: Offer,
    expected_version: int,
    negotiation: Negotiation,
    title: str,
    tabled_by: Iterable[Jurisdiction],
    tabled_on: datetime.date,
    terms: OfferTerms,
    slug: str = "",
    date_precision: str = DatePrecision.DAY,
    responds_to: Offer | None = None,
    status: str = Offer.Status.TABLED,
    summary: str = "",
    sources: Iterable[Source] = (),
    meeting: Meeting | None = None,
    title_fr: str = "",
    summary_fr: str = "",
    assumptions_fr: str = "",
    agreed_on: datetime.date | None = None,
    basis: Iterable[TermBasisEntry] | None = None,
) -> Offer:
    """Replace an offer's fields and terms, provided nobody saved it since ``expected_version``.

    Only the rows that change are written, so each row's history shows real changes.
    An empty ``slug`` keeps the current one; ``basis=None`` keeps the terms' bases as they are.
    Raises OfferChangedMeanwhile, InvalidOfferTerms, OfferSlugTaken, or ValidationError keyed by field.
    """
    tabled_by = list(tabled_by)
    sources = list(sources)
    _refuse_broken_terms(terms)
    basis_rows = _basis_rows(basis)
    with transaction.atomic():
        record_cache.record_changed()  # the record version's lock before the offer's, as every writer takes them
        # Claim the version first: a concurrent save makes this match no row.
        claimed = Offer.objects.filter(pk=offer.pk, version=expected_version).update(version=F("version") + 1)
        if not claimed:
            current = Offer.objects.filter(pk=offer.pk).values_list("version", flat=True).first()
            raise OfferChangedMeanwhile(offer=offer, expected_version=expected_version, current_version=current)
        jurisdictions = _treated_jurisdictions(terms)
        offer.version = expected_version + 1
        offer.negotiation = negotiation
        _apply_texts(offer, title=title, summary=summary, title_fr=title_fr, summary_fr=summary_fr,
                     assumptions_fr=assumptions_fr)
        offer.slug = slug or offer.slug
        offer.tabled_on = tabled_on
        offer.date_precision = date_precision
        offer.responds_to = responds_to
        previous_status = Offer.objects.filter(pk=offer.pk).values_list("status", flat=True).get()
        if previous_status == Offer.Status.WITHDRAWN and status != Offer.Status.WITHDRAWN:
            # Put back on the table: no longer withdrawn on a date, for a reason (its history keeps both).
            offer.withdrawn_on, offer.withdrawal_reason = None, ""
        offer.status = status
        offer.meeting = meeting
        offer.agreed_on = agreed_on
        _apply_scalar_terms(offer, terms)
        _validate(offer, tabled_by=tabled_by, previous_status=previous_status)

        plan = _RowPlan.for_offer(offer, terms, jurisdictions)
        _attribute_to(offer, actor)
        offer._change_reason = plan.summary()
        _save(offer)
        plan.apply(actor)
        # Only changed sets are written: each write adds a history record.
        if {j.pk for j in tabled_by} != set(offer.tabled_by.values_list("pk", flat=True)):
            offer.tabled_by.set(tabled_by)
        if {s.pk for s in sources} != set(offer.sources.values_list("pk", flat=True)):
            offer.sources.set(sources)
        if basis_rows is not None:
            _write_basis(offer, basis_rows, actor)
    return offer


def withdrawal_problems(*, reason: str, withdrawn_on: datetime.date | None,
                        tabled_on: datetime.date | None) -> dict[str, str]:
    """What keeps an offer from being marked withdrawn, by field: why, and when (not before it was tabled).
    The web form, the admin and ``offer_withdraw`` apply this one rule."""
    problems = {}
    if not (reason or "").strip():
        problems["withdrawal_reason"] = _(
            "Say why the offer was withdrawn, e.g. “replaced by the January counter-offer”.")
    if withdrawn_on is None:
        problems["withdrawn_on"] = _("Give the date it was withdrawn, such as 2014-01-15.")
    elif tabled_on is not None and withdrawn_on < tabled_on:
        problems["withdrawn_on"] = _("An offer cannot be withdrawn before it was tabled (%(tabled_on)s).") % {
            "tabled_on": format_date(tabled_on)}
    return problems


def offer_withdraw(*, actor: AbstractBaseUser | None, offer: Offer, reason: str,
                   withdrawn_on: datetime.date) -> Offer:
    """Mark an offer withdrawn (it stays on the record), with why and when.

    Raises OfferAlreadyWithdrawn, or ValidationError (``withdrawal_problems``) for a missing reason or date,
    or a date before the offer was tabled.
    """
    with transaction.atomic():
        record_cache.record_changed()  # the version's lock before the offer's, as every writer takes them
        current = Offer.objects.select_for_update().get(pk=offer.pk)
        if current.status == Offer.Status.WITHDRAWN:
            raise OfferAlreadyWithdrawn(offer=current)
        problems = withdrawal_problems(reason=reason, withdrawn_on=withdrawn_on, tabled_on=current.tabled_on)
        if problems:
            raise ValidationError(problems)
        current.status = Offer.Status.WITHDRAWN
        current.withdrawn_on = withdrawn_on
        current.withdrawal_reason = reason.strip()
        # A new version, so an edit started before the withdrawal is refused instead of undoing it.
        current.version += 1
        current.full_clean()
        _attribute_to(current, actor)
        current._change_reason = _("Withdrawn: %(reason)s") % {"reason": current.withdrawal_reason}
        current.save(update_fields=["status", "version", "withdrawn_on", "withdrawal_reason"])
    offer.withdrawn_on, offer.withdrawal_reason = current.withdrawn_on, current.withdrawal_reason
    offer.status, offer.version = current.status, current.version
    return offer


# ---------------------------------------------------------------------------
# Helpers


def _attribute_to(obj, actor: AbstractBaseUser | None) -> None:
    # django-simple-history reads `_history_user`; without an actor (a script) it uses the request's user.
    if actor is not None:
        obj._history_user = actor


def _refuse_broken_terms(terms: OfferTerms) -> None:
    problems = terms.problems()
    if problems:
        raise InvalidOfferTerms(problems)


def _apply_texts(offer: Offer, *, title: str, summary: str, title_fr: str, summary_fr: str,
                 assumptions_fr: str) -> None:
    """The offer's own text in English (the terms carry the English assumptions) and in French (empty:
    none yet, readers of French see the English)."""
    offer.title_en, offer.summary_en = title.strip(), summary.strip()
    offer.title_fr = title_fr.strip() or None
    offer.summary_fr = summary_fr.strip() or None
    offer.assumptions_fr = assumptions_fr.strip() or None


def _apply_scalar_terms(offer: Offer, terms: OfferTerms) -> None:
    for name in SCALAR_FIELDS:
        if name == "assumptions":  # the English text, whatever the reader's language
            offer.assumptions_en = (terms.assumptions or "").strip()
        else:
            setattr(offer, name, getattr(terms, name))


def _basis_rows(basis: Iterable[TermBasisEntry] | None) -> list[TermBasis] | None:
    """Unsaved TermBasis rows for ``basis``, checked by the term rules; None when not given."""
    if basis is None:
        return None
    entries = list(basis)
    pt_codes = Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).values_list("code", flat=True)
    problems = check_basis(entries, list(pt_codes))
    slugs = {entry.source for entry in entries if entry.source}
    found = {source.slug: source for source in Source.objects.filter(slug__in=slugs)} if slugs else {}
    problems += [
        TermsProblem(f"basis.{entry.term}", _("There is no source “%(slug)s”.") % {"slug": entry.source})
        for entry in entries if entry.source and entry.source not in found
    ]
    if problems:
        raise InvalidOfferTerms(problems)
    return [
        TermBasis(term=entry.term, status=entry.status, source=found.get(entry.source),
                  passage=entry.passage.strip(), note=entry.note.strip())
        for entry in entries
    ]


def _write_basis(offer: Offer, rows: list[TermBasis], actor) -> None:
    """Make the offer's bases exactly ``rows``, writing only the rows that change (each write is history)."""
    current = {row.term: row for row in offer.term_basis.all()}
    wanted = {row.term for row in rows}
    for term, row in current.items():
        if term not in wanted:
            _attribute_to(row, actor)
            row.delete()
    for row in rows:
        existing = current.get(row.term)
        values = ("status", "source_id", "passage", "note")
        if existing is not None and all(getattr(existing, v) == getattr(row, v) for v in values):
            continue
        if existing is not None:
            # The row as it is, with these values in the reader's language: the other language's note is kept.
            for value in values:
                setattr(existing, value, getattr(row, value))
            row = existing
        row.offer = offer
        row.full_clean()
        _attribute_to(row, actor)
        row.save()


def _free_slug(title: str) -> str:
    """An unused slug made from the title: "federal-offer", else "federal-offer-2", and so on."""
    base = slugify(title)[: SLUG_MAX_LENGTH - 4].strip("-") or "offer"
    taken = set(Offer.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def _validate(offer: Offer, *, tabled_by: list[Jurisdiction], previous_status: str | None) -> None:
    """full_clean(), with a taken slug reported as OfferSlugTaken. ``previous_status``: the stored offer's (None for
    a new one)."""
    errors: dict[str, list] = {}
    try:
        offer.full_clean()
    except ValidationError as error:
        errors = error.update_error_dict(errors)
    if offer.status == Offer.Status.WITHDRAWN and previous_status != Offer.Status.WITHDRAWN:
        # The edit form's status had withdrawn an offer with no date and no reason.
        errors.setdefault("status", []).append(ValidationError(
            _("An offer is withdrawn with its “Withdraw” form, which asks when and why."), code="withdraw"))
    slug_errors = errors.get("slug", [])
    if any(getattr(e, "code", None) == "unique" for e in slug_errors) or (
        slug_errors and Offer.objects.filter(slug=offer.slug).exclude(pk=offer.pk).exists()
    ):
        raise OfferSlugTaken(slug=offer.slug)
    if not tabled_by:
        errors.setdefault("tabled_by", []).append(
            ValidationError(_("Name at least one government that tabled the offer."), code="required")
        )
    # The same offer twice (a double click, a form sent again from the browser's history): refused by its title
    # and date. Writers queue on the record version's lock (record_changed), so two posts cannot both pass.
    same = (Offer.objects.filter(negotiation_id=offer.negotiation_id, tabled_on=offer.tabled_on,
                                 title__iexact=(offer.title or "").strip()).exclude(pk=offer.pk).only("slug").first()
            if offer.tabled_on and offer.title and not errors.get("title") else None)
    if same is not None:
        errors.setdefault("title", []).append(ValidationError(
            _("An offer with this title, tabled on this date, is already recorded (%(slug)s): change the title or "
              "the date, or edit that offer.") % {"slug": same.slug}, code="duplicate"))
    if errors:
        raise ValidationError(errors)


def _save(offer: Offer) -> None:
    """Save in a savepoint, so a slug taken by a concurrent save becomes OfferSlugTaken, not a broken transaction."""
    try:
        with transaction.atomic():
            offer.save()
    except IntegrityError:
        if Offer.objects.filter(slug=offer.slug).exclude(pk=offer.pk).exists():
            raise OfferSlugTaken(slug=offer.slug) from None
        raise


def _treated_jurisdictions(terms: OfferTerms) -> dict[str, Jurisdiction]:
    """The provinces and territories the treatments name, by code; an unknown code is a broken term."""
    codes = {code for code, _treatment in terms.treatments}
    if not codes:
        return {}
    found = {
        j.code: j for j in Jurisdiction.objects.filter(code__in=codes).exclude(kind=Jurisdiction.Kind.FEDERAL)
    }
    unknown = sorted(codes - found.keys())
    if unknown:
        raise InvalidOfferTerms([
            TermsProblem("treatments", _("%(code)s is not a province or territory.") % {"code": code})
            for code in unknown
        ])
    return found


def _desired_rows(offer: Offer, terms: OfferTerms, jurisdictions: dict[str, Jurisdiction]) -> dict[str, dict]:
    """The rows the terms call for, by group and key; zero amounts and participation need no row."""
    return {
        "funding_sources": {
            (payer, program): FundingSource(offer=offer, payer=payer, program=program, amount=amount)
            for payer, program, amount in terms.sources
            if amount
        },
        "treatments": {
            code: JurisdictionTreatment(offer=offer, jurisdiction=jurisdictions[code], treatment=treatment)
            for code, treatment in terms.treatments
            if treatment != Treatment.PARTICIPATES
        },
        "phase_in": {
            year: PhaseInStep(offer=offer, fiscal_year=year, fraction=fraction) for year, fraction in terms.phase_in
        },
    }


def _write_rows(offer: Offer, terms: OfferTerms, jurisdictions: dict[str, Jurisdiction], actor) -> None:
    for rows in _desired_rows(offer, terms, jurisdictions).values():
        for row in rows.values():
            row.full_clean()
            _attribute_to(row, actor)
            row.save()


# What makes two rows of a group the same row, and what is compared to see whether it changed.
_ROW_KEY = {
    "funding_sources": (lambda row: (row.payer, row.program), "amount"),
    "treatments": (lambda row: row.jurisdiction.code, "treatment"),
    "phase_in": (lambda row: row.fiscal_year, "fraction"),
}
_GROUP_LABELS = {"funding_sources": "funding sources", "treatments": "treatments", "phase_in": "phase-in"}


@dataclass
class _RowPlan:
    """The row writes an edit needs: what to add, change and delete in each group of term rows."""

    add: list
    change: list
    delete: list
    changed_groups: list[str]

    @classmethod
    def for_offer(cls, offer: Offer, terms: OfferTerms, jurisdictions: dict[str, Jurisdiction]) -> "_RowPlan":
        existing = {
            "funding_sources": list(offer.funding_sources.all()),
            "treatments": list(offer.treatments.select_related("jurisdiction")),
            "phase_in": list(offer.phase_in.all()),
        }
        plan = cls(add=[], change=[], delete=[], changed_groups=[])
        for group, wanted in _desired_rows(offer, terms, jurisdictions).items():
            key_of, value_field = _ROW_KEY[group]
            current = {key_of(row): row for row in existing[group]}
            touched = False
            for key, row in wanted.items():
                if key not in current:
                    plan.add.append(row)
                    touched = True
                elif getattr(current[key], value_field) != getattr(row, value_field):
                    setattr(current[key], value_field, getattr(row, value_field))
                    plan.change.append(current[key])
                    touched = True
            for key, row in current.items():
                if key not in wanted:
                    plan.delete.append(row)
                    touched = True
            if touched:
                plan.changed_groups.append(group)
        return plan

    def summary(self) -> str:
        """A short note for the offer's history record naming the groups of rows that changed."""
        if not self.changed_groups:
            return ""
        note = "Terms changed: " + ", ".join(_GROUP_LABELS[group] for group in self.changed_groups)
        return note[:CHANGE_REASON_MAX_LENGTH]

    def apply(self, actor) -> None:
        # Deletions first, so a row can be re-added under the same key without a unique clash.
        for row in self.delete:
            _attribute_to(row, actor)
            row.delete()
        for row in [*self.change, *self.add]:
            row.full_clean()
            _attribute_to(row, actor)
            row.save()


def offers_supersede(*, actor: AbstractBaseUser | None, offers: Iterable[Offer]) -> int:
    """Mark offers superseded (the admin's action); returns how many changed. Each save is one
    version more, so an edit started before is refused instead of undoing it, and its history names
    the actor."""
    marked = 0
    with transaction.atomic():
        record_cache.record_changed()  # the version's lock first, as every writer takes it
        for current in Offer.objects.select_for_update().filter(pk__in=[o.pk for o in offers]).exclude(
            status=Offer.Status.SUPERSEDED
        ):
            current.status = Offer.Status.SUPERSEDED
            current.version += 1
            _attribute_to(current, actor)
            current.save(update_fields=["status", "version"])
            marked += 1
    return marked
