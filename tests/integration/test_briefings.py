"""The briefing: a page to print, a PDF (its pages, headings and figures read back with pypdf) and a
Word document (its headings and figures read back with python-docx), over the Canada Job Grant data set."""

import io
import os
import re
from html import unescape

import pytest

from briefings import pdf
from grants.presentation import format_line
from grants.selectors import fiscal_effect, offer_with_terms

pytestmark = pytest.mark.django_db

needs_pdf = pytest.mark.skipif(
    bool(pdf.missing()) and not os.environ.get("REQUIRE_BROWSER"),
    reason="WeasyPrint's system libraries (Pango) are missing here; set REQUIRE_BROWSER=1 to fail instead",
)


def national(slug: str, line: str) -> str:
    return format_line(line, getattr(fiscal_effect(offer_with_terms(slug)).national, line))


def for_jurisdiction(slug: str, code: str, line: str) -> str:
    return format_line(line, getattr(fiscal_effect(offer_with_terms(slug)).jurisdiction(code), line))


def test_the_negotiation_page_has_every_part_and_links_to_the_files(client, cjg):
    response = client.get("/negotiations/canada-job-grant/briefing?since=2014-01-01")
    html = response.content.decode()
    assert response.status_code == 200
    for heading in ("Where each government stands", "The latest offer of each side", "Who would sign",
                    "What changed since January 1, 2014", "Key quotes", "Key dates"):
        assert heading in html, heading
    # Twelve P/Ts that say the same thing since the same day share one row.
    assert "NL, PE, NS, NB, ON, MB, SK, YT, NT, NU" in html or "NL, PE, NS, NB, ON, MB, SK" in html
    assert national("federal-dec-2013", "federal_cost") in html
    assert national("pt-counter-jan-2014", "employer_cost") in html
    assert 'href="/negotiations/canada-job-grant/briefing.pdf?since=2014-01-01"' in html
    assert 'href="/negotiations/canada-job-grant/briefing.docx?since=2014-01-01"' in html
    assert 'rel="stylesheet" href="/static/css/brief.css"' in html  # its print stylesheet


def test_a_jurisdiction_brief_shows_the_offers_effect_for_it(client, cjg):
    html = client.get("/jurisdictions/on/briefing").content.decode()
    assert "Ontario: Canada Job Grant" in html
    assert "Ontario: fiscal effect per year at full scale" in html  # the government named, not "for ON"
    assert for_jurisdiction("federal-dec-2013", "ON", "federal_cost") in html
    assert "Brad Duguid (ON)" in html  # Ontario's quotes, with their source
    assert "The Canadian Press (Ottawa)" in html


def visible(html: str, start: str, end: str) -> str:
    """The text a reader sees between two markers of the page: tags dropped, spaces collapsed."""
    part = html[html.index(start):html.index(end)]
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", part))).strip()  # no-break spaces kept


def test_who_would_sign_counts_the_pts_for_each_sides_latest_offer(client, cjg):
    html = client.get("/negotiations/canada-job-grant/briefing?since=2014-01-01").content.decode()
    section = visible(html, 'id="brief-sign"', 'id="brief-changes"')
    assert "Not yet available" not in section
    federal, provincial = section.split("Provinces and territories:")
    # Ottawa's December offer: no P/T would sign; Ontario fails on its own condition, eight on the LMA.
    assert "Federal: December 2013" in federal and "0 of 13 would sign" in federal
    assert "fails ON — No funding taken from programs that serve vulnerable workers." in federal
    assert ("fails NL, PE, NS, SK, YT, NT, NU — No money taken from existing Labour Market Agreement programs."
            in federal)
    assert "unknown NB, MB, AB" in federal
    # The P/Ts' January counter-proposal: Quebec's conditions are met; the others' are in words only.
    assert "1 of 13 would sign" in provincial
    assert "meets QC" in provincial
    assert "unknown NL, PE, NS, NB, ON, MB, SK, AB, BC, YT, NT, NU" in provincial


