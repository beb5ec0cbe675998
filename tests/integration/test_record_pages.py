"""The record pages: meetings, people, sources, statements, and the statement and position forms."""

import datetime
import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from negotiations.models import Position, Statement
from tests.factories import (
    JurisdictionFactory,
    MeetingFactory,
    PositionFactory,
    Record,
    StatementFactory,
    position_data,
)
from tests.offer_world import user_with

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12


@pytest.fixture
def viewer():
    return user_with(username="viewer")


@pytest.fixture
def rec():
    return Record()


def page_urls(rec):
    return [
        reverse("negotiations:meeting_list"),
        rec.meeting.get_absolute_url(),
        reverse("negotiations:person_list"),
        rec.person.get_absolute_url(),
        reverse("negotiations:source_list"),
        rec.source.get_absolute_url(),
        reverse("negotiations:statement_list"),
        reverse("negotiations:statement_list") + "?jurisdiction=ON&negotiation=canada-job-grant&speaker=brad-duguid",
    ]


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def test_every_page_answers_200_with_data(client, rec):
    rec.grow(3)
    for url in page_urls(rec):
        assert client.get(url).status_code == 200, url


def test_every_list_answers_200_when_empty(client, db):
    for name in ("meeting_list", "person_list", "source_list", "statement_list"):
        assert client.get(reverse(f"negotiations:{name}")).status_code == 200


@pytest.mark.parametrize("name", ["meeting", "person", "source"])
def test_unknown_slug_is_404(client, db, name):
    assert client.get(reverse(f"negotiations:{name}", args=["no-such-thing"])).status_code == 404


def test_query_counts_do_not_grow_with_the_data(client, rec):
    """Each page costs the same number of queries with 3 and 30 rows around it, and at most 12."""
    rec.grow(3)
    small = {url: count_queries(client, url) for url in page_urls(rec)}
    rec.grow(27)
    large = {url: count_queries(client, url) for url in page_urls(rec)}
    assert small == large
    assert max(large.values()) <= MAX_QUERIES, large


def test_form_query_counts_do_not_grow_with_the_data(client, rec, record_editor):
    client.force_login(record_editor)
    urls = [reverse("negotiations:statement_new"), reverse("negotiations:position_new")]
    rec.grow(3)
    small = [count_queries(client, url) for url in urls]
    rec.grow(27)
    large = [count_queries(client, url) for url in urls]
    assert small == large
    assert max(large) <= MAX_QUERIES, large


def test_meeting_page_shows_what_happened_there(client, rec):
    rec.grow(2)
    content = client.get(rec.meeting.get_absolute_url()).content.decode()
    assert "FPT labour ministers meet" in content
    assert "No agreement on the grant." in content
    assert "Brad Duguid" in content and "Minister of Training" in content  # role held on the meeting's date
    assert "On the job grant, point 1." in content
    assert "Grant offer 1" in content
    assert rec.source.title in content
    assert 'href="/jurisdictions/' in content


def test_person_page_shows_roles_and_statements(client, rec):
    rec.grow(2)
    content = client.get(rec.person.get_absolute_url()).content.decode()
    assert "Minister of Training" in content and "2013-02-11" in content
    assert content.count('class="statement') == 2
    assert "FPT labour ministers meet" in content


def test_source_page_shows_what_it_supports(client, rec):
    rec.grow(2)
    content = client.get(rec.source.get_absolute_url()).content.decode()
    assert "FPT labour ministers meet" in content
    assert "On the job grant, point 0." in content
    assert "Grant offer 0" in content
    assert "Opposes the grant as designed." in content


def test_source_list_counts_what_cites_each_source(client, rec):
    rec.grow(2)
    page = client.get(reverse("negotiations:source_list")).context["page"]
    cited = next(source for source in page.object_list if source.pk == rec.source.pk)
    assert (cited.meeting_count, cited.statement_count, cited.position_count, cited.offer_count) == (1, 4, 2, 2)


def test_statement_list_filters_and_paginates(client, rec):
    rec.grow(15)
    everything = client.get(reverse("negotiations:statement_list"))
    assert everything.context["page"].paginator.count == 30
    assert len(everything.context["page"].object_list) == 25
    assert 'rel="next"' in everything.content.decode()
    second = client.get(reverse("negotiations:statement_list") + "?page=2")
    assert len(second.context["page"].object_list) == 5
    by_person = client.get(reverse("negotiations:statement_list") + "?speaker=brad-duguid")
    assert by_person.context["page"].paginator.count == 15
    some_code = Statement.objects.exclude(speaker=rec.person).first().jurisdiction.code
    by_jurisdiction = client.get(reverse("negotiations:statement_list") + f"?jurisdiction={some_code}")
    assert {s.jurisdiction.code for s in by_jurisdiction.context["page"].object_list} == {some_code}


