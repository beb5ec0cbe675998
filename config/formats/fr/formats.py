"""French as written in Canada (fr-CA): Django's French, with Canada's numeric date (2014-01-28).

Figures: a no-break space between thousands and a decimal comma (300 000 000 $, 0,15); dates in
words: 28 janvier 2014.
"""

from django.conf.locale.fr.formats import *  # noqa: F403

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday, as calendars in Canada show it
