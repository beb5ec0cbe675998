"""An article's bytes to clean paragraphs: the encoding found and repaired, HTML markup stripped.

Pure Python, no Django. Handles plain UTF-8, Windows-1252 and Latin-1, UTF-8 that was read as
Windows-1252 or Latin-1 ("donâ€™t"), and UTF-8 read through GBK ("don鈥檛", repaired by
``negotiations.text_repair``). Characters that no rule can restore are reported as warnings
with the passage they sit in, never silently dropped.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from negotiations.bounds import without_control_characters
from negotiations.text_repair import DAMAGED_LEAD, REPLACEMENT, repair_text

__all__ = ["ArticleText", "NotText", "read_article"]

# What UTF-8 read as Windows-1252 leaves behind: Ã or Â followed by a continuation character,
# or â€ (the lead of every curly quote and dash).
_LATIN_MOJIBAKE = re.compile(
    "[\u00c2\u00c3][\u0080-\u00bf\u2018-\u203a\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u20ac\u2122]"
    "|\u00e2\u20ac|\u00e2\u0080")
_BLOCK_TAGS = {
    "p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section", "article",
    "tr", "dd", "dt", "figcaption", "pre", "hr", "ul", "ol", "table", "header", "main",
}
_SKIPPED_TAGS = {"script", "style", "noscript", "nav", "aside", "footer", "form", "template", "svg", "iframe"}
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_LOOKS_HTML = re.compile(r"<(?:!doctype|html|head|body|p|div|br|article|h1|span|a)\b", re.IGNORECASE)


# Control characters other than NUL, tabs and line breaks: more than a few in the first 8 KB mark binary input.
_CONTROL = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")


class NotText(ValueError):
    """The input is empty, binary, or cannot be read as text in any encoding."""


@dataclass(frozen=True)
class ArticleText:
    """An article as clean paragraphs, with what was found about it on the way."""

    paragraphs: tuple[str, ...]
    encoding: str
    repairs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    is_html: bool = False
    meta: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The repaired text, paragraphs separated by a blank line (offsets refer to this)."""
        return "\n\n".join(self.paragraphs)


def read_article(data: bytes | str) -> ArticleText:
    """Decode, repair and (for HTML) strip an article. Raises NotText for empty or binary input."""
    if isinstance(data, str):
        text, encoding = data, "text"
        raw = None
    else:
        raw = data
        text, encoding = _decode(data)
    if not text.strip():
        raise NotText("The article is empty.")
    repairs: list[str] = []
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    # A page break (form feed, vertical tab) copied from a PDF ends a line; another control character (an escape
    # code, a bell, a NUL past the first 8 KB) is nothing a reader sees and nothing to store.
    text = without_control_characters(text)
    fixed = _undo_latin_mojibake(text)
    if fixed != text:
        repairs.append("UTF-8 read as Windows-1252 or Latin-1")
        text = fixed
    if DAMAGED_LEAD in text or REPLACEMENT in text or _gbk_damage(text):
        fixed = repair_text(text)
        if fixed != text:
            repairs.append("UTF-8 read as GBK")
            text = fixed
    meta: dict = {}
    is_html = bool(_LOOKS_HTML.search(text[:5000]))
    if is_html:
        parser = _ArticleParser()
        parser.feed(text)
        parser.close()
        paragraphs = parser.paragraphs()
        meta = parser.meta
        if raw is not None and not meta.get("charset"):
            found = _CHARSET.search(raw[:4096])
            if found:
                meta["charset"] = found.group(1).decode("ascii", "replace")
    else:
        paragraphs = _plain_paragraphs(text)
    paragraphs = [_tidy(paragraph) for paragraph in paragraphs]
    paragraphs = [paragraph for paragraph in paragraphs if paragraph]
    if not paragraphs:
        raise NotText("The article has no text once its markup is removed.")
    warnings = [
        f"A character was lost in the encoding and could not be restored (shown as \ufffd): “{_around(p, p.index(REPLACEMENT))}”"
        for p in paragraphs if REPLACEMENT in p
    ]
    return ArticleText(paragraphs=tuple(paragraphs), encoding=encoding, repairs=tuple(repairs),
                       warnings=tuple(warnings), is_html=is_html, meta=meta)


