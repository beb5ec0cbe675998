"""The JSON API keeps the contract of API.md: shapes, types, pagination, errors, worked examples, query counts."""

import datetime
import re
from decimal import Decimal
from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.contrib.staticfiles import finders
from django.core.management import get_commands
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from grants.selectors import forget_reference_data
from negotiations.models import (
    Condition,
    Jurisdiction,
    JurisdictionTreatment,
    Liability,
    PhaseInStep,
    Position,
    Stance,
    Treatment,
)
from tests.dataset import load_cjg
from tests.factories import (
    JurisdictionFactory,
    MeetingFactory,
    OfferFactory,
    PersonFactory,
    PositionFactory,
    ProgramEnvelopeFactory,
    RoleFactory,
    SourceFactory,
    StatementFactory,
)
from tests.shared import POPULATIONS, PT_CODES

pytestmark = pytest.mark.django_db

D = datetime.date
MONEY = re.compile(r"^-?[0-9]+\.[0-9]{2}$")
MAX_QUERIES = 12

LINE_NAMES = [
    "trainees", "federal_cost", "provincial_cost", "employer_cost", "lma_diverted", "lmda_redirected",
    "provincial_new_money", "lma_allocation", "lma_remaining", "provinces_need", "employer_shortfall",
    "provincial_liability",
]
# Every endpoint of API.md, as the OpenAPI document writes it.
CONTRACT_PATHS = [
    "/api/jurisdictions",
    "/api/offers",
    "/api/offers/{slug}",
    "/api/offers/{slug}/fiscal-effect",
    "/api/offers/{a}/compare/{b}",
    "/api/jurisdictions/{code}/timeline",
    "/api/people",
    "/api/meetings",
    "/api/statements",
    "/api/positions",
]
LISTS = [
    "/api/jurisdictions", "/api/offers", "/api/people", "/api/meetings", "/api/statements", "/api/positions",
    "/api/jurisdictions/ON/timeline",
]


@pytest.fixture(autouse=True)
def fresh_reference_data():
    # The reference data is cached per process; a rolled-back test must not feed the next one.
    forget_reference_data()
    yield
    forget_reference_data()


@pytest.fixture
def canada():
    """The 14 jurisdictions with their real populations, and the LMA and LMDA envelopes."""
    federal = JurisdictionFactory(code="CA", name_en="Government of Canada", name_fr="Gouvernement du Canada",
                                  kind=Jurisdiction.Kind.FEDERAL, order=0, population=35_158_304)
    for order, (code, population) in enumerate(POPULATIONS.items(), start=1):
        kind = Jurisdiction.Kind.TERRITORY if code in ("YT", "NT", "NU") else Jurisdiction.Kind.PROVINCE
        JurisdictionFactory(code=code, kind=kind, order=order, population=population)
    ProgramEnvelopeFactory(program="LMA", annual_amount=Decimal("500000000"))
    ProgramEnvelopeFactory(program="LMDA", name_en="Labour Market Development Agreements",
                           annual_amount=Decimal("1950000000"))
    return federal


@pytest.fixture
def budget_2013(canada, empty_cjg):
    """Budget 2013 (FISCAL_MODEL.md): 5,000 federal from the LMA + 5,000 provincial new money + 5,000 employer."""
    return OfferFactory(slug="budget-2013", title="Budget 2013", negotiation=empty_cjg, tabled_on=D(2013, 3, 21),
                        tabled_by=[canada], status="superseded", assumptions="As the budget set out.")


@pytest.fixture
def federal_dec_2013(canada, empty_cjg, budget_2013):
    """December 2013: 10,000 federal (5,000 LMA + 5,000 LMDA), 0 provincial, P/Ts liable for the shortfall."""
    return OfferFactory(
        slug="federal-dec-2013", title="The Christmas Eve offer", negotiation=empty_cjg, tabled_on=D(2013, 12, 24),
        tabled_by=[canada], responds_to=budget_2013,
        federal_amount=Decimal("10000"), provincial_amount=Decimal("0"), employer_amount=Decimal("5000"),
        funding=[("federal", "LMA", Decimal("5000")), ("federal", "LMDA", Decimal("5000"))],
        shortfall_liability=Liability.PROVINCE,
    )


def get(client, url, expect=200, **params):
    response = client.get(url, params)
    assert response.status_code == expect, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def assert_page(body):
    assert set(body) == {"items", "count"}
    assert isinstance(body["count"], int) and isinstance(body["items"], list)