def test_a_withdrawn_offer_is_never_a_sides_latest_in_the_brief(client, cjg):
    # Two P/T offers logged after January's and withdrawn: the brief gave the last of them as the P/Ts' latest offer.
    import datetime

    from negotiations.models import Offer

    counter = Offer.objects.get(slug="pt-counter-jan-2014")
    later = offer_with_terms("pt-counter-jan-2014")
    later.pk, later.slug, later.title_en = None, "pt-test-withdrawn", "A withdrawn test offer"
    later.tabled_on, later.status = datetime.date(2014, 2, 20), Offer.Status.WITHDRAWN
    later.withdrawn_on, later.withdrawal_reason = datetime.date(2014, 2, 21), "Entered by mistake."
    later.save()
    later.tabled_by.set(counter.tabled_by.all())
    from negotiations import record_cache

    record_cache.record_changed()
    html = client.get("/negotiations/canada-job-grant/briefing?since=2014-01-01").content.decode()
    section = visible(html, 'id="brief-offers"', 'id="brief-changes"')
    assert "A withdrawn test offer" not in section
    assert "P/T counter-proposal" in section or str(counter.title) in section


def test_a_jurisdictions_brief_gives_its_own_verdict_and_why(client, cjg):
    html = client.get("/jurisdictions/ON/briefing").content.decode()
    section = visible(html, 'id="brief-sign"', 'id="brief-changes"')
    assert section.count("of 13 would sign") == 2
    assert "fails ON — No funding taken from programs that serve vulnerable workers." in section
    assert "unknown ON — Cannot be checked: Each P/T picks the source" in section
    # Ontario's conditions in words, one sentence after another (not "….; …").
    assert ".;" not in section and "revenue). More room for small businesses. An opt-out" in section
    assert "QC" not in section  # the other P/Ts' verdicts are in the negotiation's brief


def test_who_would_sign_in_french(client, cjg):
    html = client.get("/fr/negotiations/canada-job-grant/briefing").content.decode()
    section = visible(html, 'id="brief-sign"', 'id="brief-changes"')
    assert "Qui signerait" in section
    assert "0 sur 13 signerait" in section and "1 sur 13 signerait" in section  # one or none: the singular
    assert "Provinces et territoires\xa0:" in section
    assert "répond QC" in section


def test_an_unknown_verdict_is_said_as_a_verdict_in_french_on_the_page_and_in_word(client, cjg):
    # « inconnue » (a stance's word: la position) stood for a verdict (le verdict) on some outputs.
    from docx import Document

    html = client.get("/fr/jurisdictions/ON/briefing").content.decode()
    section = visible(html, 'id="brief-sign"', 'id="brief-changes"')
    assert "inconnu ON" in section and "inconnue" not in section
    document = Document(io.BytesIO(client.get("/fr/jurisdictions/ON/briefing.docx").content))
    assert any(p.text.startswith("inconnu ON") for p in document.paragraphs)


def test_since_picks_the_changes(client, cjg):
    early = client.get("/negotiations/canada-job-grant/briefing?since=2014-01-29").content.decode()
    changes = early[early.index("What changed since January 29, 2014"):early.index("Key quotes")]
    assert "January 29, 2014" in changes and "January 28, 2014" not in changes
    late = client.get("/negotiations/canada-job-grant/briefing?since=2015-01-01").content.decode()
    assert "Nothing recorded since then." in late


def brief_part(html: str) -> str:
    """The brief itself, without the form above it."""
    return html[html.index('<article class="brief">'):html.index("</article>")]


