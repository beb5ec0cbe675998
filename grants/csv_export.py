"""An offer's fiscal effect as CSV: one row per P/T and a national total row, money to the cent.

Figures are plain (no separators, no currency sign, a decimal point in every language) so that
spreadsheets read them as numbers; the rows add up exactly to the total row because the engine's
parts add up to its whole. The values of the code and basis columns are codes (for programs); the header
is words, the names the fiscal page gives the columns, in the reader's language.
"""

import csv
from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from grants import basis, fiscal

HEADER = ("code", "jurisdiction", *fiscal.LINE_NAMES)
_NAMED_COLUMNS = {"code": gettext_lazy("Code"), "jurisdiction": gettext_lazy("Province or territory")}
BASIS_COLUMN = gettext_lazy("Basis")
TOTAL_CODE = "total"

# A cell starting with one of these is a formula to a spreadsheet; names come from the admin.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_SKIPPED_BEFORE_FORMULA = " \n\u00a0\u200b\u200c\u200d\u2060\ufeff"


def rows(effect: fiscal.Effect, names: dict[str, str], *, statuses: dict[str, str] | None = None,
         scale_program: str = "LMA") -> Iterator[list[str]]:
    """The header, the 13 P/T rows in display order, then the national total row.

    With ``statuses`` (term path -> reported, inferred, assumed or missing) a last ``basis`` column
    names the terms the row's figures rest on that were not reported, such as
    ``assumed: scale, phase_in; inferred: max_grant`` (empty: every term behind them was reported).
    """
    yield [*header(), str(BASIS_COLUMN)] if statuses is not None else header()
    for lines in effect.by_jurisdiction:
        yield _row(lines.code, names.get(lines.code, lines.code), lines, statuses, scale_program)
    yield _row(TOTAL_CODE, _("All provinces and territories"), effect.national, statuses, scale_program)


def header() -> list[str]:
    """The columns' names (Code, Province or territory, Trainees, …) in the reader's language."""
    from grants.presentation import LINE_LABELS

    return [str(_NAMED_COLUMNS.get(key) or LINE_LABELS[key]) for key in HEADER]


def write(effect: fiscal.Effect, names: dict[str, str], out, *, statuses: dict[str, str] | None = None,
          scale_program: str = "LMA") -> None:
    """Write the CSV to ``out`` (a file or an HttpResponse)."""
    writer = csv.writer(out)
    writer.writerows(rows(effect, names, statuses=statuses, scale_program=scale_program))


def basis_cell(statuses: dict[str, str], scale_program: str, code: str | None) -> str:
    """The terms behind a row's figures that were not reported, grouped by status (``code`` None: all P/Ts)."""
    behind: set[str] = set()
    for line in fiscal.LINE_NAMES:
        behind.update(basis.terms_behind(line, statuses, scale_program=scale_program))
    if code is not None:
        behind = {path for path in behind if not path.startswith("treatments.") or path == f"treatments.{code}"}
    parts = []
    for status in ("assumed", "inferred", "missing"):
        paths = [path for path in statuses if path in behind and statuses[path] == status]
        if paths:
            parts.append(f"{status}: {', '.join(paths)}")
    return "; ".join(parts)


def filename(slug: str, effect: fiscal.Effect) -> str:
    """A file name that says which scenario the figures are for."""
    parts = [slug, "fiscal-effect"]
    if effect.scenario.fiscal_year:
        parts.append(effect.scenario.fiscal_year)
    if effect.scenario.participation != 1:
        parts.append(f"participation-{effect.scenario.participation}")
    return "-".join(parts) + ".csv"


def _row(code: str, name: str, lines: fiscal.Lines, statuses=None, scale_program: str = "LMA") -> list[str]:
    row = [code, _safe(name), *(_cell(getattr(lines, line)) for line in fiscal.LINE_NAMES)]
    if statuses is not None:
        row.append(basis_cell(statuses, scale_program, None if code == TOTAL_CODE else code))
    return row


def _cell(value: int | Decimal) -> str:
    return str(value) if isinstance(value, int) else str(fiscal.money(value))


def _safe(text: str) -> str:
    # Spreadsheets skip leading spaces, line breaks and invisible characters before reading "=": so does this.
    return f"'{text}" if text.lstrip(_SKIPPED_BEFORE_FORMULA).startswith(_FORMULA_START) else text
