"""Issue 13.10: password reset works end to end (the e-mail, its link, the new password)."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_link_in_the_email_sets_a_new_password(client):
    UserFactory(username="dora", email="dora@example.org")
    assert 'href="/accounts/password_reset/"' in client.get(reverse("login")).content.decode()

    response = client.post(reverse("password_reset"), {"email": "dora@example.org"}, follow=True)
    assert response.status_code == 200
    assert "Check your e-mail" in response.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["dora@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body)[1]

    page = client.get(link, follow=True)  # Django swaps the token for a session key and redirects
    assert "Choose a new password" in page.content.decode()
    response = client.post(page.redirect_chain[-1][0], {
        "new_password1": "a fresh long passphrase 2026", "new_password2": "a fresh long passphrase 2026",
    }, follow=True)
    assert "Password changed" in response.content.decode()

    fresh = Client()
    response = fresh.post(reverse("login"), {"username": "dora", "password": "a fresh long passphrase 2026"})
    assert response.status_code == 302
    # The link works once.
    assert "has been used already" in Client().get(link, follow=True).content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_email(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert "Check your e-mail" in response.content.decode()
    assert mail.outbox == []