@pytest.mark.parametrize(("address", "page"), [
    ("/negotiations/canada-job-grant/briefing?since=garbage", "/negotiations/canada-job-grant/briefing"),
    ("/negotiations/canada-job-grant/briefing?since=2014-13-01", "/negotiations/canada-job-grant/briefing"),
    ("/negotiations/canada-job-grant/briefing?since=2014-01-01&since=yesterday", "/negotiations/canada-job-grant/briefing"),
    ("/jurisdictions/ON/briefing?since=2014-02-30&negotiation=canada-job-grant",
     "/jurisdictions/ON/briefing?negotiation=canada-job-grant"),
])
def test_a_bad_date_is_explained_next_to_the_field_and_the_brief_is_still_shown(client, cjg, address, page):
    # "?since=garbage" showed the date field and its message, and nothing of the brief.
    response = client.get(address)
    assert response.status_code == 200  # as a bad filter on the timeline or the statements: explained, not fatal
    html = response.content.decode()
    assert "Write the date as YYYY-MM-DD, such as 2014-01-15." in html
    assert 'id="since-error"' in html and 'aria-invalid="true"' in html
    # The brief of the default period, as if no date had been given, and links to its files without the bad date.
    assert brief_part(html) == brief_part(client.get(page).content.decode())
    assert "What changed since January 5, 2014" in html  # a month before the latest event, February 4
    base = address.split("?")[0]
    extra = "?negotiation=canada-job-grant" if "negotiation=" in address else ""
    assert f'href="{base}.pdf{extra}"' in html and f'href="{base}.docx{extra}"' in html


@pytest.mark.parametrize("address", [
    "/negotiations/canada-job-grant/briefing.pdf?since=yesterday",
    "/negotiations/canada-job-grant/briefing.docx?since=garbage",
    "/jurisdictions/ON/briefing.docx?since=2014-02-30",
    "/jurisdictions/ON/briefing.pdf?since=0001-01-01",
])
def test_a_file_asked_with_a_bad_date_is_not_made_the_page_says_why_and_shows_the_brief(client, cjg, address):
    # No file for a period the reader did not ask for: 400, the message next to the field, the brief of the default
    # period below it with links to its files, and a form that shows the page, not the file.
    response = client.get(address)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert ("Write the date as YYYY-MM-DD, such as 2014-01-15." in html
            or "between 1900-01-01 and 2100-12-31" in html)
    assert 'id="since-error"' in html and 'aria-invalid="true"' in html
    assert "Key quotes" in html and "What changed since January 5, 2014" in html
    page = address.split("?")[0].rsplit(".", 1)[0]
    assert f'action="{page}"' in html
    assert f'href="{page}.pdf"' in html and f'href="{page}.docx"' in html


def test_unknown_subjects_are_404(client, cjg):
    assert client.get("/negotiations/nothing/briefing").status_code == 404
    assert client.get("/jurisdictions/ZZ/briefing.docx").status_code == 404
    assert client.get("/jurisdictions/ZZ/briefing?negotiation=nope").status_code == 404
    assert client.get("/negotiations/nothing/briefing?negotiation=canada-job-grant").status_code == 404


UNKNOWN_NEGOTIATION = "There is no negotiation “{}”. Pick one from the list."


def negotiation_select(html: str) -> str:
    return re.search(r'<select name="negotiation"[^>]*>.*?</select>', html, re.S).group(0)


@pytest.mark.parametrize(("address", "value", "page", "query"), [
    ("/jurisdictions/ON/briefing?negotiation=nope", "nope", "/jurisdictions/ON/briefing", ""),
    ("/jurisdictions/ON/briefing?since=2014-01-01&negotiation=nope", "nope",
     "/jurisdictions/ON/briefing?since=2014-01-01", "?since=2014-01-01"),
    ("/jurisdictions/qc/briefing?negotiation=Canada%20Job%20Grant", "Canada Job Grant", "/jurisdictions/QC/briefing", ""),
    ("/jurisdictions/CA/briefing?negotiation=x&negotiation=nope", "nope", "/jurisdictions/CA/briefing", ""),
])
def test_an_unknown_negotiation_is_explained_next_to_its_field_and_the_default_brief_is_shown(
        client, cjg, address, value, page, query):
    # "?negotiation=nope" answered the 404 page, where "?since=garbage" is explained next to the date.
    response = client.get(address)
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert UNKNOWN_NEGOTIATION.format(value) in html
    select = negotiation_select(html)
    assert 'aria-invalid="true" aria-describedby="negotiation-error"' in select
    assert '<option value="canada-job-grant" selected>Canada Job Grant</option>' in select  # the brief shown
    assert html.index("</select>") < html.index('id="negotiation-error"') < html.index('id="id_since"')
    # The brief as without the parameter, and links to its files without the bad value (the date kept).
    assert brief_part(html) == brief_part(unescape(client.get(page).content.decode()))
    base = page.split("?")[0]
    assert f'href="{base}.pdf{query}"' in html and f'href="{base}.docx{query}"' in html
    assert "since-error" not in html


