"""The fiscal pages: an offer's effect, its CSV, the explanation of any number, and the comparison."""

import csv
import datetime
import io
from decimal import Decimal
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from grants import selectors
from grants.fiscal import LINE_NAMES
from grants.presentation import LINE_LABELS
from negotiations.models import JurisdictionTreatment, PhaseInStep
from tests.factories import JurisdictionFactory, OfferFactory
from tests.offer_world import make_reference
from tests.shared import HTMX, PTS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_reference_data")]


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture
def reference():
    make_reference()


@pytest.fixture
def budget(budget):
    """Budget 2013 (tests/conftest.py) with its assumptions in words."""
    budget.assumptions = "Ottawa's third comes out of the LMA; the provinces' third is new money."
    budget.save()
    return budget


@pytest.fixture
def december(budget):
    """December 2013: Ottawa pays 10,000 (half LMA, half LMDA), no provincial money, P/Ts liable."""
    return OfferFactory(
        slug="federal-dec-2013", title="Federal offer, December 2013", tabled_on=datetime.date(2013, 12, 24),
        federal_amount=Decimal("10000"), provincial_amount=Decimal("0"), employer_amount=Decimal("5000"),
        funding=[("federal", "LMA", 5000), ("federal", "LMDA", 5000)],
        shortfall_liability="province", responds_to=budget,
    )


@pytest.fixture
def phased(reference):
    """Budget-2013 terms phased in from 15 % of the scale to 100 %."""
    offer = OfferFactory(slug="phased", title="Phased grant", employer_min_share=Decimal("0.15"),
                         small_employer_gap_payer="federal")
    for year, fraction in (("2014-15", "0.15"), ("2015-16", "0.3"), ("2016-17", "0.6"), ("2017-18", "1")):
        PhaseInStep.objects.create(offer=offer, fiscal_year=year, fraction=Decimal(fraction))
    return offer


# --- a small HTML reader --------------------------------------------------------------------------


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self) -> str:
        parts = [child if isinstance(child, str) else child.text() for child in self.children]
        return " ".join(" ".join(parts).split())

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag, **attrs):
        return [node for node in self.iter() if node.tag == tag
                and all(node.attrs.get(name.replace("_", "-")) == value for name, value in attrs.items())]

    def find(self, tag, **attrs):
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag} {attrs}>"
        return found[0]


class Page(HTMLParser):
    """Parse a page into Nodes, enough to find elements by tag and attribute and read their text."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self, html: str):
        super().__init__()
        self.root = self.current = Node("#root", {})
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in self.VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def page_of(response) -> Node:
    return Page(response.content.decode()).root


def card(page: Node, line: str) -> str:
    return page.find("article", id=f"card-{line}").find("div", **{"class": "figure"}).text()


def table_rows(page: Node, table_id: str, part: str = "tbody") -> list[list[str]]:
    table = page.find("table", id=table_id)
    return [[cell.text() for cell in row.children if isinstance(cell, Node)]
            for row in table.find(part).find_all("tr")]


# --- the fiscal page -----------------------------------------------------------------------------


def test_budget_2013_worked_example_appears_on_the_page(client, budget):
    """FISCAL_MODEL's Budget 2013 example: 60,000 trainees, $300M per payer, the P/Ts need $600M."""
    response = client.get("/offers/budget-2013/fiscal/")
    assert response.status_code == 200
    page = page_of(response)
    assert card(page, "trainees") == "60,000"
    for line in ("federal_cost", "provincial_cost", "employer_cost", "lma_diverted"):
        assert card(page, line) == "$300,000,000"
    assert card(page, "lmda_redirected") == "$0"
    assert card(page, "provinces_need") == "$600,000,000"
    total = dict(zip(["name", *LINE_NAMES], table_rows(page, "fiscal-table", "tfoot")[0]))
    assert total["lma_allocation"] == "$500,000,000"
    assert total["lma_remaining"] == "$200,000,000"
    assert total["provinces_need"] == "$600,000,000"