def test_statement_list_reports_an_unknown_filter_and_ignores_it(client, rec):
    rec.grow(2)
    response = client.get(reverse("negotiations:statement_list") + "?jurisdiction=ZZ")
    assert response.status_code == 200
    assert response.context["page"].paginator.count == 4
    assert "That filter is ignored." in response.content.decode()


def test_statement_list_answers_htmx_with_the_results_region_only(client, rec):
    rec.grow(2)
    response = client.get(reverse("negotiations:statement_list") + "?speaker=brad-duguid", headers={"HX-Request": "true"})
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="statement-results"')
    assert "<html" not in content
    assert "HX-Request" in response.headers["Vary"]


def test_statement_is_escaped(client, rec):
    StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source, meeting=rec.meeting,
                     quote="<script>alert(1)</script>", context="<b>bold</b>")
    for url in (reverse("negotiations:statement_list"), rec.person.get_absolute_url(),
                rec.meeting.get_absolute_url(), rec.source.get_absolute_url()):
        content = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in content, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content, url
        assert "&lt;b&gt;bold&lt;/b&gt;" in content, url


# Writing: who may, and what happens.

@pytest.mark.parametrize("name", ["statement_new", "position_new"])
def test_anonymous_is_sent_to_log_in_and_back(client, db, name):
    url = reverse(f"negotiations:{name}")
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name", ["statement_new", "position_new"])
def test_viewer_without_permission_is_refused(client, viewer, name):
    client.force_login(viewer)
    assert client.get(reverse(f"negotiations:{name}")).status_code == 403
    assert client.post(reverse(f"negotiations:{name}"), {}).status_code == 403


def test_viewer_cannot_retract(client, rec, viewer):
    statement = StatementFactory(negotiation=rec.negotiation, source=rec.source)
    client.force_login(viewer)
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]), {"note": "wrong"})
    assert response.status_code == 403
    statement.refresh_from_db()
    assert not statement.retracted


def statement_data(rec, **overrides):
    data = {
        "negotiation": rec.negotiation.slug, "speaker": rec.person.slug, "jurisdiction": "ON",
        "date": "2014-01-29", "date_precision": "day", "language": "en", "original_language": "",
        "quote": "We continue to remain united.", "context": "in an interview", "source": rec.source.slug,
        "meeting": "",
    }
    return data | overrides


def test_editor_records_a_statement(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec))
    assert response.status_code == 302
    assert response.url == "/jurisdictions/ON/"
    statement = Statement.objects.get(quote="We continue to remain united.")
    assert (statement.speaker, statement.jurisdiction, statement.source) == (rec.person, rec.ontario, rec.source)
    assert statement.history.get().history_user == record_editor
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["The statement by Brad Duguid is recorded."]


def test_an_editor_sees_each_statement_s_ref_to_cite_it_in_a_position(client, rec, record_editor):
    client.force_login(record_editor)
    client.post(reverse("negotiations:statement_new"), statement_data(rec))
    ref = Statement.objects.get().ref
    assert ref == "brad-duguid-2014-01-29-we-continue-to-remain"
    assert f"<code>{ref}</code>" in client.get(reverse("negotiations:statement_list")).content.decode()
    form = client.get(reverse("negotiations:position_new")).content.decode()
    assert "“Stated in” takes a statement's ref" in form.replace("&#x27;", "'")


def test_a_stakeholder_statement_goes_back_to_the_speaker(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, jurisdiction=""))
    assert response.status_code == 302
    assert response.url == rec.person.get_absolute_url()


def test_statement_form_fills_in_from_the_address(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.get(reverse("negotiations:statement_new") + "?speaker=brad-duguid&jurisdiction=ON")
    form = response.context["form"]
    assert form["speaker"].value() == "brad-duguid"
    assert form["jurisdiction"].value() == "ON"
    assert form["negotiation"].value() == "canada-job-grant"
    assert '<option value="brad-duguid" selected>' in response.content.decode()


def test_invalid_statement_keeps_what_was_typed(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"),
                           statement_data(rec, quote="", date="2014-02-31", context="at a press conference"))
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) == {"quote", "date"}
    content = response.content.decode()
    assert 'value="at a press conference"' in content
    assert 'value="2014-02-31"' in content
    assert '<option value="brad-duguid" selected>' in content
    assert 'aria-invalid="true"' in content
    assert not Statement.objects.exists()