@pytest.mark.parametrize("address", [
    "/jurisdictions/ON/briefing.pdf?negotiation=nope",
    "/jurisdictions/ON/briefing.docx?negotiation=nope&since=2014-01-01",
])
def test_a_file_asked_for_an_unknown_negotiation_is_not_made_the_page_says_why(client, cjg, address):
    # A file cannot carry the message, and a file of another negotiation than the one asked for would mislead: the
    # page, 400, as for a bad date: the message next to the select, the default's brief and links to its files.
    response = client.get(address)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = unescape(response.content.decode())
    assert UNKNOWN_NEGOTIATION.format("nope") in html
    assert 'aria-invalid="true"' in negotiation_select(html)
    assert "Key quotes" in html and "Ontario: Canada Job Grant" in html
    query = "?since=2014-01-01" if "since=" in address else ""
    assert 'action="/jurisdictions/ON/briefing"' in html
    assert f'href="/jurisdictions/ON/briefing.pdf{query}"' in html
    assert f'href="/jurisdictions/ON/briefing.docx{query}"' in html


def test_a_known_negotiation_is_chosen_in_the_select_and_kept_in_the_files_links(client, cjg):
    html = client.get("/jurisdictions/ON/briefing?negotiation=canada-job-grant").content.decode()
    assert "negotiation-error" not in html and 'aria-invalid' not in negotiation_select(html)
    assert '<option value="canada-job-grant" selected>' in negotiation_select(html)
    assert 'href="/jurisdictions/ON/briefing.docx?negotiation=canada-job-grant"' in html
    assert client.get("/jurisdictions/ON/briefing.docx?negotiation=canada-job-grant").status_code == 200


def test_a_negotiations_brief_reads_no_negotiation_parameter(client, cjg):
    # Its negotiation is its address's: "?negotiation=nope" was carried into the links to its files, unread.
    html = client.get("/negotiations/canada-job-grant/briefing?negotiation=nope").content.decode()
    assert 'name="negotiation"' not in html and "negotiation-error" not in html
    assert 'href="/negotiations/canada-job-grant/briefing.pdf"' in html
    assert 'href="/negotiations/canada-job-grant/briefing.docx"' in html
    assert client.get("/negotiations/canada-job-grant/briefing.docx?negotiation=nope").status_code == 200


@needs_pdf
def test_the_pdf_has_one_or_two_pages_with_its_headings_and_figures(client, cjg):
    from pypdf import PdfReader

    response = client.get("/negotiations/canada-job-grant/briefing.pdf?since=2014-01-01")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert 1 <= len(reader.pages) <= 2
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    for heading in ("Canada Job Grant", "Where each government stands", "The latest offer of each side",
                    "Who would sign", "What changed since January 1, 2014", "Key quotes", "Key dates"):
        assert heading in text, heading
    assert f"Federal cost {national('federal-dec-2013', 'federal_cost')}" in text
    assert f"Employer cost {national('pt-counter-jan-2014', 'employer_cost')}" in text
    assert "The Labour Market Agreements expire" in text
    assert "0 of 13 would sign" in text and "1 of 13 would sign" in text
    assert "meets QC" in text


