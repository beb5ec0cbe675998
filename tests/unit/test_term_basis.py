"""The basis rules of negotiations.terms and grants.basis (which figures rest on which terms), without a database."""

import pytest

from grants.basis import figure_bases, terms_behind
from negotiations.terms import TermBasisEntry, check_basis, expand_basis_keys, missing_basis, term_paths

PTS = ("QC", "ON")


def test_each_status_needs_what_it_rests_on():
    problems = check_basis([
        TermBasisEntry(term="max_grant", status="reported", source=None, passage=""),
        TermBasisEntry(term="scale", status="inferred", source="cp", note=""),
        TermBasisEntry(term="phase_in", status="assumed", note=" "),
        TermBasisEntry(term="split.federal", status="reported", source="cp", passage="$10,000"),
        TermBasisEntry(term="nonsense", status="assumed", note="x"),
        TermBasisEntry(term="split.employer", status="guessed", note="x"),
    ], PTS)
    fields = [p.field for p in problems]
    assert fields.count("basis.max_grant") == 2  # no source, no passage
    assert "basis.scale" in fields and "basis.phase_in" in fields
    assert "basis.split.federal" not in fields
    assert "basis.nonsense" in fields and "basis.split.employer" in fields


def test_groups_expand_and_a_named_term_wins():
    expanded = expand_basis_keys({"treatments": "a", "treatments.QC": "b", "sources": "c", "sources.federal.LMA": "d"}, PTS)
    assert expanded["treatments.QC"] == "b" and expanded["treatments.ON"] == "a"
    assert expanded["sources.federal.LMA"] == "d" and expanded["sources.provincial.PT_OWN"] == "c"
    with pytest.raises(KeyError):
        expand_basis_keys({"treatment": "a"}, PTS)


def test_a_term_without_basis_is_missing_not_reported():
    entries = [TermBasisEntry(term="max_grant", status="reported", source="s", passage="p")]
    missing = missing_basis(entries, PTS)
    assert "max_grant" not in missing and "scale" in missing and len(missing) == len(term_paths(PTS)) - 1


def test_figures_name_the_assumed_terms_they_rest_on():
    statuses = dict.fromkeys(term_paths(PTS), "reported")
    statuses.update({"scale": "assumed", "split.provincial": "assumed", "treatments.ON": "inferred",
                     "employer_min_share": "assumed"})
    bases = figure_bases(statuses, scale_program="LMA")
    assert bases["trainees"].assumed == ("scale",)
    assert bases["trainees"].inferred == ("treatments.ON",)
    assert bases["provincial_cost"].assumed == ("split.provincial", "scale")
    assert bases["federal_cost"].assumed == ("scale",)
    assert bases["lma_allocation"].all_reported
    assert bases["small_employer_gap"].assumed == ("employer_min_share",)


def test_the_scale_program_decides_which_draw_sets_trainees():
    paths = term_paths(PTS)
    assert "sources.federal.LMDA" in terms_behind("trainees", paths, scale_program="LMDA")
    assert "sources.federal.LMDA" not in terms_behind("trainees", paths, scale_program="LMA")
