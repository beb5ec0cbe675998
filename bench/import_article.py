"""Time the article import's proposal (decoding, repair, quotes, speakers, dates) on a 2,000-word article.

Run from the project root:  .venv/bin/python bench/import_article.py
The article is built from the invented test articles (tests/data/articles/), damaged as UTF-8 read
through GBK so the repair runs too. Prints figures only; the target is under 2 s per article.
"""

import datetime
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from negotiations.article_import import propose  # noqa: E402 - needs the project root on the path first
from negotiations.article_text import read_article  # noqa: E402

ARTICLES = ROOT / "tests" / "data" / "articles"


def article_of(words: int) -> bytes:
    parts = [read_article((ARTICLES / name).read_bytes()).text
             for name in ("ledger_utf8.html", "atlantic_cp1252.txt", "montreal_utf8.txt")]
    body = ["WINNIPEG -- Ministers met on Monday."]
    while len(" ".join(body).split()) < words:
        body.extend(part.split("\n\n", 1)[-1] for part in parts)
    return "\n\n".join(body).encode("utf-8").decode("gb18030", errors="replace").encode("utf-8")


def main():
    data = article_of(2000)
    words = len(read_article(data).text.split())
    start = time.perf_counter()
    first = propose(data, published=datetime.date(2015, 3, 12))
    cold = time.perf_counter() - start
    runs = []
    for _ in range(10):
        start = time.perf_counter()
        propose(data, published=datetime.date(2015, 3, 12))
        runs.append(time.perf_counter() - start)
    print(f"article of {words} words, {len(data)} bytes (UTF-8 read as GBK), {len(first.statements)} quotes proposed")
    print(f"first proposal (loads dateparser's data): {cold * 1000:.0f} ms")
    print(f"then, 10 runs: median {statistics.median(runs) * 1000:.0f} ms, max {max(runs) * 1000:.0f} ms (target < 2000 ms)")


if __name__ == "__main__":
    main()