@needs_pdf
def test_a_jurisdictions_pdf_shows_its_figures(client, cjg):
    from pypdf import PdfReader

    response = client.get("/jurisdictions/QC/briefing.pdf")
    reader = PdfReader(io.BytesIO(response.content))
    assert 1 <= len(reader.pages) <= 2
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "Quebec: fiscal effect per year at full scale" in text
    assert f"Provincial cost {for_jurisdiction('federal-dec-2013', 'QC', 'provincial_cost')}" in text


def test_the_pdf_answers_503_with_a_clear_message_where_it_cannot_be_made(client, cjg, monkeypatch):
    monkeypatch.setattr(pdf, "missing", lambda: "cannot load library 'libpango-1.0-0'")
    response = client.get("/negotiations/canada-job-grant/briefing.pdf")
    assert response.status_code == 503
    html = response.content.decode()
    assert "The PDF cannot be made on this server" in html
    assert "libpango-1.0-0" in html
    assert 'href="/negotiations/canada-job-grant/briefing.docx"' in html


def test_the_word_document_has_the_headings_and_figures(client, cjg):
    from docx import Document

    response = client.get("/jurisdictions/ON/briefing.docx?since=2014-01-01")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats-officedocument")
    document = Document(io.BytesIO(response.content))
    headings = [p.text for p in document.paragraphs if p.style.name.startswith(("Heading", "Title"))]
    assert headings[0] == "Ontario: Canada Job Grant"
    for heading in ("Where it stands", "The latest offer of each side", "Who would sign",
                    "What changed since January 1, 2014", "Key quotes", "Key dates"):
        assert heading in headings, heading
    cells = [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]
    assert ["Federal cost", for_jurisdiction("federal-dec-2013", "ON", "federal_cost")] in cells
    assert ["ON", "conditional", "January 29, 2014"] == cells[1][:3]
    paragraphs = [p.text for p in document.paragraphs]
    signs = paragraphs[paragraphs.index("Who would sign") + 1:paragraphs.index("What changed since January 1, 2014")]
    assert any(line.endswith("0 of 13 would sign") and line.startswith("Federal: ") for line in signs)
    assert "fails ON — No funding taken from programs that serve vulnerable workers." in signs


def test_the_brief_writes_dates_in_words_in_the_readers_language(client, cjg):
    from docx import Document

    english = unescape(client.get("/jurisdictions/ON/briefing?since=2014-01-01").content.decode())
    french = unescape(client.get("/fr/jurisdictions/ON/briefing?since=2014-01-01").content.decode())
    word = Document(io.BytesIO(client.get("/fr/jurisdictions/ON/briefing.docx?since=2014-01-01").content))
    word_text = "\n".join([p.text for p in word.paragraphs]
                          + [cell.text for table in word.tables for row in table.rows for cell in row.cells])
    assert "January 29, 2014" in english  # Ontario's conditional stance, since
    for text in (french, word_text):
        assert "29 janvier 2014" in text
        assert "1er janvier 2014" in text  # the date picked, as French writes the first of a month
    # No date in figures outside the form's own field and the links that carry it.
    visible = re.sub(r'(value|href)="[^"]*"', "", french)
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", visible)
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", word_text)
    # The title with French punctuation, on the page and in the Word document.
    assert "<h1>Ontario\xa0: Subvention canadienne pour l'emploi</h1>" in french
    assert word.paragraphs[0].text == "Ontario\xa0: Subvention canadienne pour l'emploi"



