"""'Since' on the overview is when the current stance began (issue 16.9)."""

import datetime

import pytest

from negotiations import selectors
from negotiations.models import Stance
from tests.factories import JurisdictionFactory, NegotiationFactory, PositionFactory

pytestmark = pytest.mark.django_db
D = datetime.date


def test_since_is_the_first_position_of_the_current_run(client):
    negotiation = NegotiationFactory()
    canada = JurisdictionFactory(code="CA", name_en="Canada")
    for as_of, stance in ((D(2013, 1, 5), Stance.OPPOSES), (D(2013, 3, 21), Stance.SUPPORTS),
                          (D(2013, 9, 1), Stance.SUPPORTS), (D(2013, 12, 24), Stance.SUPPORTS)):
        PositionFactory(negotiation=negotiation, jurisdiction=canada, as_of=as_of, stance=stance)
    [row] = [j for j in selectors.jurisdictions_with_current_stance(negotiation=negotiation) if j.code == "CA"]
    assert row.current_position.as_of == D(2013, 12, 24)
    assert row.stance_since == D(2013, 3, 21)
