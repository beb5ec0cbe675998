"""The article reader's warnings in the reader's language.

``negotiations.article_import`` and ``negotiations.article_text`` are pure and write their warnings in English,
as the import API gives them and as an import keeps them; the review page shows each through this table.
A warning the table does not know is shown as it was written.
"""

import re

from django.utils.translation import gettext_lazy as _

_WARNINGS = tuple((re.compile(pattern, re.DOTALL), words) for pattern, words in (
    (r"No headline found: give the source a title\.", _("No headline found: give the source a title.")),
    (r"No outlet found: say which outlet published the article\.",
     _("No outlet found: say which outlet published the article.")),
    (r"No publication date found: give one, so that “Wednesday” and the like can be dated\.",
     _("No publication date found: give one, so that “Wednesday” and the like can be dated.")),
    (r"No quotation found in the article\.", _("No quotation found in the article.")),
    (r"No speaker found for “(?P<text>.*)”: choose one\.", _("No speaker found for “%(text)s”: choose one.")),
    (r"A quotation mark is never closed: “(?P<text>.*)”", _("A quotation mark is never closed: “%(text)s”")),
    (r"Speaker known only by role \((?P<role>.*)\): give their name\.",
     _("Speaker known only by role (%(role)s): give their name.")),
    (r"A character was lost in the encoding and could not be restored \(shown as \ufffd\): “(?P<text>.*)”",
     _("A character was lost in the encoding and could not be restored (shown as �): “%(text)s”")),
))


def warning_text(warning: str) -> str:
    """One of the reader's warnings in the current language."""
    for pattern, words in _WARNINGS:
        found = pattern.fullmatch(warning)
        if found:
            return str(words) % found.groupdict() if found.groupdict() else str(words)
    return warning