def assert_lines(lines):
    assert list(lines)[-len(LINE_NAMES):] == LINE_NAMES
    assert isinstance(lines["trainees"], int)
    for name in LINE_NAMES[1:]:
        assert MONEY.match(lines[name]), (name, lines[name])


# --- Jurisdictions ------------------------------------------------------------------------------


def test_jurisdictions_list_every_jurisdiction_with_integer_population(client, canada):
    body = get(client, "/api/jurisdictions")

    assert_page(body)
    assert body["count"] == 14
    assert [item["code"] for item in body["items"]] == ["CA", *PT_CODES]
    first = body["items"][0]
    assert set(first) == {"code", "name_en", "name_fr", "kind", "population", "population_date"}
    assert first == {"code": "CA", "name_en": "Government of Canada", "name_fr": "Gouvernement du Canada",
                     "kind": "federal", "population": 35_158_304, "population_date": "2013-07-01"}
    assert {item["kind"] for item in body["items"]} == {"federal", "province", "territory"}
    assert all(isinstance(item["population"], int) for item in body["items"])


def test_limit_and_offset_page_through_the_list_and_count_stays_the_total(client, canada):
    everything = get(client, "/api/jurisdictions")["items"]

    page = get(client, "/api/jurisdictions", limit=5, offset=10)

    assert page["count"] == 14
    assert page["items"] == everything[10:15]
    assert get(client, "/api/jurisdictions", limit=1000, offset=14) == {"items": [], "count": 14}
    assert len(get(client, "/api/jurisdictions", limit=1)["items"]) == 1


def test_default_page_is_100_items(client, empty_cjg):
    for n in range(101):
        PersonFactory(name=f"Person {n:03}")
    body = get(client, "/api/people")
    assert body["count"] == 101 and len(body["items"]) == 100


# --- Offers ------------------------------------------------------------------------------------


def test_offers_list_shape_with_slugs_and_codes(client, federal_dec_2013):
    body = get(client, "/api/offers")

    assert_page(body)
    assert body["count"] == 2
    assert body["items"] == [
        {"slug": "federal-dec-2013", "title": "The Christmas Eve offer", "negotiation": "canada-job-grant",
         "tabled_by": ["CA"], "tabled_on": "2013-12-24", "date_precision": "day", "status": "tabled",
         "responds_to": "budget-2013"},
        {"slug": "budget-2013", "title": "Budget 2013", "negotiation": "canada-job-grant",
         "tabled_by": ["CA"], "tabled_on": "2013-03-21", "date_precision": "day", "status": "superseded",
         "responds_to": None},
    ]


def test_offers_filter_by_negotiation_status_and_tabler(client, federal_dec_2013):
    assert get(client, "/api/offers", status="superseded")["count"] == 1
    assert get(client, "/api/offers", negotiation="canada-job-grant")["count"] == 2
    assert get(client, "/api/offers", tabled_by="on")["count"] == 0
    assert get(client, "/api/offers", negotiation="elsewhere", expect=422)["detail"].startswith("negotiation:")
    assert get(client, "/api/offers", tabled_by="XX", expect=422)["detail"].startswith("tabled_by:")


def test_one_offer_has_its_terms_with_money_strings_and_all_13_treatments(client, budget_2013):
    body = get(client, "/api/offers/budget-2013")

    assert {key: body[key] for key in ("slug", "negotiation", "tabled_by", "responds_to")} == {
        "slug": "budget-2013", "negotiation": "canada-job-grant", "tabled_by": ["CA"], "responds_to": None,
    }
    terms = body["terms"]
    assert terms["max_grant"] == "15000.00"
    assert terms["split"] == {"federal": "5000.00", "provincial": "5000.00", "employer": "5000.00"}
    assert terms["sources"] == {"federal": {"LMA": "5000.00"}, "provincial": {"PT_OWN": "5000.00"}}
    assert terms["scale"] == {"program": "LMA", "amount": "300000000.00"}
    assert terms["employer_min_share"] is None
    assert terms["shortfall_liability"] == "none"
    assert terms["treatments"] == dict.fromkeys(PT_CODES, "participates")
    assert list(terms["treatments"]) == PT_CODES
    assert terms["phase_in"] == []
    assert terms["assumptions"] == "As the budget set out."


