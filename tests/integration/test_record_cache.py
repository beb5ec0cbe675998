"""The record cache of rendered read pages (negotiations.record_cache, negotiations.cached_pages).

A read page is rendered once per record version and kept in the process; a hit costs one query (the
version). What is checked here is what a reader sees:

* a repeated request is answered from the cache (one query) with the same page;
* every way the record changes shows on the next request: a model save, the admin's change form, and
  a write by another process (which only moves the version: this process's cache is not emptied);
* what a transaction showed before it rolled back is never served afterwards;
* the cached part varies with the permissions it shows and with htmx; the frame (the reader's name)
  does not come from the cache;
* RECORD_CACHE=False renders every request afresh; the fiscal-effect API is cached the same way;
* the scale generator's bulk writes move the version too, and so does another process's edit of
  the reference data the fiscal figures use;
* the live preview, which keeps its parser and reference data and reads the version at most once
  every ``FRESH_FOR`` seconds, costs no query once warm, shows this process's writes at once and
  another process's once that time has passed.

An ordinary test runs inside a transaction that never commits, and the cache steps aside as soon as
such a transaction has written; so these tests commit for real (``transaction=True``). The flush
after a transactional test empties what the migrations created: each test puts the groups back with
the migration's own function, and the version row comes back with the first write. The tests never
depend on the version's value, only on its moving.
"""

import contextlib
import io
import json
import re
from importlib import import_module

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import F
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from grants import preview as preview_view
from grants.selectors import forget_reference_data, reference_data
from negotiations import record_cache
from negotiations.models import Jurisdiction, Negotiation, Position
from tests.admin_posts import empty_inlines
from tests.offer_world import offer_post
from tests.shared import HTMX

pytestmark = pytest.mark.django_db(transaction=True)

HOME = "/"
TIMELINE = "/jurisdictions/ON/"
STANCES = "/negotiations/canada-job-grant/stances"
FISCAL = "/offers/budget-2013/fiscal/"
FISCAL_API = "/api/offers/budget-2013/fiscal-effect"

TIMELINE_SWAP = {**HTMX, "HTTP_HX_TARGET": "timeline"}  # htmx asking for the timeline region

CSRF_TOKEN = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+')
# Tables of the record: a request that reads none of them was answered from the cache.
RECORD_TABLE = re.compile(r'\b"?(negotiations|grants)_(?!recordversion\b)\w+', re.IGNORECASE)


@pytest.fixture(scope="module")
def migration_apps(django_db_setup, django_db_blocker):
    """The models as the migrations leave them, for the groups migration's own function."""
    with django_db_blocker.unblock():
        return MigrationLoader(connection).project_state().apps


@pytest.fixture(autouse=True)
def committed_cjg(migration_apps):
    """The groups (Viewer, Editor, Admin) and the Canada Job Grant data set, committed; the reference
    data read afresh."""
    import_module("negotiations.migrations.0002_groups").create_groups(migration_apps, None)
    forget_reference_data()
    call_command("load_cjg", stdout=io.StringIO())
    yield
    forget_reference_data()


@pytest.fixture
def reader():
    return Client()


def fetch(client: Client, path: str, **headers) -> tuple[str, int]:
    """The page's text (with the per-request CSRF mask taken out) and the number of queries it cost."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    assert response.status_code == 200, (path, response.status_code)
    return CSRF_TOKEN.sub(r"\1…", response.content.decode()), len(queries)


def record_queries(client: Client, path: str, **headers) -> tuple[str, list[str]]:
    """The page's text and the queries it made of the record's tables (none when it came from the cache)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode(), [q["sql"] for q in queries if RECORD_TABLE.search(q["sql"])]


def main(html: str) -> str:
    """The page's own part (what the record cache keeps), with the links back to this address that the
    per-request parts around it carry (log in, follow) taken out."""
    return re.sub(r"next=[^\"&]*", "next=…", html[html.index("<main"):html.index("</main>")])


def on_position() -> Position:
    """Ontario's latest position on the Canada Job Grant: the current stance its timeline shows."""
    return Position.objects.filter(jurisdiction__code="ON", negotiation__slug="canada-job-grant").latest("as_of")


def login(username: str, *, group: str | None = None, superuser: bool = False) -> Client:
    user = get_user_model().objects.create(username=username, is_staff=superuser, is_superuser=superuser)
    if group:
        user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


# 1. A hit is one query and the same page -------------------------------------------------------


