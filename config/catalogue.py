"""The French catalogue: compiled without GNU gettext, and refreshed with it.

    python -m config.catalogue compile   # every locale/*/LC_MESSAGES/*.po to its .mo (polib, pure Python)
    python -m config.catalogue update    # makemessages (GNU gettext) for French, then compile

``dev.py`` compiles at every set-up (the .mo files are generated, not committed), so a machine with
only Python gets French; ``python3 dev.py messages`` is the ``update`` step for people adding strings.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("fr",)
# What makemessages must not read: the environment, generated files, tests and benchmarks.
IGNORED = (".venv", "venv", "staticfiles", "static/vendor", "tests", "bench", "locale", "test-artifacts")


def compile_catalogues(locale: Path = LOCALE) -> list[Path]:
    """Compile each .po that is newer than its .mo; returns the .mo files written."""
    import polib

    written = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        polib.pofile(str(po)).save_as_mofile(str(mo))
        written.append(mo)
    return written


def makemessages_command(python: str = sys.executable, *, locale_dir: Path | None = None) -> list[str]:
    """The makemessages call that refreshes the French catalogue (Django templates, Jinja2's _(), Python)."""
    command = [python, "manage.py", "makemessages", "--locale", *LANGUAGES, "--no-location",
               "--extension", "html,py,txt"]
    for pattern in IGNORED:
        command += ["--ignore", pattern]
    return command


def jinja2_messages(root: Path = ROOT) -> list[tuple[str | None, str, str]]:
    """(msgctxt, msgid, msgid_plural) of the Jinja2 templates' ``_()``/``ngettext()``/``pgettext()`` calls, read by
    GNU xgettext as Python: makemessages reads templates as Django's, which cannot parse ``_("…", name=value)``."""
    import tempfile

    import polib

    templates = sorted(str(path) for path in (root / "templates" / "jinja2").rglob("*.html"))
    if not templates:
        return []
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "jinja2.pot"
        subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", "--keyword=_", "--keyword=gettext",
                        "--keyword=ngettext:1,2", "--keyword=pgettext:1c,2", "--no-location", "--output", str(pot), *templates],
                       cwd=root, check=True, capture_output=True)
        return ([(entry.msgctxt, entry.msgid, entry.msgid_plural) for entry in polib.pofile(str(pot))]
                if pot.exists() else [])


def refresh(root: Path = ROOT, python: str = sys.executable) -> None:
    """makemessages, then the Jinja2 templates' strings added to the French catalogue where missing."""
    import polib

    subprocess.run(makemessages_command(python), cwd=root, check=True, capture_output=True)
    path = root / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(path))
    known = {(entry.msgctxt, entry.msgid): entry for entry in catalogue}
    wanted = jinja2_messages(root)
    added = [polib.POEntry(msgctxt=context, msgid=msgid, msgid_plural=plural, msgstr="",
                           msgstr_plural={0: "", 1: ""} if plural else {})
             for context, msgid, plural in wanted if (context, msgid) not in known]
    # makemessages marks the Jinja2 templates' strings obsolete (#~), not reading those templates: revive them.
    revived = [known[context, msgid] for context, msgid, _plural in wanted
               if (context, msgid) in known and known[context, msgid].obsolete]
    for entry in revived:
        entry.obsolete = False
    if added or revived:
        catalogue.extend(added)
        catalogue.save()


def update() -> None:
    refresh()
    compile_catalogues()


if __name__ == "__main__":
    action = sys.argv[1] if len(sys.argv) > 1 else "compile"
    if action == "update":
        update()
    else:
        for path in compile_catalogues():
            print(f"compiled {path.relative_to(ROOT)}")
