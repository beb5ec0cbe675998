"""Issue 13.5, 13.6, 13.8, 13.9, 13.11: hostile input gets a 400 or a form error, never a 500."""

import io
import logging
import re
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from config.logs import MAX_MESSAGE
from grants.models import Scenario
from negotiations.models import ArticleImport, Offer, Statement
from tests.admin_posts import change_form_data
from tests.factories import UserFactory
from tests.offer_world import PREVIEW_URL, offer_post

pytestmark = pytest.mark.django_db
REFUSED = "This held invisible control characters"


# --- 13.5 NUL and control characters: the 16 places of the probe, and a few more ---------------------

ADDRESSES = [
    "/jurisdictions/%00/",
    "/jurisdictions/ON%01/",
    "/negotiations/canada-job-grant/stances/%00/2013-11",
    "/negotiations/canada-job-grant/stances/ON/2013-11%00",
    "/statements/new?negotiation=%00",
    "/positions/new?negotiation=%00",
    "/offers/new?negotiation=%00",
    "/offers/budget-2013/edit?negotiation=%00",
    "/statements/?negotiation=%00",
    "/offers/?negotiation=ab%00c",
    "/jurisdictions/ON/?person=%1b",
    "/search/?q=%00",
    "/admin/autocomplete/?term=%00&app_label=negotiations&model_name=role&field_name=person",
    "/admin/negotiations/role/?jurisdiction__id__exact=%00",
    "/admin/negotiations/person/?q=%00",
]


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_control_character_in_the_address_is_a_400(client, address):
    assert client.get(address).status_code == 400


def test_the_api_names_the_parameter_with_a_422(client, cjg):
    response = client.get("/api/statements?negotiation=%00")
    assert response.status_code == 422
    assert response.json()["detail"].startswith("negotiation:")


def statement_post(**changes):
    statement = Statement.objects.select_related("negotiation", "speaker", "source").first()
    return {"negotiation": statement.negotiation.slug, "speaker": statement.speaker.slug,
            "jurisdiction": "ON", "date": "2013-11-30", "date_precision": "day", "language": "en",
            "quote": "Kept as typed.", "source": statement.source.slug, **changes}


@pytest.mark.parametrize(("url", "data"), [
    ("negotiations:statement_new", lambda: statement_post(negotiation="canada-job-grant\x00")),
    ("negotiations:position_new", lambda: {"negotiation": "\x00", "jurisdiction": "ON", "as_of": "2013-11-30",
                                          "date_precision": "day", "stance": "opposes", "summary": "Kept as typed."}),
    ("negotiations:offer_new", lambda: {"negotiation": "\x00", "title": "Kept as typed.", "tabled_on": "2013-11-30"}),
])
def test_a_control_character_in_a_form_is_an_error_next_to_it(client, cjg, logged_in_superuser, url, data):
    before = Statement.objects.count()
    response = client.post(reverse(url), data())
    assert response.status_code == 200
    form = response.context["form"]
    assert REFUSED in str(form.errors["negotiation"])
    assert "Kept as typed." in response.content.decode()  # nothing else typed is lost
    assert Statement.objects.count() == before


def test_a_control_character_in_a_text_is_an_error_next_to_it(client, cjg, logged_in_superuser):
    before = Statement.objects.count()
    response = client.post(reverse("negotiations:statement_new"),
                           statement_post(quote="Page one.\x0cPage two, a bell\x07 and NUL\x00."))
    assert REFUSED in str(response.context["form"].errors["quote"])
    # The text comes back without them, the rest kept (a page break pasted from a PDF ends a line): saving
    # again saves it. The field used to come back empty.
    assert "Page one.\nPage two, a bell and NUL.</textarea>" in response.content.decode()
    assert Statement.objects.count() == before
    again = client.post(reverse("negotiations:statement_new"), statement_post(quote="Page one.\nPage two, a bell and NUL."))
    assert again.status_code == 302 and Statement.objects.count() == before + 1


@pytest.mark.parametrize(("character", "kept"), [("\x0b", "Stop\n here."), ("\x1b", "Stop here."), ("\x00", "Stop here."),
                                                ("\uffff", "Stop here.")])
