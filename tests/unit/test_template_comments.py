"""Django's template language ends a {# comment #} at the end of its line: one left open runs on as page text
(the stance matrix printed "{# Not a live region: …" to every reader). A comment over several lines is a
{% comment %} block. (Jinja2's templates, under templates/jinja2, allow {# #} over several lines.)"""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_django_template_leaves_a_one_line_comment_open():
    open_comments = []
    for path in TEMPLATES.rglob("*"):
        if path.suffix not in (".html", ".txt", ".xml", ".ics") or "jinja2" in path.relative_to(TEMPLATES).parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2:]
                if "#}" not in rest:
                    open_comments.append(f"{path.relative_to(TEMPLATES)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2:]
    assert open_comments == []
