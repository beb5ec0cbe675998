"""Every page and API endpoint costs the same number of queries at two data sizes, and at most MAX_QUERIES;
the feeds, the calendar and the briefings too, each within its own bound (FEEDS).

The Canada Job Grant data set plus one synthetic copy of the record (scale 1), then plus nine more
(scale 10): a page whose query count grows between the two reads a row at a time somewhere.
The data is built and every URL measured once for the module, inside a transaction that is rolled
back at the end, so the rest of the suite never sees it.

Other modules keep the count tests that need their own data next to it (the admin, the offer, record,
fiscal, timeline and stance pages, search, the API's lists at two sizes).
"""

import contextlib
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from grants.selectors import forget_reference_data
from negotiations.models import Jurisdiction
from tests.dataset import load_cjg
from tests.offer_world import offer_post
from tests.shared import HTMX

# The marker also makes pytest-django set up the test database, which the module fixture uses.
pytestmark = pytest.mark.django_db

MAX_QUERIES = 12
SMALL, LARGE = 1, 10

# (name, method, path, extra request headers, as the editor)
PAGES = [
    ("home", "get", "/", {}, False),
    ("jurisdictions", "get", "/jurisdictions/", {}, False),
    ("timeline", "get", "/jurisdictions/ON/", {}, False),
    ("timeline statements", "get", "/jurisdictions/ON/?kind=statement", {}, False),
    ("timeline filtered", "get", "/jurisdictions/ON/?negotiation=canada-job-grant&date_from=2013-06-01"
     "&date_to=2014-02-28&person=brad-duguid", {}, False),
    ("timeline htmx", "get", "/jurisdictions/ON/?kind=statement", HTMX, False),
    ("timeline load more", "get", "/jurisdictions/ON/?offset=20",
     {**HTMX, "HTTP_HX_TARGET": "load-more"}, False),
    ("stance matrix", "get", "/negotiations/canada-job-grant/stances", {}, False),
    ("stance cell", "get", "/negotiations/canada-job-grant/stances/ON/2013-11", {}, False),
    ("stance cell htmx", "get", "/negotiations/canada-job-grant/stances/ON/2013-11", HTMX, False),
    ("offers", "get", "/offers/", {}, False),
    ("offer", "get", "/offers/budget-2013/", {}, False),
    ("fiscal", "get", "/offers/budget-2013/fiscal/", {}, False),
    ("fiscal csv", "get", "/offers/budget-2013/fiscal.csv", {}, False),
    ("fiscal explain", "get", "/offers/budget-2013/fiscal/explain?line=trainees&code=ON", {}, False),
    ("compare", "get", "/compare/?a=budget-2013&b=federal-dec-2013", {}, False),
    ("meetings", "get", "/meetings/", {}, False),
    ("meeting", "get", "/meetings/fpt-labour-ministers-2013-11-08/", {}, False),
    ("people", "get", "/people/", {}, False),
    ("person", "get", "/people/jason-kenney/", {}, False),
    ("sources", "get", "/sources/", {}, False),
    ("source", "get", "/sources/cp-2014-01-29-pt-counter-proposal/", {}, False),
    ("statements", "get", "/statements/", {}, False),
    ("statements filtered", "get", "/statements/?jurisdiction=ON", {}, False),
    ("search", "get", "/search/?q=grant", {}, False),
    ("offer form", "get", "/offers/new", {}, True),
    ("offer form from an offer", "get", "/offers/new?from=budget-2013", {}, True),
    ("offer edit form", "get", "/offers/budget-2013/edit", {}, True),
    ("statement form", "get", "/statements/new", {}, True),
    ("position form", "get", "/positions/new", {}, True),
    ("preview", "post", "/grants/preview", HTMX, True),
    ("api schema", "get", "/api/openapi.json", {}, False),
    ("api docs", "get", "/api/docs", {}, False),
    ("api jurisdictions", "get", "/api/jurisdictions", {}, False),
    ("api offers", "get", "/api/offers", {}, False),
    ("api offer", "get", "/api/offers/budget-2013", {}, False),
    ("api fiscal-effect", "get", "/api/offers/budget-2013/fiscal-effect", {}, False),
    ("api compare", "get", "/api/offers/budget-2013/compare/federal-dec-2013", {}, False),
    ("api timeline", "get", "/api/jurisdictions/ON/timeline", {}, False),
    ("api people", "get", "/api/people", {}, False),
    ("api meetings", "get", "/api/meetings", {}, False),
    ("api statements", "get", "/api/statements", {}, False),
    ("api statements filtered", "get", "/api/statements?jurisdiction=ON&negotiation=canada-job-grant", {}, False),
    ("api positions", "get", "/api/positions", {}, False),
    # Where the deal is (issue 17)
    ("negotiation concessions", "get", "/negotiations/canada-job-grant/", {}, False),
    ("negotiation distance", "get", "/negotiations/canada-job-grant/distance", {}, False),
    ("stance matrix with an offer", "get", "/negotiations/canada-job-grant/stances?offer=federal-dec-2013", {}, False),
    ("jurisdiction offers", "get", "/jurisdictions/ON/offers?negotiation=canada-job-grant", {}, False),
    ("scenarios", "get", "/scenarios/", {}, False),
    ("compare by year", "get", "/compare/?a=federal-nov-2013&b=pt-counter-jan-2014&fiscal_year=2015-16", {}, False),
    ("api acceptance", "get", "/api/offers/federal-dec-2013/acceptance", {}, False),
    ("api concessions", "get", "/api/negotiations/canada-job-grant/concessions", {}, False),
]