def page_parts(html: str) -> dict:
    """What a reader sees of the brief page: its title, headings, change lines, quotes and their citations."""
    def text(part: str) -> str:
        return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", "", part))).strip()

    brief = brief_part(html)
    changes = brief[brief.index('class="brief-changes"'):brief.index("</ul>", brief.index('class="brief-changes"'))]
    return {
        "title": text(re.search(r"<h1>(.*?)</h1>", brief, re.S).group(1)),
        "headings": [text(heading) for heading in re.findall(r"<h2[^>]*>(.*?)</h2>", brief, re.S)],
        "changes": [text(line) for line in re.findall(r"<li>(.*?)</li>", changes, re.S)],
        "quotes": [text(quote) for quote in re.findall(r'<blockquote class="brief-quote">\s*<p[^>]*>(.*?)</p>', brief, re.S)],
        "citations": [text(footer) for footer in re.findall(r"<footer>(.*?)</footer>", brief, re.S)],
    }


def word_parts(content: bytes) -> dict:
    """The same of the Word document, read back with python-docx."""
    from docx import Document

    paragraphs = Document(io.BytesIO(content)).paragraphs
    texts = [p.text for p in paragraphs]
    headings = [p.text for p in paragraphs if p.style.name == "Heading 1"]
    changes_at, quotes_at = texts.index(headings[3]), texts.index(headings[4])
    return {
        "title": texts[0],
        "headings": headings,
        "changes": texts[changes_at + 1:quotes_at],
        "quotes": [p.text for p in paragraphs if p.style.name == "Quote"],
        "citations": [text for text in texts[quotes_at:] if text.startswith("— ")],
        "paragraphs": paragraphs,
    }


# The Canadian Press's article of January 29, 2014, published in English, with a French translation of its title on record.
PUBLISHED = "Provinces and territories hold out for more flexibility and ready a counter-proposal on the job grant"
TRANSLATED = "Les provinces et les territoires réclament plus de souplesse"


@pytest.mark.parametrize(("language", "before", "after"), [("", "“", "”"), ("/fr", "«\xa0", "\xa0»")])
def test_the_page_and_the_word_document_say_the_same_in_each_language(client, cjg, language, before, after):
    # The French Word document gave the source's title in French translation and quotes between “ ”, where the page
    # and the PDF gave the title as the source published it and « »; its changes wrote a new stance as
    # "Ontario : conditionnelle (Subvention…)" where the page wrote "ON passe de « s'oppose » à « conditionnelle »"
    # (a new stance now names its government on both: "Ontario : passe de…").
    address = f"{language}/jurisdictions/ON/briefing"
    page = page_parts(client.get(f"{address}?since=2014-01-01").content.decode())
    word = word_parts(client.get(f"{address}.docx?since=2014-01-01").content)
    assert word["title"] == page["title"]
    assert word["headings"] == page["headings"]
    assert word["changes"] == page["changes"]
    assert word["citations"] == page["citations"]
    assert f"{before}{PUBLISHED}{after}" in word["citations"][0]
    assert not any(TRANSLATED in citation for citation in word["citations"] + page["citations"])
    assert word["quotes"][0] == page["quotes"][0] == f"{before}inherently reasonable{after}"
    assert all(quote.startswith(before) and quote.endswith(after) for quote in word["quotes"])
    # The title as published and the quotes are marked in their language, as the page marks them (lang="en").
    citation = next(p for p in word["paragraphs"] if PUBLISHED in p.text)
    run = next(run for run in citation.runs if PUBLISHED in run.text)
    assert run._element.rPr.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}lang").get(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val").startswith("en")


def test_the_headings_are_the_same_in_the_french_page_word_document_and_pdf(client, cjg):
    page = page_parts(client.get("/fr/negotiations/canada-job-grant/briefing").content.decode())
    word = word_parts(client.get("/fr/negotiations/canada-job-grant/briefing.docx").content)
    assert page["headings"] == word["headings"] == [
        "La position de chaque gouvernement", "La dernière offre de chaque partie", "Qui signerait",
        "Ce qui a changé depuis le 5 janvier 2014", "Citations clés", "Dates clés"]


