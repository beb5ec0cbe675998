"""Constants many test modules share: the 13 provinces and territories with their populations, and the
header htmx sends; and what a reader sees of a page. Nothing here needs a database, so the unit tests can use it."""

import html
import re

# Statistics Canada estimates for 1 July 2013 (shared/data/jurisdictions.csv), in display order.
PTS = [
    ("NL", "Newfoundland and Labrador", "province", 526702),
    ("PE", "Prince Edward Island", "province", 145237),
    ("NS", "Nova Scotia", "province", 940789),
    ("NB", "New Brunswick", "province", 756050),
    ("QC", "Quebec", "province", 8155334),
    ("ON", "Ontario", "province", 13537994),
    ("MB", "Manitoba", "province", 1265015),
    ("SK", "Saskatchewan", "province", 1108303),
    ("AB", "Alberta", "province", 4025074),
    ("BC", "British Columbia", "province", 4581978),
    ("YT", "Yukon", "territory", 36700),
    ("NT", "Northwest Territories", "territory", 43537),
    ("NU", "Nunavut", "territory", 35591),
]
PT_CODES = [code for code, *_ in PTS]
POPULATIONS = {code: population for code, _name, _kind, population in PTS}
CANADA_POPULATION = 35158304  # the 13 together

# What htmx adds to each request it makes: a page answers with the region htmx swaps.
HTMX = {"HTTP_HX_REQUEST": "true"}


def seen(page: str) -> str:
    """What a reader sees of a page's HTML: its text, its option labels and its tooltips (not scripts or data)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    tips = " ".join(re.findall(r'\b(?:title|aria-label)="([^"]*)"', page))
    text = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(f"{text} {tips}").split())