def test_offer_terms_write_shares_without_trailing_zeros_and_keep_treatment_rows(client, budget_2013, canada):
    budget_2013.employer_min_share = Decimal("0.150")
    budget_2013.small_employer_gap_payer = "provincial"
    budget_2013.save()
    JurisdictionTreatment.objects.create(offer=budget_2013, jurisdiction=Jurisdiction.objects.get(code="QC"),
                                         treatment=Treatment.OPTS_OUT_COMPENSATED)
    PhaseInStep.objects.create(offer=budget_2013, fiscal_year="2014-15", fraction=Decimal("0.2500"))
    PhaseInStep.objects.create(offer=budget_2013, fiscal_year="2017-18", fraction=Decimal("1.0000"))

    terms = get(client, "/api/offers/budget-2013")["terms"]

    assert terms["employer_min_share"] == "0.15"
    assert terms["small_employer_gap_payer"] == "provincial"
    assert terms["treatments"]["QC"] == "opts_out_compensated"
    assert terms["treatments"]["ON"] == "participates" and len(terms["treatments"]) == 13
    assert terms["phase_in"] == [{"fiscal_year": "2014-15", "fraction": "0.25"},
                                 {"fiscal_year": "2017-18", "fraction": "1.0"}]


# --- Fiscal effect: the worked examples of FISCAL_MODEL.md -----------------------------------------


def assert_parts_add_up(effect):
    """13 rows, one per P/T in display order, whose sums equal the national figure on every line."""
    assert [row["code"] for row in effect["by_jurisdiction"]] == PT_CODES
    assert_lines(effect["national"])
    for row in effect["by_jurisdiction"]:
        assert_lines(row)
    for name in LINE_NAMES:
        total = sum(Decimal(str(row[name])) for row in effect["by_jurisdiction"])
        assert total == Decimal(str(effect["national"][name])), name


def test_budget_2013_worked_example(client, budget_2013):
    effect = get(client, "/api/offers/budget-2013/fiscal-effect")

    assert set(effect) == {"offer", "assumptions", "national", "by_jurisdiction", "small_employer_gap", "years",
                           "multi_year_total"}
    assert effect["offer"] == "budget-2013"
    assert effect["assumptions"] == {"participation": "1.0", "fiscal_year": None}
    national = effect["national"]
    assert list(national) == LINE_NAMES
    assert national["trainees"] == 60_000
    assert national["federal_cost"] == national["provincial_cost"] == national["employer_cost"] == "300000000.00"
    assert national["lma_diverted"] == "300000000.00"
    assert national["lma_allocation"] == "500000000.00"
    assert national["lma_remaining"] == "200000000.00"
    assert national["provinces_need"] == "600000000.00"
    assert national["lmda_redirected"] == national["employer_shortfall"] == "0.00"
    assert_parts_add_up(effect)


def test_federal_dec_2013_worked_example(client, federal_dec_2013):
    national = get(client, "/api/offers/federal-dec-2013/fiscal-effect")["national"]

    assert national["trainees"] == 60_000
    assert national["federal_cost"] == "600000000.00"
    assert national["provincial_cost"] == "0.00"
    assert national["lma_diverted"] == "300000000.00"
    assert national["lmda_redirected"] == "300000000.00"
    assert national["provincial_new_money"] == "0.00"
    assert national["provinces_need"] == "300000000.00"


def test_participation_and_fiscal_year_are_used_and_echoed(client, federal_dec_2013):
    effect = get(client, "/api/offers/federal-dec-2013/fiscal-effect", participation="0.5", fiscal_year="2017-18")

    assert effect["assumptions"] == {"participation": "0.5", "fiscal_year": "2017-18"}
    # Half the employers' 300M is missing, and the P/Ts are liable for it (the December clawback).
    assert effect["national"]["employer_shortfall"] == "150000000.00"
    assert effect["national"]["provincial_liability"] == "150000000.00"
    assert_parts_add_up(effect)


