"""Validators for the bounds of negotiations.bounds, with the messages people read."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from negotiations import bounds

DATE_RANGE_MESSAGE = _("Give a date between %(earliest)s and %(latest)s.")
CONTROL_CHARACTER_MESSAGE = _("Remove the control characters (such as NUL) from this text.")


def date_range_message() -> str:
    # Written YYYY-MM-DD, as a date field takes it, in every language.
    return DATE_RANGE_MESSAGE % {"earliest": bounds.EARLIEST_DATE.isoformat(), "latest": bounds.LATEST_DATE.isoformat()}


def validate_record_date(value) -> None:
    """A date of the record lies between bounds.EARLIEST_DATE and bounds.LATEST_DATE."""
    if value is not None and not bounds.date_in_range(value):
        raise ValidationError(date_range_message(), code="date_out_of_range")


def validate_no_control_characters(value) -> None:
    if isinstance(value, str) and bounds.has_control_characters(value):
        raise ValidationError(CONTROL_CHARACTER_MESSAGE, code="control_characters")


def text_length(limit: int) -> MaxLengthValidator:
    return MaxLengthValidator(
        limit, message=_("At most %(limit_value)d characters, please (this has %(show_value)d).")
    )
