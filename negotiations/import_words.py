"""The article reader's warnings and encoding repairs in the reader's language.

``negotiations.article_import`` and ``negotiations.article_text`` are pure and write their warnings in English,
as the import API gives them and as an import keeps them; the review page shows each through this table.
Each warning is written once, as its msgid (``config.sentences``). A warning the table does not know is shown as it
was written.
"""

from django.utils.translation import gettext, gettext_noop

from config.sentences import sentence_patterns, translated

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
_WARNINGS = sentence_patterns(_MSGIDS)


def warning_text(warning: str) -> str:
    """One of the reader's warnings in the current language."""
    return translated(warning, _WARNINGS)


# The repairs ``negotiations.article_text`` names, which an import keeps in English joined by ", " (its ``repairs``).
_REPAIRS = (
    gettext_noop("UTF-8 read as Windows-1252 or Latin-1"),
    gettext_noop("UTF-8 read as GBK"),
)


def repairs_text(repairs: str) -> str:
    """An import's encoding repairs in the current language; a repair the table does not know is shown as written."""
    return ", ".join(gettext(repair) if repair in _REPAIRS else repair for repair in repairs.split(", ") if repair)
