"""Article import with the database: the seed articles measured, review, commit, re-import, the command, the pages."""

import datetime
import io
import json
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command

from negotiations.article_import import normalize_quote
from negotiations.models import (
    ArticleImport,
    Jurisdiction,
    Person,
    ProposedStatement,
    Source,
    Statement,
)
from negotiations.services import imports
from tests.factories import (
    JurisdictionFactory,
    NegotiationFactory,
    PersonFactory,
    SourceFactory,
    StatementFactory,
    UserFactory,
)

ARTICLES = Path(__file__).resolve().parents[1] / "data" / "articles"
# ../shared/seeds beside the repository; SEEDS_DIR points elsewhere (a git worktree has no shared/ beside it).
SEEDS = Path(os.environ.get("SEEDS_DIR") or Path(settings.BASE_DIR).parent / "shared" / "seeds")
DATA_SET = Path(settings.BASE_DIR) / "negotiations" / "data" / "canada_job_grant.json"
LEDGER = (ARTICLES / "ledger_utf8.html").read_bytes()

pytestmark = pytest.mark.django_db


@pytest.fixture
def negotiation():
    for code in ("CA", "SK", "QC", "NS", "NB", "ON", "MB", "BC"):
        JurisdictionFactory(code=code)
    return NegotiationFactory()


@pytest.fixture
def importer():
    user = UserFactory(username="importer")
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="negotiations"))
    return user


def accept_all(article_import, actor):
    for proposal in article_import.proposals.all():
        imports.proposal_decide(actor=actor, proposal=proposal, decision=ProposedStatement.Decision.ACCEPTED)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is absent")
def test_seed_articles_propose_the_data_sets_quotes(negotiation, capsys):
    """The four seed articles into an empty record, against the data set's 34 quotes."""
    data = json.loads(DATA_SET.read_text(encoding="utf-8"))
    names = {person["slug"]: person["name"] for person in data["people"]}
    sources = {source["slug"]: source for source in data["sources"]}
    expected = data["statements"]
    proposals = []
    for path in sorted(SEEDS.iterdir()):
        raw = path.read_bytes()
        # The seeds carry no date: the editor gives the publication date, as on the import page.
        words = normalize_quote(imports.propose_for_record(raw).text)
        cited = [s["source"] for s in expected if normalize_quote(s["quote"]) in words]
        source = sources[max(set(cited), key=cited.count)]
        article_import, created = imports.article_import_create(
            actor=None, data=raw, negotiation=negotiation, filename=path.name,
            published=datetime.date.fromisoformat(source["published_on"]))
        assert created
        proposals += [(source["slug"], p) for p in article_import.proposals.all()]
    found = {}
    for slug, proposal in proposals:
        found.setdefault((slug, normalize_quote(proposal.quote)), proposal)
    right = 0
    for statement in expected:
        proposal = found.get((statement["source"], normalize_quote(statement["quote"])))
        if (proposal is not None and normalize_quote(proposal.speaker_name) == normalize_quote(names[statement["speaker"]])
                and proposal.date and proposal.date.isoformat() == statement["date"]):
            right += 1
    wanted = {(s["source"], normalize_quote(s["quote"])) for s in expected}
    not_in_data_set = [p.quote for slug, p in proposals if (slug, normalize_quote(p.quote)) not in wanted]
    share_right = right / len(expected)
    share_extra = len(not_in_data_set) / len(proposals)
    with capsys.disabled():
        print(f"\nseed articles: {right}/{len(expected)} data-set quotes proposed with the right speaker and date "
              f"({share_right:.0%}); {len(proposals)} proposals, {len(not_in_data_set)} not in the data set "
              f"({share_extra:.1%}): {not_in_data_set}")
    assert share_right >= 0.90
    assert share_extra <= 0.10
    assert Statement.objects.count() == 0 and Source.objects.count() == 0 and Person.objects.count() == 0


def test_nothing_enters_the_record_before_commit_and_commit_writes_statements_with_history(negotiation, importer):
    article_import, created = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    assert created and article_import.proposals.count() == 6
    assert Statement.objects.count() == Source.objects.count() == Person.objects.count() == 0
    accept_all(article_import, importer)
    statements = imports.article_import_commit(actor=importer, article_import=article_import)
    assert len(statements) == 6
    source = Source.objects.get()
    assert (source.outlet, source.title, source.published_on) == (
        "Prairie Ledger", "Ministers spar over apprenticeship fund", datetime.date(2015, 3, 5))
    assert {s.source_id for s in statements} == {source.pk}
    assert Person.objects.filter(name="Rowan Feild", roles__jurisdiction__code="SK").exists()
    assert all(s.history.first().history_user == importer for s in statements)
    article_import.refresh_from_db()
    assert article_import.status == ArticleImport.Status.COMMITTED
    with pytest.raises(imports.ImportAlreadyCommitted):
        imports.article_import_commit(actor=importer, article_import=article_import)