def test_december_2013_worked_example_appears_on_the_page(client, december):
    """FISCAL_MODEL's December example: Ottawa pays $600M, half of it out of the LMDA; the P/Ts need $300M."""
    page = page_of(client.get("/offers/federal-dec-2013/fiscal/"))
    assert card(page, "trainees") == "60,000"
    assert card(page, "federal_cost") == "$600,000,000"
    assert card(page, "provincial_cost") == "$0"
    assert card(page, "lma_diverted") == "$300,000,000"
    assert card(page, "lmda_redirected") == "$300,000,000"
    assert card(page, "provinces_need") == "$300,000,000"
    assert card(page, "provincial_liability") == "$0"


def test_table_has_the_13_provinces_and_territories_and_a_total(client, budget):
    """One row per P/T in display order with every line, then the national total row."""
    page = page_of(client.get("/offers/budget-2013/fiscal/"))
    header = table_rows(page, "fiscal-table", "thead")[0]
    assert len(header) == 1 + len(LINE_NAMES)
    rows = table_rows(page, "fiscal-table")
    assert [row[0] for row in rows] == [name for _code, name, _kind, _population in PTS]
    assert all(len(row) == 1 + len(LINE_NAMES) for row in rows)
    ontario = dict(zip(["name", *LINE_NAMES], rows[5]))
    assert ontario["lma_allocation"] == "$192,529,111"  # 500M × 13,537,994 / 35,158,304, to the dollar
    assert len(table_rows(page, "fiscal-table", "tfoot")) == 1


def test_page_shows_the_offer_assumptions_terms_charts_and_links(client, budget):
    """Assumptions and terms in words, chart data for both charts, a CSV link and a way back to the offer."""
    response = client.get("/offers/budget-2013/fiscal/")
    page = page_of(response)
    assert "Ottawa's third comes out of the LMA" in page.find("div", id="offer-assumptions").text()
    assert page.find("canvas", data_chart_data="who-pays-data")
    assert page.find("script", id="who-pays-data").attrs["type"] == "application/json"
    assert page.find("script", id="programs-data")
    hrefs = [a.attrs.get("href", "") for a in page.find_all("a")]
    assert "/offers/budget-2013/" in hrefs
    assert "/offers/budget-2013/fiscal.csv?participation=1" in hrefs
    assert 'style="' not in response.content.decode()  # the CSP forbids inline styles
    scripts = page.find_all("script")
    assert all("src" in script.attrs or script.attrs.get("type") == "application/json" for script in scripts)


def test_every_number_links_to_its_explanation(client, budget):
    """Each cell is a real link (href) that htmx also fetches (hx-get) into the explanation region."""
    page = page_of(client.get("/offers/budget-2013/fiscal/"))
    links = page.find("table", id="fiscal-table").find_all("a")
    assert len(links) == (13 + 1) * len(LINE_NAMES)
    for link in links:
        assert link.attrs["href"] == link.attrs["hx-get"]
        assert link.attrs["href"].startswith("/offers/budget-2013/fiscal/explain?")
    nova_scotia = page.find("table", id="fiscal-table").find("tr", data_code="NS")
    query = parse_qs(urlsplit(nova_scotia.find("td", data_line="federal_cost").find("a").attrs["href"]).query)
    assert query == {"line": ["federal_cost"], "code": ["NS"], "participation": ["1"]}