def test_fiscal_effect_follows_the_phase_in(client, budget_2013):
    PhaseInStep.objects.create(offer=budget_2013, fiscal_year="2014-15", fraction=Decimal("0.5"))
    PhaseInStep.objects.create(offer=budget_2013, fiscal_year="2015-16", fraction=Decimal("1"))

    first_year = get(client, "/api/offers/budget-2013/fiscal-effect", fiscal_year="2014-15")
    full = get(client, "/api/offers/budget-2013/fiscal-effect")

    assert first_year["national"]["trainees"] == 30_000
    assert full["assumptions"]["fiscal_year"] == "2015-16" and full["national"]["trainees"] == 60_000
    # FISCAL_MODEL: "with a phase-in, the same lines for each fiscal year, plus the multi-year total".
    assert [(year["fiscal_year"], year["fraction"], year["national"]["trainees"]) for year in full["years"]] == [
        ("2014-15", "0.5", 30_000), ("2015-16", "1.0", 60_000)]
    assert full["years"] == first_year["years"]
    assert full["multi_year_total"]["trainees"] == 90_000
    assert full["multi_year_total"]["federal_cost"] == "450000000.00"
    for line in ("federal_cost", "lma_diverted", "provinces_need"):
        assert sum(Decimal(year["national"][line]) for year in full["years"]) == Decimal(full["multi_year_total"][line])


def test_fiscal_effect_without_a_phase_in_or_a_minimum_share_says_so(client, budget_2013):
    effect = get(client, "/api/offers/budget-2013/fiscal-effect")
    assert (effect["years"], effect["multi_year_total"], effect["small_employer_gap"]) == ([], None, None)


def test_fiscal_effect_gives_the_small_employer_gap_and_who_covers_it(client, budget_2013):
    # FISCAL_MODEL's small_employer_gap: at a 15 % minimum of the $15,000 grant an employer puts in $2,250, $2,750
    # short of its $5,000; here the province covers it.
    budget_2013.employer_min_share = Decimal("0.15")
    budget_2013.small_employer_gap_payer = "provincial"
    budget_2013.save()
    effect = get(client, "/api/offers/budget-2013/fiscal-effect")
    assert effect["small_employer_gap"] == {"employer_minimum": "2250.00", "gap": "2750.00", "covered_by": "provincial"}
    budget_2013.small_employer_gap_payer = ""
    budget_2013.save()
    assert get(client, "/api/offers/budget-2013/fiscal-effect")["small_employer_gap"]["covered_by"] is None


def test_offer_whose_stored_terms_do_not_add_up_is_a_409_naming_the_field(client, canada, empty_cjg):
    OfferFactory(slug="broken", negotiation=empty_cjg, funding=[("federal", "LMA", Decimal("4000")),
                                                          ("provincial", "PT_OWN", Decimal("5000"))])

    body = get(client, "/api/offers/broken/fiscal-effect", expect=409)

    assert set(body) == {"detail"}
    assert "funding_sources" in body["detail"]  # the field, as the admin and the forms name it
    assert "Federal sources add up to $4,000 but the federal amount is $5,000." in body["detail"]


# --- Compare -------------------------------------------------------------------------------------


def test_compare_gives_both_effects_and_their_difference_b_minus_a(client, federal_dec_2013):
    body = get(client, "/api/offers/budget-2013/compare/federal-dec-2013", participation="0.8")

    assert set(body) == {"assumptions", "a", "b", "difference"}
    assert body["assumptions"] == {"participation": "0.8", "fiscal_year": None}
    assert body["a"]["offer"] == "budget-2013" and body["b"]["offer"] == "federal-dec-2013"
    assert body["a"] == get(client, "/api/offers/budget-2013/fiscal-effect", participation="0.8")
    assert_parts_add_up(body["a"])
    assert_parts_add_up(body["b"])
    assert set(body["difference"]) == {"national", "by_jurisdiction"}
    rows = zip(body["a"]["by_jurisdiction"], body["b"]["by_jurisdiction"], body["difference"]["by_jurisdiction"])
    for a, b, difference in [(body["a"]["national"], body["b"]["national"], body["difference"]["national"]), *rows]:
        assert_lines(difference)
        for name in LINE_NAMES:
            assert Decimal(str(difference[name])) == Decimal(str(b[name])) - Decimal(str(a[name])), name

    at_full_participation = get(client, "/api/offers/budget-2013/compare/federal-dec-2013")["difference"]["national"]
    assert at_full_participation["federal_cost"] == "300000000.00"
    assert at_full_participation["provincial_cost"] == "-300000000.00"
    assert at_full_participation["trainees"] == 0


def test_compare_with_an_unknown_offer_is_404(client, budget_2013):
    body = get(client, "/api/offers/budget-2013/compare/nowhere", expect=404)
    assert "nowhere" in body["detail"]


# --- The record ----------------------------------------------------------------------------------


