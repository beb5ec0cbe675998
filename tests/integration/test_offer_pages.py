"""The offer pages: list, detail, new and edit (with live validation), withdraw; permissions and query counts."""

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from grants.selectors import forget_reference_data
from negotiations.models import FundingSource, Jurisdiction, JurisdictionTreatment, Offer, PhaseInStep
from negotiations.services import offers as services
from negotiations.terms import OfferTerms, check_terms
from tests.factories import MeetingFactory, OfferFactory, SourceFactory
from tests.offer_world import DECEMBER_TERMS, offer_post, user_with
from tests.shared import HTMX

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_reference_data")]

MAX_QUERIES = 14  # the offer page: 11, 1 for the terms' basis (issue 14) and 2 for who would sign (issue 17)


@pytest.fixture
def viewer():
    return user_with("view_offer", username="viewer")


def error_slot(response, field: str) -> str:
    """The text of the error slot the page shows for `field`."""
    html = response.content.decode()
    match = re.search(rf'<div id="id_{field}_error" class="field-errors"[^>]*>(.*?)</div>', html, re.S)
    assert match, f"no error slot for {field}"
    return match.group(1)


# --- permissions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["offer_new", "offer_edit"])
def test_anonymous_is_sent_to_log_in_and_back(client, budget, name):
    url = reverse(f"negotiations:{name}", args=[budget.slug] if name == "offer_edit" else [])
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name", ["offer_new", "offer_edit"])
def test_viewer_without_permission_is_refused(client, budget, viewer, name):
    client.force_login(viewer)
    url = reverse(f"negotiations:{name}", args=[budget.slug] if name == "offer_edit" else [])
    assert client.get(url).status_code == 403
    assert client.post(url, offer_post()).status_code == 403
    assert Offer.objects.count() == 1


def test_viewer_cannot_withdraw(client, budget, viewer):
    client.force_login(viewer)
    assert client.post(reverse("negotiations:offer_withdraw", args=[budget.slug])).status_code == 403
    budget.refresh_from_db()
    assert budget.status == Offer.Status.TABLED


def test_editor_sees_the_form_and_anyone_sees_the_pages(client, budget, offer_editor):
    assert client.get(reverse("negotiations:offer_list")).status_code == 200
    assert client.get(budget.get_absolute_url()).status_code == 200
    client.force_login(offer_editor)
    response = client.get(reverse("negotiations:offer_new"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="fiscal-preview"' in html
    # The preview is posted the terms (and the negotiation and date, for who would sign): htmx leaves out the rest.
    params = re.search(r'hx-post="/grants/preview" hx-params="not ([^"]+)"', html).group(1).split(",")
    assert set(params) == {"title", "slug", "tabled_by", "date_precision", "status", "agreed_on",
                           "meeting", "summary", "sources", "version", "csrfmiddlewaretoken", "title_fr", "summary_fr",
                           "assumptions_fr"}


def test_an_unknown_offer_is_404(client, budget, offer_editor):
    assert client.get(reverse("negotiations:offer", args=["nope"])).status_code == 404
    client.force_login(offer_editor)
    assert client.get(reverse("negotiations:offer_edit", args=["nope"])).status_code == 404
    assert client.post(reverse("negotiations:offer_withdraw", args=["nope"])).status_code == 404


# --- creating -------------------------------------------------------------------------------------


def test_a_valid_offer_is_recorded_with_its_terms_and_the_editor_in_history(client, budget, offer_editor):
    source = SourceFactory(slug="cp-2013-12-24")
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"), offer_post(
        **DECEMBER_TERMS, responds_to="budget-2013", sources=["cp-2013-12-24"], treatment_QC="opts_out_compensated",
        phase_in_year_0="2014-15", phase_in_fraction_0="0.15", phase_in_year_1="2015-16", phase_in_fraction_1="1",
    ))

    offer = Offer.objects.get(slug="federal-offer-december-2013")
    assert response.status_code == 302
    assert response.url == offer.get_absolute_url()
    assert offer.responds_to == budget
    assert list(offer.sources.all()) == [source]
    assert sorted(offer.funding_sources.values_list("payer", "program", "amount")) == [
        ("federal", "LMA", Decimal("5000.00")), ("federal", "LMDA", Decimal("5000.00"))]
    assert list(offer.treatments.values_list("jurisdiction__code", "treatment")) == [("QC", "opts_out_compensated")]
    assert list(offer.phase_in.values_list("fiscal_year", "fraction")) == [
        ("2014-15", Decimal("0.1500")), ("2015-16", Decimal("1.0000"))]
    assert offer.shortfall_liability == "province"
    assert {record.history_user for record in offer.history.all()} == {offer_editor}
    page = client.get(response.url).content.decode()
    # An editor is named by full name, never by login name (which anyone could collect to try passwords on);
    # without a full name, by nothing.
    assert "is recorded" in page and "by editor" not in page


