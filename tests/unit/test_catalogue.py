"""The French catalogue: every interface string translated, none fuzzy, none missing from the catalogue.

The first half reads the committed catalogue with polib. The second runs makemessages (GNU gettext)
over a copy of the catalogue and fails when it would add a msgid the committed one lacks: a string
added to a template or to Python without `python3 dev.py messages` and a translation. It is skipped
where GNU gettext is not installed.
"""

import re
import shutil
import sys

import polib
import pytest

from config.catalogue import ROOT, compile_catalogues, refresh

CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def _ids(entry: polib.POEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def test_every_string_has_a_french_translation_and_none_is_fuzzy():
    catalogue = polib.pofile(str(CATALOGUE))
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert len(catalogue) > 500
    assert untranslated == [], f"{len(untranslated)} strings have no French: {untranslated[:10]}"
    assert fuzzy == [], f"{len(fuzzy)} strings are marked fuzzy: {fuzzy[:10]}"


def test_translations_keep_the_placeholders():
    catalogue = polib.pofile(str(CATALOGUE))
    wrong = []
    for entry in catalogue.translated_entries():
        pairs = [(entry.msgid, entry.msgstr)] if not entry.msgid_plural else [
            (entry.msgid, entry.msgstr_plural[0]), (entry.msgid_plural, entry.msgstr_plural[1])]
        wrong += [source for source, french in pairs
                  if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(french))]
    assert wrong == []


def test_the_catalogue_compiles_without_gnu_gettext(tmp_path):
    copy = tmp_path / "fr" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    shutil.copy(CATALOGUE, copy / "django.po")
    assert compile_catalogues(tmp_path) == [copy / "django.mo"]
    compiled = polib.mofile(str(copy / "django.mo"))
    assert compiled.find("Jurisdictions").msgstr == "Administrations"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed here")
def test_makemessages_finds_no_string_missing_from_the_catalogue(tmp_path):
    # makemessages writes into LOCALE_PATHS[0]: run it on a copy of the project's sources with the
    # catalogue copied in, never on the committed catalogue itself.
    project = tmp_path / "project"
    ignore = shutil.ignore_patterns(".venv", "venv", "staticfiles", "test-artifacts", "node_modules", "*.sqlite3",
                                    "__pycache__", ".git", "*.mo", "bench", "tests")
    shutil.copytree(ROOT, project, ignore=ignore, symlinks=True)
    refresh(project, sys.executable)
    refreshed = polib.pofile(str(project / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    committed = {_ids(entry) for entry in polib.pofile(str(CATALOGUE)) if not entry.obsolete}
    new = sorted(msgid for context, msgid in {_ids(entry) for entry in refreshed if not entry.obsolete} - committed)
    assert new == [], (f"{len(new)} strings are not in the French catalogue; run `python3 dev.py messages` and "
                       f"translate them: {new[:10]}")


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed here")
def test_every_string_of_the_jinja2_templates_is_a_live_translated_entry():
    from config.catalogue import jinja2_messages

    entries = {(entry.msgctxt, entry.msgid): entry for entry in polib.pofile(str(CATALOGUE))}
    problems = []
    for context, msgid, plural in jinja2_messages():
        entry = entries.get((context, msgid))
        if entry is None or entry.obsolete:
            problems.append(f"not in the catalogue (or marked obsolete): {msgid}")
        elif not (entry.msgstr or (plural and all(entry.msgstr_plural.values()))):
            problems.append(f"no French: {msgid}")
    assert problems == []


def test_french_says_full_scale_one_way():
    # "pleine ampleur" (as the scale is "l'ampleur") and "pleine échelle" both stood for "full scale", on one page.
    catalogue = polib.pofile(str(CATALOGUE))
    french = [entry.msgstr for entry in catalogue.translated_entries()]
    french.append((ROOT / "negotiations" / "data" / "canada_job_grant.fr.json").read_text(encoding="utf-8"))
    assert not [text for text in french if "pleine échelle" in text or "d'échelle pour" in text]
    assert sum("pleine ampleur" in text for text in french) > 10


def test_french_punctuation_follows_one_canadian_style():
    # A no-break space before the colon and inside « »; none before ; ? ! (the catalogue had both ways).
    catalogue = polib.pofile(str(CATALOGUE))
    texts = [text for entry in catalogue.translated_entries()
             for text in ([entry.msgstr] if not entry.msgstr_plural else entry.msgstr_plural.values())]
    assert [text for text in texts if re.search(r"\s[;?!](?!q=)", text)] == []
    # (a code example such as {"QC": "…"} aside)
    assert [text for text in texts if re.search(r"[^\s\xa0\u202f\"]:(?:\s|$)", text)] == []