def test_timeline_is_newest_first_paginated_with_absolute_urls(client, canada, empty_cjg, budget_2013):
    ontario = Jurisdiction.objects.get(code="ON")
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 7, 25), date_precision="month")
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=D(2014, 1, 29))
    MeetingFactory(negotiation=empty_cjg, date=D(2013, 11, 8), jurisdictions=[ontario], title="Toronto meeting")

    body = get(client, "/api/jurisdictions/ON/timeline")

    assert_page(body)
    assert body["count"] == 4
    assert [item["kind"] for item in body["items"]] == ["statement", "meeting", "position", "offer"]
    assert [item["date"] for item in body["items"]] == ["2014-01-29", "2013-11-08", "2013-07-25", "2013-03-21"]
    assert body["items"][2]["date_precision"] == "month"
    assert all(set(item) == {"date", "date_precision", "kind", "title", "url"} for item in body["items"])
    assert body["items"][3]["url"] == "http://testserver/offers/budget-2013/"
    assert get(client, "/api/jurisdictions/on/timeline", limit=2, offset=1)["items"] == body["items"][1:3]
    assert get(client, "/api/jurisdictions/ON/timeline", kind="meeting")["count"] == 1


def test_timeline_of_an_unknown_code_is_404(client, canada):
    for code in ("XX", "ONT"):
        body = get(client, f"/api/jurisdictions/{code}/timeline", expect=404)
        assert body == {"detail": f"No jurisdiction has the code '{code}'."}


def test_people_with_their_roles(client, canada):
    person = PersonFactory(name="Jason Kenney", slug="jason-kenney")
    RoleFactory(person=person, title="Minister of Employment", jurisdiction=canada, start=D(2013, 7, 15), end=None)
    RoleFactory(person=person, title="Spokesperson", jurisdiction=None, organization="A chamber of commerce",
                start=D(2010, 1, 1), end=D(2012, 12, 31))

    body = get(client, "/api/people")

    assert body == {"count": 1, "items": [{"name": "Jason Kenney", "roles": [
        {"title": "Minister of Employment", "jurisdiction": "CA", "organization": None,
         "start": "2013-07-15", "end": None},
        {"title": "Spokesperson", "jurisdiction": None, "organization": "A chamber of commerce",
         "start": "2010-01-01", "end": "2012-12-31"},
    ]}]}


def test_meetings_with_the_codes_present(client, canada, empty_cjg):
    MeetingFactory(slug="fpt-2013-11-08", title="FPT ministers", negotiation=empty_cjg, date=D(2013, 11, 8),
                   date_precision="day", location="Toronto",
                   jurisdictions=list(Jurisdiction.objects.filter(code__in=["CA", "ON", "QC"])))

    body = get(client, "/api/meetings")

    assert body["items"] == [{"slug": "fpt-2013-11-08", "title": "FPT ministers", "date": "2013-11-08",
                              "date_precision": "day", "kind": "fpt_ministers", "location": "Toronto",
                              "jurisdictions": ["CA", "QC", "ON"]}]
    assert get(client, "/api/meetings", jurisdiction="QC")["count"] == 1
    assert get(client, "/api/meetings", jurisdiction="BC")["count"] == 0


@pytest.fixture
def statements(canada, empty_cjg):
    ontario, quebec = Jurisdiction.objects.get(code="ON"), Jurisdiction.objects.get(code="QC")
    duguid = PersonFactory(name="Brad Duguid", slug="brad-duguid")
    source = SourceFactory(outlet="The Canadian Press", title="Provinces counter", url="https://example.org/cp")
    StatementFactory(negotiation=empty_cjg, speaker=duguid, jurisdiction=ontario, date=D(2014, 1, 29),
                     quote="We have put forward a proposal.", source=source, ref="duguid-2014-01-29-proposal")
    StatementFactory(negotiation=empty_cjg, jurisdiction=quebec, date=D(2013, 11, 8), language="fr",
                     quote="Le Québec veut se retirer.", date_precision="month")
    StatementFactory(negotiation=empty_cjg, speaker=duguid, jurisdiction=ontario, date=D(2014, 2, 1),
                     quote="Misquoted.", retracted=True)


def test_statements_shape_without_retracted_ones(client, statements):
    body = get(client, "/api/statements")

    assert body["count"] == 2
    assert body["items"][0] == {
        "ref": "duguid-2014-01-29-proposal",  # API.md: "also each statement's ref", which positions' evidence names
        "speaker": "Brad Duguid", "jurisdiction": "ON", "date": "2014-01-29", "date_precision": "day",
        "language": "en", "quote": "We have put forward a proposal.",
        "source": {"outlet": "The Canadian Press", "title": "Provinces counter", "url": "https://example.org/cp"},
    }
    assert body["items"][1]["language"] == "fr" and body["items"][1]["date_precision"] == "month"
    assert body["items"][1]["ref"] is None  # a statement without one (the site's forms give every new one a ref)


