"""Issue 13.4: every free text has a maximum, in the forms, the models and the database."""

import datetime
import re
import types
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import IntegrityError, models, transaction
from django.http import QueryDict
from django.test import RequestFactory
from django.urls import reverse
from modeltranslation.translator import translator

from grants.models import ProgramEnvelope, Scenario
from negotiations import bounds
from negotiations.article_import import Proposal
from negotiations.forms import WithdrawOfferForm
from negotiations.import_forms import ArticleForm, ProposalForm
from negotiations.models import (
    ArticleImport,
    KeyDate,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    ProposedStatement,
    Source,
    SourcePassage,
    Statement,
    TermBasis,
)
from negotiations.offer_forms import OfferForm
from negotiations.services.imports import without_overlong
from tests.factories import (
    NegotiationFactory,
    OfferFactory,
    PersonFactory,
    PositionFactory,
    ProgramEnvelopeFactory,
    SourceFactory,
    StatementFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# The texts of the models of issues 14 to 19, bounded as the older ones above them.
NEWER = [
    (KeyDate, "note", bounds.NOTES_LENGTH), (ArticleImport, "text", bounds.ARTICLE_TEXT_LENGTH),
    (ProposedStatement, "quote", bounds.QUOTE_LENGTH), (ProgramEnvelope, "notes", bounds.NOTES_LENGTH),
    (TermBasis, "passage", bounds.PASSAGE_LENGTH), (TermBasis, "note", bounds.TERM_NOTE_LENGTH),
    (SourcePassage, "passage", bounds.PASSAGE_LENGTH), (Scenario, "notes", bounds.NOTES_LENGTH),
    (Scenario, "assumptions", bounds.ASSUMPTIONS_LENGTH), (Offer, "withdrawal_reason", bounds.WITHDRAWAL_REASON_LENGTH),
]
BOUNDED = [
    (Person, "notes", bounds.NOTES_LENGTH), (Negotiation, "summary", bounds.SUMMARY_LENGTH),
    (Source, "summary", bounds.SUMMARY_LENGTH), (Source, "text", bounds.ARTICLE_TEXT_LENGTH),
    (Meeting, "outcome", bounds.OUTCOME_LENGTH), (Statement, "quote", bounds.QUOTE_LENGTH),
    (Offer, "summary", bounds.SUMMARY_LENGTH), (Offer, "assumptions", bounds.ASSUMPTIONS_LENGTH),
    (Position, "summary", bounds.SUMMARY_LENGTH), (Position, "conditions", bounds.CONDITIONS_LENGTH),
    *NEWER,
]
TRANSLATED = [(model, field, limit) for model, field, limit in BOUNDED
              if model in translator.get_registered_models() and field in translator.get_options_for_model(model).fields]


@pytest.mark.parametrize(("model", "field", "limit"), BOUNDED)
def test_every_free_text_has_a_maximum(model, field, limit):
    assert model._meta.get_field(field).max_length == limit
    assert f"{model._meta.model_name}_{field}_length" in {c.name for c in model._meta.constraints}


def test_no_text_field_is_left_unbounded():
    """Every TextField of the project's models (their history and languages included) has a maximum, and
    the database a constraint for it: a text field added later without one fails here."""
    unbounded = []
    for label in ("negotiations", "grants", "alerts"):
        for model in apps.get_app_config(label).get_models():
            constraints = {c.name for c in model._meta.constraints}
            historical = model._meta.model_name.startswith("historical")
            for field in model._meta.get_fields():
                if not isinstance(field, models.TextField):
                    continue
                if field.max_length is None or (
                        not historical and f"{model._meta.model_name}_{field.name}_length" not in constraints):
                    unbounded.append(f"{model._meta.label}.{field.name}")
    assert unbounded == []


@pytest.mark.parametrize(("model", "field", "limit"), TRANSLATED)
def test_a_translated_text_is_bounded_in_each_language(model, field, limit):
    """The ORM writes a translated field to the current language's column: each has the bound."""
    for language in ("en", "fr"):
        assert model._meta.get_field(f"{field}_{language}").max_length == limit
        assert f"{model._meta.model_name}_{field}_{language}_length" in {c.name for c in model._meta.constraints}


def test_translated_models_are_the_expected_ones():
    assert {(model.__name__, field) for model, field, _ in TRANSLATED} == {
        ("Person", "notes"), ("Negotiation", "summary"), ("Source", "summary"), ("Meeting", "outcome"),
        ("Offer", "summary"), ("Offer", "assumptions"), ("Position", "summary"), ("Position", "conditions"),
        ("KeyDate", "note"), ("ProgramEnvelope", "notes"), ("TermBasis", "note"),
    }


def _article_import():
    return ArticleImport.objects.create(negotiation=NegotiationFactory(), text="An article.", text_hash="0" * 64)


MAKERS = {
    KeyDate: lambda: KeyDate.objects.create(negotiation=NegotiationFactory(), slug="deadline", kind="deadline",
                                            date=datetime.date(2014, 3, 31), title="Deadline", source=SourceFactory()),
    ArticleImport: _article_import,
    ProposedStatement: lambda: ProposedStatement.objects.create(article_import=_article_import(), order=1, quote="Yes."),
    ProgramEnvelope: ProgramEnvelopeFactory,
    TermBasis: lambda: TermBasis.objects.create(offer=OfferFactory(), term="split.federal", status="assumed"),
    SourcePassage: lambda: SourcePassage.objects.create(source=SourceFactory(), position=PositionFactory(),
                                                        passage="Word for word."),
    Scenario: lambda: Scenario.objects.create(
        title="What if", negotiation=NegotiationFactory(), as_of=datetime.date(2014, 1, 1), max_grant=Decimal(15000),
        federal_amount=Decimal(5000), provincial_amount=Decimal(5000), employer_amount=Decimal(5000),
        scale_amount=Decimal(300_000_000)),
    Offer: OfferFactory,
}


@pytest.mark.parametrize(("model", "field", "limit"), NEWER)
def test_the_database_refuses_a_longer_newer_text(model, field, limit):
    row = MAKERS[model]()
    model.objects.filter(pk=row.pk).update(**{field: "x" * limit})
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{field: "x" * (limit + 1)})


