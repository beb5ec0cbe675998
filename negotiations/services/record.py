"""Writes to the record: statements and positions, each in one transaction with the acting user in history.

Rules the database cannot express (a meeting of the same negotiation, evidence from the same
negotiation) are checked here and raised as a `ValidationError` keyed by field, so a form can
show each message next to the field it concerns.
"""

import datetime
from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.numbers import format_date
from negotiations import record_cache
from negotiations.models import (
    Condition,
    Jurisdiction,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    Source,
    Statement,
    speaker_role_problem,
)
from negotiations.validators import ALREADY_IN_LANGUAGE_SPOKEN


class PositionExists(Exception):
    """The jurisdiction already has a position on this negotiation on that date."""

    def __init__(self, *, negotiation: Negotiation, jurisdiction: Jurisdiction, as_of: datetime.date):
        self.negotiation = negotiation
        self.jurisdiction = jurisdiction
        self.as_of = as_of
        super().__init__(
            _("%(jurisdiction)s already has a position on %(negotiation)s as of %(date)s. "
              "Change that position in the admin, or pick another date.")
            % {"jurisdiction": jurisdiction.name, "negotiation": negotiation.title, "date": format_date(as_of)}
        )


class StatementAlreadyRetracted(Exception):
    """A statement can be retracted once; the first note stands."""

    def __init__(self, *, statement: Statement):
        self.statement = statement
        super().__init__(_("This statement was already retracted."))


def _attribute_to(obj, actor: AbstractBaseUser | None) -> None:
    # django-simple-history reads `_history_user`; without an actor (an import script)
    # it falls back to the request's user, if any.
    if actor is not None:
        obj._history_user = actor


@transaction.atomic
def statement_record(
    *,
    actor: AbstractBaseUser | None,
    negotiation: Negotiation,
    speaker: Person,
    jurisdiction: Jurisdiction | None,
    date: datetime.date,
    date_precision: str,
    language: str,
    quote: str,
    source: Source,
    meeting: Meeting | None = None,
    context: str = "",
    original_language: str = "",
    context_fr: str | None = "",
) -> Statement:
    """Record what `speaker` said, on behalf of `jurisdiction` (None for stakeholders), citing `source`.

    The statement gets a ref (its stable slug, which a position's condition and the API name it by). The same words
    by the same speaker on the same day are recorded once: a double post's second is refused next to the quote.
    """
    record_cache.record_changed()  # the version's lock first, as every writer takes it: a second post waits, then finds the first
    errors = {}
    if Statement.objects.filter(speaker=speaker, date=date, quote=quote.strip(), retracted=False).exists():
        errors["quote"] = _("These words of %(name)s on this date are already in the record.") % {"name": speaker.name}
    if meeting is not None and meeting.negotiation_id != negotiation.pk:
        errors["meeting"] = _("This meeting belongs to another negotiation.")
    if problem := speaker_role_problem(speaker, jurisdiction):
        errors["jurisdiction"] = problem
    if original_language and original_language == language:
        errors["original_language"] = ALREADY_IN_LANGUAGE_SPOKEN
    if errors:
        raise ValidationError(errors)

    statement = Statement(
        negotiation=negotiation, speaker=speaker, jurisdiction=jurisdiction, date=date,
        date_precision=date_precision, language=language, original_language=original_language,
        quote=quote.strip(), context_en=context.strip(), context_fr=(context_fr or "").strip() or None,
        source=source, meeting=meeting,
        ref=unique_slug(Statement, f"{speaker.slug} {date:%Y-%m-%d} {' '.join(quote.split()[:4])}", field="ref"),
    )
    statement.full_clean()
    _attribute_to(statement, actor)
    statement.save()
    return statement