def test_a_half_reviewed_import_commits_what_is_accepted_and_can_be_resumed(negotiation, importer):
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    first, second, *rest = article_import.proposals.all()
    imports.proposal_decide(actor=importer, proposal=first, decision=ProposedStatement.Decision.ACCEPTED)
    imports.proposal_decide(actor=importer, proposal=second, decision=ProposedStatement.Decision.REJECTED)
    assert len(imports.article_import_commit(actor=importer, article_import=article_import)) == 1
    article_import.refresh_from_db()
    assert article_import.status == ArticleImport.Status.REVIEWING  # four still to review
    for proposal in rest:
        imports.proposal_decide(actor=importer, proposal=proposal, decision=ProposedStatement.Decision.ACCEPTED)
    assert len(imports.article_import_commit(actor=importer, article_import=article_import)) == 4
    assert Source.objects.count() == 1 and Statement.objects.count() == 5


def test_commit_refuses_whole_when_something_is_missing(negotiation, importer):
    article_import, _ = imports.article_import_create(
        actor=importer, data=(ARTICLES / "montreal_utf8.txt").read_bytes(), negotiation=negotiation)
    accept_all(article_import, importer)  # no outlet, no date: nothing can be written
    with pytest.raises(Exception) as refused:
        imports.article_import_commit(actor=importer, article_import=article_import)
    assert "outlet" in str(refused.value) and "date" in str(refused.value)
    assert Statement.objects.count() == Source.objects.count() == Person.objects.count() == 0


def test_reimport_finds_the_import_and_known_quotes_are_not_proposed_again(negotiation, importer):
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    again, created = imports.article_import_create(actor=importer, data=LEDGER.replace(b"<p>", b"<p> "),
                                                   negotiation=negotiation)
    assert not created and again.pk == article_import.pk
    feild = PersonFactory(name="Rowan Feild", slug="rowan-feild")
    StatementFactory(speaker=feild, quote="We will not sign a cheque we cannot cash.")
    other = LEDGER.replace(b"this week", b"this month")
    fresh, created = imports.article_import_create(actor=importer, data=other, negotiation=negotiation)
    assert created
    quotes = [normalize_quote(p.quote) for p in fresh.proposals.all()]
    assert "we will not sign a cheque we cannot cash" not in quotes and len(quotes) == 5
    assert any("already in the record" in warning for warning in fresh.warnings)


def test_another_text_at_an_address_already_imported_is_taken_in_not_thrown_away(negotiation, importer):
    # The earlier import was shown instead, "imported before", and the text pasted was gone.
    first, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation,
                                             url="https://example.com/a")
    updated, created = imports.article_import_create(actor=importer, data=LEDGER.replace(b"this week", b"this month"),
                                                     negotiation=negotiation, url="https://example.com/a")
    assert created and updated.pk != first.pk
    assert "this month" in updated.text