def test_the_admin_takes_control_characters_out_of_a_text_and_says_so(client, cjg, admin_user, character, kept):
    # One saved in a quote through the admin made every Atom feed and Word brief answer 500.
    client.force_login(admin_user)
    statement = Statement.objects.first()
    url = reverse("admin:negotiations_statement_change", args=[statement.pk])
    data = change_form_data(client, url) | {"quote": f"Stop{character} here."}
    response = client.post(url, data)
    assert response.status_code == 200
    assert REFUSED in str(response.context["adminform"].form.errors["quote"])
    assert f"\n{kept}</textarea>" in response.content.decode()  # (a vertical tab ends a line)
    statement.refresh_from_db()
    assert character not in statement.quote
    assert client.get("/negotiations/canada-job-grant/feed").status_code == 200


@pytest.mark.parametrize("character", ["\ufffe", "\uffff"])
def test_a_noncharacter_in_a_quote_is_refused_next_to_it_and_the_feeds_and_word_brief_stay_readable(
        client, cjg, logged_in_superuser, character):
    # U+FFFE and U+FFFF are no characters: XML cannot hold them. One saved in a quote made the Word briefs of its
    # negotiation and jurisdiction answer 500, and every Atom feed showing the quote unreadable to feed readers.
    before = Statement.objects.count()
    response = client.post(reverse("negotiations:statement_new"), statement_post(quote=f"Not{character} this."))
    assert response.status_code == 200
    assert REFUSED in str(response.context["form"].errors["quote"])
    assert "Not this.</textarea>" in response.content.decode()  # kept, without it: saving again saves it
    assert Statement.objects.count() == before
    assert client.post(reverse("negotiations:statement_new"), statement_post(quote="Not this.")).status_code == 302
    for address in ("/negotiations/canada-job-grant/feed", "/jurisdictions/ON/feed"):
        feed = client.get(address)
        assert feed.status_code == 200
        ElementTree.fromstring(feed.content)  # well-formed
    assert client.get("/jurisdictions/ON/briefing.docx").status_code == 200


def test_a_noncharacter_in_a_search_address_is_a_400(client, cjg):
    assert client.get("/search/feed?q=a%EF%BF%BF").status_code == 400


@pytest.mark.parametrize("charset", ["undefined", "no-such-charset"])
def test_an_article_declaring_a_charset_that_is_none_is_read_as_one_without_a_declaration(
        client, cjg, logged_in_superuser, charset):
    # Python knows "undefined" as a codec that refuses every byte with a UnicodeError: the upload answered 500.
    html = (f'<html><head><meta charset="{charset}"><title>Caf\xe9</title></head><body>'
            '<p>\xab We will not sign this \xbb, said Brad Duguid, the caf\xe9 owner.</p></body></html>').encode("latin-1")
    response = client.post(reverse("negotiations:import_new"), {
        "negotiation": "canada-job-grant", "text": "", "file": SimpleUploadedFile("article.html", html, "text/html"),
    }, follow=True)
    assert response.status_code == 200
    assert "the café owner" in response.content.decode()
    assert ArticleImport.objects.get().encoding == "Latin-1"


def test_a_quote_of_nothing_but_zero_width_characters_is_no_quote(client, cjg, logged_in_superuser):
    # It was recorded, and read as “” on every page that quotes it.
    before = Statement.objects.count()
    response = client.post(reverse("negotiations:statement_new"),
                           statement_post(quote="\u200b\u200d", context="In an interview."))
    assert response.status_code == 200 and Statement.objects.count() == before
    assert "This field is required." in str(response.context["form"].errors["quote"])
    assert "In an interview." in response.content.decode()  # the rest kept
    kept = client.post(reverse("negotiations:statement_new"), statement_post(quote="Oui\u200b, non."))
    assert kept.status_code == 302 and Statement.objects.latest("pk").quote == "Oui\u200b, non."


def test_the_admin_takes_a_quote_of_zero_width_characters_for_none(client, cjg, admin_user):
    client.force_login(admin_user)
    statement = Statement.objects.first()
    url = reverse("admin:negotiations_statement_change", args=[statement.pk])
    response = client.post(url, change_form_data(client, url) | {"quote": "\ufeff\u200b"})
    assert response.status_code == 200
    assert "This field is required." in str(response.context["adminform"].form.errors["quote"])
    statement.refresh_from_db()
    assert statement.quote.strip()


def test_a_login_username_with_control_characters_is_a_form_error(client, cjg):
    for username in ("ana\x00", "\x01ana"):
        response = client.post(reverse("login"), {"username": username, "password": "x"})
        assert response.status_code == 200
        assert REFUSED in str(response.context["form"].errors["username"])
    response = client.post(reverse("admin:login"), {"username": "root\x00", "password": "x"})
    assert response.status_code == 200


