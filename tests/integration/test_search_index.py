"""On PostgreSQL, full-text search reads the GIN expression indexes (negotiations.models.search_index).

PostgreSQL uses an expression index only for a query whose expression is the same, so a change to
the searched fields in negotiations.search without the same change to the index silently brings
back a scan of the whole table. The plan is asked for with every other way of reading a table made
costly (sequential scans, plain index scans, nested loops over an index): it still takes one of them
when the expression index does not fit.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from negotiations.search import search_record
from tests.factories import MeetingFactory, OfferFactory, StatementFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="full-text search and its indexes are PostgreSQL's"),
]

INDEXES = {
    "negotiations_statement": "statement_search",
    "negotiations_meeting": "meeting_search",
    "negotiations_offer": "offer_search",
}

DISCOURAGED = ("enable_seqscan", "enable_indexscan", "enable_nestloop")


def plan(sql: str) -> str:
    with connection.cursor() as cursor:
        for setting in DISCOURAGED:
            cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute("EXPLAIN " + sql)
        lines = [row[0] for row in cursor.fetchall()]
        for setting in DISCOURAGED:
            cursor.execute(f"RESET {setting}")
    return "\n".join(lines)


def test_each_searched_table_is_read_through_its_index():
    StatementFactory(quote="The grant would cost the provinces.", context="in Toronto")
    MeetingFactory(title="Ministers discuss the grant", outcome="No agreement.", location="Toronto")
    OfferFactory(title="Grant offer", summary="A grant.", assumptions="")

    with CaptureQueriesContext(connection) as captured:
        search_record(query="grant")

    searched = {}
    for query in captured.captured_queries:
        sql = query["sql"]
        table = next((t for t in INDEXES if sql.startswith(f'SELECT "{t}"."id"') and "to_tsvector" in sql), None)
        if table:
            searched[table] = plan(sql)
    assert set(searched) == set(INDEXES)
    for table, index in INDEXES.items():
        assert index in searched[table], f"{table} is searched without {index}:\n{searched[table]}"
