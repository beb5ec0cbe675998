"""What input the record accepts: the dates, the lengths of free text, the characters. Pure: no Django.

One place for each bound, used by the model validators and database constraints, the forms, the
admin, the loader and the pages that span time, so that they all agree.
"""

import datetime
import re
import unicodedata

# Dates: a negotiation of the twentieth or twenty-first century; a typo such as year 0014 or 9999
# is refused with a message naming this range.
EARLIEST_DATE = datetime.date(1900, 1, 1)
LATEST_DATE = datetime.date(2100, 12, 31)

# The longest span, in months, a page that spans time draws (the stance matrix): 20 years. A record
# written by hand outside the range above cannot make a page wider than this.
MAX_SPAN_MONTHS = 240

# Free text, in characters. A quote is a few sentences; a summary a paragraph or two; notes,
# outcomes and assumptions a page; an article's full text a long article.
QUOTE_LENGTH = 4_000
SUMMARY_LENGTH = 4_000
CONDITIONS_LENGTH = 4_000
NOTES_LENGTH = 10_000
OUTCOME_LENGTH = 10_000
ASSUMPTIONS_LENGTH = 10_000
ARTICLE_TEXT_LENGTH = 200_000
# A passage of a source quoted word for word, like a quote; the reasoning or assumption behind one
# term of an offer; why an offer was withdrawn.
PASSAGE_LENGTH = 4_000
TERM_NOTE_LENGTH = 4_000
WITHDRAWAL_REASON_LENGTH = 2_000
# The quotes one article import proposes for review: a long article gives a few dozen. A transcript gives
# thousands, whose review page (a form for each: 430 KB and half a second for 100) would run to megabytes;
# it is imported in parts.
IMPORT_QUOTES = 100

# C0 control characters and DEL, less the tab, line feed and carriage return a text area sends; and U+FFFE and U+FFFF,
# which are no characters at all: XML cannot hold them, so one in a quote made every Atom feed it is in unreadable
# and the Word brief a 500.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_CONTROL_ANY = re.compile(r"[\x00-\x1f\x7f\ufffe\uffff]")


def date_in_range(value: datetime.date) -> bool:
    return EARLIEST_DATE <= value <= LATEST_DATE


def has_control_characters(text: str, *, allow_line_breaks: bool = True) -> bool:
    """True when `text` holds a NUL or another control character (tabs and line breaks allowed unless told)."""
    return bool((_CONTROL if allow_line_breaks else _CONTROL_ANY).search(text))


def without_control_characters(text: str) -> str:
    """`text` less the control characters ``has_control_characters`` finds; a page break (form feed, vertical
    tab, pasted from a PDF) ends a line."""
    return _CONTROL.sub("", text.replace("\f", "\n").replace("\v", "\n"))


def shows_nothing(text: str) -> bool:
    """True when `text` is invisible format characters (zero-width spaces and joiners, a byte order mark), with spaces
    or not, and nothing a reader sees: a required field's own check takes them for text, as it does not spaces."""
    invisible = [character for character in text if not character.isspace()]
    return bool(invisible) and all(unicodedata.category(character) == "Cf" for character in invisible)


def months_between(first: datetime.date, last: datetime.date) -> int:
    """How many months from first's month to last's month, both counted."""
    return (last.year - first.year) * 12 + last.month - first.month + 1


def add_months(month: datetime.date, count: int) -> datetime.date:
    """The first day of the month `count` months after `month`'s (count may be negative)."""
    index = month.year * 12 + month.month - 1 + count
    return datetime.date(index // 12, index % 12 + 1, 1)


def densest_window(dates: list[datetime.date], first: datetime.date, last: datetime.date,
                   size: int = MAX_SPAN_MONTHS) -> tuple[datetime.date, datetime.date]:
    """The first days of the first and last months of the span a page draws.

    From `first` to `last` when that is at most `size` months; otherwise the `size` months that hold
    the most of `dates` (sorted or not; the latest such window on a tie), so that one far-dated row
    cannot stretch the page nor hide the rest of the record.
    """
    first, last = first.replace(day=1), last.replace(day=1)
    if months_between(first, last) <= size:
        return first, last
    months = sorted(d.year * 12 + d.month - 1 for d in dates if first <= d.replace(day=1) <= last)
    if not months:
        end = last.year * 12 + last.month - 1
    else:
        best_count, end, start_index = 0, months[-1], 0
        for index, month in enumerate(months):
            while months[start_index] <= month - size:
                start_index += 1
            count = index - start_index + 1
            if count >= best_count:
                best_count, end = count, month
    start = end - size + 1
    return datetime.date(start // 12, start % 12 + 1, 1), datetime.date(end // 12, end % 12 + 1, 1)
