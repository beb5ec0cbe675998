"""The article reader's warnings, encoding repairs and where it read a quote's date, in the reader's language.

``negotiations.article_import`` and ``negotiations.article_text`` are pure and write their warnings in English,
as the import API gives them and as an import keeps them; the review page shows each through this table.
Each warning is written once, as its msgid (``config.sentences``). A warning the table does not know is shown as it
was written.
"""

from django.utils.translation import gettext_noop

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

# Where the reader took a quote's date (a proposal's ``date_basis``): the words of the article that date it, as
# they are, or one of these.
_DATE_BASES = sentence_patterns((
    gettext_noop("the publication date"),
    gettext_noop("%(text)s (said earlier in the article)"),
    gettext_noop("%(text)s (the last date the article gives)"),
))


def warning_text(warning: str) -> str:
    """One of the reader's warnings in the current language."""
    return translated(warning, _WARNINGS)


def date_basis_text(basis: str) -> str:
    """Where the reader took a quote's date, in the current language; the article's own words are kept. The basis
    of a date said earlier can be one of these ("the publication date (said earlier in the article)")."""
    return translated(basis, _DATE_BASES, placeholder=date_basis_text)


# The repairs ``negotiations.article_text`` names, which an import keeps in English joined by ", " (its ``repairs``).
_REPAIRS = sentence_patterns((
    gettext_noop("UTF-8 read as Windows-1252 or Latin-1"),
    gettext_noop("UTF-8 read as GBK"),
))


def repairs_text(repairs: str) -> str:
    """An import's encoding repairs in the current language; a repair the table does not know is shown as written."""
    return ", ".join(translated(repair, _REPAIRS) for repair in repairs.split(", ") if repair)