def test_command_json_dry_run_and_store(negotiation, tmp_path):
    out = io.StringIO()
    call_command("import_article", str(ARTICLES / "ledger_utf8.html"), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["source"]["outlet"] == "Prairie Ledger" and len(data["statements"]) == 6
    assert {"quote", "speaker", "date", "date_precision", "context"} <= set(data["statements"][0])
    out = io.StringIO()
    call_command("import_article", str(ARTICLES / "ledger_utf8.html"), "--dry-run", stdout=out)
    assert "Rowan Feild" in out.getvalue() and "nothing written" in out.getvalue()
    assert ArticleImport.objects.count() == 0
    out = io.StringIO()
    call_command("import_article", str(ARTICLES / "ledger_utf8.html"), stdout=out)
    article_import = ArticleImport.objects.get()
    assert f"/imports/{article_import.pk}/" in out.getvalue()
    assert Statement.objects.count() == 0


@pytest.mark.parametrize("content, args, message", [
    (None, [], "No such file"),
    (b"", [], "empty"),
    (b"\x00\x00\x00binary", [], "binary"),
    (b"text", ["--published", "yesterday"], "--published: Write the date as YYYY-MM-DD"),
    # Tracebacks before (an overflow, a ValidationError); an address refused was dropped without a word.
    (b"text", ["--published", "0001-01-01"], "--published: "),
    (b"text", ["--dry-run", "--published", "0001-01-01"], "--published: "),
    (b"text", ["--published", "2999-01-01"], "--published: Give a date between 1900-01-01 and 2100-12-31."),
    (b"text", ["--published", "2099-01-01"], "--published: That day has not come yet"),
    (b"text", ["--url", "javascript:alert(1)"], "--url: Enter a valid URL."),
    (b"text", ["--url", "https://e.com/" + "a" * 1000], "--url: Ensure this value has at most 500 characters"),
])
def test_command_bad_input_is_a_clear_error(negotiation, tmp_path, content, args, message):
    path = tmp_path / "article.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("import_article", str(path), *args)


def test_pages_need_the_statement_permission(client, negotiation):
    response = client.get("/imports/new")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(UserFactory(username="reader"))
    assert client.get("/imports/new").status_code == 403


@pytest.mark.parametrize("post, files, field_message", [
    ({"text": "   "}, None, "The article is empty"),
    ({"text": ""}, {"file": ("a.bin", b"\x00\x01\x02\x00binary")}, "binary"),
    ({"text": ""}, {"file": ("big.txt", b"a" * 2_000_001)}, "larger than 2 MB"),
    # An address longer than the record keeps was cut to 500 characters without a word.
    ({"text": "A word.", "published": "", "url": "https://example.org/a?" + "x" * 600},
     None, "at most 500 characters (it has 622)"),
])
def test_import_page_bad_input_keeps_the_form(client, negotiation, importer, post, files, field_message):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(importer)
    data = {"negotiation": negotiation.slug, "url": "https://example.org/a", **post}
    if files:
        name, (filename, content) = next(iter(files.items()))
        data[name] = SimpleUploadedFile(filename, content)
    response = client.post("/imports/new", data)
    assert response.status_code == 200
    assert field_message in response.content.decode()
    assert "https://example.org/a" in response.content.decode()  # the form is kept
    assert ArticleImport.objects.count() == 0


def _quotes(count: int) -> str:
    return "OTTAWA -- Ministers met on Monday.\n\n" + "\n\n".join(
        f"“We will not sign offer number {number} as it stands,” Jason Kenney said." for number in range(count))


def test_an_article_with_more_quotes_than_one_import_takes_is_refused_with_its_text_kept(
        client, negotiation, importer, monkeypatch, tmp_path):
    # A transcript of 3,000 quotes was taken in: seven seconds of writes and a 13 MB review page, a form
    # for each quote. It is refused next to the text, which stays in the box, and nothing is written.
    from negotiations import bounds

    monkeypatch.setattr(bounds, "IMPORT_QUOTES", 3)
    client.force_login(importer)
    text = _quotes(4)
    response = client.post("/imports/new", {"negotiation": negotiation.slug, "text": text})
    assert response.status_code == 200
    page = response.content.decode()
    assert "This text gives 4 quotes to review; an import takes at most 3. Import it in parts." in page
    assert 'aria-invalid="true"' in page.split('name="text"')[0].rsplit("<textarea", 1)[-1] + page.split(
        'name="text"')[1].split(">", 1)[0]
    assert "We will not sign offer number 3 as it stands" in page  # the text is kept in its box
    assert ArticleImport.objects.count() == 0 and ProposedStatement.objects.count() == 0

    path = tmp_path / "transcript.txt"
    path.write_text(text)
    with pytest.raises(CommandError, match="4 quotes to review; an import takes at most 3"):
        call_command("import_article", str(path), stdout=io.StringIO())
    assert ArticleImport.objects.count() == 0

    response = client.post("/imports/new", {"negotiation": negotiation.slug, "text": _quotes(3)})
    assert response.status_code == 302
    assert ProposedStatement.objects.count() == 3


def test_review_page_marks_the_passage_and_htmx_decisions(client, negotiation, importer):
    client.force_login(importer)
    response = client.post("/imports/new", {"negotiation": negotiation.slug, "text": LEDGER.decode()})
    article_import = ArticleImport.objects.get()
    assert response["Location"] == f"/imports/{article_import.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "<mark>We will not sign a cheque we cannot cash,</mark>" in page
    proposal = article_import.proposals.get(order=1)
    url = f"/imports/{article_import.pk}/proposals/{proposal.pk}"
    form = {"quote": proposal.quote, "speaker": "", "speaker_name": "", "speaker_role": "", "jurisdiction": "SK",
            "date": "2015-03-03", "date_precision": "day", "original_language": "", "decision": "accept"}
    bad = client.post(url, form, headers={"HX-Request": "true"})
    assert bad.status_code == 200 and "give the new speaker" in bad.content.decode()
    assert "<html" not in bad.content.decode()
    good = client.post(url, {**form, "speaker_name": "Rowan Feild"}, headers={"HX-Request": "true"})
    assert "Accepted as edited" in good.content.decode() or "accepted" in good.content.decode()
    proposal.refresh_from_db()
    assert proposal.decision in ("accepted", "edited") and proposal.speaker_name == "Rowan Feild"


def test_the_review_page_names_the_encoding_repair_in_the_reader_s_language(client, negotiation, importer):
    # « Réparé : UTF-8 read as GBK. » headed the French review page: the import keeps its repairs in English.
    client.force_login(importer)
    damaged = (ARTICLES / "montreal_utf8_read_as_gbk.txt").read_text(encoding="utf-8")
    response = client.post("/imports/new", {"negotiation": negotiation.slug, "text": damaged})
    assert ArticleImport.objects.get().repairs == "UTF-8 read as GBK"
    french = client.get("/fr" + response["Location"]).content.decode()
    assert "Réparé\xa0: UTF-8 lu comme du GBK." in french and "read as" not in french
    assert "Repaired: UTF-8 read as GBK." in client.get(response["Location"]).content.decode()


def test_the_review_page_says_where_a_quote_s_date_was_read_in_the_reader_s_language(client, negotiation, importer):
    # « Date tirée de : the publication date » under each quote of the French review page.
    client.force_login(importer)
    article = (ARTICLES / "winnipeg_utf8.txt").read_text(encoding="utf-8")
    response = client.post("/imports/new", {"negotiation": negotiation.slug, "text": article})
    assert "the publication date" in ArticleImport.objects.get().proposals.values_list("date_basis", flat=True)
    french = client.get("/fr" + response["Location"]).content.decode()
    assert "Date tirée de\xa0: la date de publication" in french and "the publication date" not in french
    assert "Date read from: the publication date" in client.get(response["Location"]).content.decode()


def test_review_page_query_count_does_not_grow_with_the_proposals(client, negotiation, importer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(importer)
    small, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    longer = LEDGER.replace(b"</article>", (ARTICLES / "atlantic_cp1252.txt").read_text(encoding="cp1252")
                            .replace("\n\n", "</p><p>").encode() + b"</article>")
    large, _ = imports.article_import_create(actor=importer, data=longer, negotiation=negotiation)
    assert large.proposals.count() > small.proposals.count() + 3
    counts = []
    for article_import in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/imports/{article_import.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_commit_page_says_what_is_missing_and_writes_nothing(client, negotiation, importer):
    client.force_login(importer)
    article_import, _ = imports.article_import_create(
        actor=importer, data=(ARTICLES / "montreal_utf8.txt").read_bytes(), negotiation=negotiation)
    accept_all(article_import, importer)
    response = client.post(f"/imports/{article_import.pk}/commit", follow=True)
    page = response.content.decode()
    assert "Nothing is recorded yet" in page and "outlet" in page
    assert Statement.objects.count() == Source.objects.count() == 0


def test_the_commit_page_counts_what_it_recorded_and_a_second_click_says_so(client, negotiation, importer):
    client.force_login(importer)
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    first, *rest = article_import.proposals.all()
    imports.proposal_decide(actor=importer, proposal=first, decision=ProposedStatement.Decision.ACCEPTED)
    page = client.post(f"/imports/{article_import.pk}/commit", follow=True).content.decode()
    assert "1 statement is recorded." in page  # not "1 statements are recorded."
    # The double click's second post: the first recorded the quote ("0 statements are recorded." said otherwise).
    page = client.post(f"/imports/{article_import.pk}/commit", follow=True).content.decode()
    assert "No accepted quote is waiting to be recorded: those accepted are in the record." in page
    assert Statement.objects.count() == 1


def test_a_quote_is_not_dated_after_its_article(negotiation, importer):
    # An imported quote's date edited to 2031, in an article published in 2014, was accepted.
    from negotiations.import_forms import ProposalForm

    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    proposal = article_import.proposals.first()
    published = article_import.published_on
    assert published is not None
    data = {"quote": proposal.quote, "speaker": "", "speaker_name": "Someone", "speaker_role": "", "jurisdiction": "",
            "date_precision": "day", "original_language": ""}
    later = ProposalForm(data | {"date": (published + datetime.timedelta(days=3)).isoformat()}, instance=proposal)
    assert not later.is_valid() and "what it reports was not said later" in later.errors["date"][0]
    assert ProposalForm(data | {"date": published.isoformat()}, instance=proposal).is_valid()


def test_an_imported_quote_s_speaker_speaks_for_a_government_they_hold_a_role_with(client, negotiation, importer):
    # The reader's "on behalf of" is a guess from the article; a known speaker with no role with that government
    # is refused next to it in the review, and at the commit by the quote's number, with nothing written.
    from tests.factories import RoleFactory

    kenney = RoleFactory(person=PersonFactory(name="Jason Kenney", slug="jason-kenney"),
                         jurisdiction=Jurisdiction.objects.get(code="CA")).person
    client.force_login(importer)
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    proposal = article_import.proposals.get(order=1)
    url = f"/imports/{article_import.pk}/proposals/{proposal.pk}"
    form = {"quote": proposal.quote, "speaker": "jason-kenney", "speaker_name": "", "speaker_role": "",
            "jurisdiction": "SK", "date": "2015-03-03", "date_precision": "day", "original_language": "",
            "decision": "accept"}
    refused = client.post(url, form, headers={"HX-Request": "true"}).content.decode()
    assert "The record gives Jason Kenney no role with this government (" in refused
    proposal.refresh_from_db()
    assert proposal.decision == ProposedStatement.Decision.PENDING
    client.post(url, {**form, "jurisdiction": "CA"}, headers={"HX-Request": "true"})
    proposal.refresh_from_db()
    assert proposal.decision != ProposedStatement.Decision.PENDING and proposal.jurisdiction.code == "CA"
    # accepted as the reader proposed it, then given a speaker the record knows elsewhere
    second = article_import.proposals.get(order=2)
    imports.proposal_decide(actor=importer, proposal=second, decision=ProposedStatement.Decision.ACCEPTED)
    ProposedStatement.objects.filter(pk=second.pk).update(
        speaker=kenney, jurisdiction=Jurisdiction.objects.get(code="SK"))
    page = client.post(f"/imports/{article_import.pk}/commit", follow=True).content.decode()
    assert "Nothing is recorded yet: Quote 2: The record gives Jason Kenney no role with this government" in page
    assert Statement.objects.count() == Source.objects.count() == 0


def test_a_publication_date_given_at_review_dates_the_quotes_still_to_review(client, negotiation, importer):
    # The warning asked for the date "so that Wednesday can be dated"; giving it dated nothing, and the warning stayed.
    PersonFactory(name="Anne Tardif", slug="anne-tardif")
    text = ("Ministers meet on the grant\n\nBy Jean Tremblay, The Canadian Press\n\n"
            "OTTAWA — “We will see,” Anne Tardif said on Wednesday.\n\n“Not yet,” said Tardif.")
    article_import, _ = imports.article_import_create(actor=importer, data=text, negotiation=negotiation)
    assert article_import.published_on is None
    assert any(warning.startswith("No publication date found") for warning in article_import.warnings)
    first, second = article_import.proposals.order_by("order")
    assert first.date is None
    imports.proposal_decide(actor=importer, proposal=second, decision=ProposedStatement.Decision.REJECTED)

    # Through the review page, as an editor gives it (its form writes the date onto the import before the service).
    client.force_login(importer)
    response = client.post(f"/imports/{article_import.pk}/source", {
        "outlet": "The Canadian Press", "title": "Ministers meet on the grant", "author": "Jean Tremblay",
        "published_on": "2013-11-08", "date_precision": "day", "url": ""})
    assert response.status_code in (200, 302)

    first.refresh_from_db()
    assert (first.date, first.date_precision) == (datetime.date(2013, 11, 6), "day")  # the Wednesday before
    second.refresh_from_db()
    assert second.date is None  # decided already: left as the editor left it
    article_import.refresh_from_db()
    assert not any(warning.startswith("No publication date found") for warning in article_import.warnings)


@pytest.mark.parametrize(("cited", "given_url"), [
    ({"url": "https://www.prairieledger.ca/news/ministers-spar/", "title": "Another headline"},
     "http://prairieledger.ca/news/ministers-spar"),  # the same address, written otherwise
    ({"url": "", "title": "MINISTERS SPAR OVER APPRENTICESHIP FUND"}, ""),  # the same title, the same day
])
def test_an_article_the_record_already_cites_is_linked_to_that_source_not_saved_again(
        client, negotiation, importer, cited, given_url):
    existing = SourceFactory(published_on=datetime.date(2015, 3, 5), **cited)
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation,
                                                      url=given_url)
    assert article_import.source == existing

    client.force_login(importer)
    page = client.get(f"/imports/{article_import.pk}/").content.decode()
    assert "Cites the source already in the record:" in page and existing.get_absolute_url() in page
    assert "Save the source" not in page

    accept_all(article_import, importer)
    statements = imports.article_import_commit(actor=importer, article_import=article_import)
    assert Source.objects.get() == existing
    assert {statement.source_id for statement in statements} == {existing.pk}


def test_a_source_described_at_review_as_one_the_record_has_is_linked_to_it(client, negotiation, importer):
    existing = SourceFactory(title="Ministers meet on the grant", published_on=datetime.date(2013, 11, 8))
    text = "OTTAWA — “We will see,” Anne Tardif said on Wednesday.\n\n“Not yet,” said Tardif."
    article_import, _ = imports.article_import_create(actor=importer, data=text, negotiation=negotiation)
    assert article_import.source is None

    client.force_login(importer)
    response = client.post(f"/imports/{article_import.pk}/source", {
        "outlet": "The Canadian Press", "title": "Ministers meet on the grant", "author": "",
        "published_on": "2013-11-08", "date_precision": "day", "url": ""}, headers={"HX-Request": "true"})
    assert "Cites the source already in the record:" in response.content.decode()
    article_import.refresh_from_db()
    assert article_import.source == existing

    # A different day is another article under the same headline: not linked.
    other, _ = imports.article_import_create(actor=importer, data=text + "\n\nMore.", negotiation=negotiation)
    client.post(f"/imports/{other.pk}/source", {
        "outlet": "The Canadian Press", "title": "Ministers meet on the grant", "author": "",
        "published_on": "2013-11-20", "date_precision": "day", "url": ""})
    other.refresh_from_db()
    assert other.source is None


def test_the_source_of_a_committed_import_is_not_changed_afterwards(client, negotiation, importer):
    # After the commit, "Save the source" still said "The source is saved." and rewrote the import's source.
    article_import, _ = imports.article_import_create(actor=importer, data=LEDGER, negotiation=negotiation)
    accept_all(article_import, importer)
    imports.article_import_commit(actor=importer, article_import=article_import)
    client.force_login(importer)
    change = {"outlet": "Le Soleil", "title": "Other", "author": "", "published_on": "2015-03-04",
              "date_precision": "day", "url": ""}

    region = client.post(f"/imports/{article_import.pk}/source", change, headers={"HX-Request": "true"})
    assert "This import is already committed." in region.content.decode()
    page = client.post(f"/imports/{article_import.pk}/source", change, follow=True)
    assert "This import is already committed." in page.content.decode()
    assert "The source is saved." not in page.content.decode()
    article_import.refresh_from_db()
    assert (article_import.outlet, article_import.title) == ("Prairie Ledger", "Ministers spar over apprenticeship fund")


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"date": "2099-02-03"}, "date", "That day has not come yet"),
    ({"original_language": "en"}, "original_language", "The quote is already in the language spoken"),
])
def test_an_edited_quote_is_refused_at_review_for_what_the_commit_would_refuse(
        client, negotiation, importer, change, field, message):
    # Accepted at review without a word, then refused by the commit ("Nothing is recorded yet: Quote 1: …").
    text = "“We will see,” Anne Tardif said on Wednesday."
    article_import, _ = imports.article_import_create(actor=importer, data=text, negotiation=negotiation)
    proposal = article_import.proposals.get()
    client.force_login(importer)
    form = {"quote": proposal.quote, "speaker": "", "speaker_name": "Anne Tardif", "speaker_role": "",
            "jurisdiction": "", "date": "2013-11-06", "date_precision": "day", "original_language": "",
            "decision": "edit", **change}
    region = client.post(f"/imports/{article_import.pk}/proposals/{proposal.pk}", form,
                         headers={"HX-Request": "true"}).content.decode()
    assert message in region
    proposal.refresh_from_db()
    assert proposal.decision == ProposedStatement.Decision.PENDING
