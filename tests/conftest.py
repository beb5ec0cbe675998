import pytest


@pytest.fixture
def user_factory(db):
    from tests.factories import UserFactory

    return UserFactory


@pytest.fixture(autouse=True)
def _empty_record_cache():
    """Each test starts with nothing rendered: the database is rolled back between tests, the
    per-process cache of rendered pages is not."""
    from django.core.cache import caches

    caches["record"].clear()
    yield
    caches["record"].clear()
