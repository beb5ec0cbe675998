"""Writes of the article import (issue 19): take an article in for review, record decisions, commit.

Taking an article in writes only the import and its proposals; the record (sources, people,
statements) is written by ``article_import_commit`` alone, in one transaction, with the acting user.
"""

from __future__ import annotations

import datetime
import hashlib
import urllib.parse
from dataclasses import replace

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.numbers import format_count
from negotiations import bounds, record_cache
from negotiations.article_import import (
    KnownPerson,
    KnownRole,
    Proposal,
    normalize_quote,
    propose,
)
from negotiations.article_text import (  # NotText: what article_import_create raises
    NotText,
    read_article,
)
from negotiations.models import (
    ArticleImport,
    Jurisdiction,
    Negotiation,
    Person,
    ProposedStatement,
    Role,
    Source,
    Statement,
)
from negotiations.services.record import _attribute_to, statement_record, unique_slug

__all__ = [
    "ImportAlreadyCommitted", "NotText", "TooManyQuotes", "article_import_commit", "article_import_create",
    "known_people", "proposal_decide", "source_update",
]


class TooManyQuotes(ValueError):
    """The article gives more quotes to review than one import takes (bounds.IMPORT_QUOTES)."""

    def __init__(self, count: int):
        self.count = count
        super().__init__(ngettext(
            "This text gives %(count)s quote to review; an import takes at most %(limit)s. Import it in parts.",
            "This text gives %(count)s quotes to review; an import takes at most %(limit)s. Import it in parts.",
            count) % {"count": format_count(count), "limit": format_count(bounds.IMPORT_QUOTES)})


class ImportAlreadyCommitted(Exception):
    """Every proposal of this import has been decided and committed."""

    def __init__(self):
        super().__init__(_("This import is already committed."))


def known_people() -> list[KnownPerson]:
    """The people of the record, as the extraction takes them (plain data)."""
    people = Person.objects.prefetch_related(Prefetch("roles", queryset=Role.objects.select_related("jurisdiction")))
    return [
        KnownPerson(key=person.slug, name=person.name, roles=tuple(
            KnownRole(title=role.title, jurisdiction=role.jurisdiction.code if role.jurisdiction_id else "",
                      organization=role.organization) for role in person.roles.all()))
        for person in people
    ]


def text_hash(text: str) -> str:
    return hashlib.sha256(normalize_quote(text).encode("utf-8")).hexdigest()


def find_import(*, text: str) -> ArticleImport | None:
    """The import of the same words, if there is one. Not of the same address: an article is updated at its
    address, and the text pasted, other than the one imported, was thrown away for the earlier import's."""
    return ArticleImport.objects.filter(text_hash=text_hash(text)).first()


def source_in_record(*, url: str, title: str, published_on: datetime.date | None) -> Source | None:
    """The record's source for the article, if it has one: the one at the same address (whatever its
    scheme, "www." or closing slash), else the one with the same title in either language, case aside,
    published on the same day when the day is known. An article already cited is cited again, not
    saved as a second source."""
    if url:
        address = _address(url)
        needle = address.rstrip("/").rsplit("/", 1)[-1] or address
        for source in Source.objects.filter(url__icontains=needle).order_by("pk"):
            if _address(source.url) == address:
                return source
    title = " ".join(title.split())
    if not title:
        return None
    same_title = Source.objects.filter(Q(title_en__iexact=title) | Q(title_fr__iexact=title))
    if published_on is not None:
        same_title = same_title.filter(published_on=published_on)
    return same_title.order_by("pk").first()


def _address(url: str) -> str:
    parts = urllib.parse.urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    return host + parts.path.rstrip("/") + (f"?{parts.query}" if parts.query else "")


def propose_for_record(data, *, published=None, published_precision="day", url="", outlet="",
                       title="") -> Proposal:
    """The extraction's proposal with the record's people known to it, less the quotes already recorded."""
    proposal = propose(data, known_people=known_people(), published=published,
                       published_precision=published_precision, url=url, outlet=outlet, title=title)
    return without_recorded(without_overlong(proposal))