def test_service_rules_show_on_their_fields(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, original_language="en"))
    assert response.status_code == 200
    assert "already in the language spoken" in response.context["form"].errors["original_language"][0]
    assert "We continue to remain united." in response.content.decode()
    assert not Statement.objects.exists()


def test_a_speaker_for_a_government_they_have_no_role_with_is_refused_next_to_it(client, rec, record_editor):
    # Brad Duguid (Ontario's minister) chosen "on behalf of" Quebec: a slip of the list, refused with the form kept.
    JurisdictionFactory(code="QC", name_en="Quebec")
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, jurisdiction="QC"))
    assert response.status_code == 200
    assert response.context["form"].errors["jurisdiction"] == [
        "The record gives Brad Duguid no role with this government (Quebec): choose the government spoken for, "
        "or first add that role to the person in the admin."]
    assert "We continue to remain united." in response.content.decode()
    assert not Statement.objects.exists()


def test_the_speaker_s_government_is_questioned_with_the_other_problems_not_after_them(client, rec, record_editor):
    # The quote left empty as well: both problems are said at once, not the role only once the quote is filled in.
    JurisdictionFactory(code="QC", name_en="Quebec")
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, jurisdiction="QC", quote=""))
    errors = response.context["form"].errors
    assert errors["quote"] == ["This field is required."]
    assert errors["jurisdiction"][0].startswith("The record gives Brad Duguid no role with this government (Quebec)")
    assert not Statement.objects.exists()


def test_another_negotiation_s_meeting_is_refused_and_not_offered(client, rec, record_editor):
    other = MeetingFactory(slug="elsewhere")  # another negotiation's meeting
    client.force_login(record_editor)
    form_page = client.get(reverse("negotiations:statement_new"), {"negotiation": rec.negotiation.slug})
    assert f'<option value="{rec.meeting.slug}"' in form_page.content.decode()
    assert 'value="elsewhere"' not in form_page.content.decode()
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, meeting=other.slug))
    assert response.status_code == 200
    assert "another negotiation" in response.context["form"].errors["meeting"][0]
    assert not Statement.objects.exists()
    # The other negotiation's page lists it (the negotiation select reloads the meetings from there).
    other_page = client.get(reverse("negotiations:statement_new"), {"negotiation": other.negotiation.slug})
    assert 'value="elsewhere"' in other_page.content.decode()
    assert f'<option value="{rec.meeting.slug}"' not in other_page.content.decode()


def test_editor_records_a_position_with_evidence(client, rec, record_editor):
    evidence = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, jurisdiction=rec.ontario,
                                source=rec.source)
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"),
                           position_data(rec, evidence=[evidence.pk], sources=[rec.source.slug]))
    assert response.status_code == 302
    assert response.url == "/jurisdictions/ON/"
    position = Position.objects.get(jurisdiction=rec.ontario)
    assert position.stance == "conditional"
    assert list(position.evidence.all()) == [evidence]
    assert list(position.sources.all()) == [rec.source]
    assert position.triggered_by_meeting == rec.meeting
    assert {h.history_user for h in position.history.all()} == {record_editor}


def test_duplicate_position_is_refused_with_a_clear_message(client, rec, record_editor):
    PositionFactory(negotiation=rec.negotiation, jurisdiction=rec.ontario, as_of=datetime.date(2014, 1, 29))
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"), position_data(rec))
    assert response.status_code == 200
    assert "already has a position" in response.content.decode()
    assert 'value="Will sign if the LMA is spared."' not in response.content.decode()  # a textarea, not an input
    assert "Will sign if the LMA is spared." in response.content.decode()
    assert Position.objects.count() == 1


def test_invalid_position_shows_field_errors(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"), position_data(rec, stance="delighted", summary=""))
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"stance", "summary"}
    assert "Keep the LMA whole." in response.content.decode()


