"""English as written in Canada (en-CA): Django's English, with dates in words written out (January 28, 2014)."""

from django.conf.locale.en.formats import *  # noqa: F403

DATE_FORMAT = "F j, Y"
