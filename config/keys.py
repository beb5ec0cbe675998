"""A key read from an address or a post: a number the database can hold, or nothing.

``"²".isdigit()`` is true and ``int("²")`` fails; ``99999999999999999999`` passes ``int()`` and overflows SQLite's
integers when it is looked up. Both were 500s; read through here, they find no row.
"""

from django.core.exceptions import ValidationError


def is_stored_key(field, value) -> bool:
    """Whether ``value`` can be a stored value of the key ``field``: a number, and one the database can hold."""
    try:
        field.run_validators(field.to_python(value))
    except ValidationError:
        return False
    return True


def stored_key(model, value):
    """``value`` as a key of ``model``, or None where it cannot be one (not a number, or too large to store)."""
    field = model._meta.pk
    return field.to_python(value) if value not in (None, "") and is_stored_key(field, value) else None
