"""Money as people type it, read into an exact ``Decimal``: the one money parser (pure Python, no Django).

Understood: ``15000``, ``15000.50``, ``$15,000``, ``300,000,000``, ``$300M``, ``300 million``,
``$1.2B``, ``3.75 k``, ``CA$ 500``, and the French forms ``15 000,50``, ``300 000 000 $``,
``3,75 k``, ``300 millions de dollars``, ``1,2 milliard``. A leading minus is kept (the terms' rules
refuse a negative amount with their own message). Anything else raises ``MoneyError`` whose
message says what was wrong and shows an example.

The message is English; callers that show it to people translate it (``MoneyError.code`` names the
problem, ``MoneyError.params`` fills it).
"""

import re
from decimal import Decimal, InvalidOperation

__all__ = ["MoneyError", "parse_money", "EXAMPLE", "decimal_point"]

MAX_LENGTH = 60


def gettext_noop(message: str) -> str:
    """Marks a message for the translation catalogue (makemessages finds it); callers translate it."""
    return message


EXAMPLE = gettext_noop("$15,000, 15000, $300M or 300 million")  # callers translate it with the message

# Every kind of space people (and word processors) put in numbers: French thousands use U+202F or U+00A0.
_SPACES = re.compile(r"[\s\u00a0\u2007\u202f\u2009]+")
_MINUS = ("-", "\u2212", "\u2013")

_SCALES = {
    "k": 3, "thousand": 3, "thousands": 3, "mille": 3, "milles": 3,
    "m": 6, "mm": 6, "mn": 6, "mln": 6, "million": 6, "millions": 6,
    "b": 9, "bn": 9, "g": 9, "billion": 9, "billions": 9, "milliard": 9, "milliards": 9,
}
_CURRENCY = r"(?:\$|ca\$|c\$|cad|dollars?|de\s+dollars?)"
_NUMBER = r"[0-9][0-9 ,.]*"
_SHAPE = re.compile(
    rf"^(?P<sign>-)?\s*(?:{_CURRENCY}\s*)?(?P<sign2>-)?\s*(?P<number>{_NUMBER}?)\s*"
    rf"(?P<scale>(?!cad\b|dollars?\b|de\b)[a-z]+)?\s*(?:{_CURRENCY})?$"
)
# The number alone, in the accepted groupings. English: 1,234,567.89; French: 1 234 567,89; plain: 1234567.89 or 1234,5.
_ENGLISH = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_FRENCH = re.compile(r"^\d{1,3}(?: \d{3})+(?:,\d+)?$")
_PLAIN_POINT = re.compile(r"^\d+(?:\.\d+)?$")
_PLAIN_COMMA = re.compile(r"^\d+,(?:\d{1,2}|\d{4,})$")  # a comma before exactly three digits is a thousands mark


class MoneyError(ValueError):
    """Text that is not an amount of money; ``message`` says why and shows an example."""

    def __init__(self, code: str, message: str, **params: str):
        super().__init__(message % params if params else message)
        self.code = code
        self.message = str(self)
        self.template = message
        self.params = params


def _number(text: str) -> Decimal | None:
    if _ENGLISH.match(text):
        return Decimal(text.replace(",", ""))
    if _FRENCH.match(text):
        return Decimal(text.replace(" ", "").replace(",", "."))
    if _PLAIN_POINT.match(text):
        return Decimal(text)
    if _PLAIN_COMMA.match(text):
        return Decimal(text.replace(",", "."))
    return None


def parse_money(text: str) -> Decimal:
    """The amount ``text`` writes, exactly; ``MoneyError`` when it is not an amount of money."""
    original = text if isinstance(text, str) else str(text)
    cleaned = _SPACES.sub(" ", original).strip().lower()
    for minus in _MINUS:
        cleaned = cleaned.replace(minus, "-")
    if not cleaned:
        raise MoneyError("empty", gettext_noop(
            "No amount was given. Write it like %(example)s."), example=EXAMPLE)
    if len(cleaned) > MAX_LENGTH:
        raise MoneyError("too_long", gettext_noop("That is too long for an amount of money. Write it like %(example)s."),
                         example=EXAMPLE)
    shape = _SHAPE.match(cleaned)
    if not shape or not shape["number"]:
        raise MoneyError(
            "not_money", gettext_noop(
            "“%(text)s” is not an amount of money. Write it with digits, like %(example)s."),
            text=original.strip(), example=EXAMPLE,
        )
    scale = shape["scale"]
    if scale is not None and scale not in _SCALES:
        raise MoneyError(
            "unknown_scale",
            gettext_noop(
            "“%(text)s”: “%(scale)s” is not a known unit. Use k (thousand), M (million) or B (billion), "
            "like $300M or 300 million."),
            text=original.strip(), scale=scale,
        )
    number = _number(shape["number"].strip())
    if number is None:
        raise MoneyError(
            "bad_grouping",
            gettext_noop(
            "“%(text)s”: the digits are not grouped as a number. Group thousands by three, like "
            "300,000,000 or 300 000 000, with the cents after a point (15,000.50) or, in French, a comma (15 000,50)."),
            text=original.strip(),
        )
    try:
        amount = number.scaleb(_SCALES.get(scale, 0)) if scale else number
    except InvalidOperation:  # pragma: no cover - scaleb of a parsed decimal does not fail
        raise MoneyError("not_money", "“%(text)s” is not an amount of money.", text=original.strip()) from None
    if shape["sign"] or shape["sign2"]:
        amount = -amount
    # A whole amount reads as one (3.75k is 3750, not 3750.00); cents are kept as typed.
    try:
        return amount.quantize(Decimal(1)) if amount == amount.to_integral_value() else amount.normalize()
    except InvalidOperation:  # more digits than an amount of money has
        raise MoneyError("too_long", gettext_noop("That is too long for an amount of money. Write it like %(example)s."),
                         example=EXAMPLE) from None


_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")


def decimal_point(text: str) -> str:
    """A fraction as typed, with a French decimal comma read as a point ("0,15" is "0.15"); else as it is."""
    stripped = text.strip()
    return stripped.replace(",", ".") if _DECIMAL_COMMA.fullmatch(stripped) else text
