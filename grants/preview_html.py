"""The HTML of the offer form's ``#fiscal-preview`` region, written in Python.

The live preview is rendered again on every change to the offer form. Through Django's template
engine this region cost about 1 ms of CPU, a third of the whole request (fourteen translated strings
looked up each time, twelve rows of variables, each escaped); written here it costs a tenth of that.
It is the one region of the project rendered outside a template, for that reason alone.

What it shows: the national lines, the most affected provinces and territories, and the change
from the offer answered; or the problems that keep the terms from being computed. Every value is
escaped (``escape``: the standard library's, which Django's own calls), every figure comes
formatted (``grants.presentation.Numbers``), and every string is marked for translation,
translated once per language and process.
"""

import functools
import html
from collections.abc import Sequence

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _


def escape(value) -> str:
    """``value`` as text escaped for HTML: what Django's ``escape`` writes, without its wrappers
    (every value here is plain text, never markup already made safe)."""
    return html.escape(str(value))


@functools.lru_cache(maxsize=8)
def _texts(language: str | None) -> dict[str, str]:
    """The region's fixed strings in ``language`` (the active one), escaped for HTML."""
    texts = {
        "no_figures": _("No figures yet: the terms do not add up."),
        "compared": _("Compared with “%(title)s”, the offer these terms answer."),
        "in_year": _("In %(year)s, with every employer paying its share."),
        "full_scale": _("A year at full scale, with every employer paying its share."),
        "national_caption": _("National figures for these terms"),
        "canada": _("Canada"),
        "these_terms": _("These terms"),
        "change": _("Change"),
        "same": _("same"),
        "most_affected": _("Most affected"),
        "affected_caption": _("The provinces and territories that must find the most"),
        "province": _("Province or territory"),
        "must_find": _("Must find"),
        "backfill": _("of which LMA backfill"),
        "must_find_means": _("“Must find” is new provincial money plus what it takes to keep today's LMA programs going."),
    }
    return {name: conditional_escape(text) for name, text in texts.items()}


def problems_html(problems: Sequence) -> SafeString:
    """The problems (``label``, ``message``) that keep the terms from being computed."""
    text = _texts(get_language())
    items = "".join(
        format_html("<li><strong>{}:</strong> {}</li>", problem.label, problem.message) if problem.label
        else format_html("<li>{}</li>", problem.message)
        for problem in problems
    )
    return mark_safe(
        '<div class="preview-problems" role="alert">\n'
        f'  <p><strong>{text["no_figures"]}</strong></p>\n'
        f"  <ul>\n    {items}\n  </ul>\n"
        "</div>\n"
    )


def figures_html(*, lines: Sequence, most_affected: Sequence, answered_title: str | None,
                 fiscal_year: str | None) -> SafeString:
    """The national lines (with their change when the terms answer an offer) and the most affected P/Ts."""
    text = _texts(get_language())
    parts = []
    if answered_title is not None:
        compared = text["compared"] % {"title": escape(answered_title)}
        parts.append(f'<p class="small preview-compared">{compared}</p>\n')
    scenario = text["in_year"] % {"year": escape(fiscal_year)} if fiscal_year else text["full_scale"]
    parts.append(f'<p class="muted small preview-scenario">\n  {scenario}\n</p>\n')

    change_head = f'\n      <th scope="col" class="num">{text["change"]}</th>' if answered_title is not None else ""
    parts.append(
        '<table class="preview-table">\n'
        f'  <caption class="visually-hidden">{text["national_caption"]}</caption>\n'
        "  <thead>\n    <tr>\n"
        f'      <th scope="col">{text["canada"]}</th>\n'
        f'      <th scope="col" class="num">{text["these_terms"]}</th>{change_head}\n'
        "    </tr>\n  </thead>\n  <tbody>\n"
    )
    for line in lines:
        key = ' class="key-line"' if line.name == "provinces_need" else ""
        change = ""
        if answered_title is not None:
            shown = f'<span class="muted">{text["same"]}</span>' if line.direction == "same" else escape(line.change)
            change = f'\n      <td class="num change change-{escape(line.direction)}">{shown}</td>'
        parts.append(f'    <tr data-line="{escape(line.name)}"{key}>\n      <th scope="row">{escape(line.label)}</th>\n'
                     f'      <td class="num">{escape(line.value)}</td>{change}\n    </tr>\n')
    parts.append("  </tbody>\n</table>\n")

    if most_affected:
        parts.append(
            f'<h3 class="preview-subhead">{text["most_affected"]}</h3>\n'
            '<table class="preview-table affected-table">\n'
            f'  <caption class="visually-hidden">{text["affected_caption"]}</caption>\n'
            "  <thead>\n    <tr>\n"
            f'      <th scope="col">{text["province"]}</th>\n'
            f'      <th scope="col" class="num">{text["must_find"]}</th>\n'
            f'      <th scope="col" class="num">{text["backfill"]}</th>\n'
            "    </tr>\n  </thead>\n  <tbody>\n"
        )
        for row in most_affected:
            parts.append(f'    <tr data-code="{escape(row.code)}">\n      <th scope="row">{escape(row.name)}</th>\n'
                         f'      <td class="num">{escape(row.provinces_need)}</td>\n'
                         f'      <td class="num">{escape(row.lma_diverted)}</td>\n    </tr>\n')
        parts.append("  </tbody>\n</table>\n")
    parts.append(f'<p class="muted small">{text["must_find_means"]}</p>\n')
    return mark_safe("".join(parts))
