"""The Canada Job Grant data set for tests that read it: loaded once per test run, copied into each test.

``manage.py load_cjg`` validates and writes about 500 records with their history, which takes seconds.
The first test that asks for the data set runs the real command and keeps a copy of every row it wrote;
every later test that finds the same empty tables gets those rows inserted as they are (a few statements,
one per table), then the record's version moves forward as any write moves it. A test whose tables are
not empty when it asks (it made records of its own first) gets the real command instead. The loader's own
tests (``tests/integration/test_loader.py``) always run the real loader.
"""

import io

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction

_APPS = ("negotiations", "grants", "alerts", "briefings")
_NOT_COPIED = {"recordversion"}  # the version itself moves forward instead of being copied
# perf: the suite's wall time (README "Tests"): a copy is ~0.2 s against ~2.5 s for a load, in ~270 tests
_copies: dict[str, list[tuple]] = {}


def _models():
    return [model for model in apps.get_models(include_auto_created=True)
            if model._meta.app_label in _APPS and model._meta.model_name not in _NOT_COPIED]


def _empty(models) -> bool:
    return not any(model._base_manager.exists() for model in models)


def load_cjg() -> None:
    """The data set, as ``manage.py load_cjg`` writes it, into this test's database."""
    models = _models()
    copy = _copies.get(connection.vendor)
    if copy is None or not _empty(models):
        fresh = copy is None and _empty(models)
        call_command("load_cjg", stdout=io.StringIO())
        if fresh:
            _copies[connection.vendor] = _take(models)
        return
    from negotiations import record_cache

    with transaction.atomic():
        _restore(copy)
        record_cache.record_changed()


def _take(models) -> list[tuple]:
    taken = []
    for model in models:
        fields = model._meta.concrete_fields
        rows = [tuple(field.get_db_prep_save(value, connection) for field, value in zip(fields, row))
                for row in model._base_manager.order_by("pk").values_list(*(f.attname for f in fields))]
        if rows:
            taken.append((model, [f.column for f in fields], rows))
    return taken


def _restore(copy: list[tuple]) -> None:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model, columns, rows in copy:
            sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) "
                   f"VALUES ({', '.join(['%s'] * len(columns))})")
            cursor.executemany(sql, rows)
        # The next record a test makes gets the next id (PostgreSQL's sequences do not follow inserted ids).
        for sql in connection.ops.sequence_reset_sql(no_style(), [model for model, _, _ in copy]):
            cursor.execute(sql)
