"""Backup and restore: the whole data set survives dumpdata → empty database → loaddata unchanged."""

import json
import re

import pytest
from django.core.management import call_command
from django.db import connection

from negotiations.models import Offer, Statement

pytestmark = pytest.mark.django_db

APPS = ["negotiations", "grants"]


# Django's JSON serializer keeps times to the millisecond: 12:00:00.000412 is written
# "12:00:00.000", read back as 12:00:00 and written again as "12:00:00". Same instant, other text.
WHOLE_SECOND = re.compile(r'(T\d{2}:\d{2}:\d{2})\.000(?=Z|[+-]\d{2}:\d{2}")')


def dump(path) -> list[dict]:
    call_command("dumpdata", *APPS, output=str(path), indent=1, verbosity=0)
    rows = json.loads(WHOLE_SECOND.sub(r"\1", path.read_text(encoding="utf-8")))
    return sorted(rows, key=lambda row: (row["model"], str(row["pk"])))


def test_round_trip_through_dumpdata_and_loaddata_is_identical(tmp_path):
    call_command("load_cjg", verbosity=0)
    before = dump(tmp_path / "before.json")
    assert len(before) > 100
    offers, statements = Offer.objects.count(), Statement.objects.count()

    if connection.vendor == "postgresql":
        # Inside the test's transaction, TRUNCATE refuses tables with deferred checks still pending.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert Offer.objects.count() == 0 and Statement.objects.count() == 0

    call_command("loaddata", str(tmp_path / "before.json"), verbosity=0)
    after = dump(tmp_path / "after.json")
    assert after == before
    assert (Offer.objects.count(), Statement.objects.count()) == (offers, statements)
