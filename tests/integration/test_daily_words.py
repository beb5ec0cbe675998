"""Words and numbers people read (issue 16.9), on the Canada Job Grant data set: no raw code where a label
exists, every amount with separators, one date format (the formatter's, in words), a CSV header in words."""

import csv
import html
import io
import re

import pytest

from grants.models import Scenario
from negotiations.models import Jurisdiction, Offer
from tests.offer_world import offer_post
from tests.shared import seen as seen_in

pytestmark = pytest.mark.django_db

# Codes with a label: programs, treatments, term paths and the enum values of the choice terms.
RAW_CODES = re.compile(
    r"\b(PT_OWN|FEDERAL_NEW|opts_out_compensated|federal_direct|small_employer_gap_payer|shortfall_liability"
    r"|employer_min_share|phase_in|max_grant|scale_program|federal_amount|provincial_amount|employer_amount"
    r"|provinces_need|lma_remaining|(?:sources|split|treatments)\.\w+)\b|\((?:LMA|LMDA|CJF)\)|money from (?:LMA|LMDA|CJF)\b"
)
# An amount written without separators (300000000.00, 5000.00) or a count of five digits or more.
RAW_NUMBERS = re.compile(r"(?<![\d.,-])(\d{4,}\.\d\d|\d{5,})(?![\d-])")
ISO_DATES = re.compile(r"\b\d{4}-\d\d-\d\d\b")


def seen(response) -> str:
    """What a reader sees of a page (tests.shared.seen)."""
    return seen_in(response.content.decode())


def test_no_page_shows_a_raw_code_an_unseparated_amount_or_an_iso_date(cjg, editor_client):
    editor_client.post("/scenarios/new", offer_post(title="What if Quebec opts out", tabled_on="2014-01-29",
                                                      treatment_QC="opts_out_compensated"))
    scenario = Scenario.objects.get()
    pages = ["/", "/offers/", "/offers/new", "/statements/new", "/positions/new", "/compare/", "/scenarios/", scenario.get_absolute_url(),
             "/negotiations/canada-job-grant/", "/negotiations/canada-job-grant/stances",
             "/negotiations/canada-job-grant/distance"]
    for offer in Offer.objects.order_by("tabled_on"):
        pages += [offer.get_absolute_url(), f"/offers/{offer.slug}/fiscal/"]
    for code in Jurisdiction.objects.values_list("code", flat=True)[:3]:
        pages += [f"/jurisdictions/{code}/", f"/jurisdictions/{code}/offers"]
    found = {}
    for url in pages:
        response = editor_client.get(url)
        assert response.status_code == 200, url
        text = seen(response)
        problems = (RAW_CODES.findall(text) + RAW_NUMBERS.findall(text) + ISO_DATES.findall(text))
        if problems:
            found[url] = sorted({str(problem) for problem in problems})[:8]
    assert found == {}


def test_choices_name_a_record_by_its_date_in_words_first(cjg, editor_client):
    """A long title cut off at the end of a select still leaves the choices told apart (issue 16.9)."""
    def options(url, name):
        page = editor_client.get(url).content.decode()
        select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
        if select:
            return [html.unescape(text).strip() for text in re.findall(r"<option[^>]*>(.*?)</option>", select.group(1), re.S)]
        # A long list of records is a list of boxes to tick, each choice's text in its label.
        boxes = re.findall(rf'<label for="id_{name}_\d+"><input [^>]*> (.*?)</label>', page, re.S)
        return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip() for text in boxes]

    assert "February 4, 2014 · January 2014: the P/T ministers' counter-offer" in options("/offers/new", "responds_to")
    assert "February 4, 2014 · January 2014: the P/T ministers' counter-offer" in options("/offers/new", "from")
    assert any(o.startswith("November 8, 2013 · ") for o in options("/offers/new", "meeting"))
    sources = options("/offers/new", "sources")
    assert sources and all(re.match(r"\w+ \d+, \d{4} · ", o) for o in sources)
    assert all(re.match(r"\w+ \d+, \d{4} · ", o) for o in options("/statements/new", "source")[1:])
    french = options("/fr/offers/new", "sources")
    assert any(o.startswith("4 février 2014 · ") for o in french)


def test_the_offer_page_names_programs_and_conditions_in_words(client, cjg):
    page = seen(client.get("/offers/federal-nov-2013/"))
    assert "PT_OWN" not in page and "sources.federal" not in page
    assert "Provincial or territorial money from its own revenue" in page  # not "… from Province's or territory's own revenue"
    # Why a P/T would not sign, in words and dollars: not "sources.federal.LMA is 5000.00".
    assert "Federal money from Labour Market Agreements is $5,000; the condition asks for $0 (off by $5,000)" in page
    assert "November 8, 2013" in page


def test_the_negotiation_page_names_the_terms_and_their_values(client, cjg):
    page = seen(client.get("/negotiations/canada-job-grant/"))
    assert "Employer minimum share" in page and "Treatment of Quebec" in page
    assert "opts out with compensation" in page and "nobody: fewer grants" in page
    assert "March 21, 2013" in page


def test_the_csv_header_is_words_and_its_figures_stay_plain(client, cjg):
    rows = list(csv.reader(io.StringIO(client.get("/offers/federal-dec-2013/fiscal.csv").content.decode())))
    assert rows[0][:4] == ["Code", "Province or territory", "Trainees", "Federal cost"]
    assert rows[0][-1] == "Basis"
    assert not any(RAW_CODES.search(name) for name in rows[0])
    assert rows[-1][0] == "total" and rows[-1][3] == "600000000.00"  # values stay as spreadsheets read them


def test_french_readers_get_french_dates_and_figures(client, cjg):
    page = seen(client.get("/fr/negotiations/canada-job-grant/"))
    assert "21 mars 2013" in page
    assert not ISO_DATES.search(page)