@pytest.mark.parametrize("path", [HOME, TIMELINE, STANCES, FISCAL])
def test_a_repeated_request_is_one_query_and_the_same_page(reader, path):
    first, first_queries = fetch(reader, path)
    second, second_queries = fetch(reader, path)

    assert first_queries > 1  # the first request rendered the page
    assert second_queries == 1  # the second only read the version
    assert second == first


def test_a_hit_serves_the_head_with_the_page_without_rendering_it(reader):
    """The head's stylesheet and feed link are part of the cached page: a hit renders none of it."""
    rendered: list[str] = []

    def seen(sender, template, **kwargs):
        rendered.append(template.name or "")

    fetch(reader, TIMELINE)
    template_rendered.connect(seen)
    try:
        page, queries = fetch(reader, TIMELINE)
    finally:
        template_rendered.disconnect(seen)

    head = page[:page.index("</head>")]
    assert queries == 1
    assert re.search(r'<link rel="stylesheet" href="/static/css/timeline\.[^"]*css">', head), head
    assert '<link rel="alternate" type="application/atom+xml" title="Timeline of this jurisdiction" ' \
           'href="/jurisdictions/ON/feed">' in head
    assert "negotiations/_feed_link.html" not in rendered  # the head came from the cache
    assert "base.html" in rendered  # the frame did not


# 2. Every write path shows on the next request --------------------------------------------------


def test_a_saved_jurisdiction_shows_on_the_next_request(reader):
    for path in (HOME, TIMELINE):
        assert "Ontario" in fetch(reader, path)[0]
        assert fetch(reader, path)[1] == 1  # cached

    ontario = Jurisdiction.objects.get(code="ON")
    ontario.name_en = "Province of Ontario (renamed)"
    ontario.save()

    for path in (HOME, TIMELINE):
        assert "Province of Ontario (renamed)" in fetch(reader, path)[0]


def test_a_saved_position_shows_on_the_next_request(reader):
    fetch(reader, TIMELINE)
    assert fetch(reader, TIMELINE)[1] == 1  # cached

    position = on_position()
    position.summary = "Ontario now backs the grant, with conditions."
    position.save()

    assert "Ontario now backs the grant, with conditions." in fetch(reader, TIMELINE)[0]


