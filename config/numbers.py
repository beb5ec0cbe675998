"""The one formatter of numbers, money, shares and dates, in the reader's language: $15,000 or 15 000 $,
0.15 or 0,15, 15% or 15 %, January 28, 2014 or 28 janvier 2014; and of a label's colon, Title: or Titre :.

Pages (through ``config.figures``' template filters), the fiscal tables and charts, the live preview,
the CSV export, the admin, briefs and the messages people read (the terms' rules) all write figures
through ``numbers()``; JSON keeps its own exact strings (API.md). ``negotiations.money`` reads what
people type; this module writes.
"""

import datetime
import functools
from decimal import ROUND_DOWN, Decimal

from django.utils.formats import date_format, get_format, number_format
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

__all__ = ["Numbers", "colon", "format_as_of", "format_count", "format_date", "format_decimal", "format_fiscal_year", "format_money",
           "format_percent", "numbers"]


# perf: bench/run "fiscal page" (cache off) and "preview POST": hundreds of figures a page, each written
# without Django's per-call locale lookups.
class Numbers:
    """How one language writes counts and money; ``numbers()`` gives the current language's.

    Writes what Django's ``number_format(value, decimal_pos=places, force_grouping=True)`` writes
    (except "-0": a negative value cut to zero is written 0), at a fraction of its cost (a fiscal
    table shows hundreds of figures, the live preview two dozen on every keystroke): the language's
    separators and money pattern are looked up once per process.
    """

    def __init__(self, language: str | None) -> None:
        self.language = language
        # Translators: how an amount of dollars is written; French: "%(amount)s $" (a no-break space).
        self.money_pattern = _("$%(amount)s")
        # Translators: a percentage; French: "%(number)s %%" (a no-break space before the sign).
        self.percent_pattern = _("%(number)s%%")
        # A str.translate table from Python's "1,234.5" to the language's; None where it does not
        # group digits by threes (Django's number_format then does the work).
        self.separators = None
        if get_format("NUMBER_GROUPING", language) == 3:
            self.separators = {ord(","): get_format("THOUSAND_SEPARATOR", language),
                               ord("."): get_format("DECIMAL_SEPARATOR", language)}

    def grouped(self, value: int | Decimal, places: int = 0) -> str:
        """``value`` with thousands separators and ``places`` decimals (cut, not rounded)."""
        if self.separators is None:
            return number_format(value, decimal_pos=places, force_grouping=True)
        if isinstance(value, int):
            text = f"{value:,}" if places == 0 else f"{value:,}.{'0' * places}"
        else:
            cut = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN)
            text = f"{cut if cut else abs(cut):,f}"  # what rounds to zero is written without a sign
        return text.translate(self.separators)

    def count(self, value: int) -> str:
        """A whole count with thousands separators."""
        return self.grouped(value)

    def decimal(self, value: Decimal, places: int = 4) -> str:
        """A share, rate or fraction with at most ``places`` decimals, trailing zeros dropped: 0.15, 0,15."""
        value = Decimal(value).quantize(Decimal(1).scaleb(-places))
        shown = max(0, -value.normalize().as_tuple().exponent) if value else 0
        return self.grouped(value, shown)

    def percent(self, fraction: Decimal) -> str:
        """A fraction such as 0.15 as a percentage, trailing zeros dropped: 15%, 15 %."""
        return self.percent_pattern % {"number": self.decimal(Decimal(fraction) * 100, 4)}

    def money(self, amount: Decimal) -> str:
        """Dollars with thousands separators; cents only when there are any; a minus sign when negative."""
        amount = Decimal(amount)
        places = 0 if amount == amount.to_integral_value() else 2
        text = self.money_pattern % {"amount": self.grouped(abs(amount), places)}
        return f"\u2212{text}" if amount < 0 else text

    def line(self, line: str, value: int | Decimal) -> str:
        """A line's value as the pages show it: trainees as a count, every other line as money."""
        return self.count(value) if line == "trainees" else self.money(value)

    def change(self, line: str, value: int | Decimal) -> str:
        """A difference, always signed so the direction reads without colour."""
        text = self.line(line, abs(value))
        if value > 0:
            return f"+{text}"
        if value < 0:
            return f"\u2212{text}"
        return text


