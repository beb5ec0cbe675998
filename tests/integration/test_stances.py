"""The stance matrix and one cell's evidence: the selectors and their pages."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from negotiations.models import Jurisdiction, Stance
from negotiations.stances import parse_month, stance_cell_evidence, stance_matrix
from tests.factories import (
    PT_CODES,
    JurisdictionFactory,
    MeetingFactory,
    NegotiationFactory,
    OfferFactory,
    PositionFactory,
    StatementFactory,
)

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def governments():
    """The federal government and the 13 P/Ts, created out of display order."""
    pts = {code: JurisdictionFactory(code=code, order=order, name_en=f"Name {code}")
           for order, code in reversed(list(enumerate(PT_CODES, start=1)))}
    canada = JurisdictionFactory(code="CA", kind=Jurisdiction.Kind.FEDERAL, order=0, name_en="Government of Canada")
    return {"CA": canada, **pts}


def cells_of(matrix, code):
    row = next(row for row in matrix.rows if row.jurisdiction.code == code)
    return {f"{cell.month:%Y-%m}": cell for cell in row.cells}


# --- The selectors --------------------------------------------------------------------------------


def test_rows_are_ottawa_then_the_provinces_and_territories_in_order(governments, empty_cjg):
    matrix = stance_matrix(negotiation=empty_cjg)

    assert [row.jurisdiction.code for row in matrix.rows] == ["CA", *PT_CODES]


def test_columns_span_the_first_to_the_last_dated_record(governments, empty_cjg):
    OfferFactory(negotiation=empty_cjg, tabled_on=D(2013, 3, 21), tabled_by=[governments["CA"]])
    PositionFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], as_of=D(2013, 7, 25))
    StatementFactory(negotiation=empty_cjg, jurisdiction=governments["QC"], date=D(2014, 1, 29))
    MeetingFactory(negotiation=NegotiationFactory(slug="other"), date=D(2015, 6, 1))  # another negotiation

    matrix = stance_matrix(negotiation=empty_cjg)

    assert matrix.months[0] == D(2013, 3, 1) and matrix.months[-1] == D(2014, 1, 1)
    assert len(matrix.months) == 11
    assert all(len(row.cells) == 11 for row in matrix.rows)


def test_a_negotiation_with_nothing_dated_has_no_columns(governments, empty_cjg):
    assert stance_matrix(negotiation=empty_cjg).months == []


def test_each_cell_holds_the_stance_in_force_at_the_months_end(governments, empty_cjg):
    on = governments["ON"]
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 11, 8), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 11, 30), stance=Stance.CONDITIONAL)
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2014, 1, 1), stance=Stance.SUPPORTS)
    MeetingFactory(negotiation=empty_cjg, date=D(2013, 6, 10))

    cells = cells_of(stance_matrix(negotiation=empty_cjg), "ON")

    assert (cells["2013-06"].position, cells["2013-06"].stance, cells["2013-06"].short_label) == (None, "unknown", "–")
    assert (cells["2013-07"].stance, cells["2013-07"].recorded, str(cells["2013-07"].short_label)) == (
        "opposes", True, "Opp.")
    assert (cells["2013-08"].stance, cells["2013-08"].recorded) == ("opposes", False)
    assert (cells["2013-11"].stance, cells["2013-11"].recorded) == ("conditional", True)
    assert (cells["2013-12"].stance, cells["2013-12"].recorded) == ("conditional", False)
    assert (cells["2014-01"].stance, cells["2014-01"].recorded) == ("supports", True)
    assert all(cell.position is None for cell in cells_of(stance_matrix(negotiation=empty_cjg), "QC").values())


def test_parse_month():
    assert parse_month("2013-11") == D(2013, 11, 1)
    for bad in ("2013-13", "2013-00", "2013-1", "13-11", "2013-11-01", "november", "0000-01", ""):
        with pytest.raises(ValueError):
            parse_month(bad)


def test_evidence_of_a_month_with_positions(governments, empty_cjg):
    on = governments["ON"]
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    early = PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 11, 8), stance=Stance.OPPOSES)
    late = PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 11, 28), stance=Stance.CONDITIONAL)
    quoted = StatementFactory(negotiation=empty_cjg, jurisdiction=on, date=D(2013, 11, 8))
    early.evidence.add(quoted)
    other = StatementFactory(negotiation=empty_cjg, jurisdiction=on, date=D(2013, 11, 20))
    StatementFactory(negotiation=empty_cjg, jurisdiction=on, date=D(2013, 12, 1))
    StatementFactory(negotiation=empty_cjg, jurisdiction=governments["QC"], date=D(2013, 11, 20))

    evidence = stance_cell_evidence(negotiation=empty_cjg, jurisdiction=on, month=D(2013, 11, 1))

    assert evidence.positions == [late, early]
    assert list(evidence.positions[1].evidence.all()) == [quoted]
    assert evidence.in_force is None
    assert evidence.statements == [other]  # the quoted one is shown as evidence already
    assert evidence.stance == "conditional"


def test_evidence_of_a_month_without_positions_is_the_position_in_force(governments, empty_cjg):
    on = governments["ON"]
    in_force = PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 6, 1), stance=Stance.UNKNOWN)
    PositionFactory(negotiation=empty_cjg, jurisdiction=on, as_of=D(2013, 12, 1), stance=Stance.SUPPORTS)
    said = StatementFactory(negotiation=empty_cjg, jurisdiction=on, date=D(2013, 9, 3))
    in_force.evidence.add(StatementFactory(negotiation=empty_cjg, jurisdiction=on, date=D(2013, 7, 25)))

    evidence = stance_cell_evidence(negotiation=empty_cjg, jurisdiction=on, month=D(2013, 9, 1))

    assert evidence.positions == []
    assert evidence.in_force == in_force
    assert len(evidence.in_force.evidence.all()) == 1
    assert evidence.statements == [said]
    assert evidence.stance == "opposes"


def test_evidence_before_any_position(governments, empty_cjg):
    evidence = stance_cell_evidence(negotiation=empty_cjg, jurisdiction=governments["ON"], month=D(2013, 1, 1))

    assert (evidence.positions, evidence.in_force, evidence.statements, evidence.stance) == ([], None, [], "unknown")


def fill(governments, negotiation, count, *, start=D(2013, 3, 1)):
    """`count` positions a week apart for every government, each with a statement in evidence."""
    for jurisdiction in governments.values():
        for n in range(count):
            day = start + datetime.timedelta(days=7 * n)
            position = PositionFactory(negotiation=negotiation, jurisdiction=jurisdiction, as_of=day,
                                       stance=[Stance.OPPOSES, Stance.CONDITIONAL][n % 2])
            position.evidence.add(StatementFactory(negotiation=negotiation, jurisdiction=jurisdiction, date=day))


def count_queries(function):
    with CaptureQueriesContext(connection) as queries:
        function()
    return len(queries)


def test_selector_query_counts_do_not_grow_with_the_data(governments, empty_cjg):
    def read():
        matrix = stance_matrix(negotiation=empty_cjg)
        [cell.stance_label for row in matrix.rows for cell in row.cells]
        evidence = stance_cell_evidence(negotiation=empty_cjg, jurisdiction=governments["ON"], month=D(2013, 3, 1))
        for position in evidence.positions:
            [(s.speaker.name, s.source.title) for s in position.evidence.all()]
        [(s.speaker.name, s.source.title) for s in evidence.statements]

    fill(governments, empty_cjg, 3)
    small = count_queries(read)
    fill(governments, empty_cjg, 30, start=D(2013, 3, 2))
    large = count_queries(read)

    assert small == large == 7  # the evidence with its supporting passages (issue 14): one more


# --- The pages ------------------------------------------------------------------------------------

MATRIX_URL = "/negotiations/canada-job-grant/stances"


def test_matrix_page_has_linked_rows_months_and_cells(client, governments, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    MeetingFactory(negotiation=empty_cjg, date=D(2013, 9, 1))

    response = client.get(MATRIX_URL)
    html = response.content.decode()

    assert response.status_code == 200
    assert '<a href="/jurisdictions/ON/"' in html and '<a href="/jurisdictions/CA/"' in html
    assert ">July 2013</time>" in html and ">Sept. 2013</time>" in html
    cell = "/negotiations/canada-job-grant/stances/ON/2013-07"
    assert f'<td><a href="{cell}" class="stance-opposes recorded"' in html
    assert f'hx-get="{cell}" hx-target="#evidence" hx-push-url="true"' in html
    assert 'title="Name ON, July 2013: opposes (position recorded this month)"' in html
    assert 'aria-label="Opp.: Name ON, August 2013: opposes"' in html  # the visible text first
    assert 'aria-label="Name QC, July 2013: no position recorded"' in html
    assert ">Opp.</a>" in html
    assert "Legend" in html and 'id="evidence"' in html


def test_unknown_negotiation_is_404(client, governments):
    assert client.get("/negotiations/nothing/stances").status_code == 404
    assert client.get("/negotiations/nothing/stances/ON/2013-07").status_code == 404


def test_cell_page_without_htmx_is_the_whole_matrix_with_the_panel_filled(client, governments, empty_cjg):
    position = PositionFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], as_of=D(2013, 7, 25),
                               summary="Opposes the grant as designed.")
    position.evidence.add(StatementFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], quote="Day 1."))

    response = client.get(f"{MATRIX_URL}/on/2013-07")
    html = response.content.decode()

    assert response.status_code == 200
    assert "<html" in html and 'class="matrix"' in html
    assert "Position recorded this month" in html and "Opposes the grant as designed." in html
    assert "Day 1." in html


def test_cell_request_from_htmx_gets_the_panel_only(client, governments, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], as_of=D(2013, 7, 25),
                    summary="Opposes the grant as designed.")

    response = client.get(f"{MATRIX_URL}/ON/2013-09", headers={"HX-Request": "true", "HX-Target": "evidence"})
    html = response.content.decode()

    assert response.status_code == 200
    assert "<html" not in html and 'class="matrix"' not in html
    assert html.lstrip().startswith('<article class="evidence-panel">')
    assert "Position in force" in html and "Opposes the grant as designed." in html


def test_cell_with_a_bad_month_is_a_clear_400(client, governments, empty_cjg):
    for month in ("2013-13", "july", "2013-7"):
        response = client.get(f"{MATRIX_URL}/ON/{month}")
        assert response.status_code == 400
        assert "is not a month. Write it as YYYY-MM" in response.content.decode()


def test_cell_with_an_unknown_jurisdiction_is_404(client, governments, empty_cjg):
    assert client.get(f"{MATRIX_URL}/ZZ/2013-07").status_code == 404


def test_evidence_quotes_are_escaped(client, governments, empty_cjg):
    StatementFactory(negotiation=empty_cjg, jurisdiction=governments["ON"], date=D(2013, 7, 2), quote="<script>x()</script>")

    html = client.get(f"{MATRIX_URL}/ON/2013-07").content.decode()

    assert "<script>x()" not in html and "&lt;script&gt;x()&lt;/script&gt;" in html


def page_queries(client, path, **headers):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path, headers=headers).status_code == 200
    return len(queries)


def test_page_query_counts_are_flat_and_small(client, governments, empty_cjg):
    cell = f"{MATRIX_URL}/ON/2013-03"
    htmx = {"HX-Request": "true", "HX-Target": "evidence"}

    def measure():
        return [page_queries(client, MATRIX_URL), page_queries(client, cell), page_queries(client, cell, **htmx)]

    fill(governments, empty_cjg, 3)
    small = measure()
    fill(governments, empty_cjg, 30, start=D(2013, 3, 2))
    large = measure()

    assert small == large
    assert max(large) <= 12
