"""Scenarios: what-ifs saved from the offer form, shared, compared, never part of the record until recorded as an offer."""

import re

from grants.models import Scenario
from negotiations.models import Offer
from tests.factories import UserFactory
from tests.offer_world import offer_post

TITLE = "What if Ottawa gave up the clawback"


def save(client, **overrides):
    return client.post("/scenarios/new", offer_post(**{"title": TITLE, "tabled_on": "2014-01-29", **overrides}))


def test_saved_from_the_offer_form_it_never_reaches_the_record(client, cjg, editor):
    client.force_login(editor)
    form = client.get("/offers/new").content.decode()
    assert 'formaction="/scenarios/new"' in form and "Save as scenario" in form
    offers_before = Offer.objects.count()
    response = save(client, treatment_QC="opts_out_compensated")
    scenario = Scenario.objects.get()
    assert response.status_code == 302 and response.url == f"/scenarios/{scenario.pk}/"
    assert scenario.author == editor and scenario.history.get().history_user == editor
    assert Offer.objects.count() == offers_before
    assert "is saved. It is not part of the record." in client.get(response.url).content.decode()
    for url in ("/", "/offers/", "/api/offers", "/jurisdictions/ON/", "/negotiations/canada-job-grant/stances",
                "/api/jurisdictions/ON/timeline", "/jurisdictions/ON/offers?negotiation=canada-job-grant"):
        assert TITLE not in client.get(url).content.decode(), url
    assert TITLE in client.get("/scenarios/").content.decode()


def test_the_scenario_page_shows_who_would_sign_and_its_fiscal_effect_to_any_reader(client, cjg, editor):
    client.force_login(editor)
    save(client, treatment_QC="opts_out_compensated")
    scenario = Scenario.objects.get()
    client.logout()
    html = client.get(scenario.get_absolute_url()).content.decode()
    assert "1 of 13 would sign" in html and 'data-code="QC" data-verdict="meets"' in html
    assert 'id="scenario-effect"' in html and "$600,000,000" not in html  # Quebec out: less than the premiers' $600M
    assert "Record as offer" not in html  # readers read; editors record


def test_the_api_gives_the_scenario_its_effect_and_verdicts(client, cjg, editor):
    client.force_login(editor)
    save(client, participation="0.5", fiscal_year="", shortfall_liability="province")
    scenario = Scenario.objects.get()
    body = client.get(f"/api/scenarios/{scenario.pk}").json()
    assert body["title"] == TITLE and body["participation"] == "0.5"
    assert body["terms"]["split"] == {"federal": "5000.00", "provincial": "5000.00", "employer": "5000.00"}
    assert body["terms"]["treatments"]["QC"] == "participates"
    assert body["terms"]["employer_min_share"] in (None, "0.15")  # a share as /api/offers writes it, never "0.150"
    assert all(len(step["fraction"].split(".")[1]) < 4 or not step["fraction"].endswith("0")
               for step in body["terms"]["phase_in"])
    assert body["fiscal_effect"]["national"]["trainees"] == 60000
    assert body["fiscal_effect"]["national"]["provincial_liability"] == "150000000.00"
    assert body["acceptance"]["meets"] == 0 and body["acceptance"]["count"] == 13
    assert client.get("/api/scenarios/999999").status_code == 404
    assert TITLE not in client.get("/api/offers").content.decode()


def test_a_scenario_names_its_author_by_name_never_by_login(client, cjg, editor):
    # Anyone could read "author": "editor" scenario by scenario: the login names to try passwords on.
    client.force_login(editor)
    save(client, participation="0.5", fiscal_year="")
    scenario = Scenario.objects.get()
    client.logout()
    pages = (client.get(f"/api/scenarios/{scenario.pk}").content.decode(), client.get(scenario.get_absolute_url()).content.decode(),
             client.get("/scenarios/").content.decode())
    assert client.get(f"/api/scenarios/{scenario.pk}").json()["author"] is None  # no full name given
    assert all(editor.get_username() not in page for page in pages)
    type(editor).objects.filter(pk=editor.pk).update(first_name="Ada", last_name="Analyst")
    assert client.get(f"/api/scenarios/{scenario.pk}").json()["author"] == "Ada Analyst"
    assert "Saved by Ada Analyst" in client.get(scenario.get_absolute_url()).content.decode()