def test_explain_returns_the_trace_partial_with_formula_and_inputs(client, budget):
    """The trace of one number names its formula and inputs, and only the explanation region comes back."""
    response = client.get("/offers/budget-2013/fiscal/explain?line=trainees&participation=1", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and 'id="fiscal-table"' not in html
    trace = Page(html).root
    assert trace.find("div", **{"class": "trace-value figure"}).text() == "60,000"
    assert "per-trainee draw on LMA" in trace.find("p", **{"class": "trace-formula"}).text()
    inputs = {row.find("th").text(): row.find("td").text() for row in trace.find("table").find_all("tr")}
    assert inputs["scale amount"] == "$300,000,000"
    assert inputs["per-trainee draw on LMA"] == "$5,000"
    assert inputs["Ontario"] == "23,103"


def test_explain_a_provinces_figure(client, budget):
    """A P/T's LMA allocation is explained by the envelope and its population share."""
    response = client.get("/offers/budget-2013/fiscal/explain?line=lma_allocation&code=ON", **HTMX)
    trace = page_of(response)
    assert "LMA envelope × population share" in trace.text()
    inputs = {row.find("th").text(): row.find("td").text() for row in trace.find("table").find_all("tr")}
    assert inputs["LMA envelope"] == "$500,000,000"
    assert inputs["population"] == "13,537,994"
    assert "Ontario" in trace.find("h2").text()


def test_explain_without_htmx_is_the_whole_page_with_the_trace(client, budget):
    """Without JavaScript the explain link opens the fiscal page with the explanation filled in."""
    response = client.get("/offers/budget-2013/fiscal/explain?line=provinces_need&code=QC&participation=1")
    assert response.status_code == 200
    page = page_of(response)
    assert page.find("table", id="fiscal-table")
    assert "provincial new money + LMA diverted" in page.find("div", id="explanation").text()
    close = page.find("a", **{"class": "trace-close"})
    assert close.attrs["href"] == "/offers/budget-2013/fiscal/?participation=1"


@pytest.mark.parametrize("query, message", [
    ("line=nonsense", "There is no line called"),
    ("line=trainees&code=ZZ", "is not a province or territory"),
    ("line=trainees&years=all", "no phase-in"),
])
def test_explain_refuses_what_it_cannot_explain(client, budget, query, message):
    response = client.get(f"/offers/budget-2013/fiscal/explain?{query}", **HTMX)
    assert response.status_code == 200 and response["X-Refused"] == "400"
    assert message in response.content.decode()


def test_scenario_change_through_htmx_returns_only_the_results(client, december):
    """Changing participation swaps the results region: no page around it, the new figures in it."""
    response = client.get("/offers/federal-dec-2013/fiscal/?participation=0.5", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "scenario-form" not in html
    assert "HX-Request" in response["Vary"]
    page = Page(html).root
    assert card(page, "employer_shortfall") == "$150,000,000"
    assert card(page, "provincial_liability") == "$150,000,000"
    assert card(page, "employer_cost") == "$150,000,000"
    assert "50%" in page.find("p", **{"class": "scenario-line"}).text()


def test_the_form_is_a_get_form_that_htmx_also_submits(client, budget):
    form = page_of(client.get("/offers/budget-2013/fiscal/")).find("form", **{"class": "scenario-form"})
    assert form.attrs["method"] == "get"
    assert form.attrs["action"] == form.attrs["hx-get"] == "/offers/budget-2013/fiscal/"
    assert form.attrs["hx-target"] == "#fiscal-results"
    assert form.attrs["hx-push-url"] == "true"
    participation = form.find("input", name="participation")
    # a text box: a number box turned the French "0,5" into "05" before the page saw it
    assert (participation.attrs["type"], participation.attrs["inputmode"]) == ("text", "decimal")


def test_a_history_restore_gets_the_whole_page(client, budget):
    """The back button makes htmx ask for the page again: it needs all of it."""
    response = client.get("/offers/budget-2013/fiscal/?participation=0.5",
                          HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("query, label", [
    ("participation=2", "Employer participation rate"),
    ("participation=abc", "Employer participation rate"),
    ("participation=NaN", "Employer participation rate"),
    ("participation=-0.1", "Employer participation rate"),
    ("participation=1e-9999999", "Employer participation rate"),  # would take minutes to compute exactly
    ("fiscal_year=bad", "Fiscal year"),
    ("fiscal_year=2014-16", "Fiscal year"),
])
def test_an_invalid_scenario_gives_a_message_naming_the_field(client, budget, query, label, htmx):
    response = client.get(f"/offers/budget-2013/fiscal/?{query}", **(HTMX if htmx else {}))
    # An htmx answer is the region, swapped in place (a 400 would replace the page in development).
    assert response.status_code == (200 if htmx else 400)
    error = page_of(response).find("article", id="scenario-error")
    assert label in error.text()
    assert "is not valid" in error.text()
    if htmx:
        assert response["HX-Push-Url"] == "false"
        assert response["X-Refused"] == "400"
        if "participation" in query:  # (this offer has no phase-in, so no fiscal year field)
            message = page_of(response).find("small", id="participation-error")
            assert message.attrs["hx-swap-oob"] == "true" and "is not valid" in message.text()


def test_an_invalid_year_is_said_once_next_to_its_field_and_once_in_the_results(client, phased):
    # The field had "not valid" and the full sentence under it, and the results the sentence and the engine's own words.
    page = page_of(client.get("/offers/phased/fiscal/?fiscal_year=abc"))
    assert page.find("small", id="fiscal_year-error").text() == "“abc” is not valid. Write it like 2014-15: two consecutive years."
    assert "not valid" not in page.find("select", name="fiscal_year").parent.text()
    assert "fiscal_year-error" in page.find("select", name="fiscal_year").attrs["aria-describedby"]
    error = page.find("article", id="scenario-error")
    assert "is not a fiscal year written like" not in error.text()
    # A detail the help does not give is shown.
    outside = page_of(client.get("/offers/phased/fiscal/?fiscal_year=0000-01")).find("article", id="scenario-error")
    assert "'0000-01' is not a year of the record: from 1900-01 to 2100-01" in outside.text()


@pytest.mark.parametrize("written", ["1_0", "0_5"])
def test_a_participation_with_an_underscore_is_refused(client, budget, written):
    # Python reads "1_0" as 10 and "0_5" as 5.
    response = client.get(f"/offers/budget-2013/fiscal/?participation={written}")
    assert response.status_code == 400
    csv = client.get(f"/offers/budget-2013/fiscal.csv?participation={written}")
    assert csv.status_code == 400
    assert csv.content.decode().startswith("Employer participation rate: Participation must be a number between 0 and 1. Give")


def test_unknown_offer_is_404_everywhere(client, reference):
    for url in ("/offers/nope/fiscal/", "/offers/nope/fiscal.csv", "/offers/nope/fiscal/explain?line=trainees"):
        assert client.get(url).status_code == 404


def test_an_offer_whose_terms_do_not_add_up_says_which_term(client, reference):
    """Terms broken in the admin give a page naming the term at fault, not a 500."""
    OfferFactory(slug="broken", funding=[("federal", "LMA", 4000), ("provincial", "PT_OWN", 5000)])
    response = client.get("/offers/broken/fiscal/")
    assert response.status_code == 200
    problems = page_of(response).find("article", id="terms-problems").text()
    # The same rule and message as the offer form and the admin (negotiations.terms).
    assert "Funding sources" in problems
    assert "Federal sources add up to $4,000 but the federal amount is $5,000." in problems
    csv_response = client.get("/offers/broken/fiscal.csv")
    assert csv_response.status_code == 422
    assert "Federal sources add up to $4,000" in csv_response.content.decode()


def test_phase_in_shows_each_year_and_the_multi_year_total(client, phased):
    """A phased offer: a fiscal year select, a table of every year and their total, each figure explained."""
    page = page_of(client.get("/offers/phased/fiscal/"))
    options = [option.attrs["value"] for option in page.find("select", name="fiscal_year").find_all("option")]
    assert options == ["2014-15", "2015-16", "2016-17", "2017-18"]
    assert "selected" in page.find("option", value="2017-18").attrs
    # Each option short enough for a phone's select (it cannot wrap): the year and its share; the help says what that is.
    labels = [option.text() for option in page.find("select", name="fiscal_year").find_all("option")]
    assert labels == ["2014-15 (15%)", "2015-16 (30%)", "2016-17 (60%)", "2017-18 (100%)"]
    assert "each year applies its share of the full scale, shown after the year" in page.find("small", id="fiscal-year-help").text()
    french = page_of(client.get("/fr/offers/phased/fiscal/"))
    first = french.find("select", name="fiscal_year").find_all("option")[0].text()
    assert first.startswith("2014-2015 (15") and first.endswith("%)") and len(first) == len("2014-2015 (15 %)")
    years = table_rows(page, "years-table")
    assert [row[1] for row in years] == ["9,000", "18,000", "36,000", "60,000"]
    total = table_rows(page, "years-table", "tfoot")[0]
    assert total[1] == "123,000"
    assert total[LINE_NAMES.index("federal_cost") + 1] == "$615,000,000"

    first_year = page_of(client.get("/offers/phased/fiscal/?fiscal_year=2014-15", **HTMX))
    assert card(first_year, "trainees") == "9,000"
    assert card(first_year, "lma_diverted") == "$45,000,000"

    explained = page_of(client.get("/offers/phased/fiscal/explain?line=trainees&years=all", **HTMX))
    assert "sum of trainees over the 4 fiscal years" in explained.text()
    assert explained.find("div", **{"class": "trace-value figure"}).text() == "123,000"


def test_small_employer_gap_is_shown(client, phased):
    gap = page_of(client.get("/offers/phased/fiscal/")).find("p", id="small-employer-gap").text()
    assert "15%" in gap and "$2,250" in gap and "$2,750" in gap and "federal government" in gap


# --- CSV -----------------------------------------------------------------------------------------


# The CSV's header is words (issue 16.9); the tests read its columns by their keys.
CSV_KEYS = {"Code": "code", "Province or territory": "jurisdiction", "Basis": "basis",
            **{str(label): line for line, label in LINE_LABELS.items()}}


def read_csv(response) -> list[dict[str, str]]:
    reader = csv.reader(io.StringIO(response.content.decode()))
    keys = [CSV_KEYS[name] for name in next(reader)]
    return [dict(zip(keys, row)) for row in reader]


def test_csv_rows_add_up_to_the_national_total(client, budget):
    """Header, 13 P/T rows and a total row; money to the cent; every column sums to the total."""
    response = client.get("/offers/budget-2013/fiscal.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="budget-2013-fiscal-effect.csv"'
    header = next(csv.reader(io.StringIO(response.content.decode())))
    # Words, not keys; the last: what each row's figures rest on.
    assert header == ["Code", "Province or territory", "Trainees", "Federal cost", "Provincial cost", "Employer cost",
                      "LMA diverted", "LMDA redirected", "P/T new money", "LMA allocation", "LMA remaining",
                      "P/Ts must find", "Employer shortfall", "P/T liability", "Basis"]
    rows = read_csv(response)
    assert [row["code"] for row in rows] == [code for code, *_rest in PTS] + ["total"]
    total = rows[-1]
    assert total["trainees"] == "60000"
    assert total["provinces_need"] == "600000000.00"
    for line in LINE_NAMES:
        parts = [Decimal(row[line]) for row in rows[:-1]]
        assert sum(parts) == Decimal(total[line]), line
        if line != "trainees":
            assert all(len(row[line].split(".")[1]) == 2 for row in rows), line


@pytest.mark.parametrize("name", ["=1+1", "\n=3+3", " =3+3", "\u200b=3+3", "@SUM(A1)", "-2+3"])
def test_a_csv_cell_a_spreadsheet_would_read_as_a_formula_is_kept_as_text(client, budget, name):
    from negotiations.models import Jurisdiction

    Jurisdiction.objects.filter(code="ON").update(name_en=name)
    ontario = next(row for row in read_csv(client.get("/offers/budget-2013/fiscal.csv")) if row["code"] == "ON")
    assert ontario["jurisdiction"] == "'" + name


def test_csv_honours_the_scenario(client, december):
    response = client.get("/offers/federal-dec-2013/fiscal.csv?participation=0.5")
    assert response["Content-Disposition"] == (
        'attachment; filename="federal-dec-2013-fiscal-effect-participation-0.5.csv"'
    )
    total = read_csv(response)[-1]
    assert total["employer_shortfall"] == "150000000.00"
    assert total["provincial_liability"] == "150000000.00"
    assert client.get("/offers/federal-dec-2013/fiscal.csv?participation=2").status_code == 400


# --- comparison ----------------------------------------------------------------------------------


def national_changes(page: Node) -> dict[str, list[str]]:
    table = page.find("table", id="compare-national")
    return {row.attrs["data-line"]: [figure_text(cell) for cell in row.find_all("td")]
            for row in table.find("tbody").find_all("tr")}


def figure_text(cell: Node) -> str:
    """A cell's figure, without the mark that says what a difference means for the P/Ts."""
    return " ".join(" ".join(child for child in cell.children if isinstance(child, str)).split())


def readings(page: Node, table_id: str) -> dict[str, tuple[str, str]]:
    """The national row of a comparison table: line -> (the mark's class, its words)."""
    table = page.find("table", id=table_id)
    cells = {}
    for cell in table.find_all("td"):
        if "data-line" in cell.attrs and cell.attrs["data-line"] not in cells:
            cells[cell.attrs["data-line"]] = (cell.attrs.get("data-reading", ""), cell.text())
    return cells


def test_compare_two_offers_nationally_and_by_jurisdiction(client, december):
    response = client.get("/compare/?a=budget-2013&b=federal-dec-2013")
    assert response.status_code == 200
    page = page_of(response)
    changes = national_changes(page)
    assert changes["federal_cost"] == ["$300,000,000", "$600,000,000", "+$300,000,000"]
    assert changes["provincial_cost"] == ["$300,000,000", "$0", "\u2212$300,000,000"]
    assert changes["provinces_need"] == ["$600,000,000", "$300,000,000", "\u2212$300,000,000"]
    assert changes["trainees"] == ["60,000", "60,000", "0"]
    rows = table_rows(page, "compare-by-jurisdiction")
    assert [row[0] for row in rows] == [name for _code, name, _kind, _population in PTS]
    assert len(table_rows(page, "compare-by-jurisdiction", "tfoot")) == 1
    assert len(page.find_all("details", **{"class": "compare-jurisdiction"})) == 13


def test_compare_shows_the_year_asked_each_time_it_is_asked(client, budget, phased):
    # The year was left out of the page's cache key: the first year asked was served for every other.
    trainees = {}
    for year in ("2014-15", "2017-18", "2014-15", ""):
        page = page_of(client.get(f"/compare/?a=budget-2013&b=phased&fiscal_year={year}"))
        trainees.setdefault(year, set()).add(national_changes(page)["trainees"][1])
    assert trainees == {"2014-15": {"9,000"}, "2017-18": {"60,000"}, "": {"60,000"}}


def test_compare_says_when_a_and_b_are_the_same_and_shows_no_year_without_a_phase_in(client, budget):
    page = page_of(client.get("/compare/?a=budget-2013&b=budget-2013"))
    assert "A and B are the same" in page.find("p", **{"class": "notice"}).text()
    assert page.find_all("select", name="fiscal_year") == []  # neither phases in
    assert "A and B are the same" not in client.get("/compare/?a=status-quo&b=budget-2013").content.decode()


def test_compare_with_the_status_quo(client, budget):
    page = page_of(client.get("/compare/?a=status-quo&b=budget-2013"))
    changes = national_changes(page)
    assert changes["lma_remaining"] == ["$500,000,000", "$200,000,000", "\u2212$300,000,000"]
    assert changes["trainees"] == ["0", "60,000", "+60,000"]
    options = [option.attrs["value"] for option in page.find("select", name="a").find_all("option")]
    assert options == ["status-quo", "budget-2013"]
    assert "Status quo (the LMA as it is, no grant)" in page.find("select", name="a").text()


def test_compare_colours_each_difference_by_what_it_means_for_the_provinces_with_a_legend(client, budget):
    # Issue 16.9: not by sign. Budget 2013 against the status quo: the LMA remaining falls (worse for the
    # P/Ts), what they must find rises (worse), Ottawa puts in more (better); trainees mean neither.
    page = page_of(client.get("/compare/?a=status-quo&b=budget-2013"))
    national = page.find("table", id="compare-national")
    marks = {row.attrs["data-line"]: row.find_all("td")[-1] for row in national.find("tbody").find_all("tr")}
    assert marks["lma_remaining"].attrs["class"] == "num diff-worse"
    assert marks["provinces_need"].attrs["class"] == "num diff-worse"
    assert marks["federal_cost"].attrs["class"] == "num diff-better"
    assert marks["trainees"].attrs["class"] == "num"
    # Not colour alone: a mark, and words for screen readers.
    assert "✗" in marks["lma_remaining"].text()
    assert "worse for the provinces and territories" in marks["lma_remaining"].text()
    assert "better for the provinces and territories" in marks["federal_cost"].text()
    assert "for the provinces and territories" not in marks["trainees"].text()
    by_pt = readings(page, "compare-by-jurisdiction")
    assert by_pt["lma_remaining"][0] == "worse" and by_pt["federal_cost"][0] == "better"
    legend = page.find("p", id="diff-legend").text()
    assert "better for them" in legend and "worse for them" in legend


def test_a_fall_in_what_the_provinces_must_find_reads_as_better(client, december):
    page = page_of(client.get("/compare/?a=budget-2013&b=federal-dec-2013"))
    national = page.find("table", id="compare-national")
    marks = {row.attrs["data-line"]: row.find_all("td")[-1] for row in national.find("tbody").find_all("tr")}
    assert figure_text(marks["provinces_need"]) == "\u2212$300,000,000"
    assert marks["provinces_need"].attrs["class"] == "num diff-better"
    assert marks["provincial_cost"].attrs["class"] == "num diff-better"


def test_compare_defaults_to_an_offer_and_the_one_it_answers(client, december):
    page = page_of(client.get("/compare/"))
    assert "selected" in page.find("select", name="a").find("option", value="budget-2013").attrs
    assert "selected" in page.find("select", name="b").find("option", value="federal-dec-2013").attrs
    assert national_changes(page)["federal_cost"][2] == "+$300,000,000"
    only_b = page_of(client.get("/compare/?b=federal-dec-2013"))
    assert "selected" in only_b.find("select", name="a").find("option", value="budget-2013").attrs


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_compare_unknown_offer_gives_a_message(client, budget, htmx):
    response = client.get("/compare/?a=budget-2013&b=nope", **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    error = page_of(response).find("article", id="compare-error").text()
    assert "Offer B" in error and "nope" in error


def test_compare_through_htmx_returns_only_the_results(client, december):
    response = client.get("/compare/?a=federal-dec-2013&b=budget-2013", **HTMX)
    html = response.content.decode()
    assert "<html" not in html and "compare-form" not in html
    assert national_changes(Page(html).root)["federal_cost"][2] == "\u2212$300,000,000"


# --- query counts --------------------------------------------------------------------------------


def other_offers(count: int) -> None:
    """Offers with every kind of row their terms have, so that a missing prefetch would show."""
    on = JurisdictionFactory(code="ON")
    for _ in range(count):
        offer = OfferFactory(tabled_by=[on])
        JurisdictionTreatment.objects.create(offer=offer, jurisdiction=on, treatment="opts_out_compensated")
        PhaseInStep.objects.create(offer=offer, fiscal_year="2014-15", fraction=Decimal("0.5"))


PAGES = [
    "/offers/federal-dec-2013/fiscal/",
    "/offers/federal-dec-2013/fiscal/?participation=0.5",
    "/offers/federal-dec-2013/fiscal.csv",
    "/offers/federal-dec-2013/fiscal/explain?line=provinces_need&code=QC",
    "/compare/?a=budget-2013&b=federal-dec-2013",
    "/compare/?a=status-quo&b=federal-dec-2013",
]


@pytest.mark.parametrize("url", PAGES)
def test_query_count_does_not_grow_with_the_data(client, december, url):
    """The same number of queries (at most 12, reference data not cached) with 3 or 30 other offers."""
    counts = []
    for extra in (3, 27):
        other_offers(extra)
        selectors.forget_reference_data()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 12, counts


def test_summary_region_for_the_offer_page_shows_the_national_figures(client, budget):
    response = client.get(f"/offers/{budget.slug}/fiscal/?summary=1")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="fiscal-summary"' in html
    assert "60,000" in html and "$600,000,000" in html


def test_the_explanation_writes_the_years_as_the_page_does(client, phased):
    french = page_of(client.get("/fr/offers/phased/fiscal/explain?line=trainees&years=all", **HTMX)).text()
    assert "2014-2015" in french and "2014-15" not in french
    one_year = page_of(client.get("/fr/offers/phased/fiscal/explain?line=trainees&fiscal_year=2015-16", **HTMX)).text()
    assert "2015-2016" in one_year and "2015-16" not in one_year