def test_editor_retracts_a_statement_and_it_stays(client, rec, record_editor):
    statement = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    client.force_login(record_editor)
    back = reverse("negotiations:statement_list") + "?speaker=brad-duguid"
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": "Misattributed: it was the deputy.", "next": back})
    assert response.status_code == 302
    assert response.url == back
    statement.refresh_from_db()
    assert statement.retracted and statement.retraction_note == "Misattributed: it was the deputy."
    latest, first = statement.history.all()[:2]
    assert (latest.retracted, first.retracted) == (True, False)
    assert latest.history_user == record_editor
    content = client.get(back).content.decode()
    assert "Retracted" in content and "Misattributed: it was the deputy." in content


def test_retract_refuses_a_foreign_next_and_an_empty_note(client, rec, record_editor):
    statement = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": "  ", "next": "https://evil.example/"})
    # the list, the fallback for any next not ours, where the refused note is shown again under its statement
    assert response.url == f"{reverse('negotiations:statement_list')}#error-summary"
    statement.refresh_from_db()
    assert not statement.retracted


def test_retract_is_post_only(client, rec, record_editor):
    statement = StatementFactory(negotiation=rec.negotiation, source=rec.source)
    client.force_login(record_editor)
    assert client.get(reverse("negotiations:statement_retract", args=[statement.pk])).status_code == 405


def test_retract_form_shows_only_to_editors(client, rec, record_editor, viewer):
    StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    url = reverse("negotiations:statement_list")
    client.force_login(viewer)
    assert "Retract this statement" not in client.get(url).content.decode()
    client.force_login(record_editor)
    assert "Retract this statement" in client.get(url).content.decode()


def _retract_form(html: str, statement) -> str:
    """The retraction form under `statement` on a page, from its <details> to its </form>."""
    found = re.search(rf'<details class="retract"[^>]*>(?:(?!</details>).)*action="[^"]*/statements/{statement.pk}/retract"'
                      r'.*?</form>', html, re.S)
    assert found, f"no retraction form for statement {statement.pk}"
    return found.group(0)


LONG_NOTE = "Misattributed: it was the deputy minister, as the ministry's correction says. " * 5  # 390


@pytest.mark.parametrize(("note", "kept", "problem"), [
    (LONG_NOTE, LONG_NOTE, "at most 300 characters (it has 389)"),  # counted without the last space
    ("   ", "   ", "Say why the statement is retracted."),
    ("Misattributed\x00 by the wire.", "Misattributed by the wire.", "invisible control characters"),
])
def test_a_refused_retraction_note_comes_back_whole_under_its_statement(client, rec, record_editor, note, kept, problem):
    """Refused, the note is not lost: the list it was posted from comes back (its filters and page kept) with this
    statement's form open, the whole note in it and why next to it; nothing is written."""
    statement = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    other = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    client.force_login(record_editor)
    back = reverse("negotiations:statement_list") + "?speaker=brad-duguid"
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]), {"note": note, "next": back})
    assert response.status_code == 302
    assert response.url == f"{back}#error-summary"
    statement.refresh_from_db()
    assert not statement.retracted and statement.retraction_note == ""
    assert statement.history.count() == 1, "nothing written"

    page = client.get(response.url)
    html = page.content.decode()
    form = _retract_form(html, statement)
    field_id = f"retract-note-{statement.pk}"
    assert form.startswith('<details class="retract" open')
    field = re.search(rf'<input [^>]*id="{field_id}"[^>]*>', form).group(0)
    assert 'aria-invalid="true"' in field and f'aria-describedby="{field_id}_error"' in field
    assert unescape(re.search(r'value="([^"]*)"', field).group(1)) == kept, "the whole note, not cut"
    assert re.search(rf'id="{field_id}_error"[^>]*>.*{re.escape(problem)}', form, re.S), "why, next to the note"
    assert "maxlength" not in html
    assert f'name="next" value="{back}"' in form, "a second try goes back to the same list"
    # What went wrong heads the statement; the address names it, so the browser shows and focuses it.
    assert re.search(rf'id="statement-{statement.pk}">\s*<div class="error-summary" id="error-summary"', html)
    assert html.count('id="error-summary"') == 1
    assert _retract_form(html, other).startswith('<details class="retract">'), "the other statements' forms stay shut"
    # Shown once: the list opened again is as it was.
    assert "aria-invalid" not in client.get(back).content.decode()


