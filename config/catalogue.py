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


def update() -> None:
    subprocess.run(makemessages_command(), cwd=ROOT, check=True)
    compile_catalogues()


if __name__ == "__main__":
    action = sys.argv[1] if len(sys.argv) > 1 else "compile"
    if action == "update":
        update()
    else:
        for path in compile_catalogues():
            print(f"compiled {path.relative_to(ROOT)}")