def _measure(anonymous: Client, editor: Client) -> dict[str, tuple[int, int]]:
    """name -> (status, queries) for every page, each from the same cold reference-data cache."""
    results = {}
    for name, method, path, headers, as_editor in PAGES:
        client = editor if as_editor else anonymous
        data = offer_post(responds_to="budget-2013") if method == "post" else None
        # A first request warms whatever the process keeps (content types, templates); the
        # reference data is then dropped so that both sizes measure it read afresh.
        getattr(client, method)(path, data, **headers)
        forget_reference_data()
        with CaptureQueriesContext(connection) as queries:
            response = getattr(client, method)(path, data, **headers)
        results[name] = (response.status_code, len(queries))
    return results


def _generate(copies: int) -> None:
    # The command draws a progress bar on stderr.
    with contextlib.redirect_stderr(io.StringIO()):
        call_command("generate_scale_data", scale=copies, stdout=io.StringIO())


@pytest.fixture(scope="module")
def measured(django_db_setup, django_db_blocker):
    """{"small": {name: (status, queries)}, "large": {...}}, the data rolled back afterwards."""
    with django_db_blocker.unblock(), transaction.atomic():
        assert Jurisdiction.objects.count() == 0, "expected an empty test database"
        forget_reference_data()
        call_command("load_cjg", stdout=io.StringIO())
        editor_user = get_user_model().objects.create_user(username="query-count-editor")
        editor_user.groups.add(Group.objects.get(name="Editor"))
        anonymous, editor = Client(), Client()
        editor.force_login(editor_user)
        _generate(SMALL)
        small = _measure(anonymous, editor)
        _generate(LARGE - SMALL)
        large = _measure(anonymous, editor)
        transaction.set_rollback(True)
    forget_reference_data()
    return {"small": small, "large": large}


@pytest.mark.parametrize("name", [page[0] for page in PAGES])
def test_query_count_is_flat_and_small(measured, name):
    small_status, small_queries = measured["small"][name]
    large_status, large_queries = measured["large"][name]
    assert small_status == large_status == 200
    assert small_queries == large_queries, (
        f"{name}: {small_queries} queries at scale {SMALL}, {large_queries} at scale {LARGE}"
    )
    assert large_queries <= MAX_QUERIES, f"{name}: {large_queries} queries (at most {MAX_QUERIES})"


# --- The feeds, the calendar and the briefings --------------------------------------------------------

# (address, the most queries it may take)
FEEDS = [
    ("/negotiations/{slug}/feed", 8),
    ("/jurisdictions/ON/feed", 8),
    ("/people/brad-duguid/feed", 3),
    ("/search/feed?q=grant", 10),  # the search reads each kind of record (issue 16.6)
    ("/negotiations/{slug}/calendar.ics", 4),
    ("/negotiations/{slug}/briefing?since=2013-01-01", 24),
    ("/jurisdictions/ON/briefing?since=2013-01-01", 24),
    ("/negotiations/{slug}/briefing.docx", 24),
]


def _feed_counts(client, slug: str) -> dict[str, int]:
    found = {}
    for address, _most in FEEDS:
        address = address.format(slug=slug)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(address)
        assert response.status_code == 200, address
        found[address.replace(slug, "{slug}")] = len(queries)
    return found


def test_feed_calendar_and_briefing_query_counts_do_not_grow_with_the_data(client, settings):
    settings.RECORD_CACHE = False  # measure the work, not the cache
    load_cjg()
    small = _feed_counts(client, "canada-job-grant")
    call_command("generate_scale_data", scale=4, stderr=io.StringIO(), stdout=io.StringIO())
    large = _feed_counts(client, "canada-job-grant")
    assert large == small
    for (_address, most), (measured, count) in zip(FEEDS, small.items()):
        assert count <= most, (measured, count)
