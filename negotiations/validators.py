"""Validators for the bounds of negotiations.bounds, with the messages people read."""

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.numbers import format_date
from negotiations import bounds

DATE_RANGE_MESSAGE = _("Give a date between %(earliest)s and %(latest)s.")
FUTURE_MESSAGE = _("That day has not come yet: give a date no later than today, %(today)s.")
CONTROL_CHARACTER_MESSAGE = _("Remove the control characters (such as NUL) from this text.")
# A quote's "language spoken" given as the language it is written in (a statement, an imported quote).
ALREADY_IN_LANGUAGE_SPOKEN = _("The quote is already in the language spoken; leave this empty unless the quote is a "
                               "translation.")
# What a form says when it has taken them out of what was typed (negotiations.forms.RefuseControlCharacters).
CONTROL_CHARACTERS_TAKEN_OUT = _("This held invisible control characters (pasted from a PDF, say): they are taken out. "
                                 "Check the text and save again.")


def date_range_message() -> str:
    # Written YYYY-MM-DD, as a date field takes it, in every language.
    return DATE_RANGE_MESSAGE % {"earliest": bounds.EARLIEST_DATE.isoformat(), "latest": bounds.LATEST_DATE.isoformat()}


def validate_record_date(value) -> None:
    """A date of the record lies between bounds.EARLIEST_DATE and bounds.LATEST_DATE."""
    if value is not None and not bounds.date_in_range(value):
        raise ValidationError(date_range_message(), code="date_out_of_range")


def validate_not_after_today(value) -> None:
    """The date of something that has happened (said, stance taken, offer tabled or withdrawn, article published) is
    not after today: a year typed wrong (2031 for 2013) would otherwise stretch the stance matrix to it and date the
    record "as of" it. A day's grace for the time zones. Meetings and key dates may lie ahead."""
    if value is None or not bounds.date_in_range(value):
        return  # (validate_record_date says what the range is)
    today = timezone.localdate()
    if value > today + datetime.timedelta(days=1):
        raise ValidationError(FUTURE_MESSAGE % {"today": format_date(today)}, code="after_today")


def reported_after(said: datetime.date, published: datetime.date | None, precision: str) -> bool:
    """Whether something said on ``said`` can be reported by a source published on ``published`` (to ``precision``:
    a source dated to the month or year reports what was said in it or before; an approximate date is not held, nor
    a date outside the record's range, which ``validate_record_date`` refuses with its own message)."""
    if published is None or precision == "approximate" or not bounds.date_in_range(said):
        return True
    if precision == "year":
        return said.year <= published.year
    if precision == "month":
        return (said.year, said.month) <= (published.year, published.month)
    return said <= published


def validate_no_control_characters(value) -> None:
    if isinstance(value, str) and bounds.has_control_characters(value):
        raise ValidationError(CONTROL_CHARACTER_MESSAGE, code="control_characters")


def text_length(limit: int) -> MaxLengthValidator:
    return MaxLengthValidator(
        limit, message=_("At most %(limit_value)d characters, please (this has %(show_value)d).")
    )
