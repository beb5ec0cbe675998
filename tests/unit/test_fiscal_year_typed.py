"""A fiscal year typed as the French pages write it (2014-2015) is taken as the record writes it (2014-15)."""

import pytest

from negotiations.offer_forms import short_fiscal_year


@pytest.mark.parametrize(("typed", "kept"), [
    ("2014-15", "2014-15"), ("2014-2015", "2014-15"), (" 2014 – 2015 ", "2014-15"), ("2014/15", "2014-15"),
    ("2014-2016", "2014-2016"), ("2014", "2014"), ("abc", "abc"), ("", ""),
])
def test_a_fiscal_year_is_kept_in_the_record_s_short_form(typed, kept):
    assert short_fiscal_year(typed) == kept
