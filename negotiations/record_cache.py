"""What the read pages render, cached until the record changes: per process, or shared through Redis.

The record's version is one row (``RecordVersion``). Every change to a model of the negotiations or
grants apps (save, delete, many-to-many change; history rows included) moves it forward inside the
writing transaction, before the transaction's first write, so the new version commits with the
change: a request that starts after the commit never gets what was rendered before it, whichever
process or machine rendered it, and a rolled-back change takes its version back with it. (Taking
the version row's lock before any other row's keeps two writers from waiting on each other.) A
write made outside a transaction (autocommit) moves it just after. Bulk writes that send no signals
(the scale generator) call ``record_changed`` themselves.

Entries are stored through Django's cache framework (the ``record`` cache: per-process memory by
default, Redis when ``REDIS_URL`` is set) under the version they were rendered at, so with Redis a
change is rendered once for every worker and machine; each process then keeps its own copy of what it
read from Redis (``record_near``), which the version in the key keeps from ever being stale. A
transaction that has written and not yet committed neither reads nor stores cached entries, so what a
rolled-back transaction showed is never kept.

Reading the version is one query of one row per request that uses the cache. When a process sees a
version it has not seen before, it drops what it keeps in its own memory (``kept`` objects, and the
page cache when that is per-process) and calls the functions registered with ``on_new_version``.

Two stores: ``cached`` keeps rendered pages in the ``record`` cache (values are copied in and out);
``kept`` keeps Python objects as they are (a form class, an offer's computed effect, the reference
data) in this process, for code that reads the version itself with ``refresh`` (or ``kept_version``).
"""

import hashlib
import math
import secrets
import time
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save
from django.utils.translation import get_language

WATCHED_APPS = frozenset({"negotiations", "grants"})
CACHE_ALIAS = "record"
NEAR_ALIAS = "record_near"

T = TypeVar("T")

_listeners: list[Callable[[], None]] = []
_last_seen: dict[str, int] = {}
_read_at: dict[str, float] = {}  # when this process last read each database's version (monotonic)
# key -> (version, object): what ``kept`` holds, emptied with the rest.
_kept: dict[Hashable, tuple[Hashable, object]] = {}


def on_new_version(func: Callable[[], None]) -> Callable[[], None]:
    """Register ``func`` to run when this process writes or first sees a newer record version."""
    _listeners.append(func)
    return func


def _forget_everything() -> None:
    """Drop what this process keeps: its objects and, when the page cache is its own, the pages (or its own
    copies of the shared ones). A shared cache (Redis) is never cleared: its entries are keyed by version
    and expire."""
    cache = _cache()
    if isinstance(cache, LocMemCache):
        cache.clear()
    near = _near()
    if near is not None:
        near.clear()
    _kept.clear()
    for listener in _listeners:
        listener()


def _cache():
    return caches[CACHE_ALIAS]


def _near():
    """With a shared page cache, this process's copies of what it read from it (``record_near``); else None."""
    return caches[NEAR_ALIAS] if NEAR_ALIAS in settings.CACHES else None