def test_the_database_refuses_a_longer_text_in_either_language():
    person = PersonFactory()
    for field in ("notes", "notes_en", "notes_fr"):  # notes: the current language's column
        with pytest.raises(IntegrityError), transaction.atomic():
            Person.objects.filter(pk=person.pk).update(**{field: "x" * (bounds.NOTES_LENGTH + 1)})


def test_the_database_refuses_a_longer_text():
    statement = StatementFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Statement.objects.filter(pk=statement.pk).update(quote="x" * (bounds.QUOTE_LENGTH + 1))


def test_the_form_says_how_long_a_text_may_be(client):
    statement = StatementFactory()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    response = client.post(reverse("negotiations:statement_new"), {
        "negotiation": statement.negotiation.slug, "speaker": statement.speaker.slug, "date": "2013-11-30",
        "date_precision": "day", "language": "en", "quote": "x" * 100_000, "source": statement.source.slug,
    })
    assert response.status_code == 200
    assert "at most 4000 characters (it has 100000)" in str(response.context["form"].errors["quote"])
    assert Statement.objects.count() == 1
    # The browser does not cut what is pasted (maxlength would, without a word): the whole text comes back.
    html = response.content.decode()
    assert "maxlength" not in html
    assert "x" * 100_000 in html


def test_a_pasted_context_longer_than_the_field_is_kept_and_said_to_be_too_long(client):
    statement = StatementFactory()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    context = "In an interview with The Canadian Press " * 14 + "In an interview with The Canadian Press."  # 600
    response = client.post(reverse("negotiations:statement_new"), {
        "negotiation": statement.negotiation.slug, "speaker": statement.speaker.slug, "date": "2013-11-30",
        "date_precision": "day", "language": "en", "quote": "We will not budge.", "source": statement.source.slug,
        "context": context,
    })
    assert response.status_code == 200
    assert "at most 300 characters (it has 600)" in str(response.context["form"].errors["context"])
    assert context in response.content.decode()
    assert Statement.objects.count() == 1


def test_the_admin_does_not_cut_a_pasted_text_either(client):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    page = client.get(reverse("admin:negotiations_statement_add")).content.decode()
    assert 'name="context_en"' in page and "maxlength" not in page


