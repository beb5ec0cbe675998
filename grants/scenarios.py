"""Scenarios: what-ifs saved to share and compare, never part of the record.

Writes (``scenario_create``: keyword-only, one transaction, the author in history) and reads
(``scenario_terms``, ``scenario_effect``, ``scenario_acceptance``) in one module: a scenario is
one noun with one way in and out.
"""

import datetime
from decimal import Decimal

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from grants import fiscal, selectors
from grants.models import Scenario
from negotiations.models import Negotiation
from negotiations.selectors.verdicts import Acceptance, acceptance, position_book
from negotiations.terms import SCALAR_FIELDS, OfferTerms


class InvalidScenarioTerms(Exception):
    """The terms do not add up (the problems of ``OfferTerms.problems``)."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__("; ".join(str(p.message) for p in problems))


@transaction.atomic
def scenario_create(
    *,
    actor: AbstractBaseUser | None,
    title: str,
    negotiation: Negotiation,
    as_of: datetime.date,
    terms: OfferTerms,
    participation: Decimal = Decimal(1),
    fiscal_year: str = "",
    notes: str = "",
) -> Scenario:
    """Save a what-if. Raises InvalidScenarioTerms when the terms do not add up, ValidationError otherwise."""
    problems = terms.problems()
    if problems:
        raise InvalidScenarioTerms(problems)
    try:
        selectors.scenario_from(participation=participation, fiscal_year=fiscal_year or None)
    except fiscal.InvalidScenario as error:
        raise ValidationError({error.field: str(error)}) from None
    scenario = Scenario(
        title=title.strip(), negotiation=negotiation, as_of=as_of, participation=participation,
        fiscal_year=fiscal_year or "", author=actor, notes=notes.strip(),
        **{name: getattr(terms, name) for name in SCALAR_FIELDS},
        sources=[[payer, program, str(amount)] for payer, program, amount in terms.sources],
        treatments=dict(terms.treatments),
        phase_in=[[year, str(fraction)] for year, fraction in terms.phase_in],
    )
    scenario.full_clean()
    if actor is not None:
        scenario._history_user = actor
    scenario.save()
    return scenario


def scenario_terms(scenario: Scenario) -> OfferTerms:
    """A scenario's terms, as an offer's are read."""
    return OfferTerms(
        **{name: getattr(scenario, name) for name in SCALAR_FIELDS},
        sources=tuple((payer, program, Decimal(amount)) for payer, program, amount in scenario.sources),
        treatments=tuple(sorted(scenario.treatments.items())),
        phase_in=tuple((year, Decimal(fraction)) for year, fraction in scenario.phase_in),
    )


def scenario_assumptions(scenario: Scenario) -> fiscal.Scenario:
    return selectors.scenario_from(participation=scenario.participation, fiscal_year=scenario.fiscal_year or None)


def scenario_effect(scenario: Scenario, assumptions: fiscal.Scenario | None = None) -> fiscal.Effect:
    """The fiscal effect of a scenario, under its own participation and fiscal year unless others are given.
    Raises fiscal.InvalidTerms or fiscal.InvalidScenario as the engine does."""
    return fiscal.compute(scenario_terms(scenario), selectors.reference_data(),
                          assumptions or scenario_assumptions(scenario))


def scenario_acceptance(scenario: Scenario) -> Acceptance:
    """Who would sign the scenario, on its date (two queries)."""
    return acceptance(scenario_terms(scenario), book=position_book(scenario.negotiation_id), on=scenario.as_of)
