"""Which figures rest on which terms that were not reported (assumed, inferred, or with no basis given).

Pure Python (no Django), like the engine: given each term's status (``negotiations.terms`` term
paths -> ``reported``, ``inferred``, ``assumed`` or ``missing``) and the program the scale is drawn
from, it says for each output line of FISCAL_MODEL.md the terms behind it that a reader should
not take as reported.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from grants.fiscal import LINE_NAMES

__all__ = ["FIGURE_LINES", "FigureBasis", "figure_bases", "terms_behind"]

REPORTED, INFERRED, ASSUMED, MISSING = "reported", "inferred", "assumed", "missing"

# The small-employer gap is a figure of its own (FISCAL_MODEL.md), beside the twelve lines.
FIGURE_LINES = (*LINE_NAMES, "small_employer_gap")


def terms_behind(line: str, paths: Iterable[str], *, scale_program: str) -> tuple[str, ...]:
    """The term paths among ``paths`` that the figure ``line`` is computed from, in ``paths`` order.

    Trainees come from the scale, the per-trainee draw on the scale's program, each P/T's
    treatment and the phase-in; every money line is trainees times a per-trainee amount.
    """
    paths = tuple(paths)
    trainees = {"scale", f"sources.federal.{scale_program}", f"sources.provincial.{scale_program}", "phase_in"}
    trainees |= {path for path in paths if path.startswith("treatments.")}
    lma = {"sources.federal.LMA", "sources.provincial.LMA"}
    needs = {
        "trainees": trainees,
        "federal_cost": trainees | {"split.federal"},
        "provincial_cost": trainees | {"split.provincial"},
        "employer_cost": trainees | {"split.employer"},
        "lma_diverted": trainees | lma,
        "lmda_redirected": trainees | {"sources.federal.LMDA", "sources.provincial.LMDA"},
        "provincial_new_money": trainees | {"sources.provincial.PT_OWN"},
        "lma_allocation": set(),  # reference data only: the LMA envelope by population
        "lma_remaining": trainees | lma,
        "provinces_need": trainees | lma | {"sources.provincial.PT_OWN"},
        "employer_shortfall": trainees | {"split.employer"},
        "provincial_liability": trainees | {"split.employer", "shortfall_liability"},
        "small_employer_gap": {"max_grant", "split.employer", "employer_min_share", "small_employer_gap_payer"},
    }
    if line not in needs:
        raise KeyError(line)
    return tuple(path for path in paths if path in needs[line])


@dataclass(frozen=True)
class FigureBasis:
    """The terms behind one figure that were not reported, by status, as term paths."""

    line: str
    assumed: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()

    @property
    def all_reported(self) -> bool:
        return not (self.assumed or self.inferred or self.missing)


def figure_bases(statuses: Mapping[str, str], *, scale_program: str) -> dict[str, FigureBasis]:
    """For every figure line, the assumed, inferred and missing terms it rests on.

    ``statuses`` maps every term path of the offer to its status; a path absent from it counts
    as ``missing`` only if listed, so pass every path (``missing`` for those without a basis).
    """
    result = {}
    for line in FIGURE_LINES:
        behind = terms_behind(line, statuses, scale_program=scale_program)
        result[line] = FigureBasis(
            line=line,
            assumed=tuple(path for path in behind if statuses[path] == ASSUMED),
            inferred=tuple(path for path in behind if statuses[path] == INFERRED),
            missing=tuple(path for path in behind if statuses[path] not in (REPORTED, ASSUMED, INFERRED)),
        )
    return result