def test_statements_filter_by_jurisdiction_and_speaker_slug_or_name(client, statements):
    assert [s["jurisdiction"] for s in get(client, "/api/statements", jurisdiction="QC")["items"]] == ["QC"]
    assert get(client, "/api/statements", jurisdiction="on")["count"] == 1
    assert get(client, "/api/statements", speaker="brad-duguid")["count"] == 1
    assert get(client, "/api/statements", speaker="brad duguid")["count"] == 1
    assert get(client, "/api/statements", speaker="Nobody")["count"] == 0
    assert get(client, "/api/statements", speaker="Brad Duguid", jurisdiction="QC")["count"] == 0
    body = get(client, "/api/statements", jurisdiction="XX", expect=422)
    assert body["detail"].startswith("jurisdiction:")


def test_positions_shape(client, canada, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=Jurisdiction.objects.get(code="QC"), as_of=D(2013, 7, 25),
                    stance=Stance.OPTS_OUT, summary="Wants out with compensation.", date_precision="approximate")

    body = get(client, "/api/positions")

    assert body == {"count": 1, "items": [{"jurisdiction": "QC", "negotiation": "canada-job-grant",
                                           "as_of": "2013-07-25", "date_precision": "approximate",
                                           "stance": "opts_out", "summary": "Wants out with compensation.",
                                           "conditions": [], "evidence": []}]}
    assert get(client, "/api/positions", jurisdiction="ON")["count"] == 0


def test_positions_give_their_checkable_conditions_and_evidence(client, canada, empty_cjg):
    quebec = Jurisdiction.objects.get(code="QC")
    said = StatementFactory(negotiation=empty_cjg, jurisdiction=quebec, ref="maltais-renew-lma")
    position = PositionFactory(negotiation=empty_cjg, jurisdiction=quebec, as_of=D(2013, 11, 8))
    position.evidence.add(said)
    Condition.objects.create(position=position, order=0, term="sources.federal.LMA", operator="eq", value="0",
                             text="Renewal of the LMA as it stands.", statement=said)
    Condition.objects.create(position=position, order=1, term="treatments.own", operator="eq",
                             value="opts_out_compensated", text="Out, with compensation.")
    Condition.objects.create(position=position, order=2, kind="words", text="Open to revisiting the objectives.")

    (item,) = get(client, "/api/positions")["items"]

    assert item["conditions"] == [
        {"term": "sources.federal.LMA", "operator": "eq", "value": "0", "text": "Renewal of the LMA as it stands."},
        {"term": "treatments.QC", "operator": "eq", "value": "opts_out_compensated", "text": "Out, with compensation."},
    ]
    assert item["evidence"] == ["maltais-renew-lma"]


# --- Errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "/api/offers/nowhere", "/api/offers/nowhere/fiscal-effect", "/api/offers/nowhere/compare/budget-2013",
    "/api/jurisdictions/XX/timeline", "/api/not-an-endpoint", "/api/offers/budget-2013/", "/api/",
    "/api/jurisdictions/O%00/timeline", "/api/offers/budget%002013", "/api/offers/budget-2013/compare/x%00",
])
def test_unknown_slug_code_or_path_is_a_json_404(client, budget_2013, url):
    body = get(client, url, expect=404)
    assert set(body) == {"detail"} and body["detail"]