# (field posted, its bad value, extra fields) -> the field the message is attached to.
TERM_RULES = [
    pytest.param({"employer_amount": "4000"}, "max_grant", id="split-does-not-add-up"),
    pytest.param({"federal_amount": "-5000", "max_grant": "5000", "federal_LMA": "-5000"}, "federal_amount",
                 id="negative-amount"),
    pytest.param({"federal_LMA": "4000"}, "funding_sources", id="sources-do-not-add-up"),
    pytest.param({"employer_min_share": "15"}, "employer_min_share", id="share-out-of-range"),
    pytest.param({"scale_amount": "0"}, "scale_amount", id="scale-not-positive"),
    pytest.param({"scale_program": "CJF"}, "funding_sources", id="scale-program-undrawn"),
]


@pytest.mark.parametrize("overrides, field", TERM_RULES)
def test_each_term_rule_is_refused_next_to_its_field_and_nothing_is_written(client, budget, offer_editor, overrides, field):
    client.force_login(offer_editor)
    counts = [model.objects.count() for model in (Offer, FundingSource, JurisdictionTreatment, PhaseInStep)]

    response = client.post(reverse("negotiations:offer_new"), offer_post(**overrides))

    assert response.status_code == 200
    form = response.context["form"]
    assert field in form.errors
    assert error_slot(response, field).strip()
    assert "is not recorded yet" in response.content.decode()
    assert [model.objects.count() for model in (Offer, FundingSource, JurisdictionTreatment, PhaseInStep)] == counts


def test_the_form_gives_the_admin_s_messages(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"), offer_post(employer_amount="4000", federal_LMA="4000"))
    expected = check_terms(
        max_grant=Decimal("15000"), federal_amount=Decimal("5000"), provincial_amount=Decimal("5000"),
        employer_amount=Decimal("4000"), sources=[("federal", "LMA", Decimal("4000")),
                                                  ("provincial", "PT_OWN", Decimal("5000"))],
        scale_program="LMA", scale_amount=Decimal("300000000"),
    )
    errors = response.context["form"].errors
    for problem in expected:
        assert problem.message in errors[problem.field]


def _summary_targets(html: str) -> list[str]:
    summary = html[html.index('id="error-summary"'):]
    return re.findall(r'href="#([^"]+)"', summary[:summary.index("</ul>")])


@pytest.mark.parametrize(("url", "overrides"), [
    ("negotiations:offer_new", {}),  # nothing filled in: every required field
    ("negotiations:offer_new", {"title": "", "federal_LMA": "1", "scale_amount": "300 apples"}),
    ("grants:scenario_new", {"title": "", "federal_LMA": "1", "scale_amount": "300 apples"}),
])
def test_a_refused_save_lists_its_problems_from_the_top_of_the_page_down(client, budget, offer_editor, url, overrides):
    # The terms' problems came first, above "Title"; the funding sources' came last, below the scale.
    client.force_login(offer_editor)
    data = {} if not overrides else offer_post(**overrides)
    html = client.post(reverse(url), data).content.decode()
    targets = _summary_targets(html)
    assert len(targets) >= 3
    after_summary = html.index("</ul>", html.index('id="error-summary"'))
    assert targets == sorted(targets, key=lambda target: html.index(f'id="{target}"', after_summary))
    assert targets[0] == "id_title"


def test_an_offer_answers_an_earlier_one_never_a_later_one_nor_one_that_answers_it(client, budget, offer_editor):
    # The December 2013 offer could be made to answer February 2014's, which answered it: a loop.
    december = OfferFactory(slug="december", title="December offer", tabled_on=datetime.date(2013, 12, 24),
                            responds_to=budget, negotiation=budget.negotiation)
    february = OfferFactory(slug="february", title="February offer", tabled_on=datetime.date(2014, 2, 4),
                            responds_to=december, negotiation=budget.negotiation)
    client.force_login(offer_editor)
    edit = reverse("negotiations:offer_edit", args=[december.slug])
    response = client.post(edit, offer_post(title="December offer", slug="december", tabled_on="2013-12-24",
                                            version=str(december.version), responds_to="february"))
    assert response.status_code == 200
    assert response.context["form"].errors["responds_to"] == [
        "“February offer” was tabled on February 4, 2014, after this offer (December 24, 2013): "
        "an offer answers an earlier one."]
    december.refresh_from_db()
    assert december.responds_to == budget

    # The same day: allowed unless it closes a loop.
    february.tabled_on = datetime.date(2013, 12, 24)
    february.save()
    response = client.post(edit, offer_post(title="December offer", slug="december", tabled_on="2013-12-24",
                                            version=str(december.version), responds_to="february"))
    assert response.context["form"].errors["responds_to"] == [
        "“February offer” already answers this offer, directly or through others: answering it back would make a loop."]
    december.refresh_from_db()
    assert december.responds_to == budget


def test_errors_keep_every_typed_value(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"), offer_post(
        title="A typed title", employer_amount="4000", summary="Typed summary", treatment_NU="federal_direct",
        phase_in_year_0="2014-15", phase_in_fraction_0="0.5",
    ))
    html = response.content.decode()
    assert 'value="A typed title"' in html
    assert "Typed summary" in html
    assert 'value="4000"' in html
    assert re.search(r'<option value="federal_direct" selected>', html)
    assert 'value="2014-15"' in html and 'value="0.5"' in html


