"""The record cache shared through Redis: two gunicorn instances, on two ports, over one PostgreSQL
database and one Redis. A page rendered by one is served by the other without rendering it again,
and a write made through one is seen at once through the other.

Runs on PostgreSQL with a Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379/15); skipped
otherwise, unless REQUIRE_REDIS is set (as CI does), when a missing Redis fails the test.
"""

import io
import os
import re
import socket
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from negotiations.models import Position
from tests.admin_posts import empty_inlines

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
TIMELINE = "/jurisdictions/ON/"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _redis_or_skip():
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
        client.ping()
    except redis.exceptions.RedisError as error:
        if os.environ.get("REQUIRE_REDIS"):
            pytest.fail(f"Redis is needed at {REDIS_URL}: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}")
    client.flushdb()
    return client


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url() -> str:
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def instances():
    if connection.vendor != "postgresql":
        pytest.skip("the shared cache is tested with PostgreSQL (DATABASE_URL)")
    redis_client = _redis_or_skip()
    apps = MigrationLoader(connection).project_state().apps
    import_module("negotiations.migrations.0002_groups").create_groups(apps, None)
    call_command("load_cjg", stdout=io.StringIO())
    get_user_model().objects.create_superuser("curator", "curator@example.org", "a long test password 1")

    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": REDIS_URL, "DEBUG": "true",
           "RECORD_CACHE": "true", "CONN_MAX_AGE": "0"}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    started = []
    try:
        for _ in range(2):
            port = _free_port()
            process = subprocess.Popen(
                [gunicorn, "--bind", f"127.0.0.1:{port}", "--workers", "1", "config.wsgi"],
                cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=open(f"/tmp/shared-cache-{port}.log", "w"),
            )
            started.append((process, f"http://127.0.0.1:{port}"))
        for process, base in started:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if requests.get(base + "/healthz", timeout=5).status_code == 200:
                        break
                except (requests.ConnectionError, requests.Timeout):
                    pass
                assert process.poll() is None, "gunicorn stopped"
                assert time.monotonic() < deadline, "gunicorn did not answer within 60 s"
                time.sleep(0.2)
        yield [base for _process, base in started], redis_client
    finally:
        for process, _base in started:
            process.terminate()
            process.wait(timeout=10)
        redis_client.flushdb()


def test_a_page_rendered_by_one_instance_is_served_by_the_other(instances):
    (first, second), redis_client = instances
    assert redis_client.dbsize() == 0

    page = requests.get(first + TIMELINE, timeout=10)
    assert page.status_code == 200
    stored = redis_client.dbsize()
    assert stored >= 1, "the rendered page went to Redis"

    again = requests.get(second + TIMELINE, timeout=10)
    assert again.status_code == 200
    assert redis_client.dbsize() == stored, "the second instance rendered nothing new"
    assert "<h1>Ontario</h1>" in again.text


def test_a_write_through_one_instance_is_seen_at_once_through_the_other(instances):
    (first, second), _redis = instances
    assert "Written through the first instance" not in requests.get(second + TIMELINE, timeout=10).text

    curator = requests.Session()
    login = curator.get(first + "/admin/login/", timeout=10)
    curator.post(first + "/admin/login/", timeout=10, data={
        "csrfmiddlewaretoken": CSRF_INPUT.search(login.text).group(1),
        "username": "curator", "password": "a long test password 1", "next": "/admin/",
    })
    position = Position.objects.filter(jurisdiction__code="ON").latest("as_of")
    change_url = f"{first}/admin/negotiations/position/{position.pk}/change/"
    form = curator.get(change_url, timeout=10)
    assert form.status_code == 200
    saved = curator.post(change_url, timeout=10, allow_redirects=False, data={
        "csrfmiddlewaretoken": CSRF_INPUT.search(form.text).group(1),
        "negotiation": position.negotiation_id,
        "jurisdiction": position.jurisdiction_id,
        "as_of": position.as_of.isoformat(),
        "date_precision": position.date_precision,
        "stance": position.stance,
        "summary_en": "Written through the first instance.",  # the admin edits both languages
        "summary_fr": position.summary_fr,
        "conditions_en": position.conditions_en,
        "conditions_fr": position.conditions_fr,
        "seen_version": position.version,
        **empty_inlines(Position),  # its conditions and passages, left as they are
    })
    assert saved.status_code == 302, saved.text[:2000]

    assert "Written through the first instance." in requests.get(second + TIMELINE, timeout=10).text


def test_each_process_keeps_its_own_copy_of_what_it_read_from_redis_until_the_record_changes(settings):
    from django.core.cache import caches

    from negotiations import record_cache

    redis_client = _redis_or_skip()
    settings.RECORD_CACHE = True
    settings.CACHES = {
        **settings.CACHES,
        "record": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                   "KEY_PREFIX": "near-test"},
        "record_near": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "near-test"},
    }
    builds = []

    def build():
        builds.append(1)
        return {"content": f"rendered {len(builds)}"}

    try:
        assert record_cache.cached(("near-test",), build) == {"content": "rendered 1"}
        assert redis_client.dbsize() == 1  # shared with every other process

        reads = []
        shared = caches["record"]
        original_get = shared.get
        shared.get = lambda *args, **kwargs: reads.append(args) or original_get(*args, **kwargs)
        assert record_cache.cached(("near-test",), build) == {"content": "rendered 1"}
        assert reads == [] and len(builds) == 1  # served from this process's copy, Redis not asked

        record_cache.record_changed()  # a new version: this process's copies go, Redis keys no longer match
        assert record_cache.cached(("near-test",), build) == {"content": "rendered 2"}
        assert len(reads) == 1 and redis_client.dbsize() == 2
    finally:
        redis_client.flushdb()
        caches["record_near"].clear()