@needs_pdf
def test_the_french_pdf_says_what_the_page_says(client, cjg):
    from pypdf import PdfReader

    page = page_parts(client.get("/fr/jurisdictions/ON/briefing?since=2014-01-01").content.decode())
    reader = PdfReader(io.BytesIO(client.get("/fr/jurisdictions/ON/briefing.pdf?since=2014-01-01").content))
    text = re.sub(r"[ \t\r\n]+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert page["title"] in text
    positions = [text.index(heading) for heading in page["headings"]]
    assert positions == sorted(positions)
    # Needs the French of "moves from %(old)s to %(new)s" compiled (/tmp/fr2.json).
    assert "Ontario : passe de « s'oppose » à « conditionnelle »" in text.replace("\xa0", " ")
    assert f"« {PUBLISHED[:40]}" in text.replace("\xa0", " ") and TRANSLATED not in text


def test_prose_names_the_government_where_tables_and_lists_keep_its_code(client, cjg):
    # "Fiscal effect for ON, per year at full scale" and "ON moves from opposes to conditional": a code in a sentence.
    # The table of stances, the lists of who would sign and the quotes' attributions keep ON (compact labels).
    html = client.get("/jurisdictions/ON/briefing?since=2014-01-01").content.decode()
    page = page_parts(html)
    assert "January 29, 2014 · Ontario: moves from opposes to conditional" in page["changes"]
    assert not any(" ON " in f" {line} " for line in page["changes"])
    captions = re.findall(r'<p class="brief-caption"[^>]*>(.*?)</p>', html)
    assert captions == ["Ontario: fiscal effect per year at full scale"] * 2  # each side's latest offer
    assert '<th scope="row">ON</th>' in html and "Brad Duguid (ON)" in html
    assert "fails ON —" in visible(html, 'id="brief-sign"', 'id="brief-changes"')
    word = word_parts(client.get("/jurisdictions/ON/briefing.docx?since=2014-01-01").content)
    assert word["changes"] == page["changes"]
    assert "Ontario: fiscal effect per year at full scale" in [p.text for p in word["paragraphs"]]


def test_the_figures_caption_names_each_pt_and_the_country_for_ottawa(cjg):
    # Each of the 13 P/Ts by its name before a colon: no article to guess ("for the Northwest Territories",
    # « pour l'Ontario », « pour le Québec »); Ottawa's brief shows the country's figures.
    import dataclasses

    from briefings.brief import brief
    from negotiations.models import Jurisdiction

    ontario = brief(negotiation=cjg, jurisdiction=Jurisdiction.objects.get(code="ON"))
    for jurisdiction in Jurisdiction.objects.all():
        caption = dataclasses.replace(ontario, jurisdiction=jurisdiction).effect_caption
        if jurisdiction.is_federal:
            assert caption == "Fiscal effect for the country, per year at full scale"
        else:
            assert caption == f"{jurisdiction.name_en}: fiscal effect per year at full scale"
    assert dataclasses.replace(ontario, jurisdiction=None).effect_caption.startswith("Fiscal effect for the country")


# The French of this change's new msgids (/tmp/fr2.json): this test passes once the catalogue is compiled with them.
def test_in_french_the_brief_names_the_government_before_a_colon_and_explains_an_unknown_negotiation(client, cjg):
    from docx import Document

    html = unescape(client.get("/fr/jurisdictions/QC/briefing?negotiation=nope").content.decode())
    assert "Il n'y a aucune négociation «\xa0nope\xa0». Choisissez-en une dans la liste." in html
    assert "Québec\xa0: incidence financière par année à pleine ampleur" in html
    assert "pour QC" not in html
    page = page_parts(client.get("/fr/jurisdictions/ON/briefing?since=2014-01-01").content.decode())
    assert "29 janvier 2014 · Ontario\xa0: passe de «\xa0s'oppose\xa0» à «\xa0conditionnelle\xa0»" in page["changes"]
    document = Document(io.BytesIO(client.get("/fr/jurisdictions/ON/briefing.docx").content))
    assert "Ontario\xa0: incidence financière par année à pleine ampleur" in [p.text for p in document.paragraphs]