def test_a_retraction_note_with_nul_is_refused_and_nothing_is_written(client, cjg, logged_in_superuser):
    statement = Statement.objects.first()
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": "wrong\x00", "next": "/statements/"}, follow=True)
    assert response.status_code == 200
    # Said once next to the note (the note, kept, is checked as the form's field before the model's columns).
    errors = re.search(rf'<ul class="errorlist" id="retract-note-{statement.pk}_error">(.*?)</ul>',
                       response.content.decode()).group(1)
    assert errors.count("control characters") == 1
    statement.refresh_from_db()
    assert not statement.retracted


# --- 13.6 A retraction's next --------------------------------------------------------------------


@pytest.mark.parametrize(("given", "expected"), [
    ("statements", "/statements/"),
    ("", "/statements/"),
    ("https://evil.example/", "/statements/"),
    ("//evil.example/", "/statements/"),
    ("/jurisdictions/ON/", "/jurisdictions/ON/"),
])
def test_a_retraction_redirects_to_next_or_the_statement_list(client, cjg, logged_in_superuser, given, expected):
    statement = Statement.objects.filter(retracted=False).first()
    response = client.post(reverse("negotiations:statement_retract", args=[statement.pk]),
                           {"note": "Misattributed.", "next": given})
    assert response.status_code == 302 and response["Location"] == expected
    statement.refresh_from_db()
    assert statement.retracted


# --- 13.8 Logs ----------------------------------------------------------------------------------


@pytest.fixture
def log_output():
    """What the configured console handler writes."""
    handler = next(h for h in logging.getLogger().handlers
                   if any(type(f).__name__ == "CapValues" for f in h.filters))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_refusal_is_one_line_without_a_traceback(client, cjg, log_output):
    client.force_login(UserFactory(username="reader"))
    assert client.get(reverse("negotiations:statement_new")).status_code == 403
    assert client.get("/jurisdictions/%00/").status_code == 400
    lines = log_output.getvalue().splitlines()
    assert any("Forbidden" in line for line in lines)
    assert "Traceback" not in log_output.getvalue()
    assert len(lines) == 2


def test_a_huge_value_makes_a_capped_line(log_output):
    logging.getLogger("anything").warning("Login failure by %s", "x" * 1_000_000)
    line = log_output.getvalue()
    assert MAX_MESSAGE < len(line) < MAX_MESSAGE + 100
    assert "more characters" in line


# --- 13.9 READ_REQUIRES_LOGIN needs a view permission -------------------------------------------


def test_an_account_without_a_group_may_not_read_when_reads_require_a_login(client, cjg, settings):
    settings.READ_REQUIRES_LOGIN = True
    client.force_login(UserFactory(username="nobody"))
    for address in ("/", "/statements/", "/offers/budget-2013/fiscal.csv", "/offers/budget-2013/fiscal/"):
        assert client.get(address).status_code == 403, address
    response = client.get("/api/offers")
    assert response.status_code == 403 and "may not read" in response.json()["detail"]

    viewer = UserFactory(username="viewer")
    viewer.groups.add(Group.objects.get(name="Viewer"))
    reader = Client()
    reader.force_login(viewer)
    for address in ("/", "/statements/", "/offers/budget-2013/fiscal.csv", "/api/offers"):
        assert reader.get(address).status_code == 200, address


# --- 13.11 What the OpenAPI document says is what the API answers -------------------------------


def test_the_openapi_document_describes_422_414_and_the_decimal_places(client, cjg):
    document = client.get("/api/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert {"414", "422"} <= set(map(str, operation["responses"])), (path, method)
    fiscal = document["paths"]["/api/offers/{slug}/fiscal-effect"]["get"]
    participation = next(p for p in fiscal["parameters"] if p["name"] == "participation")
    assert "at most 10 decimal places" in participation["description"]
    response = client.get("/api/offers/budget-2013/fiscal-effect?participation=0.12345678901")
    assert response.status_code == 422 and "decimal places" in response.json()["detail"]
    offers = document["paths"]["/api/offers"]["get"]
    tabled_by = next(p for p in offers["parameters"] if p["name"] == "tabled_by")
    assert "422" in tabled_by["description"]
    assert client.get("/api/offers?tabled_by=ZZ").status_code == 422
    assert client.get("/api/offers?negotiation=%00").status_code == 422


@pytest.mark.parametrize(("model", "data"), [
    # a foreign key, a many-to-many and an inline row's foreign key, each drawn by the admin's autocomplete widget
    ("statement", {"speaker": "abc", "quote": "Kept as typed."}),
    ("meeting", {"participants": ["abc"], "title_en": "Kept as typed."}),
    ("person", {"name": "Kept as typed.", "roles-TOTAL_FORMS": "1", "roles-0-jurisdiction": "\u202eON",
                "roles-0-title_en": "Minister"}),
])
def test_an_admin_autocomplete_given_a_value_that_is_no_key_says_so_next_to_it(client, cjg, logged_in_superuser,
                                                                                model, data):
    # Django's autocomplete widget looked the posted key up as it came when it redrew the refused form: a 500.
    from django.apps import apps

    from tests.admin_posts import empty_inlines

    counted = apps.get_model("negotiations", model)
    before = counted.objects.count()
    response = client.post(reverse(f"admin:negotiations_{model}_add"), {**empty_inlines(counted), **data})
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r"Select a valid choice|“abc” is not a valid value", page)
    assert "Kept as typed." in page
    assert counted.objects.count() == before