def test_a_refused_note_is_shown_with_its_statement_even_off_the_page_it_came_from(client, rec, record_editor):
    """A statement recorded meanwhile can push the one being retracted onto the next page: it is shown anyway."""
    statement = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source,
                                 date=datetime.date(2013, 1, 2))
    StatementFactory.create_batch(25, negotiation=rec.negotiation, speaker=rec.person, source=rec.source,
                                  date=datetime.date(2013, 6, 1))
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": "x" * 301, "next": reverse("negotiations:statement_list")}, follow=True)
    form = _retract_form(response.content.decode(), statement)
    assert 'aria-invalid="true"' in form and f'value="{"x" * 301}"' in form


def test_a_refused_note_goes_back_to_the_statement_list_whatever_next_says(client, rec, record_editor):
    """The form lives on the statement list: a refused note is shown there, not lost on a page without the form."""
    statement = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": " ", "next": rec.source.get_absolute_url()})
    assert response.url == f"{reverse('negotiations:statement_list')}#error-summary"


def test_the_retraction_form_does_not_cut_a_pasted_note(client, rec, record_editor):
    StatementFactory(negotiation=rec.negotiation, speaker=rec.person, source=rec.source)
    client.force_login(record_editor)
    html = client.get(reverse("negotiations:statement_list")).content.decode()
    assert 'name="note"' in html and "maxlength" not in html


def test_the_position_form_offers_only_its_negotiation_s_statements_offers_and_meetings(client, rec, record_editor):
    mine = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, jurisdiction=rec.ontario,
                            source=rec.source, quote="Ours to weigh.")
    theirs = StatementFactory(quote="Someone else's talks.")  # in another negotiation
    client.force_login(record_editor)
    html = client.get(reverse("negotiations:position_new"), {"negotiation": rec.negotiation.slug}).content.decode()
    assert "Ours to weigh." in html and "Someone else" not in html
    assert f'<option value="{rec.meeting.slug}"' in html
    response = client.post(reverse("negotiations:position_new"), position_data(rec, evidence=[mine.pk, theirs.pk]))
    assert response.status_code == 200
    assert "another negotiation" in response.context["form"].errors["evidence"][0]
    assert not Position.objects.exists()


@pytest.mark.parametrize("changes, words", [
    # a year typed wrong: the stance matrix stretched to it and the briefing's record read "as of" it
    ({"date": "2031-03-01"}, "That day has not come yet: give a date no later than today"),
    # the source (published 2014-01-29) cannot report what was said after it
    ({"date": "2014-03-01"}, "The source was published on January 29, 2014: what it reports was not said later."),
])
def test_a_statement_dated_after_today_or_its_source_is_refused_next_to_its_date(client, rec, record_editor,
                                                                                 changes, words):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:statement_new"), statement_data(rec, **changes))
    assert response.status_code == 200
    html = response.content.decode()
    assert words in html.split('id="id_date_error"', 1)[1].split("</div>", 1)[0]
    assert "We continue to remain united." in html  # what was typed stays
    assert not Statement.objects.filter(quote="We continue to remain united.").exists()


def test_a_day_to_come_is_refused_with_today_written_in_words_in_the_reader_s_language(client, rec, record_editor):
    # « … au plus tard aujourd'hui, le 2026-12-07 »: today was written as the database writes it.
    from django.utils import timezone

    from config.numbers import format_date

    client.force_login(record_editor)
    today = timezone.localdate()
    for prefix, language in (("", "en"), ("/fr", "fr")):
        response = client.post(prefix + reverse("negotiations:statement_new"), statement_data(rec, date="2031-03-01"))
        message = str(response.context["form"].errors["date"])
        with translation.override(language):
            assert format_date(today) in message
        assert today.isoformat() not in message


def test_a_position_an_offer_or_a_withdrawal_after_today_is_refused(client, rec, record_editor):
    from tests.factories import position_data

    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"), position_data(rec, as_of="2031-01-29"))
    assert response.status_code == 200 and "That day has not come yet" in str(response.context["form"].errors["as_of"])
    from negotiations.offer_forms import OfferForm

    assert "tabled_on" in OfferForm(data={"tabled_on": "2031-05-01"}).errors
    assert "That day has not come yet" in str(OfferForm(data={"tabled_on": "2031-05-01"}).errors["tabled_on"])
    from negotiations.forms import WithdrawOfferForm

    form = WithdrawOfferForm(data={"withdrawal_reason": "Typo.", "withdrawn_on": "2030-06-01"})
    assert not form.is_valid() and "That day has not come yet" in str(form.errors["withdrawn_on"])
    assert WithdrawOfferForm(data={"withdrawal_reason": "Typo.", "withdrawn_on": "2014-06-01"}).is_valid()