def _decode(data: bytes) -> tuple[str, str]:
    if not data.strip():
        raise NotText("The article is empty.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            raise NotText("The file says it is UTF-16 but is not.") from None
    if b"\x00" in data[:8192] or len(_CONTROL.findall(data[:8192].decode("latin-1"))) > 8:
        raise NotText("This looks like a binary file, not an article: give plain text or HTML.")
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    declared = _CHARSET.search(data[:4096])
    if declared:
        name = declared.group(1).decode("ascii", "replace").lower()
        if name not in {"utf-8", "utf8"}:
            try:
                return data.decode(name), name
            except (LookupError, UnicodeError):  # (not UnicodeDecodeError only: Python's "undefined" raises its parent)
                pass
    # Windows-1252 is a superset of Latin-1's printable range; its five undefined bytes fall back to Latin-1.
    if any(0x80 <= byte <= 0x9F for byte in data):
        return data.decode("cp1252", errors="latin1_gaps"), "Windows-1252"
    return data.decode("latin-1"), "Latin-1"


def _latin1_gaps(error: UnicodeDecodeError) -> tuple[str, int]:
    """Windows-1252 leaves five bytes undefined; read them as Latin-1 does."""
    return "".join(chr(byte) for byte in error.object[error.start:error.end]), error.end


codecs.register_error("latin1_gaps", _latin1_gaps)


def _undo_latin_mojibake(text: str) -> str:
    """Undo UTF-8 read as Windows-1252 or Latin-1, once or twice; text without that damage is unchanged."""
    # Windows-1252 has no character for byte 0x9D, the last byte of ”: a reader that replaced it
    # with U+FFFD left "â€�", which can only have been that closing quote (or a rarer mark in U+2000-203F).
    text = text.replace("\u00e2\u20ac\ufffd", "\u00e2\u20ac\x9d") if _LATIN_MOJIBAKE.search(text) else text
    for _ in range(2):
        if not _LATIN_MOJIBAKE.search(text):
            return text
        fixed = _reverse_latin(text)
        if fixed is None or len(_LATIN_MOJIBAKE.findall(fixed)) >= len(_LATIN_MOJIBAKE.findall(text)):
            return text
        text = fixed
    return text


def _reverse_latin(text: str) -> str | None:
    """Re-encode each non-ASCII run as Windows-1252 (Latin-1 for its gaps) and read it as UTF-8."""
    out: list[str] = []
    position = 0
    for run in re.finditer(r"[^\x00-\x7f]+", text):
        out.append(text[position:run.start()])
        position = run.end()
        encoded = bytearray()
        for char in run.group():
            try:
                encoded += char.encode("cp1252")
            except UnicodeEncodeError:
                if ord(char) < 256:
                    encoded.append(ord(char))
                else:
                    encoded = None
                    break
        try:
            out.append(bytes(encoded).decode("utf-8") if encoded is not None else run.group())
        except UnicodeDecodeError:
            out.append(run.group())
    out.append(text[position:])
    return "".join(out)


def _gbk_damage(text: str) -> bool:
    # A CJK character directly between two Latin letters is the mark of UTF-8 read through GBK.
    return bool(re.search(r"[A-Za-z][\u3400-\u9fff][A-Za-z]", text))


def _plain_paragraphs(text: str) -> list[str]:
    """Blank lines separate paragraphs; without any blank line, each line is one."""
    if re.search(r"\n[ \t]*\n", text):
        return [" ".join(block.split("\n")) for block in re.split(r"\n[ \t]*\n+", text)]
    return text.split("\n")


def _tidy(paragraph: str) -> str:
    paragraph = paragraph.replace("\u00a0", " ").replace("\t", " ")
    return re.sub(r" {2,}", " ", paragraph).strip()


def _around(text: str, index: int, width: int = 40) -> str:
    start = max(0, index - width)
    return ("…" if start else "") + text[start:index + width].strip() + ("…" if index + width < len(text) else "")


class _ArticleParser(HTMLParser):
    """Paragraphs of an HTML page, and its metadata (title, author, date, outlet, address)."""

    _META = {
        "og:title": "title", "twitter:title": "title", "og:site_name": "outlet", "og:url": "url",
        "author": "author", "article:author": "author", "byl": "author", "dc.creator": "author",
        "article:published_time": "published", "date": "published", "pubdate": "published",
        "dc.date": "published", "publish-date": "published", "sailthru.date": "published",
    }

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.meta: dict = {}
        self._blocks: list[list[str]] = [[]]
        self._skip = 0
        self._in_title = False
        self._in_h1 = False
        self._title: list[str] = []
        self._h1: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag in _SKIPPED_TAGS:
            self._skip += 1
        elif tag == "meta":
            key = (attrs.get("property") or attrs.get("name") or attrs.get("itemprop") or "").lower()
            if key in self._META and attrs.get("content") and self._META[key] not in self.meta:
                self.meta[self._META[key]] = attrs["content"].strip()
            if attrs.get("charset"):
                self.meta["charset"] = attrs["charset"]
        elif tag == "link" and "canonical" in attrs.get("rel", "").lower() and attrs.get("href"):
            self.meta.setdefault("url", attrs["href"].strip())
        elif tag == "time" and attrs.get("datetime"):
            self.meta.setdefault("published", attrs["datetime"].strip())
        elif tag == "title":
            self._in_title = True
        if tag == "h1":
            self._in_h1 = True
        if tag in _BLOCK_TAGS:
            self._blocks.append([])

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in _SKIPPED_TAGS:
            self._skip -= 1

    def handle_endtag(self, tag):
        if tag in _SKIPPED_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        if tag == "h1":
            self._in_h1 = False
        if tag in _BLOCK_TAGS:
            self._blocks.append([])

    def handle_data(self, data):
        if self._in_title:
            self._title.append(data)
            return
        if self._skip:
            return
        if self._in_h1:
            self._h1.append(data)
        self._blocks[-1].append(data)

    def paragraphs(self) -> list[str]:
        title = " ".join("".join(self._h1).split()) or " ".join("".join(self._title).split())
        if title:
            self.meta.setdefault("title", title)
        blocks = [" ".join("".join(block).split()) for block in self._blocks]
        return [block for block in blocks if block]
