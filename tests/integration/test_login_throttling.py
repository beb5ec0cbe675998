"""Issue 13.2: login throttling (django-axes) that cannot be bypassed nor turned against users."""

import threading

import pytest
from django.contrib.auth.hashers import check_password as real_check_password
from django.db import connection
from django.test import Client
from django.urls import reverse

from config.login import client_address, normalised_username
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
RIGHT = "correct horse battery staple"
LOCKED = "Too many failed attempts"


@pytest.fixture(autouse=True)
def limit(settings):
    settings.AXES_FAILURE_LIMIT = 3


def log_in(client, username, password, *, path="login", **headers):
    return client.post(reverse(path), {"username": username, "password": password}, **headers)


def logged_in(response) -> bool:
    return response.status_code == 302


def test_the_right_password_is_refused_while_locked(client):
    UserFactory(username="ben")
    for _ in range(2):
        response = log_in(client, "ben", "wrong")
        assert "Please enter a correct username and password" in response.content.decode()
    assert log_in(client, "ben", "wrong").status_code == 429  # the third failure locks
    response = log_in(client, "ben", RIGHT)
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not logged_in(response)


def test_a_look_alike_username_stays_locked(client):
    """Django logs in the NFKC form: ｔhrottle1 (fullwidth t) is throttle1, and is counted as such."""
    UserFactory(username="throttle1")
    for spelling in ("throttle1", "ｔhrottle1", "ＴＨＲＯＴＴＬＥ1"):
        log_in(client, spelling, "wrong")
    for spelling in ("ｔhrottle1", "throttle1", "Throttle1"):
        response = log_in(client, spelling, RIGHT)
        assert response.status_code == 429 and LOCKED in response.content.decode(), spelling


def test_usernames_are_counted_as_django_compares_them():
    assert normalised_username("ｔhrottle1") == "throttle1"
    assert normalised_username("x" * 1_000_000) == "x" * 150


def test_a_strangers_failures_from_elsewhere_do_not_lock_the_user(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    UserFactory(username="amy")
    for _ in range(5):
        log_in(client, "amy", "wrong", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    # Amy, from her own address behind the same proxy, still logs in.
    assert logged_in(log_in(Client(), "amy", RIGHT, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7"))
    # The stranger is locked out at theirs, whatever they write in X-Forwarded-For themselves.
    response = log_in(Client(), "amy", RIGHT, REMOTE_ADDR="127.0.0.1",
                      HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.9")
    assert response.status_code == 429


def test_the_client_address_comes_through_the_trusted_proxies_only(rf, settings):
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.9")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(request) == "127.0.0.1"  # no proxy: the header is the client's own words
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(request) == "203.0.113.9"  # what our proxy appended, not what the client wrote
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_address(request) == "1.1.1.1"
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="not an address")
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(request) == "127.0.0.1"


def test_a_non_staff_users_right_password_at_the_admin_is_not_a_failure(client):
    UserFactory(username="viewer")
    for _ in range(5):
        response = log_in(client, "viewer", RIGHT, path="admin:login")
        assert response.status_code == 200  # the admin's "staff account" message
    assert logged_in(log_in(Client(), "viewer", RIGHT))


def test_the_admin_login_is_throttled_too(client):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    for _ in range(3):
        log_in(client, "root", "nope", path="admin:login")
    response = log_in(client, "root", RIGHT, path="admin:login")
    assert response.status_code == 429 and LOCKED in response.content.decode()


def test_a_megabyte_username_is_refused_without_error(client):
    response = log_in(client, "x" * 1_000_000, "wrong")
    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_evaluate_at_most_the_limit(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("threads writing at once need PostgreSQL (SQLite's in-memory test database locks tables)")
    UserFactory(username="racer")
    evaluated = []

    def counting(password, encoded, *args, **kwargs):
        evaluated.append(password)
        return real_check_password(password, encoded, *args, **kwargs)

    monkeypatch.setattr("django.contrib.auth.base_user.check_password", counting)
    start = threading.Barrier(20)
    answers = []

    def guess(n):
        client = Client()
        start.wait()
        answers.append(log_in(client, "racer", f"wrong {n}").status_code)
        connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 20 and set(answers) <= {200, 429}
    assert len([p for p in evaluated if p.startswith("wrong")]) <= 3
