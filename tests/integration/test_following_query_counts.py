"""The feeds, the calendar and the briefings cost the same number of queries whatever the amount of data."""

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.dataset import load_cjg

pytestmark = pytest.mark.django_db

ADDRESSES = [
    ("/negotiations/{slug}/feed", 8),
    ("/jurisdictions/ON/feed", 8),
    ("/people/brad-duguid/feed", 3),
    ("/search/feed?q=grant", 10),  # the search reads each kind of record (issue 16.6)
    ("/negotiations/{slug}/calendar.ics", 4),
    ("/negotiations/{slug}/briefing?since=2013-01-01", 24),
    ("/jurisdictions/ON/briefing?since=2013-01-01", 24),
    ("/negotiations/{slug}/briefing.docx", 24),
]


def counts(client, slug: str) -> dict[str, int]:
    found = {}
    for address, _most in ADDRESSES:
        address = address.format(slug=slug)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(address)
        assert response.status_code == 200, address
        found[address.replace(slug, "{slug}")] = len(queries)
    return found


def test_query_counts_do_not_grow_with_the_data(client, settings):
    settings.RECORD_CACHE = False  # measure the work, not the cache
    load_cjg()
    small = counts(client, "canada-job-grant")
    call_command("generate_scale_data", scale=4, stderr=io.StringIO(), stdout=io.StringIO())
    large = counts(client, "canada-job-grant")
    assert large == small
    for (_address, most), (measured, count) in zip(ADDRESSES, small.items()):
        assert count <= most, (measured, count)
