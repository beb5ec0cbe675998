"""Users and data the integration tests share (tests/conftest.py has the data set, ``cjg``, and ``budget``).

Each user is named by what it may do, so that a test says which one it needs:

- ``editor``: a member of the Editor group, as a curator is set up on the site; ``editor_client``: the test's
  client, logged in as that user;
- ``offer_editor``: may add, change and view offers, and nothing else; ``offer_editor_client``: the test's
  client, logged in as that user;
- ``record_editor``: may add statements and positions and change statements, and nothing else;
- ``logged_in_superuser``: a superuser, with the test's client logged in as them (for the hostile-input tests,
  where only the input may be refused).

And ``empty_cjg``: the Canada Job Grant negotiation with nothing in it, for tests that build their own record.

UserFactory gets or creates by username: offer_editor and record_editor are both "editor", so a test asks
for one of them at most.
"""

import pytest


@pytest.fixture
def editor(db):
    """A member of the Editor group (made by the migrations): adds and changes the record, reads all of it."""
    from django.contrib.auth.models import Group

    from tests.factories import UserFactory

    user = UserFactory(username="analyst")
    user.groups.add(Group.objects.get(name="Editor"))
    return user


@pytest.fixture
def editor_client(client, editor):
    """The test's client, logged in as ``editor``."""
    client.force_login(editor)
    return client


@pytest.fixture
def offer_editor(db):
    """A user who may add, change and view offers, and nothing else."""
    from tests.offer_world import user_with

    return user_with("add_offer", "change_offer", "view_offer", username="editor")


@pytest.fixture
def offer_editor_client(client, offer_editor):
    """The test's client, logged in as ``offer_editor``."""
    client.force_login(offer_editor)
    return client


@pytest.fixture
def record_editor(db):
    """A user who may add statements and positions and change statements, and nothing else."""
    from tests.offer_world import user_with

    return user_with("add_statement", "add_position", "change_statement", username="editor")


@pytest.fixture
def logged_in_superuser(client):
    """A superuser, with the test's client logged in as them: no permission check stops them."""
    from tests.factories import UserFactory

    user = UserFactory(username="hostile-editor", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.fixture
def empty_cjg(db):
    """The Canada Job Grant negotiation alone, with nothing recorded in it: the test adds what it needs
    (tests/conftest.py's ``cjg`` loads the whole data set)."""
    from tests.factories import NegotiationFactory

    return NegotiationFactory(slug="canada-job-grant", title="Canada Job Grant")