@pytest.mark.parametrize("url, params, parameter", [
    ("/api/offers/budget-2013/fiscal-effect", {"participation": "2"}, "participation"),
    ("/api/offers/budget-2013/fiscal-effect", {"participation": "abc"}, "participation"),
    ("/api/offers/budget-2013/fiscal-effect", {"participation": "-0.1"}, "participation"),
    ("/api/offers/budget-2013/fiscal-effect", {"participation": "NaN"}, "participation"),
    ("/api/offers/budget-2013/fiscal-effect", {"fiscal_year": "2017"}, "fiscal_year"),
    ("/api/offers/budget-2013/fiscal-effect", {"fiscal_year": "2017-19"}, "fiscal_year"),
    ("/api/offers/budget-2013/compare/budget-2013", {"participation": "2"}, "participation"),
    *[(url, {"limit": "0"}, "limit") for url in LISTS],
    *[(url, {"limit": "5000"}, "limit") for url in LISTS],
    *[(url, {"limit": "ten"}, "limit") for url in LISTS],
    *[(url, {"offset": "-1"}, "offset") for url in LISTS],
    ("/api/offers", {"offset": str(10**30)}, "offset"),
    ("/api/statements", {"speaker": "a\x00b"}, "speaker"),
    ("/api/statements", {"negotiation": "not a slug"}, "negotiation"),
    ("/api/jurisdictions/ON/timeline", {"kind": "rumour"}, "kind"),
    # A slug no negotiation has, as the parameter's description says (it answered an empty list).
    ("/api/jurisdictions/ON/timeline", {"negotiation": "nope"}, "negotiation"),
])
def test_bad_parameter_is_a_422_naming_it(client, budget_2013, url, params, parameter):
    body = get(client, url, expect=422, **params)
    assert isinstance(body["detail"], str)
    assert body["detail"].startswith(f"{parameter}: "), body["detail"]


def test_ninja_validation_error_names_the_parameter_and_the_rule(client, canada):
    body = get(client, "/api/offers", expect=422, limit=5000)
    assert body["detail"] == "limit: Input should be less than or equal to 1000"
    assert body["errors"][0]["loc"] == ["query", "limit"]


def test_an_unexpected_error_is_still_json(budget_2013):
    client = Client(raise_request_exception=False)
    with mock.patch("negotiations.api.offer_list", side_effect=RuntimeError("a bug")):
        response = client.get("/api/offers")
    assert response.status_code == 500
    assert response.json() == {"detail": "Internal server error."}


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("url", [
    "/api/offers", "/api/offers/budget-2013", "/api/offers/budget-2013/fiscal-effect",
    "/api/offers/budget-2013/compare/budget-2013", "/api/jurisdictions", "/api/jurisdictions/ON/timeline",
    "/api/people", "/api/meetings", "/api/statements", "/api/positions", "/api/openapi.json",
])
def test_writes_are_405_in_json(client, budget_2013, method, url):
    response = getattr(client, method)(url, data="{}", content_type="application/json")
    assert response.status_code == 405
    assert response.json()["detail"].startswith(f"Method {method.upper()} is not allowed")
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("url", ["/api/offers", "/api/openapi.json", "/api/docs", "/api/offers/budget-2013"])
def test_post_is_405_even_with_csrf_checks_on(budget_2013, url):
    response = Client(enforce_csrf_checks=True).post(url)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"] == "Method POST is not allowed: the API is read-only."


def test_head_is_answered_like_get(client, canada):
    response = client.head("/api/jurisdictions")
    assert response.status_code == 200 and response.content == b""


def test_reads_need_a_login_when_the_site_says_so(client, canada, settings, user_factory):
    settings.READ_REQUIRES_LOGIN = True
    response = client.get("/api/jurisdictions")
    assert response.status_code == 401 and response.json() == {"detail": "Authentication required."}

    client.force_login(user_factory(username="no-group"))
    assert client.get("/api/jurisdictions").status_code == 403  # an account is not a permission to read

    viewer = user_factory(username="viewer")
    viewer.groups.add(Group.objects.get(name="Viewer"))
    client.force_login(viewer)
    assert client.get("/api/jurisdictions").status_code == 200


# --- Query counts --------------------------------------------------------------------------------


def grow(size, *, canada, negotiation):
    """`size` more rows of every kind, each with the related rows its list shows."""
    ontario, quebec = Jurisdiction.objects.get(code="ON"), Jurisdiction.objects.get(code="QC")
    previous = None
    already = Position.objects.count()
    for n in range(already, already + size):
        day = D(2013, 4, 1) + datetime.timedelta(days=n)
        person = PersonFactory()
        RoleFactory(person=person, jurisdiction=ontario)
        RoleFactory(person=person, jurisdiction=None, organization="Chamber", start=D(2010, 1, 1))
        previous = OfferFactory(negotiation=negotiation, tabled_on=day, tabled_by=[canada, ontario],
                                responds_to=previous)
        MeetingFactory(negotiation=negotiation, date=day, jurisdictions=[ontario, quebec, canada])
        StatementFactory(negotiation=negotiation, speaker=person, jurisdiction=ontario, date=day)
        PositionFactory(negotiation=negotiation, jurisdiction=ontario, as_of=day)


