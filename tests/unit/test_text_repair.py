"""text_repair undoes UTF-8 text read as GB18030, and leaves clean text alone.

The damaged strings are made here the way the damage happens: clean text encoded as UTF-8
and decoded as GB18030 with errors replaced.
"""

import pytest

from negotiations.text_repair import has_mojibake, repair_text


def damage(text: str) -> str:
    return text.encode("utf-8").decode("gb18030", errors="replace")


@pytest.mark.parametrize(
    "clean",
    [
        "The minister said she didn’t expect a deal.",  # apostrophe before a letter: reversible
        "They said “yes” to the plan.",  # closing quote before a space: last byte lost
        "He called it “a step back.” Then he left.",
        "“$5,000” from each payer",  # opening quote before a symbol: last byte lost
        "the workers’ programs and the employers’ share",  # plural possessive before a space
        "she said: ‘We will not,’\" he reported.",  # single quote closed inside straight double quotes
        "the grant — announced in spring — was delayed",  # spaced dashes
        "years 2014–2015 of the agreement",  # range dash between digits
        "Agnès Maltais, ministre du Québec",  # accented letters
        "“Québec’s money” and “Ontario’s”, they said",
        "two marks in a row ’’ here",
    ],
)
def test_repair_restores_damaged_text(clean):
    damaged = damage(clean)
    assert damaged != clean
    assert has_mojibake(damaged)
    assert repair_text(damaged) == clean
    assert not has_mojibake(repair_text(damaged))


@pytest.mark.parametrize(
    "clean",
    [
        "",
        "Plain ASCII with 'straight' and \"double\" quotes -- and dashes.",
        "Curly “quotes”, apostrophes’ and dashes — already right…",
        "Français : Île-du-Prince-Édouard, Nouvelle-Écosse, Québec",
        "中文文本",  # genuine Chinese is not this damage
    ],
)
def test_clean_text_is_left_alone(clean):
    assert repair_text(clean) == clean
    assert not has_mojibake(clean)


def test_repair_is_idempotent():
    damaged = damage("It’s “done”, he said — twice.")
    once = repair_text(damaged)
    assert repair_text(once) == once


def test_damaged_lead_without_its_replacement_character_is_still_repaired():
    # Some tools strip U+FFFD, leaving the two-byte lead on its own.
    damaged = damage("“Enough” he said").replace("\ufffd", "")
    assert has_mojibake(damaged)
    assert repair_text(damaged) == "“Enough” he said"


def test_a_lost_character_that_cannot_be_rebuilt_is_still_reported():
    # A lone replacement character says something was lost; repair cannot say what.
    assert has_mojibake("a lost \ufffd character")
    assert repair_text("a lost \ufffd character") == "a lost \ufffd character"
