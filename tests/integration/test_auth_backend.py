"""config.auth.ModelBackend: the same permissions as Django's backend, read in one query."""

import pytest
from django.contrib.auth import backends as django_backends
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.auth import ModelBackend

pytestmark = pytest.mark.django_db


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)  # no permission cache


def make_user(username, **fields):
    return get_user_model().objects.create_user(username=username, password="x-unused-1", **fields)


def test_group_and_own_permissions_in_one_query():
    user = make_user("mixed")
    user.groups.add(Group.objects.get(name="Editor"))
    user.user_permissions.add(Permission.objects.get(codename="delete_offer"))
    user = fresh(user)
    with CaptureQueriesContext(connection) as queries:
        ours = ModelBackend().get_all_permissions(user)
        assert user.has_perm("negotiations.add_offer")
        assert user.has_perm("negotiations.delete_offer")
        assert not user.has_perm("auth.add_user")
    assert len(queries) == 1
    assert ours == django_backends.ModelBackend().get_all_permissions(fresh(user))
    assert "negotiations.delete_offer" in ours and "negotiations.add_offer" in ours


def test_viewer_superuser_and_inactive_users():
    viewer = make_user("viewer")
    viewer.groups.add(Group.objects.get(name="Viewer"))
    admin = make_user("root", is_superuser=True)
    inactive = make_user("gone", is_active=False)
    inactive.groups.add(Group.objects.get(name="Editor"))
    backend = ModelBackend()
    for user in (viewer, admin, inactive):
        assert backend.get_all_permissions(fresh(user)) == django_backends.ModelBackend().get_all_permissions(fresh(user))
    assert not fresh(viewer).has_perm("negotiations.add_offer")
    assert fresh(admin).has_perm("negotiations.add_offer")
    assert not fresh(inactive).has_perm("negotiations.add_offer")
    assert backend.get_all_permissions(fresh(admin)) == {
        f"{app}.{code}" for app, code in Permission.objects.values_list("content_type__app_label", "codename")
    }


def test_login_uses_this_backend(client):
    make_user("someone")
    # Through the login page: django-axes checks every login against its request.
    response = client.post("/accounts/login/", {"username": "someone", "password": "x-unused-1"})
    assert response.status_code == 302
    assert client.session["_auth_user_backend"] == "config.auth.ModelBackend"