@pytest.mark.parametrize("url", [
    *LISTS,
    "/api/statements?jurisdiction=ON&speaker=Someone&negotiation=canada-job-grant",
    "/api/meetings?jurisdiction=ON&negotiation=canada-job-grant",
    "/api/offers?negotiation=canada-job-grant&tabled_by=ON",
    "/api/offers/budget-2013",
    "/api/offers/budget-2013/fiscal-effect",
    "/api/offers/budget-2013/compare/budget-2013",
])
def test_query_count_does_not_grow_with_the_data(client, budget_2013, canada, empty_cjg, url):
    def queries():
        forget_reference_data()
        with CaptureQueriesContext(connection) as context:
            assert client.get(url).status_code == 200
        return len(context)

    grow(3, canada=canada, negotiation=empty_cjg)
    small = queries()
    grow(12, canada=canada, negotiation=empty_cjg)
    large = queries()

    assert small == large <= MAX_QUERIES


# --- OpenAPI and docs ----------------------------------------------------------------------------


def test_openapi_document_lists_every_path_of_the_contract(client):
    document = get(client, "/api/openapi.json")

    assert set(CONTRACT_PATHS) <= set(document["paths"])
    for path in CONTRACT_PATHS:
        assert set(document["paths"][path]) == {"get"}, path


def test_openapi_document_describes_money_as_a_two_decimal_string(client):
    schemas = get(client, "/api/openapi.json")["components"]["schemas"]
    federal_cost = schemas["Lines"]["properties"]["federal_cost"]
    assert federal_cost["type"] == "string" and federal_cost["pattern"] == r"^-?[0-9]+\.[0-9]{2}$"


def test_docs_page_loads_swagger_from_local_static_files_under_the_strict_csp(client):
    response = client.get("/api/docs")
    html = response.content.decode()

    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "cdn" not in html.lower()
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, f"inline script: {tag}"
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
    assert "ninja/swagger-ui-bundle.js" in assets
    for asset in assets:
        assert finders.find(asset), f"static file not found: {asset}"


# --- The loaded data set -------------------------------------------------------------------------


@pytest.fixture
def loaded():
    if "load_cjg" not in get_commands():
        pytest.skip("the load_cjg data set loader is not there yet")
    load_cjg()


def test_loaded_data_set_through_the_api(client, loaded):
    offers = {item["slug"]: item for item in get(client, "/api/offers")["items"]}
    assert {"budget-2013", "federal-nov-2013", "federal-dec-2013", "pt-counter-jan-2014"} <= set(offers)
    assert {item["negotiation"] for item in offers.values()} == {"canada-job-grant"}
    assert offers["federal-dec-2013"]["responds_to"] == "federal-nov-2013"

    budget = get(client, "/api/offers/budget-2013/fiscal-effect")["national"]
    assert budget["trainees"] == 60_000
    assert budget["federal_cost"] == budget["provincial_cost"] == budget["employer_cost"] == "300000000.00"
    assert budget["lma_diverted"] == "300000000.00"
    assert budget["lma_remaining"] == "200000000.00"
    assert budget["provinces_need"] == "600000000.00"

    december = get(client, "/api/offers/federal-dec-2013/fiscal-effect")["national"]
    assert december["federal_cost"] == "600000000.00"
    assert december["provincial_cost"] == "0.00"
    assert december["lmda_redirected"] == "300000000.00"
    assert december["provinces_need"] == "300000000.00"

    for slug in offers:
        assert_parts_add_up(get(client, f"/api/offers/{slug}/fiscal-effect"))
        assert len(get(client, f"/api/offers/{slug}")["terms"]["treatments"]) == 13
    assert get(client, "/api/offers/pt-counter-jan-2014")["terms"]["treatments"]["QC"] == "opts_out_compensated"
    get(client, "/api/offers/federal-dec-2013/compare/pt-counter-jan-2014")


def test_loaded_data_set_lists_are_well_formed(client, loaded):
    assert get(client, "/api/jurisdictions")["count"] == 14
    for url in LISTS + ["/api/jurisdictions/QC/timeline", "/api/jurisdictions/CA/timeline"]:
        body = get(client, url, limit=1000)
        assert_page(body)
        assert body["count"] >= len(body["items"]) > 0, url



@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_the_api_address_without_its_slash_answers_in_json(client, method):
    response = getattr(client, method)("/api")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["detail"] == "No endpoint at /api; the endpoints are listed at /api/openapi.json."
