"""What one figure rests on, in words (grants.term_basis.FigureNote): the marks' text and the explanation's sentence."""

from django.utils import translation

from grants.term_basis import FigureNote

BOTH = FigureNote(line="trainees", assumed=("Scale", "Maximum grant"), inferred=("Treatment of Quebec",), missing=())
NOT_ASSUMED = FigureNote(line="trainees", assumed=(), inferred=("Treatment of Quebec",), missing=("Phase-in",))


def test_the_explanation_says_a_figure_s_note_as_a_sentence_whose_subject_is_the_figure():
    # It read "This figure: rests on 2 assumed terms: …", and "This figure: 1 inferred: …" without an assumed term.
    with translation.override("en"):
        assert BOTH.sentence == "This figure rests on 2 assumed terms: scale, maximum grant; 1 inferred: treatment of Quebec."
        assert NOT_ASSUMED.sentence == (
            "This figure rests on 1 inferred term: treatment of Quebec; 1 without a basis: phase-in.")
        assert BOTH.text == "Rests on 2 assumed terms: scale, maximum grant; 1 inferred: treatment of Quebec."
    with translation.override("fr"):
        assert NOT_ASSUMED.sentence.startswith("Ce chiffre repose sur 1 condition déduite\u00a0: treatment of Quebec;")


def test_a_figure_from_reported_terms_only_has_nothing_to_say():
    empty = FigureNote(line="trainees", assumed=(), inferred=(), missing=())
    assert empty.all_reported and empty.sentence == "" and empty.text == ""