def test_it_compares_with_any_offer_or_scenario(client, cjg, editor):
    client.force_login(editor)
    save(client)
    save(client, title="Quebec out", treatment_QC="opts_out_compensated")
    first, second = Scenario.objects.order_by("pk")
    html = client.get(f"/scenarios/{second.pk}/compare", {"with": "offer:budget-2013"}).content.decode()
    assert 'id="compare-national"' in html and "1 of 13 would sign" in html
    html = client.get(f"/scenarios/{second.pk}/compare", {"with": f"scenario:{first.pk}"}).content.decode()
    assert 'data-code="QC"' in html
    for bad in ("offer:nowhere", "scenario:²", "scenario:99999999999999999999", "scenario:"):  # ² and the number: 500s
        response = client.get(f"/scenarios/{second.pk}/compare", {"with": bad})
        assert response.status_code == 400 and "neither an offer nor a saved scenario" in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    # Opened with nothing chosen: a prompt, not an error (the select was marked invalid before anything was done)
    first_look = client.get(f"/scenarios/{second.pk}/compare").content.decode()
    assert "Choose an offer or a scenario to compare with." in first_look
    assert 'aria-invalid' not in first_look and 'role="alert"' not in first_look


def test_record_as_offer_opens_the_offer_form_filled_from_it(client, cjg, editor):
    client.force_login(editor)
    save(client, federal_amount="10000", provincial_amount="0", federal_LMA="5000", federal_LMDA="5000",
         provincial_PT_OWN="", treatment_QC="opts_out_compensated")
    scenario = Scenario.objects.get()
    html = client.get(scenario.get_absolute_url()).content.decode()
    link = html.split('id="record-as-offer"', 1)[0].rsplit('href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    form = client.get(link).content.decode()
    assert f'value="{TITLE}"' in form
    assert 'name="federal_LMDA" value="5000"' in form
    assert '<option value="opts_out_compensated" selected>' in form


def test_bad_input_is_refused_next_to_the_field_and_nothing_is_lost(client, cjg, editor):
    client.force_login(editor)
    response = save(client, title="", federal_amount="6000", participation="2")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Give the scenario a title" in html
    assert 'value="6000"' in html
    assert not Scenario.objects.exists()


def test_readers_cannot_save_a_scenario(client, cjg):
    client.force_login(UserFactory(username="reader"))
    assert save(client).status_code == 403


def test_a_refused_scenario_groups_its_terms_as_the_offer_form_does(client, cjg, editor):
    # The scenario form flowed every field through one grid: a fiscal year stood beside the wrong fraction.
    client.force_login(editor)
    html = save(client, max_grant="").content.decode()
    for legend in ("The scenario", "Per trainee", "Where the government money comes from", "Phase-in"):
        assert f"<legend>{legend}</legend>" in html
    row = html.split('<table class="phase-in-table">', 1)[1].split("</tr>", 2)[1]
    assert 'name="phase_in_year_0"' in row and 'name="phase_in_fraction_0"' in row  # a year beside its fraction
    assert html.index('name="title"') < html.index('name="responds_to"') < html.index('name="max_grant"')


def test_a_comparison_puts_both_sides_in_the_scenario_s_year_and_says_so(client, cjg, editor):
    # The offer was shown at full scale beside a scenario in 2014-15, and the page named no year.
    client.force_login(editor)
    save(client, fiscal_year="2014-15")
    scenario = Scenario.objects.get()
    assert scenario.fiscal_year == "2014-15"
    html = client.get(f"/scenarios/{scenario.pk}/compare", {"with": "offer:federal-nov-2013"}).content.decode()
    row = html.split('<tr data-line="trainees">', 1)[1].split("</tr>", 1)[0]
    assert "<td class=\"num\">15,000</td>" in row  # November's first year: a quarter of its 60,000
    assert "Both in 2014-15, with 100% of employers paying their share" in html
    french = client.get(f"/fr/scenarios/{scenario.pk}/compare", {"with": "offer:federal-nov-2013"}).content.decode()
    assert "Les deux en 2014-2015" in french


def test_a_fiscal_year_is_taken_as_the_french_pages_write_it(client, cjg, editor):
    # The French pages write 2016-2017; typed so, the form said "at most 7 characters" and "write it like 2015-16".
    client.force_login(editor)
    response = client.post("/fr/scenarios/new", offer_post(**{
        "title": TITLE, "tabled_on": "2014-01-29", "fiscal_year": "2016-2017",
        "phase_in_year_0": "2014-2015", "phase_in_fraction_0": "0,5", "phase_in_year_1": "2015-2016",
        "phase_in_fraction_1": "1"}))
    assert response.status_code == 302, response.context["form"].errors
    scenario = Scenario.objects.get()
    assert scenario.fiscal_year == "2016-17"
    assert [year for year, _fraction in scenario.phase_in] == ["2014-15", "2015-16"]


def test_handed_over_from_the_offer_form_it_asks_for_a_title_without_refusing_anything(client, cjg, editor):
    # "Save as scenario" landed on a form already saying "Title: Give the scenario a title" and "As of: required".
    client.force_login(editor)
    data = offer_post(title_en="", tabled_on="", _from_offer="1")
    data.pop("title", None)
    response = client.post("/scenarios/new", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Give the scenario a title" not in html and "This field is required" not in html
    assert 'id="error-summary"' not in html
    assert not Scenario.objects.exists()
    again = client.post("/scenarios/new", {key: value for key, value in data.items() if key != "_from_offer"})
    assert "Give the scenario a title" in again.content.decode()  # saved without one: refused, as before
    assert save(client, _from_offer="1").status_code == 302  # the offer form's title and date filled in: saved at once


def row_of(html: str, table_id: str, start: str) -> str:
    """The row of the table ``table_id`` that opens with ``start``, as HTML."""
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    assert start in table, f"no row {start} in #{table_id}"
    return table.split(start, 1)[1].split("</tr>", 1)[0]


def differences(row: str) -> dict[str, tuple[str, str]]:
    """Each difference of a row: line -> (the figure, the words of its mark, or "" when it has none)."""
    cells = re.findall(r'<td class="num[^"]*" data-line="(\w+)"[^>]*>([^<]*)(.*?)</td>', row)
    return {line: (figure.strip(), "".join(re.findall(r'<span class="visually-hidden">([^<]*)</span>', mark)))
            for line, figure, mark in cells}


def test_a_scenario_comparison_has_the_total_row_and_the_marks_of_the_offer_comparison(client, cjg, editor):
    # The scenario comparison showed B − A by province and territory with no total row, and no difference said
    # whether it was better or worse for the provinces and territories: /compare/ said both.
    client.force_login(editor)
    save(client, title="Quebec out", treatment_QC="opts_out_compensated")  # Budget 2013's terms, Quebec out
    scenario = Scenario.objects.get()
    html = client.get(f"/scenarios/{scenario.pk}/compare", {"with": "offer:budget-2013"}).content.decode()
    total = row_of(html, "compare-by-jurisdiction", '<tr data-code="total">')
    assert '<th scope="row">All provinces and territories</th>' in total
    worse, better = "worse for the provinces and territories", "better for the provinces and territories"
    assert differences(total) == {
        "trainees": ("\u221213,918", ""),  # Quebec's trainees: neither better nor worse, so no mark
        "federal_cost": ("\u2212$69,590,000", worse),
        "provincial_cost": ("\u2212$69,590,000", better),
        "employer_cost": ("\u2212$69,590,000", ""),
        "lma_diverted": ("\u2212$69,590,000", better),
        "lmda_redirected": ("$0", ""),
        "provincial_new_money": ("\u2212$69,590,000", better),
        "lma_allocation": ("$0", ""),
        "lma_remaining": ("+$69,590,000", better),
        "provinces_need": ("\u2212$139,180,000", better),
        "employer_shortfall": ("$0", ""),
        "provincial_liability": ("$0", ""),
    }
    # The total is the national difference, and the national table marks it the same way.
    national = {line: differences(row_of(html, "compare-national", f'<tr data-line="{line}">'))[line]
                for line in differences(total)}
    assert national == differences(total)
    # A mark is a symbol for the eye and words for a screen reader; the legend says what the symbols mean.
    federal = row_of(html, "compare-by-jurisdiction", '<tr data-code="total">').split('data-line="federal_cost"', 1)[1]
    assert '<span aria-hidden="true">\u2717</span>' in federal.split("</td>", 1)[0]
    assert 'id="diff-legend"' in html and "better for them" in html and "worse for them" in html
    assert differences(row_of(html, "compare-by-jurisdiction", '<tr data-code="ON">'))["provinces_need"] == ("$0", "")

    french = client.get(f"/fr/scenarios/{scenario.pk}/compare", {"with": "offer:budget-2013"}).content.decode()
    total = row_of(french, "compare-by-jurisdiction", '<tr data-code="total">')
    assert "Toutes les provinces et tous les territoires" in total
    assert differences(total)["provinces_need"][1] == "meilleur pour les provinces et territoires"
    assert differences(total)["federal_cost"][1] == "pire pour les provinces et territoires"


def test_the_scenario_comparison_and_the_offer_comparison_draw_one_table(client, cjg, editor):
    # Two pages building the same table: a scenario with Budget 2013's terms against December's offer is
    # /compare/ of December and Budget 2013, figure for figure and mark for mark.
    client.force_login(editor)
    save(client)
    scenario = Scenario.objects.get()
    mine = client.get(f"/scenarios/{scenario.pk}/compare", {"with": "offer:federal-dec-2013"}).content.decode()
    theirs = client.get("/compare/", {"a": "federal-dec-2013", "b": "budget-2013"}).content.decode()
    for code in ("total", "QC", "NU"):
        row = f'<tr data-code="{code}">'
        assert row_of(mine, "compare-by-jurisdiction", row) == row_of(theirs, "compare-by-jurisdiction", row)
    assert differences(row_of(mine, "compare-by-jurisdiction", '<tr data-code="total">'))["provinces_need"] == (
        "+$300,000,000", "worse for the provinces and territories")
    assert mine.count('class="compare-jurisdiction"') == theirs.count('class="compare-jurisdiction"') == 13