@functools.lru_cache(maxsize=16)
def _numbers(language: str | None) -> Numbers:
    return Numbers(language)


def numbers() -> Numbers:
    """The current language's way of writing numbers."""
    return _numbers(get_language())


def format_count(value: int) -> str:
    """A whole count with thousands separators, in the current language."""
    return numbers().count(value)


def format_money(amount: Decimal) -> str:
    """Dollars with thousands separators; cents only when there are any; a minus sign when negative."""
    return numbers().money(amount)


def format_date(value: datetime.date, precision: str = "day") -> str:
    """A date in the current language, as precise as it is known: 28 janvier 2014, janvier 2014, 2014."""
    if precision == "month":
        return date_format(value, "YEAR_MONTH_FORMAT")
    if precision == "year":
        return str(value.year)
    written = date_format(value, "DATE_FORMAT")
    if value.day == 1 and (get_language() or "").startswith("fr") and written.startswith("1 "):
        return "1er" + written[1:]  # le 1er avril 2014, as French writes the first of a month
    return written


def format_as_of(value: datetime.date, precision: str = "day") -> str:
    """"As of" a date at its precision, a phrase each language writes its own way: as of January 28, 2014, as of
    about January 28, 2014, as of January 2014; au 28 janvier 2014, vers le 28 janvier 2014, en janvier 2014 ("as
    of" then the date read « au vers le 28 janvier », « au janvier 2014 »)."""
    if precision == "approximate":
        return pgettext("a stance as of a date", "as of about %(date)s") % {"date": format_date(value)}
    if precision in ("month", "year"):
        return pgettext("a stance as of a month or a year", "as of %(date)s") % {"date": format_date(value, precision)}
    return pgettext("a stance as of a day", "as of %(date)s") % {"date": format_date(value)}


def format_percent(fraction: Decimal) -> str:
    """A fraction such as 0.15 as "15%" (trailing zeros dropped), in the current language."""
    return numbers().percent(fraction)


def format_decimal(value: Decimal, places: int = 4) -> str:
    """A share, rate or fraction (trailing zeros dropped) in the current language: 0.15, 0,15."""
    return numbers().decimal(value, places)


def colon(label) -> str:
    """A label and its colon as the reader's language writes it: "Title:", "Titre :" (a no-break space)."""
    return pgettext("a label and its colon", "%(label)s:") % {"label": label}


# A month abbreviated as each language's style books do: AP style in English (Jan., March, Sept.), the Office québécois
# de la langue française's in French (janv., févr., juill.), where Django's French gives "jan." and "fév.".
_SHORT_MONTHS = (
    pgettext_lazy("a month, abbreviated", "Jan."), pgettext_lazy("a month, abbreviated", "Feb."),
    pgettext_lazy("a month, abbreviated", "March"), pgettext_lazy("a month, abbreviated", "April"),
    pgettext_lazy("a month, abbreviated", "May"), pgettext_lazy("a month, abbreviated", "June"),
    pgettext_lazy("a month, abbreviated", "July"), pgettext_lazy("a month, abbreviated", "Aug."),
    pgettext_lazy("a month, abbreviated", "Sept."), pgettext_lazy("a month, abbreviated", "Oct."),
    pgettext_lazy("a month, abbreviated", "Nov."), pgettext_lazy("a month, abbreviated", "Dec."),
)


def format_short_month(value: datetime.date) -> str:
    """A month and its year, the month abbreviated, for a column heading: "Jan. 2014", "janv. 2014"."""
    return f"{_SHORT_MONTHS[value.month - 1]} {value.year}"


def format_fiscal_year(year: str) -> str:
    """A fiscal year as the reader's language writes it: 2014-15 in English, 2014-2015 in French. The record, the
    API and what people type keep the short form (2014-15); anything else is given back as it is."""
    first, dash, last = str(year).partition("-")
    if not (dash and len(first) == 4 and len(last) == 2 and first.isdigit() and last.isdigit()):
        return str(year)
    # Translators: how many digits of a fiscal year's last year are written: 2 (2014-15) or, in French, 4 (2014-2015).
    if pgettext("digits of a fiscal year's last year", "2") == "4":
        return f"{first}-{int(first) + 1:04d}"
    return f"{first}-{last}"