def test_a_taken_slug_is_reported_on_the_slug_field(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"), offer_post(slug="budget-2013"))
    assert response.status_code == 200
    assert "already uses the address" in error_slot(response, "slug")
    assert Offer.objects.count() == 1


def test_phase_in_rows_are_checked(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"), offer_post(
        phase_in_year_0="2014", phase_in_fraction_0="0.5", phase_in_year_1="2015-16", phase_in_fraction_1="1.5",
        phase_in_fraction_2="0.3",
    ))
    errors = response.context["form"].errors
    assert "written like 2014-15" in errors["phase_in_year_0"][0]
    assert "between 0 and 1" in errors["phase_in_fraction_1"][0]
    assert "Name the fiscal year" in errors["phase_in_year_2"][0]
    assert Offer.objects.count() == 1


def test_starting_from_an_existing_offer_fills_the_form(client, budget, offer_editor):
    JurisdictionTreatment.objects.create(offer=budget, jurisdiction=Jurisdiction.objects.get(code="QC"),
                                         treatment="opts_out_compensated")
    client.force_login(offer_editor)
    response = client.get(reverse("negotiations:offer_new"), {"from": "budget-2013"})
    form = response.context["form"]
    assert form["max_grant"].value() == Decimal("15000.00")
    assert form["federal_LMA"].value() == Decimal("5000.00")
    assert form["provincial_PT_OWN"].value() == Decimal("5000.00")
    assert form["treatment_QC"].value() == "opts_out_compensated"
    assert form["tabled_by"].value() == ["CA"]
    assert form["responds_to"].value() == "budget-2013"
    assert form["title"].value() is None
    assert "Filled in from" in response.content.decode()