def without_overlong(proposal: Proposal) -> Proposal:
    """The proposal without the quotes longer than a statement's quote may be (bounds.QUOTE_LENGTH)."""
    kept = tuple(item for item in proposal.statements if len(item.quote) <= bounds.QUOTE_LENGTH)
    skipped = len(proposal.statements) - len(kept)
    if not skipped:
        return proposal
    warning = ngettext("%(count)s quote is longer than %(limit)s characters and is not proposed.",
                       "%(count)s quotes are longer than %(limit)s characters and are not proposed.", skipped) % {
        "count": skipped, "limit": format_count(bounds.QUOTE_LENGTH)}
    return replace(proposal, statements=kept, warnings=(*proposal.warnings, warning))


def without_recorded(proposal: Proposal) -> Proposal:
    """The proposal without the quotes the record already has (the same words by the same known person)."""
    keys = {item.speaker.known for item in proposal.statements if item.speaker and item.speaker.known}
    if not keys:
        return proposal
    people = {person.slug: person.pk for person in Person.objects.filter(slug__in=keys)}
    recorded = _recorded_quotes(people.values())
    kept = tuple(item for item in proposal.statements
                 if not (item.speaker and item.speaker.known in people
                         and (people[item.speaker.known], normalize_quote(item.quote)) in recorded))
    skipped = len(proposal.statements) - len(kept)
    if not skipped:
        return proposal
    warning = ngettext("%(count)s quote is already in the record and is not proposed again.",
                       "%(count)s quotes are already in the record and are not proposed again.", skipped) % {
        "count": skipped}
    return replace(proposal, statements=kept, warnings=(*proposal.warnings, warning))


