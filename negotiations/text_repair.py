"""Repair of one kind of encoding damage: UTF-8 text that was decoded as GBK/GB18030.

A clipping saved that way turns every curly quote, apostrophe and dash into Chinese
characters: the UTF-8 bytes of ’ (E2 80 99) are read as 鈥 (E2 80) plus a character made
of 0x99 and the next letter, so "don’t" becomes "don鈥檛". Encoding such a run back to
GB18030 and decoding it as UTF-8 restores it exactly.

One case cannot be reversed byte for byte. When the next character is a space, a digit
or punctuation (bytes below 0x40), the decoder cannot pair the last byte of the quote
mark and replaces it with U+FFFD: "ourselves” with" becomes "ourselves鈥� with". Only
the first two bytes survive, which say "a character from U+2000 to U+203F" (the general
punctuation block), so the missing mark is chosen from its context: the quotes still
open before it and the characters either side (see ``_guess_punctuation``).

Pure Python, no Django: the loader and anything that imports clippings can use it.
"""

import re

__all__ = ["has_mojibake", "repair_text"]

# What the first two UTF-8 bytes of every general-punctuation character (E2 80) become.
DAMAGED_LEAD = "\u9225"  # 鈥
REPLACEMENT = "\ufffd"

_PUNCTUATION_PREFIX = b"\xe2\x80"
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
_CJK = re.compile(r"[\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_OPENERS = "([{\u2014\u2013"


def has_mojibake(text: str) -> bool:
    """Whether ``text`` still shows UTF-8-read-as-GBK damage (or a character lost to it)."""
    if not text:
        return False
    if DAMAGED_LEAD in text or REPLACEMENT in text:
        return True
    return repair_text(text) != text


def repair_text(text: str) -> str:
    """Return ``text`` with UTF-8-read-as-GB18030 damage undone; clean text comes back unchanged.

    Each run of non-ASCII characters is re-encoded as GB18030 and decoded as UTF-8. A run
    is replaced only when that gives valid UTF-8 free of CJK ideographs, so genuine
    accented or Chinese text is left alone. Characters lost to U+FFFD are rebuilt as the
    most likely punctuation mark; a loss that cannot be rebuilt stays as U+FFFD, so
    ``has_mojibake`` still reports it.
    """
    if not text or text.isascii():
        return text
    done: list[str] = []
    position = 0
    for run in _NON_ASCII_RUN.finditer(text):
        done.append(text[position:run.start()])
        position = run.end()
        repaired = _repair_run(run.group(), before="".join(done), after=text[position:position + 1])
        done.append(run.group() if repaired is None else repaired)
    done.append(text[position:])
    return "".join(done)


def _repair_run(run: str, *, before: str, after: str) -> str | None:
    """The repaired run, or None when it is not this damage (or cannot be decoded)."""
    if REPLACEMENT not in run and DAMAGED_LEAD not in run:
        decoded = _reverse(run)
        return decoded if decoded is not None and decoded != run and not _CJK.search(decoded) else None

    chunks = [_encode(part) for part in run.split(REPLACEMENT)]
    if any(chunk is None for chunk in chunks):
        return None
    buffer = bytearray(chunks[0])
    for index, chunk in enumerate(chunks[1:], start=1):
        following = _first_char(chunk) if chunk else (after if index == len(chunks) - 1 else "")
        if not _fill_gap(buffer, before=before, following=following):
            return None
        buffer += chunk
    # A damaged lead whose U+FFFD was stripped off ("鈥 ") is the same loss at the run's end.
    if buffer.endswith(_PUNCTUATION_PREFIX) and not _fill_gap(buffer, before=before, following=after):
        return None
    try:
        decoded = buffer.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if _CJK.search(decoded) else decoded


def _fill_gap(buffer: bytearray, *, before: str, following: str) -> bool:
    """Complete the character whose last byte was lost; False when the bytes so far are not UTF-8."""
    tail = _incomplete_tail(bytes(buffer))
    head = bytes(buffer[: len(buffer) - len(tail)])
    try:
        so_far = before + head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if tail == _PUNCTUATION_PREFIX:
        replacement = _guess_punctuation(so_far, following).encode("utf-8")
    elif tail == b"\xe2":
        # The lost byte is the 0x80 between E2 and the mark's last byte (two marks in a row).
        buffer.append(0x80)
        return True
    else:
        replacement = REPLACEMENT.encode("utf-8")
    del buffer[len(head):]
    buffer += replacement
    return True


def _guess_punctuation(so_far: str, following: str) -> str:
    """The general-punctuation mark most likely lost between ``so_far`` and ``following``.

    Marks lost this way are followed by a space, a digit or punctuation. After a space a
    mark opens a quotation (or, with a space after it too, is a dash); after a word it
    closes the quotation still open (single inside double), between digits it is a range
    dash, and otherwise it is an apostrophe (a plural possessive such as "leaders’").
    """
    previous = so_far[-1:]
    if not previous or previous.isspace() or previous in _OPENERS:
        if not following or following.isspace():
            return "\u2014"  # —
        return "\u2018" if _double_quote_open(so_far) else "\u201c"  # ‘ or “
    if previous.isdigit() and following.isdigit():
        return "\u2013"  # –
    if _single_quote_open(so_far):
        return "\u2019"  # ’
    if _double_quote_open(so_far):
        return "\u201d"  # ”
    return "\u2019"  # ’


def _double_quote_open(text: str) -> bool:
    # Clippings mix curly and straight quotes: a straight one after “ closes it.
    return text.rfind("\u201c") > max(text.rfind("\u201d"), text.rfind('"'))


def _single_quote_open(text: str) -> bool:
    opened = text.rfind("\u2018")
    if opened < 0:
        return False
    rest = text[opened + 1:]
    # An apostrophe inside a word (don’t) does not close the quotation; one before a non-letter does.
    return not any(
        char == "\u2019" and not rest[index + 1:index + 2].isalpha() for index, char in enumerate(rest)
    )


def _reverse(run: str) -> str | None:
    encoded = _encode(run)
    if encoded is None:
        return None
    try:
        return encoded.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _encode(part: str) -> bytes | None:
    try:
        return part.encode("gb18030")
    except UnicodeEncodeError:
        return None


def _first_char(chunk: bytes) -> str:
    """The first character of a chunk that may end mid-character."""
    return chunk[:4].decode("utf-8", errors="ignore")[:1]


def _incomplete_tail(data: bytes) -> bytes:
    """The bytes at the end of ``data`` that start a UTF-8 character without finishing it."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return b""
        if byte >= 0xC0:
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data[-back:] if back < needed else b""
    return b""