def _admin_form_errors(client, model, data: dict) -> dict:
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    response = client.post(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add"), data)
    assert response.status_code == 200  # the form again, with its errors
    return response.context["adminform"].form.errors


@pytest.mark.parametrize(("model", "field", "limit"), [
    (KeyDate, "note_en", bounds.NOTES_LENGTH), (KeyDate, "note_fr", bounds.NOTES_LENGTH),
    (ProgramEnvelope, "notes_en", bounds.NOTES_LENGTH), (ProgramEnvelope, "notes_fr", bounds.NOTES_LENGTH),
    (Scenario, "notes", bounds.NOTES_LENGTH), (Scenario, "assumptions", bounds.ASSUMPTIONS_LENGTH),
])
def test_the_admin_says_how_long_a_text_may_be(client, model, field, limit):
    errors = _admin_form_errors(client, model, {field: "x" * (limit + 1)})
    assert f"at most {limit} characters (it has {limit + 1})" in str(errors[field])
    assert not model.objects.exists()


@pytest.mark.parametrize(("parent", "model", "field", "limit"), [
    (Offer, TermBasis, "passage", bounds.PASSAGE_LENGTH), (Offer, TermBasis, "note_en", bounds.TERM_NOTE_LENGTH),
    (Offer, TermBasis, "note_fr", bounds.TERM_NOTE_LENGTH),
    (Position, SourcePassage, "passage", bounds.PASSAGE_LENGTH), (Meeting, SourcePassage, "passage", bounds.PASSAGE_LENGTH),
])
def test_an_admin_inline_says_how_long_a_text_may_be(parent, model, field, limit):
    request = RequestFactory().get("/")
    request.user = UserFactory(is_superuser=True, is_staff=True)
    inline = next(inline for inline in admin.site._registry[parent].get_inline_instances(request) if inline.model is model)
    form = inline.get_formset(request).form(data={field: "x" * (limit + 1)})
    assert f"at most {limit} characters (it has {limit + 1})" in str(form.errors[field])


def test_the_withdrawal_form_says_how_long_a_reason_may_be():
    limit = bounds.WITHDRAWAL_REASON_LENGTH
    form = WithdrawOfferForm(data={"withdrawal_reason": "x" * (limit + 1), "withdrawn_on": "2014-01-15"})
    assert f"at most {limit} characters (it has {limit + 1})" in str(form.errors["withdrawal_reason"])


def test_the_offer_form_bounds_each_terms_passage_or_note(client):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    OfferFactory()
    page = client.get(reverse("negotiations:offer_new")).content.decode()
    box = re.search(r'<textarea[^>]*name="basis__split__federal__note"[^>]*>', page).group(0)
    assert "maxlength" not in box  # a longer note pasted in is not cut: the form says it is too long
    form = OfferForm(QueryDict(mutable=True) | {"basis__split__federal__note": "x" * (bounds.PASSAGE_LENGTH + 1)})
    assert f"at most {bounds.PASSAGE_LENGTH} characters" in str(form.errors)


def test_the_import_refuses_an_article_longer_than_a_source_may_be():
    """The import's text becomes the source's text: an article whose text (HTML left out) is longer is refused."""
    negotiation = NegotiationFactory()
    text = "A word. " * (bounds.ARTICLE_TEXT_LENGTH // 8 + 1)
    form = ArticleForm(data={"text": text, "negotiation": negotiation.slug})
    assert "longer than 200,000 characters" in str(form.errors["text"])
    assert ArticleForm(data={"text": "A word. " * 1000, "negotiation": negotiation.slug}).is_valid()


def test_a_proposed_quote_is_bounded_as_a_statement_is():
    proposal = ProposedStatement.objects.create(article_import=_article_import(), order=1, quote="Yes.")
    limit = bounds.QUOTE_LENGTH
    form = ProposalForm({"quote": "x" * (limit + 1), "speaker_name": "A. Speaker", "date": "2014-01-15",
                         "date_precision": "day"}, instance=proposal)
    assert f"at most {limit} characters (it has {limit + 1})" in str(form.errors["quote"])


def test_a_quote_longer_than_a_statement_may_be_is_not_proposed():
    quotes = (types.SimpleNamespace(quote="Yes."), types.SimpleNamespace(quote="x" * (bounds.QUOTE_LENGTH + 1)))
    proposal = Proposal(source=None, statements=quotes, warnings=(), text="", encoding="text")
    kept = without_overlong(proposal)
    assert kept.statements == quotes[:1]
    assert kept.warnings == ("1 quote is longer than 4,000 characters and is not proposed.",)  # the one formatter
