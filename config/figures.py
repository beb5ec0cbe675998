"""Template filters that write figures through the one formatter (config.numbers.Numbers).

Loaded as ``{% load figures %}`` (settings: TEMPLATES "libraries"), so that every page, the record's
as well as the fiscal ones, writes $15,000 / 15 000 $ and 0.15 / 0,15 the same way.
"""

from decimal import Decimal, InvalidOperation

from django import template
from django.conf import settings
from django.utils.translation import get_language, pgettext

from config.numbers import colon, format_as_of, format_date, format_fiscal_year, format_short_month, numbers
from negotiations.term_basis import failure_reason

register = template.Library()


def _decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


@register.filter
def money(value):
    """Dollars in the reader's language: $15,000 or 15 000 $."""
    amount = _decimal(value)
    return "" if amount is None else numbers().money(amount)


@register.filter
def count(value):
    """A whole count with the language's thousands separator."""
    amount = _decimal(value)
    return "" if amount is None else numbers().count(int(amount))


@register.filter
def number(value, places=4):
    """A decimal such as a share or a fraction, trailing zeros dropped: 0.15 or 0,15."""
    amount = _decimal(value)
    return "" if amount is None else numbers().decimal(amount, int(places))


@register.filter(expects_localtime=True)
def day(value, precision="day"):
    """A date in words in the reader's language (January 28, 2014 / 28 janvier 2014), as precise as known."""
    return "" if not value else format_date(value, precision)


@register.filter(expects_localtime=True)
def as_of(value, precision="day"):
    """"As of" a date, as precise as known: as of January 28, 2014 / au 28 janvier 2014, en janvier 2014."""
    return "" if not value else format_as_of(value, precision)


@register.filter
def percent(value):
    """A fraction as a percentage: 15% or 15 %."""
    amount = _decimal(value)
    return "" if amount is None else numbers().percent(amount)


@register.filter
def reason(failure):
    """Why the terms fail a condition, in words (negotiations.term_basis.failure_reason)."""
    return failure_reason(failure)


register.filter("colon", colon)
register.filter("fiscal_year", format_fiscal_year)
register.filter("short_month", format_short_month)


@register.filter(is_safe=True)
def quoted(text):
    """Words between the quotation marks of the reader's language: “…” in English, « … » in French (whatever the
    language of the words: French typography marks an English quote « » too)."""
    return pgettext("words between quotation marks", "“%(text)s”") % {"text": text}


@register.filter
def written_in(record, field):
    """The language of the text a translated field shows when it is not the page's ("en" for a title that has no
    French yet, shown in English on a French page), else "": for a lang attribute, so a screen reader reads it right."""
    page = (get_language() or "en")[:2]
    if getattr(record, f"{field}_{page}", None):
        return ""
    return next((language for language, _name in settings.LANGUAGES
                 if language != page and getattr(record, f"{field}_{language}", None)), "")


@register.filter
def verdict_label(verdict: str) -> str:
    """A verdict ("meets", "fails", "unknown") in words, in the reader's language."""
    from negotiations.selectors.verdicts import VERDICT_LABELS  # (the record's models: loaded once apps are)

    return str(VERDICT_LABELS.get(verdict, verdict))


@register.filter
def local_name(government):
    """A government's name in the reader's language (Quebec / Québec), as the verdicts name it."""
    return government.name_for(get_language())