@transaction.atomic
def article_import_create(
    *,
    actor: AbstractBaseUser | None,
    data: bytes | str,
    negotiation: Negotiation,
    filename: str = "",
    published: datetime.date | None = None,
    url: str = "",
    outlet: str = "",
    title: str = "",
) -> tuple[ArticleImport, bool]:
    """Take an article in for review; returns ``(import, created)``. The same article finds its import.

    Raises NotText for empty or binary input, TooManyQuotes for more quotes than one import takes
    (nothing is written). Quotes already in the record (the same words by the same person) are not
    proposed again.
    """
    article = read_article(data)
    existing = find_import(text=article.text)
    if existing is not None:
        return existing, False
    proposal = propose_for_record(article, published=published, url=url, outlet=outlet, title=title)
    if len(proposal.statements) > bounds.IMPORT_QUOTES:
        raise TooManyQuotes(len(proposal.statements))
    source = source_in_record(url=proposal.source.url, title=proposal.source.title, published_on=proposal.source.published)
    article_import = ArticleImport(
        negotiation=negotiation, text=proposal.text, text_hash=text_hash(proposal.text),
        encoding=proposal.encoding[:40], repairs=", ".join(proposal.repairs)[:300], warnings=list(proposal.warnings),
        filename=filename[:255], outlet=proposal.source.outlet[:150], title=proposal.source.title[:300],
        author=proposal.source.author[:150], dateline=proposal.source.dateline[:100],
        published_on=proposal.source.published, date_precision=proposal.source.date_precision,
        url=proposal.source.url[:500], source=source,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    if not _valid_url(article_import.url):
        article_import.url = ""
    article_import.full_clean(exclude=["text_hash"])
    _attribute_to(article_import, actor)
    try:
        with transaction.atomic():
            article_import.save()
    except IntegrityError:
        # Another request took the same article in at the same moment: that import is this one.
        return ArticleImport.objects.get(text_hash=article_import.text_hash), False

    people = {person.slug: person for person in Person.objects.filter(
        slug__in={item.speaker.known for item in proposal.statements if item.speaker and item.speaker.known})}
    jurisdictions = {j.code: j for j in Jurisdiction.objects.all()}
    order = 0
    for item in proposal.statements:
        speaker = people.get(item.speaker.known) if item.speaker and item.speaker.known else None
        order += 1
        row = ProposedStatement(
            article_import=article_import, order=order, quote=item.quote, fragment=item.fragment, speaker=speaker,
            speaker_name="" if speaker else (item.speaker.name if item.speaker else "")[:150],
            speaker_role=(item.speaker.role if item.speaker else "")[:250],
            speaker_organization=(item.speaker.organization if item.speaker else "")[:200],
            jurisdiction=jurisdictions.get(item.speaker.jurisdiction) if item.speaker else None,
            date=item.date, date_precision=item.date_precision, date_basis=item.date_basis[:200],
            language=item.language, original_language=item.original_language, context=item.context[:300],
            quote_start=item.quote_start, quote_end=item.quote_end, passage_start=item.passage_start,
            passage_end=item.passage_end,
        )
        _attribute_to(row, actor)
        row.save()
    return article_import, True


def _valid_url(url: str) -> bool:
    return url.startswith(("http://", "https://")) or not url


def _recorded_quotes(people) -> set[tuple[int, str]]:
    """(speaker id, normalised quote) of every statement by these people (Person objects or ids)."""
    statements = Statement.objects.filter(speaker__in=list(people)).values_list("speaker_id", "quote")
    return {(speaker_id, normalize_quote(quote)) for speaker_id, quote in statements}


@transaction.atomic
def source_update(*, actor: AbstractBaseUser | None, article_import: ArticleImport, outlet: str, title: str,
                  author: str, published_on: datetime.date | None, date_precision: str, url: str) -> ArticleImport:
    """The editor's corrections to the proposed source. A publication date given or changed dates again the quotes
    still to review ("Wednesday" needs it), and what the proposal warned of is read again."""
    # (Against the stored row: a form bound to this import has already written what was typed onto it.)
    *stored, status = ArticleImport.objects.values_list("published_on", "date_precision", "status").get(pk=article_import.pk)
    if status == ArticleImport.Status.COMMITTED:
        raise ImportAlreadyCommitted()  # its statements cite the source as it was: it is the record's now
    redate = (published_on, date_precision) != tuple(stored)
    article_import.outlet, article_import.title, article_import.author = outlet.strip(), title.strip(), author.strip()
    article_import.published_on, article_import.date_precision, article_import.url = published_on, date_precision, url
    article_import.full_clean()
    if article_import.source_id is None:
        article_import.source = source_in_record(url=url, title=title, published_on=published_on)
    proposal = _read_again(article_import) if redate else None
    if proposal is not None:
        article_import.warnings = list(proposal.warnings)
    _attribute_to(article_import, actor)
    article_import.save()
    if proposal is not None:
        _date_again(article_import, proposal, actor)
    return article_import


def _read_again(article_import: ArticleImport) -> Proposal:
    """The article read again as the import now describes its source (its publication date above all)."""
    return propose_for_record(read_article(article_import.text), published=article_import.published_on,
                              published_precision=article_import.date_precision, url=article_import.url,
                              outlet=article_import.outlet, title=article_import.title)


def _date_again(article_import: ArticleImport, proposal: Proposal, actor) -> None:
    """The quotes still to review, dated as ``proposal`` (the article read again) dates them."""
    fresh = {normalize_quote(item.quote): item for item in proposal.statements}
    for row in article_import.proposals.filter(decision=ProposedStatement.Decision.PENDING):
        item = fresh.get(normalize_quote(row.quote))
        if item is None or (row.date, row.date_precision) == (item.date, item.date_precision):
            continue
        row.date, row.date_precision, row.date_basis = item.date, item.date_precision, item.date_basis[:200]
        _attribute_to(row, actor)
        row.save(update_fields=["date", "date_precision", "date_basis"])


@transaction.atomic
def proposal_decide(*, actor: AbstractBaseUser | None, proposal: ProposedStatement, decision: str,
                    changes: dict | None = None) -> ProposedStatement:
    """Accept, reject, or accept as edited (``changes``: quote, speaker, speaker_name, date, …)."""
    if proposal.statement_id is not None:
        raise ValidationError(_("This quote is already in the record; it cannot be changed here."))
    for name, value in (changes or {}).items():
        setattr(proposal, name, value.strip() if isinstance(value, str) else value)
    proposal.decision = decision
    proposal.full_clean()
    _attribute_to(proposal, actor)
    proposal.save()
    return proposal


@transaction.atomic
def article_import_commit(*, actor: AbstractBaseUser | None, article_import: ArticleImport) -> list[Statement]:
    """Write the accepted proposals as statements citing the import's source (made now, or found).

    All or nothing: a ValidationError names what is missing (the source's title, a speaker's name,
    a date) and nothing is written. Proposals still to review stay, so the review can go on.
    """
    record_cache.record_changed()  # the version's lock before the import's, as every writer takes them
    current = ArticleImport.objects.select_for_update().get(pk=article_import.pk)
    if current.status == ArticleImport.Status.COMMITTED:
        raise ImportAlreadyCommitted()
    accepted = list(current.proposals.filter(
        decision__in=[ProposedStatement.Decision.ACCEPTED, ProposedStatement.Decision.EDITED], statement__isnull=True,
    ).select_related("speaker", "jurisdiction"))
    errors = []
    for proposal in accepted:
        if proposal.speaker_id is None and not proposal.speaker_name.strip():
            errors.append(_("Quote %(order)s: choose a speaker or give the new speaker's name.") % {"order": proposal.order})
        if proposal.date is None:
            errors.append(_("Quote %(order)s: give the date it was said.") % {"order": proposal.order})
    source = current.source or source_in_record(url=current.url, title=current.title, published_on=current.published_on)
    if source is None and accepted:
        missing = [label for label, value in ((_("outlet"), current.outlet), (_("title"), current.title),
                                              (_("publication date"), current.published_on)) if not value]
        if missing:
            errors.append(_("The source needs its %(fields)s.") % {"fields": ", ".join(str(m) for m in missing)})
    if errors:
        raise ValidationError(errors)
    if source is None and accepted:
        source = Source(
            slug=unique_slug(Source, f"{current.outlet} {current.published_on:%Y-%m-%d} {current.title}"),
            kind=Source.Kind.NEWS, outlet=current.outlet, title=current.title, author=current.author,
            published_on=current.published_on, date_precision=current.date_precision, url=current.url,
            text=current.text,
        )
        source.full_clean()
        _attribute_to(source, actor)
        source.save()
    current.source = source
    recorded = _recorded_quotes([p.speaker for p in accepted if p.speaker_id])
    new_people: dict[str, Person] = {}
    statements = []
    for proposal in accepted:
        speaker = proposal.speaker or _new_person(proposal, actor, new_people)
        if (speaker.pk, normalize_quote(proposal.quote)) in recorded:
            proposal.decision = ProposedStatement.Decision.REJECTED
        else:
            try:
                statement = statement_record(
                    actor=actor, negotiation=current.negotiation, speaker=speaker, jurisdiction=proposal.jurisdiction,
                    date=proposal.date, date_precision=proposal.date_precision, language=proposal.language,
                    original_language=proposal.original_language, quote=proposal.quote, source=source,
                    context=proposal.context,
                )
            except ValidationError as error:  # (all or nothing: the transaction takes back what was written)
                raise ValidationError([_("Quote %(order)s: %(problem)s") % {"order": proposal.order, "problem": problem}
                                       for problem in error.messages]) from None
            statements.append(statement)
            recorded.add((speaker.pk, normalize_quote(proposal.quote)))
            proposal.statement = statement
        proposal.speaker = speaker
        _attribute_to(proposal, actor)
        proposal.save()
    if not current.proposals.filter(decision=ProposedStatement.Decision.PENDING).exists():
        current.status = ArticleImport.Status.COMMITTED
        current.committed_at = timezone.now()
    _attribute_to(current, actor)
    current.save()
    return statements


def _new_person(proposal: ProposedStatement, actor, made: dict[str, Person]) -> Person:
    """The speaker the article introduces: found by name in the record, else created with their role."""
    name = proposal.speaker_name.strip()
    if name in made:
        return made[name]
    person = next((p for p in Person.objects.filter(name__iexact=name)), None)
    if person is None:
        person = Person(name=name, slug=unique_slug(Person, name))
        person.full_clean()
        _attribute_to(person, actor)
        person.save()
        if proposal.speaker_role and (proposal.jurisdiction_id or proposal.speaker_organization):
            role = Role(person=person, title=proposal.speaker_role, jurisdiction=proposal.jurisdiction,
                        organization=proposal.speaker_organization)
            role.full_clean()
            _attribute_to(role, actor)
            role.save()
    made[name] = person
    return person
