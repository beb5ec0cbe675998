"""What identifies this release of the code: a digest of everything that shapes a rendered page.

The record cache shared through Redis outlives a deploy: its keys carry this digest, so that pages
rendered by the previous code and templates (their markup, their hashed static addresses) are never
served by the new one, even while the record has not changed.
"""

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("config", "negotiations", "grants", "briefings", "alerts", "templates", "static", "locale")
SUFFIXES = {".py", ".html", ".txt", ".css", ".js", ".mo"}


def code_release(root: Path = ROOT) -> str:
    """A short digest of the project's code, templates, static files and compiled translations."""
    digest = hashlib.blake2b(digest_size=8)
    paths = sorted(path for folder in SOURCES for path in (root / folder).rglob("*")
                   if path.suffix in SUFFIXES and path.is_file())
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
