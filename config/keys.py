"""A key read from an address or a post: a value the database can hold for that key, or nothing.

``"²".isdigit()`` is true and ``int("²")`` fails; ``99999999999999999999`` passes ``int()`` and overflows SQLite's
integers when it is looked up. Both were 500s; read through here, they find no row. The admin checks its posted and
addressed keys with the same reading (``config.admin_site``).
"""

from django.core.exceptions import ValidationError

_NOT_A_KEY = object()


def _read(field, value):
    """``value`` as a stored value of ``field`` (None for an empty one), or ``_NOT_A_KEY``."""
    try:
        key = field.to_python(value)
        field.run_validators(key)
    except ValidationError:
        return _NOT_A_KEY
    return key


def is_stored_key(field, value) -> bool:
    """Whether ``value`` can be a stored value of the key ``field`` (a model's key, or the field a relation points to):
    of its type, and within what the database holds. An empty value is one (it names no row)."""
    return _read(field, value) is not _NOT_A_KEY


def stored_key(model, value):
    """``value`` as a key of ``model``, or None where it cannot be one (empty, not a number, or too large to store)."""
    key = _read(model._meta.pk, value)
    return None if key is _NOT_A_KEY else key
