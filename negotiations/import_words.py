"""The article reader's warnings in the reader's language.

``negotiations.article_import`` and ``negotiations.article_text`` are pure and write their warnings in English,
as the import API gives them and as an import keeps them; the review page shows each through this table.
Each warning is written once, as its msgid: the pattern that recognises it is made from it (a placeholder such as
``%(text)s`` matches any text). A warning the table does not know is shown as it was written.
"""

import re

from django.utils.translation import gettext, gettext_noop

_MSGIDS = (
    gettext_noop("No headline found: give the source a title."),
    gettext_noop("No outlet found: say which outlet published the article."),
    gettext_noop("No publication date found: give one, so that “Wednesday” and the like can be dated."),
    gettext_noop("No quotation found in the article."),
    gettext_noop("No speaker found for “%(text)s”: choose one."),
    gettext_noop("A quotation mark is never closed: “%(text)s”"),
    gettext_noop("Speaker known only by role (%(role)s): give their name."),
    gettext_noop("A character was lost in the encoding and could not be restored (shown as �): “%(text)s”"),
)
_WARNINGS = tuple(
    (re.compile(re.sub(r"%\\\((\w+)\\\)s", r"(?P<\1>.*)", re.escape(msgid)), re.DOTALL), msgid) for msgid in _MSGIDS
)


def warning_text(warning: str) -> str:
    """One of the reader's warnings in the current language."""
    for pattern, msgid in _WARNINGS:
        found = pattern.fullmatch(warning)
        if found:
            return gettext(msgid) % found.groupdict() if found.groupdict() else gettext(msgid)
    return warning
