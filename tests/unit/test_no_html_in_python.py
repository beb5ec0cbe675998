"""No Python module of the project builds HTML or htmx attributes: markup lives in templates (issue 12.2)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "negotiations", "grants", "alerts", "briefings")
TAG = re.compile(r"""["'][^"'\n]*</?(div|span|p|a|td|th|tr|table|select|option|ul|li|strong|em|input|label|button|br|q|"""
                 r"""mark|small|section|details|summary|h[1-6])[\s/>]""")
HTMX = re.compile(r"""["']hx-[a-z-]+["']""")


def modules():
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def test_no_module_writes_markup_or_htmx_attributes():
    found = []
    for path in modules():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if TAG.search(line) or HTMX.search(line) or "format_html(" in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_check_finds_what_it_looks_for():
    assert TAG.search('''return "<td class='num'>" + value''')
    assert HTMX.search('''widget.attrs["hx-get"] = ""''')
