"""An offer's fiscal effect as CSV: one row per P/T and a national total row, money to the cent.

Figures are plain (no separators, no currency sign) so that spreadsheets read them as numbers;
the rows add up exactly to the total row because the engine's parts add up to its whole.
"""

import csv
from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext as _

from grants import fiscal

HEADER = ("code", "jurisdiction", *fiscal.LINE_NAMES)
TOTAL_CODE = "total"

# A cell starting with one of these is a formula to a spreadsheet; names come from the admin.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def rows(effect: fiscal.Effect, names: dict[str, str]) -> Iterator[list[str]]:
    """The header, the 13 P/T rows in display order, then the national total row."""
    yield list(HEADER)
    for lines in effect.by_jurisdiction:
        yield _row(lines.code, names.get(lines.code, lines.code), lines)
    yield _row(TOTAL_CODE, _("All provinces and territories"), effect.national)


def write(effect: fiscal.Effect, names: dict[str, str], out) -> None:
    """Write the CSV to ``out`` (a file or an HttpResponse)."""
    writer = csv.writer(out)
    writer.writerows(rows(effect, names))


def filename(slug: str, effect: fiscal.Effect) -> str:
    """A file name that says which scenario the figures are for."""
    parts = [slug, "fiscal-effect"]
    if effect.scenario.fiscal_year:
        parts.append(effect.scenario.fiscal_year)
    if effect.scenario.participation != 1:
        parts.append(f"participation-{effect.scenario.participation}")
    return "-".join(parts) + ".csv"


def _row(code: str, name: str, lines: fiscal.Lines) -> list[str]:
    return [code, _safe(name), *(_cell(getattr(lines, line)) for line in fiscal.LINE_NAMES)]


def _cell(value: int | Decimal) -> str:
    return str(value) if isinstance(value, int) else str(fiscal.money(value))


def _safe(text: str) -> str:
    return f"'{text}" if text.startswith(_FORMULA_START) else text
