"""The bounds every input of the record is held to (negotiations.bounds, pure)."""

import datetime

from negotiations import bounds

D = datetime.date


def test_dates_in_range():
    assert bounds.date_in_range(D(2013, 11, 30))
    assert bounds.date_in_range(bounds.EARLIEST_DATE) and bounds.date_in_range(bounds.LATEST_DATE)
    assert not bounds.date_in_range(D(1, 1, 1))
    assert not bounds.date_in_range(D(14, 3, 1))  # a typo for 2014
    assert not bounds.date_in_range(D(9999, 12, 31))


def test_control_characters():
    assert bounds.has_control_characters("a\x00b")
    assert bounds.has_control_characters("\x1b[31m")
    assert not bounds.has_control_characters("two\r\nlines\tand a tab")
    assert bounds.has_control_characters("a\tb", allow_line_breaks=False)
    assert not bounds.has_control_characters("Québec — « oui »")
    # No characters at all, which XML (an Atom feed, a Word document) cannot hold.
    assert bounds.has_control_characters("a\uffffb") and bounds.has_control_characters("\ufffe")
    assert bounds.without_control_characters("a\ufffeb\uffff") == "ab"
    assert not bounds.has_control_characters("\ufffd \U0001f600")


def test_text_of_nothing_but_zero_width_characters_shows_nothing():
    assert bounds.shows_nothing("\u200b") and bounds.shows_nothing(" \u200b\ufeff\u200d ")
    assert not bounds.shows_nothing("") and not bounds.shows_nothing("   ")  # (the fields' own strip reads those)
    assert not bounds.shows_nothing("a\u200bb") and not bounds.shows_nothing("👨\u200d👩")


def test_months():
    assert bounds.months_between(D(2013, 3, 15), D(2014, 1, 2)) == 11
    assert bounds.add_months(D(2013, 11, 1), 2) == D(2014, 1, 1)
    assert bounds.add_months(D(2013, 1, 1), -1) == D(2012, 12, 1)


def test_a_short_span_is_kept_whole():
    assert bounds.densest_window([], D(2013, 3, 4), D(2014, 6, 30)) == (D(2013, 3, 1), D(2014, 6, 1))


def test_a_far_date_does_not_stretch_the_span_nor_hide_the_record():
    record = [D(2013, 3, 1) + datetime.timedelta(days=30 * i) for i in range(14)]
    first, last = bounds.densest_window(record + [D(2100, 12, 31)], D(1900, 1, 1), D(2100, 12, 31), size=24)
    assert bounds.months_between(first, last) == 24
    assert first <= min(record) and last >= max(record).replace(day=1)


def test_without_dates_to_go_by_the_span_ends_at_the_last_month():
    assert bounds.densest_window([], D(1900, 1, 1), D(2100, 12, 31), size=12) == (D(2100, 1, 1), D(2100, 12, 1))