def test_an_admin_edit_shows_on_the_next_request(reader):
    fetch(reader, TIMELINE)
    assert fetch(reader, TIMELINE)[1] == 1  # cached
    position = on_position()

    response = login("curator", superuser=True).post(
        reverse("admin:negotiations_position_change", args=[position.pk]),
        {
            "negotiation": position.negotiation_id,
            "jurisdiction": position.jurisdiction_id,
            "as_of": position.as_of.isoformat(),
            "date_precision": position.date_precision,
            "stance": position.stance,
            "summary_en": "Edited in the admin: Ontario asks for an opt-out.",
            "conditions_en": position.conditions,
            "seen_version": position.version,
            **empty_inlines(Position),  # its conditions and passages: none added
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]

    assert "Edited in the admin: Ontario asks for an opt-out." in fetch(reader, TIMELINE)[0]


def test_another_process_write_shows_once_the_version_moves(reader):
    """A queryset update sends no signal: this process's cache stays as it was, as it would when the
    write was made by another process. Only the version, read on every request, makes it show."""
    assert "Ontario" in fetch(reader, TIMELINE)[0]

    Jurisdiction.objects.filter(code="ON").update(name_en="Ontario, written elsewhere")

    stale, queries = fetch(reader, TIMELINE)
    assert queries == 1 and "Ontario, written elsewhere" not in stale  # still the cached page

    record_cache._advance("default")  # what the other process's commit does

    assert "Ontario, written elsewhere" in fetch(reader, TIMELINE)[0]


# 3. A rolled-back change is never served ---------------------------------------------------------


def test_a_rolled_back_change_is_not_served_afterwards(reader):
    fetch(reader, TIMELINE)
    assert fetch(reader, TIMELINE)[1] == 1  # cached

    with pytest.raises(RuntimeError), transaction.atomic():
        ontario = Jurisdiction.objects.get(code="ON")
        ontario.name_en = "Ontario (never committed)"
        ontario.save()
        inside, queries = fetch(reader, TIMELINE)
        assert "Ontario (never committed)" in inside  # the transaction sees its own change...
        assert queries > 1  # ...rendered afresh
        raise RuntimeError("roll back")

    after, _ = fetch(reader, TIMELINE)
    assert "Ontario (never committed)" not in after
    assert "Ontario" in after
    assert fetch(reader, TIMELINE)[0] == after


# 4. Permissions and the frame --------------------------------------------------------------------


@pytest.mark.parametrize("editor_first", [True, False], ids=["editor first", "reader first"])
def test_the_new_offer_link_follows_the_permission(reader, editor_first):
    editor = login("editor", group="Editor")
    order = [editor, reader] if editor_first else [reader, editor]

    for _ in range(2):  # the second round comes from the cache
        pages = {client: fetch(client, HOME)[0] for client in order}
        assert "Log a new offer" in pages[editor]
        assert "Log a new offer" not in pages[reader]
    assert fetch(reader, HOME)[1] == 1  # both versions of the page are kept side by side


def test_each_reader_sees_their_own_name_around_cached_content():
    alice, bob = login("alice", group="Viewer"), login("bob", group="Viewer")

    alice_page, alice_reads = record_queries(alice, HOME)
    bob_page, bob_reads = record_queries(bob, HOME)

    assert alice_reads, "the first request renders the page"
    assert bob_reads == [], "the second reader's content comes from the cache"
    assert "Log out alice" in alice_page and "bob" not in alice_page
    assert "Log out bob" in bob_page and "alice" not in bob_page


def test_readers_with_other_permissions_get_their_own_entries():
    """The key holds the reader's whole set of permissions, not a list that each view keeps: a reader
    with a permission that no page names yet still never gets a page rendered for another set."""
    from django.contrib.auth.models import Permission

    viewer = login("viewer", group="Viewer")
    record_queries(viewer, HOME)
    assert record_queries(login("viewer2", group="Viewer"), HOME)[1] == []  # same permissions: shared

    other = get_user_model().objects.create(username="other")
    other.groups.add(Group.objects.get(name="Viewer"))
    other.user_permissions.add(Permission.objects.get(codename="delete_source"))
    client = Client()
    client.force_login(other)
    assert record_queries(client, HOME)[1], "another set of permissions renders its own entry"


def test_a_query_string_the_page_does_not_read_makes_no_new_entry(reader):
    page, _ = fetch(reader, TIMELINE)
    for junk in ("?utm_source=mail", "?x=1&y=2", "?kind=statement&utm=1"):
        html, reads = record_queries(reader, TIMELINE + junk)
        if "kind=" in junk:
            assert reads, "a parameter the page reads is a new entry"
            assert record_queries(reader, TIMELINE + "?kind=statement")[1] == [], "…the same one, other parameters aside"
        else:
            assert reads == [], f"{junk} is served the cached page"
            assert main(html) == main(page)  # the frame around it (the login link's next) is the request's


def test_the_version_moves_inside_the_writing_transaction():
    """A reader who starts after the commit already sees the new version: it committed with the write.
    A rolled-back write takes its version back with it."""
    before = record_cache.current_version()
    with transaction.atomic():
        Jurisdiction.objects.filter(code="ON").get().save()
        inside = record_cache.current_version()
        assert inside == before + 1
        Jurisdiction.objects.filter(code="QC").get().save()  # once per transaction
        assert record_cache.current_version() == inside
    assert record_cache.current_version() == before + 1

    with pytest.raises(RuntimeError), transaction.atomic():
        Jurisdiction.objects.filter(code="ON").get().save()
        raise RuntimeError("roll back")
    assert record_cache.current_version() == before + 1


def test_an_import_under_review_does_not_move_the_version():
    """An article import and its proposals are not the record until committed as statements: an
    editor's review decisions leave every cached page in place."""
    from negotiations.models import ArticleImport

    before = record_cache.current_version()
    with transaction.atomic():
        ArticleImport.objects.create(negotiation=Negotiation.objects.get(slug="canada-job-grant"),
                                     text="An article.", text_hash="0" * 64)
    assert record_cache.current_version() == before


# 5. htmx regions -------------------------------------------------------------------------------


def test_the_htmx_region_and_the_page_are_cached_apart(reader):
    path = TIMELINE + "?kind=statement"

    region, _ = fetch(reader, path, **TIMELINE_SWAP)
    page, _ = fetch(reader, path)
    region_again, region_queries = fetch(reader, path, **TIMELINE_SWAP)
    page_again, page_queries = fetch(reader, path)

    assert "<html" not in region and 'id="timeline"' in region
    assert "<html" in page and 'id="timeline"' in page and "<h1>Ontario</h1>" in page
    assert (region_again, region_queries) == (region, 1)
    assert (page_again, page_queries) == (page, 1)


# 6. Turned off -----------------------------------------------------------------------------------


def test_record_cache_off_renders_every_request(reader, settings):
    settings.RECORD_CACHE = False
    first, first_queries = fetch(reader, TIMELINE)
    second, second_queries = fetch(reader, TIMELINE)

    assert second_queries == first_queries > 1
    assert second == first


# 7. The fiscal-effect API ------------------------------------------------------------------------


def api_get(client: Client, path: str, **params) -> tuple[int, dict, list[str]]:
    """The status, the JSON and the queries (SQL) of one API request."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, params)
    return response.status_code, json.loads(response.content), [q["sql"] for q in queries]


def test_the_fiscal_effect_api_is_cached(reader):
    first_status, first, first_queries = api_get(reader, FISCAL_API)
    second_status, second, second_queries = api_get(reader, FISCAL_API)
    half_status, half, _ = api_get(reader, FISCAL_API, participation="0.5")

    assert first_status == second_status == half_status == 200
    assert len(first_queries) > 1 and len(second_queries) == 1
    assert second == first
    # Another scenario is another entry, not the cached default.
    assert half["assumptions"]["participation"] == "0.5"
    assert half["national"]["employer_shortfall"] != first["national"]["employer_shortfall"]


def test_an_unknown_offer_is_not_cached(reader):
    for _ in range(2):
        status, body, queries = api_get(reader, "/api/offers/no-such-offer/fiscal-effect")
        assert status == 404
        assert "no-such-offer" in body["detail"]
        assert any("negotiations_offer" in sql for sql in queries)  # looked up, not answered from the cache


# 8. The scale generator ------------------------------------------------------------------------


def generate_scale_data(*args: str) -> None:
    with contextlib.redirect_stderr(io.StringIO()):  # its progress bar
        call_command("generate_scale_data", *args, stdout=io.StringIO())


def test_generated_data_shows_on_the_next_request(reader):
    for path in (HOME, TIMELINE):
        fetch(reader, path)
    assert "Synthetic negotiation" not in fetch(reader, TIMELINE)[0]

    generate_scale_data("--scale", "1")
    assert Negotiation.objects.filter(slug__startswith="scale-").exists()

    assert "Synthetic negotiation 1" in fetch(reader, TIMELINE)[0]  # the negotiation filter lists it

    generate_scale_data("--remove")

    assert "Synthetic negotiation" not in fetch(reader, TIMELINE)[0]


def test_the_scale_generator_moves_the_version(reader):
    """Other processes learn of the generated data only from the version: emptying the cache of the
    process that ran the command is not enough."""
    fetch(reader, TIMELINE)
    version = record_cache.current_version()

    generate_scale_data("--scale", "1")

    assert record_cache.current_version() != version


# Reference data kept under the record's version ---------------------------------------------------


def ontario(effect: dict) -> dict:
    return next(lines for lines in effect["by_jurisdiction"] if lines["code"] == "ON")


def test_populations_written_elsewhere_are_used_once_the_version_moves(reader):
    """The engine's reference data (populations, envelopes) is kept per process under the record's
    version. A figure computed after another process's edit must not use the old copy: it would be
    kept under the new version until the record next changes."""
    before = api_get(reader, FISCAL_API)[1]  # reads the reference data into this process

    Jurisdiction.objects.filter(code="ON").update(population=F("population") * 2)  # another process's edit
    record_cache._advance("default")  # ...and its commit

    after = api_get(reader, FISCAL_API)[1]
    assert ontario(after)["lma_allocation"] != ontario(before)["lma_allocation"]


def test_the_matrix_with_an_offer_chosen_is_not_the_matrix_without(reader):
    """``?offer=`` is part of the matrix's key: the verdicts of the offer chosen, not the page without."""
    plain, _ = fetch(reader, STANCES)
    chosen, _ = fetch(reader, STANCES + "?offer=pt-counter-jan-2014")

    assert "1 of 13 would sign" not in plain
    assert "1 of 13 would sign" in chosen


def test_reference_data_read_in_a_rolled_back_change_is_never_used_after_it():
    """Kept under the record's version: what a transaction read after its own change (which it sees)
    is dropped with that transaction, and the next figure uses the committed populations."""
    def ontario_population() -> int:
        return dict((j.code, j.population) for j in reference_data().jurisdictions)["ON"]

    committed = ontario_population()
    with transaction.atomic():
        ontario = Jurisdiction.objects.get(code="ON")
        ontario.population *= 2
        ontario.save()
        assert ontario_population() == 2 * committed
        transaction.set_rollback(True)

    assert ontario_population() == committed


def test_an_editors_statement_list_is_rendered_for_them_alone():
    """Each statement in an editor's list has a Retract form carrying their CSRF token: never cached."""
    viewer = login("viewer", group="Viewer")
    editor = login("editor", group="Editor")

    _, first_viewer_reads = record_queries(viewer, "/statements/")
    _, second_viewer_reads = record_queries(viewer, "/statements/")
    editor_page, _ = record_queries(editor, "/statements/")
    _, second_editor_reads = record_queries(editor, "/statements/")

    assert first_viewer_reads and second_viewer_reads == []
    assert "Retract" not in fetch(viewer, "/statements/")[0]
    assert "Retract" in editor_page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', editor_page)
    assert token and second_editor_reads, "the editor's list is rendered afresh each time"


# 9. The live preview -----------------------------------------------------------------------------


PREVIEW = "/grants/preview"


def post_preview(client: Client, **overrides) -> tuple[str, list[str]]:
    """The preview's HTML for Budget 2013's terms (with ``overrides``) and the SQL it ran."""
    with CaptureQueriesContext(connection) as queries:
        response = client.post(PREVIEW, offer_post(**overrides), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries]


def must_find(html: str, code: str) -> str:
    """What the preview's "most affected" table says ``code`` must find."""
    return re.search(rf'<tr data-code="{code}">\s*<th scope="row">[^<]*</th>\s*<td class="num">([^<]*)</td>',
                     html).group(1)


def test_a_warm_preview_reads_nothing_from_the_database():
    """It keeps its parser, the reference data and the answered offer's effect, and reads neither the
    session nor the user: an editor's keystroke costs no query."""
    editor = login("editor", group="Editor")
    first, first_queries = post_preview(editor)
    second, second_queries = post_preview(editor)

    assert first_queries, "the first preview builds what it keeps"
    assert second_queries == []
    assert second == first and must_find(second, "ON").startswith("$")

    _, answering = post_preview(editor, responds_to="budget-2013")
    html, answering_again = post_preview(editor, responds_to="budget-2013")
    assert len(answering) > 1
    assert len(answering_again) == 1 and "negotiations_offer" in answering_again[0]  # the choice is checked
    assert "Compared with “Budget 2013 proposal" in html


def test_another_process_s_commit_shows_in_the_preview_once_it_is_fresh_no_more(monkeypatch):
    reader = Client()
    before, _ = post_preview(reader)
    Jurisdiction.objects.filter(code="ON").update(population=F("population") * 2)  # another process's edit
    record_cache._advance("default")  # ...and its commit

    monkeypatch.setattr(preview_view, "FRESH_FOR", 3600.0)
    stale, queries = post_preview(reader)
    assert queries == [] and stale == before  # within FRESH_FOR, what this process keeps

    monkeypatch.setattr(preview_view, "FRESH_FOR", 0.0)
    after, queries = post_preview(reader)
    assert any("recordversion" in sql for sql in queries)
    assert must_find(after, "ON") != must_find(before, "ON")


def test_a_write_in_this_process_shows_in_the_next_preview_at_once(monkeypatch):
    monkeypatch.setattr(preview_view, "FRESH_FOR", 3600.0)
    reader = Client()
    before, _ = post_preview(reader)

    ontario = Jurisdiction.objects.get(code="ON")
    ontario.name_en = "Ontario, renamed here"
    ontario.save()

    assert "Ontario, renamed here" in post_preview(reader)[0]
    assert "Ontario, renamed here" not in before


def test_a_query_the_brief_does_not_read_makes_no_new_file(reader, monkeypatch):
    # "?a=1", "?a=2"… each rendered the document afresh (a PDF: 0.3-0.7 s) and took a new cache entry.
    from briefings import docx as word

    made = []
    real = word.docx_bytes
    monkeypatch.setattr(word, "docx_bytes", lambda brief: made.append(1) or real(brief))
    for query in ("?since=2014-01-01", "?since=2014-01-01&a=1", "?a=2&since=2014-01-01"):
        response = reader.get("/negotiations/canada-job-grant/briefing.docx" + query)
        assert response.status_code == 200
    assert len(made) == 1
    reader.get("/negotiations/canada-job-grant/briefing.docx?since=2014-02-01")
    assert len(made) == 2
    page = reader.get("/negotiations/canada-job-grant/briefing?since=2014-01-01&a=3").content.decode()
    assert 'href="/negotiations/canada-job-grant/briefing.pdf?since=2014-01-01"' in page  # its links keep what it reads
    french = reader.get("/fr/negotiations/canada-job-grant/briefing.docx")
    assert 'filename="canada-job-grant-note-d-information.docx"' in french["Content-Disposition"]
