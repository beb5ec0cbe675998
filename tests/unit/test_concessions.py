"""Concessions round by round (negotiations.concessions): moves, concessions and the gap between the sides."""

import datetime
from dataclasses import replace
from decimal import Decimal as D

from negotiations.concessions import CONCEDED, FEDERAL, HARDENED, PROVINCES, Round, concessions
from negotiations.terms import OfferTerms

PT = ("ON", "QC")
BUDGET = OfferTerms(max_grant=D(15000), federal_amount=D(5000), provincial_amount=D(5000), employer_amount=D(5000),
                    scale_amount=D(300_000_000), sources=(("federal", "LMA", D(5000)), ("provincial", "PT_OWN", D(5000))))
DECEMBER = replace(BUDGET, federal_amount=D(10000), provincial_amount=D(0), shortfall_liability="province",
                   sources=(("federal", "LMA", D(5000)), ("federal", "LMDA", D(5000))))
COUNTER = replace(DECEMBER, shortfall_liability="none", treatments=(("QC", "opts_out_compensated"),),
                  sources=(("federal", "LMA", D(2500)), ("federal", "LMDA", D(7500))))


def rounds():
    return [
        Round("budget", "Budget", datetime.date(2013, 3, 21), FEDERAL, BUDGET),
        Round("dec", "December", datetime.date(2013, 12, 24), FEDERAL, DECEMBER),
        Round("counter", "Counter", datetime.date(2014, 1, 28), PROVINCES, COUNTER),
    ]


def test_each_term_value_offer_by_offer():
    result = concessions(rounds(), PT)
    split = next(t for t in result.terms if t.term == "split.provincial")
    assert [(v.offer, v.value) for v in split.rounds] == [("budget", D(5000)), ("dec", D(0)), ("counter", D(0))]
    assert split.numeric and not next(t for t in result.terms if t.term == "treatments.QC").numeric


def test_ottawa_conceded_the_provincial_third_and_hardened_on_the_clawback():
    moves = {(m.term, m.kind) for m in concessions(rounds(), PT).moves_of(FEDERAL)}
    assert ("split.provincial", CONCEDED) in moves
    assert ("sources.federal.LMDA", CONCEDED) in moves
    assert ("shortfall_liability", HARDENED) in moves
    assert concessions(rounds(), PT).moves_of(PROVINCES) == ()


def test_the_gap_is_the_terms_on_which_the_latest_offers_differ():
    gaps = {g.term: (g.federal, g.provinces) for g in concessions(rounds(), PT).gaps}
    assert gaps == {"sources.federal.LMA": (D(5000), D(2500)), "sources.federal.LMDA": (D(5000), D(7500)),
                    "shortfall_liability": ("province", "none"),
                    "treatments.QC": ("participates", "opts_out_compensated")}


def test_one_side_alone_has_no_gap():
    assert concessions(rounds()[:2], PT).gaps == ()


def test_a_slower_phase_in_is_a_concession_to_a_side_that_asks_for_a_longer_one():
    # "Phase-in — → 25% in 2014-15 … (moved)": every change of a phase-in read as a mere move.
    november = replace(BUDGET, phase_in=(("2014-15", D("0.25")), ("2015-16", D("0.5")), ("2016-17", D("0.75")),
                                         ("2017-18", D(1))))
    longer = replace(COUNTER, phase_in=(("2014-15", D("0.125")), ("2015-16", D("0.25")), ("2016-17", D("0.5")),
                                        ("2017-18", D("0.75")), ("2018-19", D(1))))
    result = concessions([
        Round("budget", "Budget", datetime.date(2013, 3, 21), FEDERAL, BUDGET),
        Round("nov", "November", datetime.date(2013, 11, 8), FEDERAL, november),
        Round("dec", "December", datetime.date(2013, 12, 24), FEDERAL, DECEMBER),
        Round("counter", "Counter", datetime.date(2014, 1, 28), PROVINCES, longer),
    ], PT)
    phase_in = {m.offer: m.kind for m in result.moves_of(FEDERAL) if m.term == "phase_in"}
    assert phase_in == {"nov": CONCEDED, "dec": HARDENED}
