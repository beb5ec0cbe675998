"""What the read pages render, cached in each process until the record changes.

The record's version is one row (``RecordVersion``). Every change to a model of the negotiations or
grants apps (save, delete, many-to-many change; history rows included) moves it forward once its
transaction commits; bulk writes that send no signals (the scale generator) call ``record_changed``
themselves. A cached entry is stored under the version it was rendered at, so a request that starts
after a commit never gets what was rendered before it, whichever process rendered it.

Each process also empties its own cache the moment it writes, before the commit: its next request
sees its own change at once (and so do tests, whose transactions never commit). A transaction that
has written and not yet committed neither reads nor stores cached entries, so what a rolled-back
transaction showed is never kept.

Reading the version is one query of one row per request that uses the cache. When a process sees a
version it has not seen before, it empties its cache and calls the functions registered with
``on_new_version`` (other per-process caches, such as the engine's reference data, drop their copy).

Two stores: ``cached`` keeps rendered pages in a bounded Django cache (values are copied in and out);
``kept`` keeps Python objects as they are (a form class, an offer's computed effect) for code that
reads the version itself with ``refresh``.
"""

import hashlib
import math
import time
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils.translation import get_language

WATCHED_APPS = frozenset({"negotiations", "grants"})
CACHE_ALIAS = "record"

T = TypeVar("T")

_listeners: list[Callable[[], None]] = []
_last_seen: dict[str, int] = {}
_read_at: dict[str, float] = {}  # when this process last read each database's version (monotonic)
# key -> (version, object): what ``kept`` holds, emptied with the rest.
_kept: dict[Hashable, tuple[int, object]] = {}


def on_new_version(func: Callable[[], None]) -> Callable[[], None]:
    """Register ``func`` to run when this process writes or first sees a newer record version."""
    _listeners.append(func)
    return func


def _forget_everything() -> None:
    _cache().clear()
    _kept.clear()
    for listener in _listeners:
        listener()


def _cache():
    return caches[CACHE_ALIAS]


def current_version(using: str = DEFAULT_DB_ALIAS) -> int:
    from negotiations.models import RecordVersion

    with connections[using].cursor() as cursor:
        cursor.execute(f"SELECT value FROM {RecordVersion._meta.db_table} WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else 0


def _advance(using: str) -> None:
    from negotiations.models import RecordVersion

    if not RecordVersion.objects.using(using).filter(pk=1).update(value=F("value") + 1):
        # The row is missing (a flushed database): put it back, already past the start.
        RecordVersion.objects.using(using).bulk_create([RecordVersion(pk=1, value=1)], ignore_conflicts=True)


# One callable per database alias, so that a transaction registers its advance once however many
# rows it writes (the callbacks Django keeps are compared by identity).
_advancers: dict[str, Callable[[], None]] = {}


def _advancer(using: str) -> Callable[[], None]:
    if using not in _advancers:
        _advancers[using] = lambda: _advance(using)
    return _advancers[using]


def _uncommitted_change(using: str) -> bool:
    """This connection's open transaction has changed the record (its version advance is pending)."""
    connection = connections[using]
    advance = _advancer(using)
    return connection.in_atomic_block and any(entry[1] is advance for entry in connection.run_on_commit)


def record_changed(using: str = DEFAULT_DB_ALIAS) -> None:
    """The record changed: empty this process's caches now, move the version forward on commit."""
    _forget_everything()
    if not _uncommitted_change(using):
        # Robust: a failure to advance is logged rather than turned into an error for a write that
        # has already committed (the other processes then see the change after the next write).
        transaction.on_commit(_advancer(using), using=using, robust=True)


def _on_change(sender, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    if sender._meta.app_label in WATCHED_APPS:
        record_changed(using)


def connect_signals() -> None:
    for name, signal in (("save", post_save), ("delete", post_delete), ("m2m", m2m_changed)):
        signal.connect(_on_change, dispatch_uid=f"record-cache-{name}")


def refresh(using: str = DEFAULT_DB_ALIAS, *, max_age: float = 0.0) -> int | None:
    """Read the record's version (one query); when this process has not seen it yet, drop everything
    it keeps. Returns the version, or None when nothing may be kept or reused now: the cache is off,
    or this transaction has written and may yet be rolled back.

    ``max_age`` lets a caller that can live with it reuse the version this process read less than
    that many seconds ago, without a query: what it keeps may then lag a commit made by another
    process by up to ``max_age`` seconds (never one made by this process, which drops everything
    the moment it writes)."""
    if not settings.RECORD_CACHE or _uncommitted_change(using):
        return None
    now = time.monotonic()
    if max_age and now - _read_at.get(using, -math.inf) < max_age:
        return _last_seen[using]
    version = current_version(using)
    _read_at[using] = now
    if _last_seen.get(using) != version:
        _last_seen[using] = version
        _forget_everything()  # what was kept belongs to an older record
    return version


def cached(parts: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """What ``build()`` returns for ``parts`` at the record's current version, built at most once per
    version and process. ``parts`` name everything the result depends on besides the record
    (the page, its query, the reader's permissions); the language is added here."""
    version = refresh()
    if version is None:
        return build()
    key = "r:" + hashlib.blake2b(repr((version, get_language(), parts)).encode(), digest_size=16).hexdigest()
    cache = _cache()
    found = cache.get(key)
    if found is not None:
        return found
    value = build()
    cache.set(key, value)
    return value


def kept(version: int | None, key: Hashable, build: Callable[[], T]) -> T:
    """The object ``build()`` returns for ``key``, built once and kept in this process while the record
    stays at ``version`` (what ``refresh()`` returned for this request; None builds afresh). The object
    itself is shared, not copied: it must not be changed by whoever uses it, nor depend on the language.
    Keys must come from a bounded set (names, or the slugs of records that exist)."""
    if version is None:
        return build()
    found = _kept.get(key)
    if found is not None and found[0] == version:
        return found[1]
    value = build()
    _kept[key] = (version, value)
    return value
