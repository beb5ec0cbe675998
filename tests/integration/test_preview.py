"""The live fiscal preview (grants:preview): figures for the terms being typed, problems instead of a 500."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from negotiations.models import Offer
from tests.offer_world import DECEMBER_TERMS, PREVIEW_URL, national, offer_post, user_with
from tests.shared import HTMX

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_reference_data")]

def change(response) -> dict[str, str]:
    """The change column (from the offer answered): line name -> the difference shown."""
    html = response.content.decode()
    rows = re.findall(r'<tr data-line="(\w+)"[^>]*>(.*?)</tr>', html, re.S)
    result = {}
    for name, row in rows:
        cell = re.search(r'<td class="num change change-\w+">(.*?)</td>', row, re.S)
        if cell:
            result[name] = re.sub(r"<[^>]+>", "", cell.group(1)).strip()
    return result


def test_url_is_the_one_the_form_posts_to():
    assert reverse("grants:preview") == PREVIEW_URL


def test_budget_2013_gives_the_premiers_figures(offer_editor_client, budget):
    response = offer_editor_client.post(PREVIEW_URL, offer_post(), **HTMX)

    assert response.status_code == 200
    assert national(response) == {
        "trainees": "60,000",
        "federal_cost": "$300,000,000",
        "provincial_cost": "$300,000,000",
        "employer_cost": "$300,000,000",
        "lma_diverted": "$300,000,000",
        "lmda_redirected": "$0",
        "provinces_need": "$600,000,000",
    }
    html = response.content.decode()
    # The most affected: Ontario needs the most (its population share of $600M), then Quebec, BC, Alberta, Manitoba.
    codes = re.findall(r'<tr data-code="(\w\w)">', html)
    assert codes == ["ON", "QC", "BC", "AB", "MB"]
    assert "<html" not in html
    assert Offer.objects.count() == 1  # nothing saved


def test_the_figures_follow_the_terms(offer_editor_client, budget):
    response = offer_editor_client.post(PREVIEW_URL, offer_post(scale_amount="150000000"), **HTMX)
    assert national(response)["trainees"] == "30,000"
    assert national(response)["provinces_need"] == "$300,000,000"

    response = offer_editor_client.post(PREVIEW_URL, offer_post(**DECEMBER_TERMS), **HTMX)
    lines = national(response)
    assert (lines["trainees"], lines["federal_cost"], lines["provincial_cost"]) == ("60,000", "$600,000,000", "$0")
    assert (lines["lmda_redirected"], lines["provinces_need"]) == ("$300,000,000", "$300,000,000")


def test_an_offer_that_answers_another_shows_the_change_from_it(offer_editor_client, budget):
    response = offer_editor_client.post(PREVIEW_URL, offer_post(**DECEMBER_TERMS, responds_to="budget-2013"), **HTMX)

    html = response.content.decode()
    assert "Compared with “Budget 2013”" in html
    assert change(response) == {
        "trainees": "same",
        "federal_cost": "+$300,000,000",
        "provincial_cost": "−$300,000,000",
        "employer_cost": "same",
        "lma_diverted": "same",
        "lmda_redirected": "+$300,000,000",
        "provinces_need": "−$300,000,000",
    }


def test_terms_that_do_not_add_up_show_the_form_s_messages_instead_of_figures(offer_editor_client, budget):
    response = offer_editor_client.post(PREVIEW_URL, offer_post(employer_amount="4000"), **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert "the terms do not add up" in html
    assert "<strong>Maximum grant per trainee:</strong> The federal, provincial and employer amounts" in html
    assert 'data-line="trainees"' not in html


def test_terms_that_do_not_add_up_leave_room_for_the_last_figures_marked_out_of_date(offer_editor_client, budget):
    # Issue 16.5: the preview keeps the last good figures (offer-form.js copies them into this slot),
    # under the problems and said to be out of date; the figures themselves are one block it can copy.
    good = offer_editor_client.post(PREVIEW_URL, offer_post(), **HTMX).content.decode()
    assert re.search(r'<div class="preview-figures" data-preview-figures>.*data-line="trainees"', good, re.S)

    bad = offer_editor_client.post(PREVIEW_URL, offer_post(employer_amount="4000"), **HTMX).content.decode()
    slot = re.search(r'<div class="preview-stale" data-preview-stale role="group" '
                     r'aria-labelledby="preview-stale-note" hidden>(.*?)</div>\s*</div>', bad, re.S)
    assert slot, bad
    assert "Out of date: these figures are from your last valid terms." in slot.group(1)
    assert bad.index("The federal, provincial and employer amounts") < bad.index("data-preview-stale")
    assert "The terms do not add up (1 problem); the figures shown are from your last valid terms." in bad


def test_a_rule_only_the_engine_knows_is_shown_too(offer_editor_client, budget):
    # More than the whole LMA envelope: the terms add up, but the engine refuses the scale.
    response = offer_editor_client.post(PREVIEW_URL, offer_post(scale_amount="900000000"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "National amount drawn a year:" in html and "envelope" in html


GARBAGE = [
    {},
    {"max_grant": "abc"},
    {"max_grant": "NaN", "federal_amount": "Infinity", "employer_amount": "-Infinity"},
    {"max_grant": "1e999"},
    {"max_grant": "99999999999999999999999"},
    {"scale_amount": "0.001"},
    {"federal_LMA": "5000.005"},
    {"treatment_QC": "bogus", "scale_program": "NOPE", "shortfall_liability": "everyone"},
    {"responds_to": "no-such-offer"},
    {"phase_in_year_0": "20x4-15", "phase_in_fraction_0": "lots"},
    {"phase_in_year_0": "2014-15", "phase_in_fraction_0": "0", "phase_in_year_1": "2014-15",
     "phase_in_fraction_1": "1"},
    {"employer_min_share": "-0.5", "small_employer_gap_payer": "employer"},
    {"max_grant": "0", "federal_amount": "0", "provincial_amount": "0", "employer_amount": "0",
     "federal_LMA": "", "provincial_PT_OWN": ""},
    {"scale_amount": "0.01", "federal_LMA": "0.01", "federal_amount": "0.01", "max_grant": "5000.01",
     "provincial_amount": "0", "provincial_PT_OWN": "", "employer_amount": "5000"},
]


@pytest.mark.parametrize("overrides", GARBAGE)
def test_any_input_answers_200_never_500(offer_editor_client, budget, overrides):
    data = offer_post(**overrides) if overrides else {}
    response = offer_editor_client.post(PREVIEW_URL, data, **HTMX)
    assert response.status_code == 200
    assert 'data-line="trainees"' in response.content.decode() or "do not add up" in response.content.decode()


def test_a_tiny_draw_makes_many_trainees_without_failing(offer_editor_client, budget):
    # A cent per trainee from the LMA: thirty billion trainees, computed exactly.
    response = offer_editor_client.post(PREVIEW_URL, offer_post(
        max_grant="10000.01", federal_amount="0.01", federal_LMA="0.01", provincial_amount="5000",
        employer_amount="5000"), **HTMX)
    assert national(response)["trainees"] == "30,000,000,000"


def test_anyone_who_may_read_may_preview_terms(client, budget):
    # A preview writes nothing and shows what the public fiscal pages show: reads are public by default.
    response = client.post(PREVIEW_URL, offer_post(), **HTMX)
    assert response.status_code == 200
    assert national(response)["provinces_need"] == "$600,000,000"

    client.force_login(user_with("view_offer", username="viewer"))
    assert national(client.post(PREVIEW_URL, offer_post(), **HTMX))["trainees"] == "60,000"
    assert Offer.objects.count() == 1


def test_when_reads_require_a_login_anonymous_visitors_are_sent_to_log_in(client, budget, settings):
    settings.READ_REQUIRES_LOGIN = True
    response = client.post(PREVIEW_URL, offer_post(), **HTMX)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))

    client.force_login(user_with("view_offer", username="viewer"))
    assert national(client.post(PREVIEW_URL, offer_post(), **HTMX))["trainees"] == "60,000"


def test_it_still_needs_the_csrf_token(budget):
    client = Client(enforce_csrf_checks=True)
    assert client.post(PREVIEW_URL, offer_post(), **HTMX).status_code == 403


def test_titles_and_labels_are_escaped(offer_editor_client, budget):
    budget.title = '<script>alert("x")</script> & more'
    budget.save()
    html = offer_editor_client.post(PREVIEW_URL, offer_post(**DECEMBER_TERMS, responds_to="budget-2013"), **HTMX).content.decode()
    assert "<script>" not in html
    assert "Compared with “&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more”" in html

    html = offer_editor_client.post(PREVIEW_URL, offer_post(max_grant="<b>15000</b>"), **HTMX).content.decode()
    assert "<b>" not in html and "<strong>Maximum grant per trainee:</strong> “&lt;b&gt;15000&lt;/b&gt;” is not an amount of money" in html


def test_figures_are_written_in_the_reader_s_language(offer_editor_client, budget):
    # The French form posts to the French address (/fr/grants/preview).
    html = offer_editor_client.post("/fr" + PREVIEW_URL, offer_post(), **HTMX).content.decode()
    # French groups digits with a (narrow) no-break space.
    assert re.search(r'<tr data-line="trainees"[^>]*>\s*<th scope="row">[^<]*</th>\s*<td class="num">60\W000</td>',
                     html)
    assert "60,000" not in html


def test_only_post_is_allowed(offer_editor_client, budget):
    assert offer_editor_client.get(PREVIEW_URL).status_code == 405


def test_the_change_column_is_headed_in_the_reader_s_language(offer_editor_client, budget):
    answer = offer_post(**DECEMBER_TERMS, responds_to="budget-2013")
    assert '<th scope="col" class="num">Change</th>' in offer_editor_client.post(PREVIEW_URL, answer, **HTMX).content.decode()
    french = offer_editor_client.post("/fr" + PREVIEW_URL, answer, **HTMX).content.decode()
    assert '<th scope="col" class="num">Écart</th>' in french


def test_the_french_preview_says_who_would_sign_and_names_programs_in_french(client, cjg):
    # « ne répond pas De Québec : … » and « L'ampleur est prélevée sur LMA » stood in the French preview.
    html = client.post("/fr" + PREVIEW_URL, offer_post(responds_to=""), **HTMX).content.decode()
    assert 'data-verdict="fails"' in html
    assert "ne répond pas</span> aux exigences (" in html and "De Québec" not in html
    broken = client.post("/fr" + PREVIEW_URL, offer_post(federal_LMA="", federal_LMDA="5000"), **HTMX).content.decode()
    assert "L'ampleur est prélevée sur EMT, mais aucun payeur ne puise quoi que ce soit dans EMT" in broken.replace("&#39;", "'")
    english = client.post(PREVIEW_URL, offer_post(federal_LMA="", federal_LMDA="5000"), **HTMX).content.decode()
    assert "The scale is drawn from LMA but no payer takes anything from LMA per trainee" in english