def current_version(using: str = DEFAULT_DB_ALIAS) -> int:
    from negotiations.models import RecordVersion

    with connections[using].cursor() as cursor:
        cursor.execute(f"SELECT value FROM {RecordVersion._meta.db_table} WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else 0


def _advance(using: str) -> None:
    from negotiations.models import RecordVersion

    if not RecordVersion.objects.using(using).filter(pk=1).update(value=F("value") + 1):
        # The row is missing (a flushed database): put it back, at a new random start.
        RecordVersion.objects.using(using).bulk_create([RecordVersion(pk=1, value=random_start())],
                                                       ignore_conflicts=True)


def random_start() -> int:
    """A version to start from, at random: two databases that share one Redis (a test database and
    the one it was made from, say) then never put their pages under the same keys."""
    return secrets.randbelow(2**52) + 1


# One marker per database alias, registered with ``on_commit`` by a transaction that has moved the
# version: it tells that transaction's later writes and reads that the record changed in it (the
# callbacks Django keeps are compared by identity, and dropped with a rolled-back savepoint).
_markers: dict[str, Callable[[], None]] = {}


def _marker(using: str) -> Callable[[], None]:
    if using not in _markers:
        _markers[using] = lambda: None
    return _markers[using]


def _uncommitted_change(using: str) -> bool:
    """This connection's open transaction has changed the record (and moved the version with it)."""
    connection = connections[using]
    marker = _marker(using)
    return connection.in_atomic_block and any(entry[1] is marker for entry in connection.run_on_commit)


def record_changed(using: str = DEFAULT_DB_ALIAS) -> None:
    """The record changes: move the version forward in the current transaction (once per transaction),
    and drop what this process keeps so that its next request sees the change at once."""
    _forget_everything()
    _read_at.pop(using, None)
    if _uncommitted_change(using):
        return
    _advance(using)
    if connections[using].in_atomic_block:
        transaction.on_commit(_marker(using), using=using)


# Models of the watched apps that are not the record: the version itself, and article imports under
# review (nothing of an import is shown on a read page until it is committed as statements).
NOT_RECORD = frozenset({"recordversion", "articleimport", "proposedstatement"})


def _watched(model) -> bool:
    name = model._meta.model_name
    return model._meta.app_label in WATCHED_APPS and name.removeprefix("historical") not in NOT_RECORD


def _before_change(sender, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    # Inside a transaction the version moves before the first write (see the module's docstring).
    if _watched(sender) and connections[using].in_atomic_block:
        record_changed(using)


def _after_change(sender, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    # Autocommit: the write has committed by now; move the version after it, never before.
    if _watched(sender) and not connections[using].in_atomic_block:
        record_changed(using)


def _m2m_change(sender, action, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    if action.startswith("pre_") == connections[using].in_atomic_block and _watched(kwargs["instance"]):
        record_changed(using)


def connect_signals() -> None:
    for name, signal in (("pre-save", pre_save), ("pre-delete", pre_delete)):
        signal.connect(_before_change, dispatch_uid=f"record-cache-{name}")
    for name, signal in (("save", post_save), ("delete", post_delete)):
        signal.connect(_after_change, dispatch_uid=f"record-cache-{name}")
    m2m_changed.connect(_m2m_change, dispatch_uid="record-cache-m2m")


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
    return _read_version(using, max_age)


def _read_version(using: str, max_age: float) -> int:
    now = time.monotonic()
    if max_age and now - _read_at.get(using, -math.inf) < max_age:
        return _last_seen[using]
    version = current_version(using)
    _read_at[using] = now
    if _last_seen.get(using) != version:
        _last_seen[using] = version
        _forget_everything()  # what was kept belongs to an older record
    return version


def kept_version(using: str = DEFAULT_DB_ALIAS, *, max_age: float) -> Hashable:
    """What to give ``kept`` for an object worth keeping whatever ``RECORD_CACHE`` says (the reference
    data): the record's version as ``refresh(max_age=...)`` reads it, even with the page cache off;
    inside a transaction that has changed the record, a tag of this connection's own, which no other
    reader shares and which the next write by this process drops with everything kept."""
    if _uncommitted_change(using):
        return ("uncommitted", id(connections[using]))
    return _read_version(using, max_age)


def cached(parts: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """What ``build()`` returns for ``parts`` at the record's current version, built at most once per
    version and process. ``parts`` name everything the result depends on besides the record
    (the page, its query, the reader's permissions); the language is added here."""
    version = refresh()
    if version is None:
        return build()
    key = "r:" + hashlib.blake2b(repr((version, get_language(), parts)).encode(), digest_size=16).hexdigest()
    near = _near()
    if near is not None:
        found = near.get(key)
        if found is not None:
            return found
    cache = _cache()
    found = cache.get(key)
    if found is None:
        found = build()
        cache.set(key, found)
    if near is not None:
        near.set(key, found)
    return found


def forget(key: Hashable) -> None:
    """Drop what ``kept`` holds under ``key``: its next use builds it afresh."""
    _kept.pop(key, None)


def kept(version: Hashable | None, key: Hashable, build: Callable[[], T]) -> T:
    """The object ``build()`` returns for ``key``, built once and kept in this process while the record
    stays at ``version`` (what ``refresh()`` or ``kept_version()`` returned for this request; None builds
    afresh). The object
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
