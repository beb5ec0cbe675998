import pytest


@pytest.fixture
def user_factory(db):
    from tests.factories import UserFactory

    return UserFactory
