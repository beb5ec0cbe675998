"""Marking the words found in a text (negotiations.search): pure, no database."""

from negotiations.search import marked, snippet


def test_a_whole_text_has_every_match_marked_accent_blind():
    assert marked("Le Québec dit non; QUEBEC se retire.", ["quebec"]) == [
        ("Le ", False), ("Québec", True), (" dit non; ", False), ("QUEBEC", True), (" se retire.", False)]


def test_matches_that_overlap_are_marked_as_one():
    # "fed" and "federal" both start the same word: the whole word is marked, not "fed" then "eral" left plain.
    assert marked("The federal share", ["fed", "federal"]) == [("The ", False), ("federal", True), (" share", False)]
    assert snippet("The federal share", ["federal", "fed"]) == [("The ", False), ("federal", True), (" share", False)]


def test_a_text_without_a_match_is_one_plain_piece():
    assert marked("Nothing here", ["grant"]) == [("Nothing here", False)]
    assert marked("", ["grant"]) == []