def test_starting_from_an_offer_over_htmx_answers_with_the_form_region_only(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.get(reverse("negotiations:offer_new"), {"from": "budget-2013"}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="form-region"')
    assert "<html" not in html
    assert 'id="fiscal-preview"' in html
    assert "HX-Request" in response["Vary"]


# --- live validation ------------------------------------------------------------------------------


def test_live_validation_saves_nothing_and_reports_only_touched_fields(client, budget, offer_editor):
    client.force_login(offer_editor)
    data = offer_post(title="", employer_amount="4000", _validate="1", _touched="employer_amount")

    response = client.post(reverse("negotiations:offer_new"), data, **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    # The split rule is shown because one of its amounts was touched ...
    assert re.search(r'id="id_max_grant_error" class="field-errors" hx-swap-oob="true"><p>The federal', html)
    # ... the untouched empty title is not reported yet, but its slot is sent (to clear old errors).
    assert re.search(r'id="id_title_error" class="field-errors" hx-swap-oob="true"></div>', html)
    assert 'id="id_funding_sources_error"' in html
    assert Offer.objects.count() == 1


def test_live_validation_puts_a_rule_s_message_on_the_field_changed(client, budget, offer_editor):
    """WCAG 3.3.1: the split rule's message lands where the person is, not on the maximum grant."""
    client.force_login(offer_editor)
    data = offer_post(employer_amount="4000", _validate="1", _touched="employer_amount", _changed="employer_amount")

    html = client.post(reverse("negotiations:offer_new"), data, **HTMX).content.decode()

    assert re.search(r'id="id_employer_amount_error" class="field-errors" hx-swap-oob="true"><p>The federal', html)
    assert re.search(r'id="id_max_grant_error" class="field-errors" hx-swap-oob="true"></div>', html)
    # A field's own error stays on it: a malformed maximum grant is not moved to the field changed.
    data = offer_post(max_grant="lots", _validate="1", _touched="max_grant,employer_amount", _changed="employer_amount")
    html = client.post(reverse("negotiations:offer_new"), data, **HTMX).content.decode()
    assert re.search(r'id="id_max_grant_error" class="field-errors" hx-swap-oob="true"><p>“lots” is not an amount of money', html)
    assert re.search(r'id="id_employer_amount_error" class="field-errors" hx-swap-oob="true"></div>', html)


def test_live_validation_of_a_touched_field(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_new"),
                           offer_post(title="", _validate="1", _touched="title,summary"), **HTMX)
    assert re.search(r'id="id_title_error" class="field-errors" hx-swap-oob="true"><p>This field is required',
                     response.content.decode())


def test_after_a_refused_save_live_validation_keeps_every_error_in_view(client, budget, offer_editor):
    client.force_login(offer_editor)
    refused = client.post(reverse("negotiations:offer_new"), offer_post(title=""))
    assert 'name="_touched" value="*"' in refused.content.decode()

    response = client.post(reverse("negotiations:offer_new"),
                           offer_post(title="", _validate="1", _touched="*,summary"), **HTMX)
    assert re.search(r'id="id_title_error" class="field-errors" hx-swap-oob="true"><p>This field is required',
                     response.content.decode())


# --- editing --------------------------------------------------------------------------------------


def test_edit_shows_the_offer_and_saves_a_new_version(client, budget, offer_editor):
    client.force_login(offer_editor)
    url = reverse("negotiations:offer_edit", args=[budget.slug])
    source = SourceFactory(slug="budget-plan-2013")
    budget.sources.add(source)
    budget.tabled_by.add(Jurisdiction.objects.get(code="ON"))
    JurisdictionTreatment.objects.create(offer=budget, jurisdiction=Jurisdiction.objects.get(code="QC"),
                                         treatment="opts_out_compensated")
    form = client.get(url).context["form"]
    assert form["version"].value() == 1
    assert form["federal_LMA"].value() == Decimal("5000.00")
    assert sorted(form["tabled_by"].value()) == ["CA", "ON"]
    assert form["sources"].value() == ["budget-plan-2013"]
    assert form["treatment_QC"].value() == "opts_out_compensated"
    assert form["treatment_ON"].value() == "participates"

    response = client.post(url, offer_post(title="Budget 2013 (revised)", slug="budget-2013", version="1",
                                           responds_to=""))

    assert response.status_code == 302
    budget.refresh_from_db()
    assert (budget.title, budget.version) == ("Budget 2013 (revised)", 2)
    assert budget.history.latest().history_user == offer_editor


def test_a_concurrent_edit_is_detected_and_the_input_kept(client, budget, offer_editor):
    client.force_login(offer_editor)
    url = reverse("negotiations:offer_edit", args=[budget.slug])
    # Someone else saves while the editor's form (version 1) is open.
    services.offer_update(
        actor=None, offer=budget, expected_version=1, negotiation=budget.negotiation, title="Saved by someone else",
        tabled_by=[Jurisdiction.objects.get(code="CA")], tabled_on=budget.tabled_on,
        terms=OfferTerms(
            max_grant=Decimal("15000"), federal_amount=Decimal("5000"), provincial_amount=Decimal("5000"),
            employer_amount=Decimal("5000"), scale_amount=Decimal("300000000"),
            sources=(("federal", "LMA", Decimal("5000")), ("provincial", "PT_OWN", Decimal("5000"))),
        ),
    )

    response = client.post(url, offer_post(title="My version", slug="budget-2013", version="1"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Someone else saved this offer" in html
    assert 'value="My version"' in html
    assert response.context["form"]["version"].value() == 2
    budget.refresh_from_db()
    assert budget.title == "Saved by someone else"

    # Saving again, knowingly, replaces it.
    response = client.post(url, offer_post(title="My version", slug="budget-2013", version="2"))
    assert response.status_code == 302
    budget.refresh_from_db()
    assert (budget.title, budget.version) == ("My version", 3)


def test_an_offer_cannot_answer_itself(client, budget, offer_editor):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_edit", args=[budget.slug]),
                           offer_post(slug="budget-2013", version="1", responds_to="budget-2013"))
    assert "responds_to" in response.context["form"].errors


# --- withdrawing ----------------------------------------------------------------------------------


def test_withdraw_marks_the_offer_and_keeps_it(client, budget, offer_editor):
    client.force_login(offer_editor)
    url = reverse("negotiations:offer_withdraw", args=[budget.slug])
    assert client.get(url).status_code == 200  # its form (the address after a refused post, opened again)

    response = client.post(url, {"withdrawal_reason": "Replaced by the counter-offer", "withdrawn_on": "2014-01-10"})

    assert response.status_code == 302
    budget.refresh_from_db()
    assert budget.status == Offer.Status.WITHDRAWN
    assert budget.history.latest().history_user == offer_editor
    page = client.get(budget.get_absolute_url()).content.decode()
    assert "marked withdrawn" in page
    assert "Mark it withdrawn" not in page
    client.post(url, {"withdrawal_reason": "Again", "withdrawn_on": "2014-01-11"})
    assert "already withdrawn" in client.get(budget.get_absolute_url()).content.decode()


# --- reading --------------------------------------------------------------------------------------


@pytest.fixture
def december(budget):
    return OfferFactory(
        negotiation=budget.negotiation, slug="federal-dec-2013", title="Federal offer, December 2013",
        tabled_on=datetime.date(2013, 12, 24), federal_amount=Decimal("10000"), provincial_amount=Decimal("0"),
        funding=[("federal", "LMA", 5000), ("federal", "LMDA", 5000)], shortfall_liability="province",
        responds_to=budget, tabled_by=[Jurisdiction.objects.get(code="CA")],
    )


def test_offer_page_shows_lineage_and_the_term_by_term_difference(client, december):
    html = client.get(december.get_absolute_url()).content.decode()
    assert "What changed from “Budget 2013”" in html
    assert re.search(r"Federal per trainee</th>\s*<td class=\"num\">\$5,000</td>\s*<td class=\"num\">\$10,000 "
                     r"<small class=\"muted\">\(\+\$5,000\)</small>", html)
    assert "Federal money from Labour Market Development Agreements, per trainee" in html
    assert "Provincial or territorial per trainee" in html
    assert "Liable for an employer shortfall" in html
    assert 'href="/offers/budget-2013/"' in html

    parent = client.get(reverse("negotiations:offer", args=["budget-2013"])).content.decode()
    assert "Answered by" in parent and 'href="/offers/federal-dec-2013/"' in parent
    assert "What changed from" not in parent  # it answers nothing
    assert 'href="/offers/budget-2013/fiscal/"' in parent
    assert 'hx-get="/offers/budget-2013/fiscal/?summary=1"' in parent  # the fiscal summary loads in place


def test_offer_page_shows_the_history_with_users_and_field_changes(client, budget, offer_editor):
    offer_editor.first_name, offer_editor.last_name = "Ada", "Tremblay"
    offer_editor.save()
    client.force_login(offer_editor)
    client.post(reverse("negotiations:offer_edit", args=[budget.slug]),
                offer_post(title="Budget 2013", slug="budget-2013", version="1", max_grant="16000",
                           employer_amount="6000", responds_to=""))
    html = client.get(budget.get_absolute_url()).content.decode()
    assert "Changed</strong>\n        by Ada Tremblay" in html and "by editor" not in html
    assert re.search(r"Maximum grant per trainee:</span> <del>15000.00</del> → <ins>16000.00</ins>", html)
    assert "Federal offer" not in html


def test_offer_list_filters_without_reloading_the_page(client, december):
    provinces = OfferFactory(negotiation=december.negotiation, slug="pt-counter", title="P/T counter-proposal",
                             status="rejected", tabled_by=[Jurisdiction.objects.get(code="QC")])
    url = reverse("negotiations:offer_list")
    html = client.get(url).content.decode()
    assert "Budget 2013" in html and "P/T counter-proposal" in html

    response = client.get(url, {"tabled_by": "QC"}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="results"')
    assert provinces.title in html and "Budget 2013" not in html

    html = client.get(url, {"status": "tabled", "negotiation": "canada-job-grant"}).content.decode()
    assert "Budget 2013" in html and "P/T counter-proposal" not in html
    # An unknown filter value is ignored rather than an error.
    assert client.get(url, {"tabled_by": "ZZ"}).status_code == 200


# --- query counts ---------------------------------------------------------------------------------


def grow(budget, n):
    """n more offers answering Budget 2013, each with sources, rows, meetings and some history."""
    ca = Jurisdiction.objects.get(code="CA")
    for _ in range(n):
        offer = OfferFactory(negotiation=budget.negotiation, responds_to=budget, tabled_by=[ca],
                             funding=[("federal", "LMA", 5000), ("provincial", "PT_OWN", 5000)])
        offer.sources.add(SourceFactory(), SourceFactory())
        MeetingFactory(negotiation=budget.negotiation)
        JurisdictionTreatment.objects.create(offer=offer, jurisdiction=Jurisdiction.objects.get(code="QC"),
                                             treatment="opts_out_compensated")
    budget.sources.add(SourceFactory())
    for _ in range(n):
        budget.summary += "."
        budget.save()


def count_queries(client, method, url, data=None, **extra):
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, data, **extra)
    assert response.status_code == 200, response.status_code
    return len(queries)


def page_requests(budget, december):
    return [
        ("get", reverse("negotiations:offer_list"), None, {}),
        ("get", december.get_absolute_url(), None, {}),
        ("get", budget.get_absolute_url(), None, {}),
        ("get", reverse("negotiations:offer_new"), None, {}),
        ("post", reverse("grants:preview"), offer_post(responds_to="budget-2013"), HTMX),
    ]


def test_query_counts_do_not_grow_with_the_data(client, december, offer_editor):
    budget = december.responds_to
    client.force_login(offer_editor)
    small = []
    for method, url, data, extra in page_requests(budget, december):
        forget_reference_data()
        small.append(count_queries(client, method, url, data, **extra))
    grow(budget, 12)
    large = []
    for method, url, data, extra in page_requests(budget, december):
        forget_reference_data()
        large.append(count_queries(client, method, url, data, **extra))
    assert small == large
    assert max(large) <= MAX_QUERIES, large


def test_form_query_counts_do_not_grow_either(client, december, offer_editor):
    budget = december.responds_to
    client.force_login(offer_editor)
    urls = [reverse("negotiations:offer_new") + "?from=budget-2013",
            reverse("negotiations:offer_edit", args=[budget.slug])]
    small = [count_queries(client, "get", url) for url in urls]
    grow(budget, 12)
    large = [count_queries(client, "get", url) for url in urls]
    assert small == large


def test_the_same_offer_posted_twice_is_recorded_once(client, budget, offer_editor):
    # A double click, or the form sent again from the browser's history, recorded "double-click-offer-2".
    client.force_login(offer_editor)
    data = offer_post(title="Double click offer", slug="")
    first = client.post(reverse("negotiations:offer_new"), data)
    assert first.status_code == 302
    again = client.post(reverse("negotiations:offer_new"), data)
    assert again.status_code == 200
    html = again.content.decode()
    slot = html.split('id="id_title_error"', 1)[1].split("</div>", 1)[0]
    assert "An offer with this title, tabled on this date, is already recorded (double-click-offer)" in slot
    assert 'value="Double click offer"' in html  # what was typed stays
    assert Offer.objects.filter(title="Double click offer").count() == 1