@transaction.atomic
def position_record(
    *,
    actor: AbstractBaseUser | None,
    negotiation: Negotiation,
    jurisdiction: Jurisdiction,
    as_of: datetime.date,
    date_precision: str,
    stance: str,
    summary: str,
    conditions: str = "",
    summary_fr: str | None = "",
    conditions_fr: str | None = "",
    evidence: Iterable[Statement] = (),
    sources: Iterable[Source] = (),
    triggered_by_offer: Offer | None = None,
    triggered_by_meeting: Meeting | None = None,
    checks: Iterable[dict] = (),
) -> Position:
    """Record where `jurisdiction` stands on `negotiation` as of a date.

    ``checks`` are its stated conditions, each ``{text, text_fr, term, operator, value, statement}`` (no term and
    no operator: a condition in words only). Raises PositionExists when it already has a position that
    day, ValidationError for bad input (a condition's problems are keyed ``checks``).
    """
    evidence = list(evidence)
    checks = list(checks)
    sources = list(sources)
    if Position.objects.filter(negotiation=negotiation, jurisdiction=jurisdiction, as_of=as_of).exists():
        raise PositionExists(negotiation=negotiation, jurisdiction=jurisdiction, as_of=as_of)

    errors = {}
    if triggered_by_offer is not None and triggered_by_offer.negotiation_id != negotiation.pk:
        errors["triggered_by_offer"] = _("This offer belongs to another negotiation.")
    if triggered_by_meeting is not None and triggered_by_meeting.negotiation_id != negotiation.pk:
        errors["triggered_by_meeting"] = _("This meeting belongs to another negotiation.")
    if any(statement.negotiation_id != negotiation.pk for statement in evidence):
        errors["evidence"] = _("Evidence must be statements about this negotiation.")
    elif any(statement.retracted for statement in evidence):
        errors["evidence"] = _("A retracted statement cannot be evidence.")
    if any(c.get("statement") is not None and c["statement"].negotiation_id != negotiation.pk for c in checks):
        errors["checks"] = _("A condition is stated in a statement about this negotiation.")
    if errors:
        raise ValidationError(errors)

    position = Position(
        negotiation=negotiation, jurisdiction=jurisdiction, as_of=as_of, date_precision=date_precision,
        stance=stance, summary_en=summary.strip(), conditions_en=conditions.strip(),
        summary_fr=(summary_fr or "").strip() or None, conditions_fr=(conditions_fr or "").strip() or None,
        triggered_by_offer=triggered_by_offer, triggered_by_meeting=triggered_by_meeting,
    )
    position.full_clean()
    _attribute_to(position, actor)
    try:
        # A savepoint, so a concurrent insert of the same position leaves the outer transaction usable.
        with transaction.atomic():
            position.save()
    except IntegrityError:
        if Position.objects.filter(negotiation=negotiation, jurisdiction=jurisdiction, as_of=as_of).exists():
            raise PositionExists(negotiation=negotiation, jurisdiction=jurisdiction, as_of=as_of) from None
        raise
    if evidence:
        position.evidence.set(evidence)
    if sources:
        position.sources.set(sources)
    for order, check in enumerate(checks):
        words = not check.get("term") and not check.get("operator")
        condition = Condition(
            position=position, order=order, kind=Condition.Kind.WORDS if words else Condition.Kind.CHECK,
            term=check.get("term", ""), operator=check.get("operator", ""), value=check.get("value", ""),
            text_en=check["text"].strip(), text_fr=(check.get("text_fr") or "").strip() or None,
            statement=check.get("statement"),
        )
        try:
            condition.full_clean()
        except ValidationError as error:
            raise ValidationError({"checks": [f"{condition.text}: {m}" for m in error.messages]}) from None
        _attribute_to(condition, actor)
        condition.save()
    return position


@transaction.atomic
def statement_retract(*, actor: AbstractBaseUser | None, statement: Statement, note: str) -> Statement:
    """Mark a statement as retracted with the reason; it stays in the record and its history."""
    # Lock the row so two editors retracting at once cannot both write a note.
    record_cache.record_changed()  # the version's lock before the statement's, as every writer takes them
    current = Statement.objects.select_for_update().get(pk=statement.pk)
    if current.retracted:
        raise StatementAlreadyRetracted(statement=current)
    note = note.strip()
    if not note:
        raise ValidationError({"retraction_note": _("Say why the statement is retracted.")})
    current.retracted = True
    current.retraction_note = note
    current.full_clean()
    _attribute_to(current, actor)
    current._change_reason = "retracted"
    current.save(update_fields=["retracted", "retraction_note"])
    return current


def unique_slug(model, text: str, *, field: str = "slug") -> str:
    """A slug of ``text`` that no row of ``model`` has in ``field`` yet (``-2``, ``-3``… added where one has)."""
    base = slugify(text)[:140].strip("-") or "record"
    slug, counter = base, 2
    while model.objects.filter(**{field: slug}).exists():
        slug = f"{base[:135]}-{counter}"
        counter += 1
    return slug
