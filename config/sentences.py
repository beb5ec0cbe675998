"""The English sentences of the pure modules (the fiscal engine, the article reader), shown in the reader's language.

Those modules write their messages in English, as the API and the command line give them. A page shows each
through a table of msgids: the pattern that recognises a sentence is made from its msgid (a placeholder such as
``%(text)s`` matches any text), so each sentence is written once. One the table does not know is shown as written.
"""

import re

from django.utils.translation import gettext


def sentence_patterns(msgids) -> tuple:
    """Each msgid with the pattern that recognises the English sentence it is."""
    return tuple(
        (re.compile(re.sub(r"%\\\((\w+)\\\)s", r"(?P<\1>.*)", re.escape(msgid)), re.DOTALL), msgid) for msgid in msgids
    )


def translated(sentence: str, patterns: tuple, *, placeholder=None) -> str:
    """``sentence`` in the current language, by the first of ``patterns`` (``sentence_patterns``) it is; each
    placeholder's text as it is, or through ``placeholder`` where it can itself be one of the sentences."""
    for pattern, msgid in patterns:
        if found := pattern.fullmatch(sentence):
            values = {name: placeholder(text) if placeholder else text for name, text in found.groupdict().items()}
            return gettext(msgid) % values if values else gettext(msgid)
    return sentence