def test_a_role_with_neither_jurisdiction_nor_organisation_is_an_error_next_to_the_jurisdiction(client, cjg,
                                                                                                 logged_in_superuser):
    # The admin edits the organisation in each language, so Django left the row's check constraint unchecked
    # and the database refused the save: a 500, on the role's page and in a person's rows of roles alike.
    from negotiations.models import Person, Role
    from tests.admin_posts import empty_inlines

    person = Person.objects.first()
    role = {"title_en": "Minister", "jurisdiction": "", "organization_en": "", "organization_fr": "",
            "start_precision": "day", "end_precision": "day"}
    before = Role.objects.count()
    response = client.post(reverse("admin:negotiations_role_add"), {"person": person.pk, **role})
    assert response.status_code == 200
    assert "A role belongs to a jurisdiction or an organisation." in response.content.decode()
    data = {"name": person.name, "slug": person.slug, **empty_inlines(Person), "roles-TOTAL_FORMS": "1",
            **{f"roles-0-{name}": value for name, value in role.items()}}
    response = client.post(reverse("admin:negotiations_person_change", args=[person.pk]), data)
    assert response.status_code == 200
    assert "A role belongs to a jurisdiction or an organisation." in response.content.decode()
    assert Role.objects.count() == before


@pytest.mark.parametrize(("changelist", "action"), [
    ("admin:negotiations_statement_changelist", "retract"),
    ("admin:negotiations_statement_changelist", "delete_selected"),
    ("admin:auth_group_changelist", "delete_selected"),  # an installed app's admin too
])
def test_an_admin_action_on_a_selected_row_that_is_no_key_changes_nothing_and_says_so(client, cjg, logged_in_superuser,
                                                                                       changelist, action):
    # Django's admin filtered the rows by the posted keys as they came: a 500.
    Group.objects.get_or_create(name="Kept")
    statements, groups = Statement.objects.filter(retracted=False).count(), Group.objects.count()
    selected = [str(Statement.objects.first().pk), "abc"]
    response = client.post(reverse(changelist), {"action": action, "_selected_action": selected, "index": "0",
                                                 "post": "yes", "note": "Misattributed."}, follow=True)
    assert response.status_code == 200
    assert "Some selected rows do not exist. No rows have been changed." in response.content.decode()
    assert Statement.objects.filter(retracted=False).count() == statements and Group.objects.count() == groups


def test_the_admin_site_keeps_its_titles_and_its_door(client, cjg):
    from tests.factories import UserFactory

    response = client.get(reverse("admin:login"))
    assert "FPT Tracker admin" in response.content.decode()
    client.force_login(UserFactory(username="reader-only"))
    assert client.get(reverse("admin:index")).status_code == 302  # neither staff nor an editor: to the login page


@pytest.mark.parametrize("model", ["statement", "source", "position", "offer", "meeting", "person"])
def test_an_admin_list_filtered_by_a_number_no_row_can_have_is_refused_as_a_bad_filter(client, cjg, logged_in_superuser,
                                                                                      model):
    # ?pk__in=99999999999999999999 overflowed SQLite's integers when the list was counted: a 500. (PostgreSQL
    # compares it as a number and lists no row.)
    dated = {"statement": "date", "source": "published_on", "position": "as_of", "offer": "tabled_on",
             "meeting": "date", "person": None}[model]
    queries = ["pk__in=99999999999999999999", "pk__in=1,99999999999999999999"]
    queries += [f"{dated}__year=99999999999999999999"] if dated else []
    for query in queries:
        response = client.get(f"/admin/negotiations/{model}/?{query}")
        if response.status_code == 302:
            assert response["Location"].endswith("?e=1"), query
        else:
            assert response.status_code == 200 and "0 " in response.content.decode(), query
    assert client.get(f"/admin/negotiations/{model}/?e=1").status_code == 200  # Django's own "bad filter" page


