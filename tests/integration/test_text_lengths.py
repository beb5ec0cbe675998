"""Issue 13.4: every free text has a maximum, in the forms, the models and the database."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from negotiations import bounds
from negotiations.models import Meeting, Negotiation, Offer, Person, Position, Source, Statement
from tests.factories import StatementFactory, UserFactory

pytestmark = pytest.mark.django_db

BOUNDED = [
    (Person, "notes", bounds.NOTES_LENGTH), (Negotiation, "summary", bounds.SUMMARY_LENGTH),
    (Source, "summary", bounds.SUMMARY_LENGTH), (Source, "text", bounds.ARTICLE_TEXT_LENGTH),
    (Meeting, "outcome", bounds.OUTCOME_LENGTH), (Statement, "quote", bounds.QUOTE_LENGTH),
    (Offer, "summary", bounds.SUMMARY_LENGTH), (Offer, "assumptions", bounds.ASSUMPTIONS_LENGTH),
    (Position, "summary", bounds.SUMMARY_LENGTH), (Position, "conditions", bounds.CONDITIONS_LENGTH),
]


@pytest.mark.parametrize(("model", "field", "limit"), BOUNDED)
def test_every_free_text_has_a_maximum(model, field, limit):
    assert model._meta.get_field(field).max_length == limit
    assert f"{model._meta.model_name}_{field}_length" in {c.name for c in model._meta.constraints}


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
    assert 'maxlength="4000"' in response.content.decode()
