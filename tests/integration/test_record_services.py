"""The record's write services: statement_record, position_record, statement_retract."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from negotiations.models import Position, Statement
from negotiations.services.record import (
    PositionExists,
    StatementAlreadyRetracted,
    position_record,
    statement_record,
    statement_retract,
)
from tests.factories import (
    JurisdictionFactory,
    MeetingFactory,
    NegotiationFactory,
    OfferFactory,
    PersonFactory,
    PositionFactory,
    RoleFactory,
    SourceFactory,
    StatementFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2014, 1, 29)


@pytest.fixture
def actor():
    return UserFactory(username="analyst")


@pytest.fixture
def negotiation():
    return NegotiationFactory(slug="canada-job-grant")


@pytest.fixture
def ontario():
    return JurisdictionFactory(code="ON", name_en="Ontario")


def record_statement(actor, negotiation, ontario, **overrides):
    arguments = dict(
        actor=actor, negotiation=negotiation, speaker=PersonFactory(name="Brad Duguid"), jurisdiction=ontario,
        date=DAY, date_precision="day", language="en", quote="  We remain united.  ", source=SourceFactory(),
    )
    return statement_record(**arguments | overrides)


def record_position(actor, negotiation, ontario, **overrides):
    arguments = dict(
        actor=actor, negotiation=negotiation, jurisdiction=ontario, as_of=DAY, date_precision="day",
        stance="opposes", summary="Opposes diverting the LMA.",
    )
    return position_record(**arguments | overrides)


def test_statement_record_saves_and_names_the_actor(actor, negotiation, ontario):
    meeting = MeetingFactory(negotiation=negotiation)
    statement = record_statement(actor, negotiation, ontario, meeting=meeting, context="in an interview")
    assert statement.pk and statement.quote == "We remain united."
    assert statement.meeting == meeting and statement.context == "in an interview"
    history = statement.history.get()
    assert (history.history_type, history.history_user) == ("+", actor)


def test_statement_record_refuses_a_meeting_of_another_negotiation(actor, negotiation, ontario):
    with pytest.raises(ValidationError) as error:
        record_statement(actor, negotiation, ontario, meeting=MeetingFactory())
    assert set(error.value.message_dict) == {"meeting"}
    assert not Statement.objects.exists()


def test_statement_record_refuses_an_original_language_equal_to_the_quote_language(actor, negotiation, ontario):
    with pytest.raises(ValidationError) as error:
        record_statement(actor, negotiation, ontario, language="fr", original_language="fr")
    assert set(error.value.message_dict) == {"original_language"}
    translated = record_statement(actor, negotiation, ontario, language="en", original_language="fr")
    assert translated.original_language == "fr"


def test_statement_record_runs_model_validation(actor, negotiation, ontario):
    with pytest.raises(ValidationError) as error:
        record_statement(actor, negotiation, ontario, quote="   ", date_precision="sometime")
    assert {"quote", "date_precision"} <= set(error.value.message_dict)
    assert not Statement.objects.exists()


def test_a_speaker_speaks_for_a_government_they_hold_a_role_with(actor, negotiation, ontario):
    # "Jason Kenney on behalf of Ontario": a slip of the list, refused next to "on behalf of".
    canada = JurisdictionFactory(code="CA", name_en="Canada")
    kenney = RoleFactory(person=PersonFactory(name="Jason Kenney"), jurisdiction=canada).person
    with pytest.raises(ValidationError) as error:
        record_statement(actor, negotiation, ontario, speaker=kenney)
    assert error.value.message_dict == {"jurisdiction": [
        "The record gives Jason Kenney no role with this government (Ontario): choose the government spoken for, "
        "or first add that role to the person in the admin."]}
    assert not Statement.objects.exists()
    # for the government he holds a role with, for none (a stakeholder's words), or once he has a role with Ontario
    assert record_statement(actor, negotiation, canada, speaker=kenney).jurisdiction == canada
    assert record_statement(actor, negotiation, None, speaker=kenney, quote="Other words.").jurisdiction is None
    RoleFactory(person=kenney, jurisdiction=ontario, start=datetime.date(2000, 1, 1))
    assert record_statement(actor, negotiation, ontario, speaker=kenney, quote="More words.").jurisdiction == ontario


def test_a_statement_gets_a_ref_and_the_same_words_twice_are_recorded_once(actor, negotiation, ontario):
    # A double post stored the statement twice; a statement made on the site had no ref, so no position could cite it.
    first = record_statement(actor, negotiation, ontario)
    assert first.ref == f"{first.speaker.slug}-2014-01-29-we-remain-united"
    with pytest.raises(ValidationError) as error:
        record_statement(actor, negotiation, ontario, speaker=first.speaker)
    assert error.value.message_dict == {"quote": ["These words of Brad Duguid on this date are already in the record."]}
    assert Statement.objects.count() == 1
    other_day = record_statement(actor, negotiation, ontario, speaker=first.speaker, date=datetime.date(2014, 1, 30))
    same_words = record_statement(actor, negotiation, ontario, speaker=first.speaker, date=datetime.date(2014, 1, 29),
                                  quote="We remain united!")
    assert other_day.ref == f"{first.speaker.slug}-2014-01-30-we-remain-united"
    assert same_words.ref == f"{first.ref}-2"


def test_a_stakeholder_statement_has_no_jurisdiction(actor, negotiation):
    statement = record_statement(actor, negotiation, None)
    assert statement.jurisdiction is None


def test_position_record_saves_links_and_names_the_actor(actor, negotiation, ontario):
    evidence = StatementFactory(negotiation=negotiation, jurisdiction=ontario)
    source = SourceFactory()
    offer = OfferFactory(negotiation=negotiation)
    meeting = MeetingFactory(negotiation=negotiation)
    position = record_position(actor, negotiation, ontario, stance="conditional", conditions="  Spare the LMA. ",
                               evidence=[evidence], sources=[source], triggered_by_offer=offer,
                               triggered_by_meeting=meeting)
    position.refresh_from_db()
    assert position.conditions == "Spare the LMA."
    assert list(position.evidence.all()) == [evidence]
    assert list(position.sources.all()) == [source]
    assert (position.triggered_by_offer, position.triggered_by_meeting) == (offer, meeting)
    # One record for the insert, one for each many-to-many set; all by the actor.
    assert [h.history_user for h in position.history.all()] == [actor, actor, actor]
    assert list(position.history.latest().evidence.values_list("statement", flat=True)) == [evidence.pk]


def test_duplicate_position_raises_position_exists(actor, negotiation, ontario):
    PositionFactory(negotiation=negotiation, jurisdiction=ontario, as_of=DAY)
    with pytest.raises(PositionExists) as error:
        record_position(actor, negotiation, ontario)
    assert str(error.value) == (
        f"Ontario already has a position on {negotiation.title} as of January 29, 2014. "
        "Change that position in the admin, or pick another date."
    )
    assert error.value.jurisdiction == ontario and error.value.as_of == DAY
    assert Position.objects.count() == 1


def test_a_concurrent_duplicate_also_raises_position_exists(actor, negotiation, ontario, monkeypatch):
    """Another request inserts the same position after the checks and before the insert."""
    validate = Position.full_clean

    def validate_then_lose_the_race(position, *args, **kwargs):
        validate(position, *args, **kwargs)
        Position.objects.bulk_create([Position(negotiation=negotiation, jurisdiction=ontario, as_of=DAY,
                                               stance="supports", summary="Inserted by the other request.")])

    monkeypatch.setattr(Position, "full_clean", validate_then_lose_the_race)
    with pytest.raises(PositionExists):
        record_position(actor, negotiation, ontario)
    # The service's transaction rolled back and the connection is still usable.
    assert Position.objects.count() == 0


def test_position_record_refuses_links_to_another_negotiation(actor, negotiation, ontario):
    with pytest.raises(ValidationError) as error:
        record_position(actor, negotiation, ontario, triggered_by_offer=OfferFactory(),
                        triggered_by_meeting=MeetingFactory(), evidence=[StatementFactory()])
    assert set(error.value.message_dict) == {"triggered_by_offer", "triggered_by_meeting", "evidence"}
    assert not Position.objects.exists()


def test_position_record_refuses_retracted_evidence(actor, negotiation, ontario):
    retracted = StatementFactory(negotiation=negotiation, retracted=True, retraction_note="Misquoted.")
    with pytest.raises(ValidationError) as error:
        record_position(actor, negotiation, ontario, evidence=[retracted])
    assert "retracted" in error.value.message_dict["evidence"][0]


def test_position_record_runs_model_validation(actor, negotiation, ontario):
    with pytest.raises(ValidationError) as error:
        record_position(actor, negotiation, ontario, stance="delighted", summary="")
    assert {"stance", "summary"} <= set(error.value.message_dict)


def test_statement_retract_keeps_the_statement_and_its_history(actor, negotiation):
    statement = StatementFactory(negotiation=negotiation)
    retracted = statement_retract(actor=actor, statement=statement, note="  Misattributed.  ")
    statement.refresh_from_db()
    assert statement.retracted and statement.retraction_note == "Misattributed."
    assert retracted.pk == statement.pk
    latest, original = statement.history.all()
    assert (latest.retracted, latest.history_user, latest.history_change_reason) == (True, actor, "retracted")
    assert original.retracted is False and original.quote == statement.quote


def test_statement_retract_needs_a_reason(actor, negotiation):
    statement = StatementFactory(negotiation=negotiation)
    with pytest.raises(ValidationError) as error:
        statement_retract(actor=actor, statement=statement, note=" ")
    assert set(error.value.message_dict) == {"retraction_note"}
    statement.refresh_from_db()
    assert not statement.retracted


def test_statement_retract_happens_once(actor, negotiation):
    statement = StatementFactory(negotiation=negotiation)
    statement_retract(actor=actor, statement=statement, note="First reason.")
    with pytest.raises(StatementAlreadyRetracted):
        statement_retract(actor=actor, statement=statement, note="Second reason.")
    statement.refresh_from_db()
    assert statement.retraction_note == "First reason."