@pytest.mark.parametrize("version", ["zz", "99999999999999999999", "-1"])
def test_an_admin_history_version_that_is_no_key_is_not_found(client, cjg, logged_in_superuser, version):
    from negotiations.models import Source

    source = Source.objects.first()
    assert client.get(f"/admin/negotiations/source/{source.pk}/history/{version}/").status_code == 404
    assert client.get("/admin/negotiations/source/zz/history/1/").status_code == 404
    version = source.history.first().history_id
    assert client.get(f"/admin/negotiations/source/{source.pk}/history/{version}/").status_code == 200


@pytest.mark.parametrize("url", ["negotiations/person/abc/history/", "negotiations/statement/1.5/history/",
                                 "negotiations/offer/99999999999999999999/history/", "grants/scenario/zz/history/",
                                 "alerts/follow/-/history/"])
def test_the_admin_history_of_an_address_that_is_no_key_is_not_found(client, cjg, logged_in_superuser, url):
    assert client.get(f"/admin/{url}").status_code == 404  # it was a 500


@pytest.mark.parametrize("evidence", ["99999999999999999999", "-99999999999999999999", "9223372036854775808"])
def test_evidence_no_row_can_have_is_an_invalid_choice_next_to_it(client, cjg, logged_in_superuser, evidence):
    # The number overflowed SQLite's integers when the statements were looked up: a 500.
    from negotiations.models import Position

    before = Position.objects.count()
    response = client.post(reverse("negotiations:position_new"), {
        "negotiation": "canada-job-grant", "jurisdiction": "ON", "as_of": "2013-11-30", "date_precision": "day",
        "stance": "opposes", "summary": "Kept as typed.", "evidence": [evidence]})
    assert response.status_code == 200
    assert response.context["form"].errors["evidence"] == [
        "Not one of this negotiation's: it belongs to another negotiation, or does not exist."]
    assert "Kept as typed." in response.content.decode()
    assert Position.objects.count() == before


# --- A fiscal year in other digits than 0-9 ------------------------------------------------------------

OTHER_DIGITS = ["٢٠١٥-١٦", "２０１５-１６"]  # 2015-16 in Arabic-Indic and in fullwidth digits


@pytest.mark.parametrize("year", OTHER_DIGITS)
def test_a_phase_in_year_in_other_digits_is_refused_next_to_it_as_the_save_refuses_it(client, cjg, editor, year):
    # The form took it (`\d` is any digit) and the live preview computed with it, then the save refused it above the
    # form, nothing marked next to the year.
    client.force_login(editor)
    data = offer_post(phase_in_year_0=year, phase_in_fraction_0="0.5", phase_in_year_1="2016-17",
                      phase_in_fraction_1="1")
    before = Offer.objects.count()
    response = client.post(reverse("negotiations:offer_new"), data)
    assert response.status_code == 200 and Offer.objects.count() == before
    assert "A fiscal year is written like 2014-15." in str(response.context["form"].errors["phase_in_year_0"])
    assert f'value="{year}"' in response.content.decode()  # kept as typed
    preview = client.post(PREVIEW_URL, data).content.decode()
    assert "A fiscal year is written like 2014-15." in preview


@pytest.mark.parametrize("year", OTHER_DIGITS)
def test_a_scenario_s_fiscal_year_in_other_digits_is_refused_next_to_it(client, cjg, editor, year):
    # It was saved, and the API gave it back as the scenario's fiscal_year, against the contract's 2017-18.
    client.force_login(editor)
    response = client.post(reverse("grants:scenario_new"),
                           offer_post(title="What if", tabled_on="2014-01-29", fiscal_year=year))
    assert response.status_code == 200 and not Scenario.objects.exists()
    assert "Write a fiscal year like 2015-16." in str(response.context["form"].errors["fiscal_year"])


def test_a_fiscal_year_in_other_digits_in_the_address_is_a_400_naming_it(client, cjg):
    response = client.get("/offers/budget-2013/fiscal/?fiscal_year=%D9%A2%D9%A0%D9%A1%D9%A5-%D9%A1%D9%A6")
    assert response.status_code == 400
    assert "“٢٠١٥-١٦” is not valid. Write it like 2014-15" in response.content.decode()
