"""The brief as a Word document (python-docx), for readers who must edit it before a meeting.

The same value as the page and the PDF (briefings.brief.Brief), in the same order and words: the headings, the
changes' lines and the figures' caption are the brief's own (Brief.headings, Brief.change_lines,
Brief.effect_caption), quotes and titles stand between the reader's marks (config.figures.quoted: “ ” or « »),
a citation gives the title as the source published it, and words in another language than the reader's are
marked with it (w:lang), as the page marks them (lang="en").
"""

import io

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt

from briefings.brief import Brief, OfferRow
from config.figures import quoted
from config.numbers import colon, format_date
from negotiations.acceptance import UNKNOWN
from negotiations.selectors.verdicts import VERDICT_LABELS

# A language of the record as Word names it (its spelling and grammar checks follow it).
WORD_LANGUAGES = {"en": "en-CA", "fr": "fr-CA"}


def _in_language(properties, language: str) -> None:
    """Mark a run's (or a style's) text as written in ``language`` ("en", "fr")."""
    lang = properties.find(qn("w:lang"))
    if lang is None:
        lang = OxmlElement("w:lang")
        properties.insert_element_before(lang, "w:eastAsianLayout", "w:specVanish", "w:oMath")
    lang.set(qn("w:val"), WORD_LANGUAGES.get(language, language))


def _add_run(paragraph, text: str, language: str = ""):
    run = paragraph.add_run(text)
    if language:
        _in_language(run._element.get_or_add_rPr(), language)
    return run


def _side_title(row: OfferRow) -> str:
    side = _("Federal") if row.side == "federal" else _("Provinces and territories")
    return f"{colon(side)} {row.offer.title}"


def _table(document, header: list[str], rows: list[list[str]]):
    table = document.add_table(rows=1, cols=len(header))
    table.style = "Light Grid Accent 1"
    for cell, text in zip(table.rows[0].cells, header):
        cell.text = text
    for row in rows:
        for cell, text in zip(table.add_row().cells, row):
            cell.text = text
    return table


def docx_bytes(brief: Brief) -> bytes:
    document = Document()
    document.styles["Normal"].font.size = Pt(10)
    _in_language(document.styles["Normal"].element.get_or_add_rPr(), (get_language() or "en")[:2])
    headings = brief.headings
    document.add_heading(brief.title, level=0)
    document.add_paragraph(
        _("Record as of %(latest)s. Changes counted since %(since)s.") % {
            "latest": format_date(brief.latest_event) if brief.latest_event else "—",
            "since": format_date(brief.since)}
    )

    document.add_heading(headings["stances"], level=1)
    if brief.stances:
        _table(document, [_("Government"), _("Stance"), _("Since"), _("In short")], [
            [", ".join(j.code for j in row.jurisdictions), row.stance_label, format_date(row.since), row.summary]
            for row in brief.stances
        ])
    else:
        document.add_paragraph(_("No position recorded yet."))

    document.add_heading(headings["offers"], level=1)
    for row in brief.offers:
        document.add_heading(_side_title(row), level=2)
        document.add_paragraph(f"{format_date(row.offer.tabled_on, row.offer.date_precision)} · {colon(_('tabled by'))} {row.tabled_by} · "
                               f"{row.offer.get_status_display()}")
        if row.headline.figures:
            document.add_paragraph(brief.effect_caption)
            _table(document, [_("Figure"), _("Amount")],
                   [[str(figure.label), figure.text] for figure in row.headline.figures])
        else:
            document.add_paragraph(_("No fiscal effect: the offer's terms do not add up."))
    if not brief.offers:
        document.add_paragraph(_("No offer recorded yet."))

    document.add_heading(headings["sign"], level=1)
    if brief.offers:
        document.add_paragraph(_("Each P/T's conditions, under its position in force on the offer's date; a condition "
                                 "in words only gives “unknown”, never a guess."))
    for row in brief.offers:
        document.add_paragraph().add_run(
            f"{_side_title(row)} · " + _("%(meets)s of %(total)s would sign") % {
                "meets": row.acceptance.meets, "total": row.acceptance.total}).bold = True
        for sign in row.signs:
            line = f"{VERDICT_LABELS[sign.verdict]} {', '.join(sign.codes)}"
            if sign.conditions:
                prefix = _("Cannot be checked:") + " " if sign.verdict == UNKNOWN else ""
                line += f" — {prefix}{sign.reasons}"
            document.add_paragraph(line, style="List Bullet")
    if not brief.offers:
        document.add_paragraph(_("No offer recorded yet."))

    document.add_heading(headings["changes"], level=1)
    for line in brief.change_lines:
        paragraph = document.add_paragraph(f"{format_date(line.date)} · {line.label} ", style="List Bullet")
        _add_run(paragraph, line.text, line.language)
    if not brief.changes:
        document.add_paragraph(_("Nothing recorded since then."))

    document.add_heading(headings["quotes"], level=1)
    for statement in brief.quotes:
        _add_run(document.add_paragraph(style="Quote"), quoted(statement.quote), statement.language)
        who = statement.speaker.name + (f" ({statement.jurisdiction.code})" if statement.jurisdiction else "")
        source = statement.source
        citation = document.add_paragraph(
            f"— {who}, {format_date(statement.date, statement.date_precision)}. {source.outlet}, ")
        # A citation: the title as the source published it, in its language (the page's rule), not its translation.
        _add_run(citation, quoted(source.published_title), source.language)
        if source.url:
            citation.add_run(f" {source.url}")
    if not brief.quotes:
        document.add_paragraph(_("No statement recorded yet."))

    if brief.key_dates:
        document.add_heading(headings["dates"], level=1)
        for key_date in brief.key_dates:
            document.add_paragraph(
                f"{format_date(key_date.date, key_date.date_precision)} · {key_date.title} ({key_date.get_kind_display()}; "
                f"{key_date.source.outlet})", style="List Bullet")

    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
