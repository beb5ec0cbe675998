"""Time the fiscal engine: one offer in full with every trace, then 1,000 varied offers.

Run from the project root:  .venv/bin/python bench/engine.py
Prints figures only; the target is under 1 ms per offer.
"""

import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grants.fiscal import (  # noqa: E402 - needs the project root on the path first
    LINE_NAMES,
    Jurisdiction,
    Liability,
    Payer,
    Program,
    ReferenceData,
    Scenario,
    Treatment,
    compute,
)
from negotiations.terms import OfferTerms  # noqa: E402

D = Decimal
POPULATIONS = {
    "NL": 526702, "PE": 145237, "NS": 940789, "NB": 756050, "QC": 8155334, "ON": 13537994, "MB": 1265015,
    "SK": 1108303, "AB": 4025074, "BC": 4581978, "YT": 36700, "NT": 43537, "NU": 35591,
}  # fmt: skip
REFERENCE = ReferenceData(
    jurisdictions=tuple(Jurisdiction(code=code, population=population) for code, population in POPULATIONS.items()),
    envelopes=((Program.LMA, D(500_000_000)), (Program.LMDA, D(1_950_000_000)), (Program.CJF, D(500_000_000))),
)

# A busy offer: two funding sources each, an opt-out, direct delivery, a four-year phase-in.
FULL_OFFER = OfferTerms(
    max_grant=D(15000),
    federal_amount=D(10000),
    provincial_amount=D(0),
    employer_amount=D(5000),
    sources=((Payer.FEDERAL, Program.LMA, D(5000)), (Payer.FEDERAL, Program.LMDA, D(5000))),
    scale_program=Program.LMA,
    scale_amount=D(300_000_000),
    employer_min_share=D("0.15"),
    small_employer_gap_payer=Payer.FEDERAL,
    shortfall_liability=Liability.PROVINCE,
    treatments=(("QC", Treatment.OPTS_OUT_COMPENSATED), ("NU", Treatment.FEDERAL_DIRECT)),
    phase_in=(("2014-15", D("0.15")), ("2015-16", D("0.3")), ("2016-17", D("0.6")), ("2017-18", D(1))),
)
FULL_SCENARIO = Scenario(participation=D("0.8"))


def full_effect_with_traces() -> int:
    """Compute the busy offer and explain every line, nationally and for each P/T."""
    effect = compute(FULL_OFFER, REFERENCE, FULL_SCENARIO)
    traces = 0
    for code in (None, *POPULATIONS):
        for line in LINE_NAMES:
            str(effect.explain(line, code))
            traces += 1
    return traces


def varied_offer(rng: random.Random) -> tuple[OfferTerms, Scenario]:
    """A random but valid offer: split, sources, scale, treatments and phase-in all vary."""
    federal, provincial, employer = (rng.randrange(0, 10_001, 500) for _ in range(3))
    federal = federal or 500
    federal_lma = rng.randrange(0, federal + 1, 500)
    provincial_lmda = rng.randrange(0, provincial + 1, 500)
    sources = (
        (Payer.FEDERAL, Program.LMA, D(federal_lma)), (Payer.FEDERAL, Program.FEDERAL_NEW, D(federal - federal_lma)),
        (Payer.PROVINCIAL, Program.LMDA, D(provincial_lmda)),
        (Payer.PROVINCIAL, Program.PT_OWN, D(provincial - provincial_lmda)),
    )
    scale_program = Program.LMA if federal_lma else Program.FEDERAL_NEW
    years = [f"{start}-{(start + 1) % 100:02d}" for start in range(2014, 2014 + rng.randrange(0, 5))]
    fractions = sorted(D(rng.randrange(5, 101)) / 100 for _ in years)
    terms = OfferTerms(
        max_grant=D(federal + provincial + employer),
        federal_amount=D(federal),
        provincial_amount=D(provincial),
        employer_amount=D(employer),
        sources=sources,
        scale_program=scale_program,
        scale_amount=D(rng.randrange(10_000_000, 500_000_001, 10_000_000)),
        employer_min_share=rng.choice([None, D("0.15"), D("0.33")]),
        small_employer_gap_payer=rng.choice(["", Payer.FEDERAL, Payer.PROVINCIAL]),
        shortfall_liability=rng.choice(list(Liability)),
        treatments=tuple((code, rng.choice(list(Treatment))) for code in POPULATIONS if rng.random() < 0.2),
        phase_in=tuple(zip(years, fractions)),
    )
    return terms, Scenario(participation=D(rng.randrange(50, 101)) / 100)


def timed(work) -> tuple[float, float]:
    """Run ``work`` once; return (wall-clock seconds, CPU seconds of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    runs = 2000

    def compute_runs() -> None:
        for _ in range(runs):
            compute(FULL_OFFER, REFERENCE, FULL_SCENARIO)

    def trace_runs() -> None:
        for _ in range(runs):
            full_effect_with_traces()

    offers = [varied_offer(random.Random(seed)) for seed in range(1000)]
    effects = []

    def varied_runs() -> None:
        effects.extend(compute(terms, REFERENCE, scenario) for terms, scenario in offers)

    traces = full_effect_with_traces()
    compute_wall, compute_cpu = timed(compute_runs)
    trace_wall, trace_cpu = timed(trace_runs)
    varied_wall, varied_cpu = timed(varied_runs)
    trainees = sum(effect.national.trainees for effect in effects)

    # CPU time is shown beside wall-clock time: on a busy machine the two drift apart.
    print(f"one offer (4-year phase-in, {len(POPULATIONS)} P/Ts), mean of {runs} runs (wall / CPU):")
    print(f"  compute:                      {compute_wall / runs * 1e3:.3f} ms / {compute_cpu / runs * 1e3:.3f} ms")
    print(f"  compute + {traces} traces as text: {trace_wall / runs * 1e3:.3f} ms / {trace_cpu / runs * 1e3:.3f} ms")
    print(f"{len(offers)} varied offers over {len(POPULATIONS)} jurisdictions (wall / CPU):")
    print(f"  total:                        {varied_wall:.3f} s / {varied_cpu:.3f} s")
    print(f"  per offer:                    {varied_wall / len(offers) * 1e3:.3f} ms / "
          f"{varied_cpu / len(offers) * 1e3:.3f} ms")
    print(f"  (national trainees, all offers: {trainees:,})")


if __name__ == "__main__":
    main()
