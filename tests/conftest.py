import pytest

import tests.profiles  # noqa: F401  (loads the Hypothesis profile)


@pytest.fixture
def user_factory(db):
    from tests.factories import UserFactory

    return UserFactory


@pytest.fixture(autouse=True)
def _empty_record_cache():
    """Each test starts with nothing rendered: the database is rolled back between tests, the
    per-process cache of rendered pages is not."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cache = caches["record"]
    own = isinstance(cache, LocMemCache)  # a shared Redis is keyed by version: never flushed by tests
    if own:
        cache.clear()
    yield
    if own:
        cache.clear()


@pytest.fixture(autouse=True)
def _english_to_begin_with():
    """Each test starts in the site's default language: a French request leaves French active in its thread."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def cold_reference_data():
    """Reference data (populations, envelopes) is cached per process: the test starts and ends without it,
    so that what it reads comes from its own database."""
    from grants.selectors import forget_reference_data

    forget_reference_data()
    yield
    forget_reference_data()


@pytest.fixture
def budget(db, cold_reference_data):
    """Ottawa, the 13 P/Ts, the LMA and LMDA envelopes (tests.offer_world.make_reference) and Budget 2013."""
    from tests.offer_world import make_budget_2013, make_reference

    make_reference()
    return make_budget_2013()


@pytest.fixture
def cjg(db, cold_reference_data):
    """The Canada Job Grant data set, as ``manage.py load_cjg`` loads it (tests.dataset), and its negotiation;
    the reference data is then read afresh."""
    from grants.selectors import forget_reference_data
    from negotiations.models import Negotiation
    from tests.dataset import load_cjg

    load_cjg()
    forget_reference_data()
    return Negotiation.objects.get(slug="canada-job-grant")
