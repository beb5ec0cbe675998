"""The data set ships the record's own text in both languages: every English text has its French.

The French is in negotiations/data/canada_job_grant.fr.json, keyed by each record's natural key
(negotiations.loading reads both files). Quotes are not translated and are not checked here.
"""

import datetime
import json

from negotiations.loading import DEFAULT_DATASET, french_path, position_key

# What the data set calls each record's translatable texts (negotiations/translation.py, grants/translation.py).
TEXTS = {
    "jurisdictions": ("code", ("population_source",)),
    "programs": ("program", ("allocation", "source", "notes")),
    "people": ("slug", ("notes",)),
    "sources": ("slug", ("outlet", "title", "summary")),
    "meetings": ("slug", ("title", "location", "outcome")),
    "statements": ("ref", ("context",)),
    "offers": ("slug", ("title", "summary")),
    "key_dates": ("slug", ("title", "note")),
}


def _english_texts(data: dict):
    """(section, key, field, English text) for every non-empty translatable text of the data set."""
    for section, (key, fields) in TEXTS.items():
        for record in data[section]:
            for field in fields:
                yield section, record[key], field, record.get(field) or ""
    for offer in data["offers"]:
        yield "offers", offer["slug"], "assumptions", offer["terms"].get("assumptions") or ""
    negotiation = data["negotiation"]
    for field in ("title", "summary"):
        yield "negotiation", negotiation["slug"], field, negotiation.get(field) or ""
    for position in data["positions"]:
        codes = position.get("jurisdictions") or [position["jurisdiction"]]
        key = position_key(codes, datetime.date.fromisoformat(position["as_of"]))
        for field in ("summary", "conditions"):
            yield "positions", key, field, position.get(field) or ""


def _french_text(french: dict, section: str, key: str, field: str) -> str:
    return (french.get(section, {}).get(key, {}).get(field) or "").strip()


def test_every_text_of_the_data_set_has_its_french():
    data = json.loads(DEFAULT_DATASET.read_text(encoding="utf-8"))
    french = json.loads(french_path(DEFAULT_DATASET).read_text(encoding="utf-8"))
    texts = [text for text in _english_texts(data) if text[3].strip()]
    missing = [f"{section} {key!r} {field}" for section, key, field, _english in texts
               if not _french_text(french, section, key, field)]
    assert len(texts) > 150
    assert missing == [], f"{len(missing)} texts have no French: {missing[:10]}"


def test_every_role_title_and_organisation_has_its_french():
    data = json.loads(DEFAULT_DATASET.read_text(encoding="utf-8"))
    french = json.loads(french_path(DEFAULT_DATASET).read_text(encoding="utf-8"))
    missing = []
    for person in data["people"]:
        roles = french.get("people", {}).get(person["slug"], {}).get("roles", {})
        for role in person["roles"]:
            translated = roles.get(role["title"], {})
            missing += [f"{person['slug']} {role['title']!r} {field}" for field in ("title", "organization")
                        if role.get(field) and not (translated.get(field) or "").strip()]
    assert missing == []


def test_the_french_file_names_only_records_of_the_data_set():
    # A key that matches nothing (a renamed slug, a moved date) would silently leave French out.
    data = json.loads(DEFAULT_DATASET.read_text(encoding="utf-8"))
    french = json.loads(french_path(DEFAULT_DATASET).read_text(encoding="utf-8"))
    known = {(section, key) for section, key, _field, _text in _english_texts(data)}
    stray = [(section, key) for section, records in french.items() if isinstance(records, dict)
             for key in records if (section, key) not in known]
    assert stray == []


def test_the_french_text_keeps_french_typography():
    # "Janvier 2014 : la contre-offre…" had an ordinary space before its colon, which a narrow screen breaks
    # the line at, in 36 places; and the counter-proposal was called two things.
    texts = []

    def strings(value):
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                strings(item)
        elif isinstance(value, list):
            for item in value:
                strings(item)

    strings(json.loads(french_path(DEFAULT_DATASET).read_text(encoding="utf-8")))
    assert [text for text in texts if " :" in text or "« " in text or " »" in text] == []
    assert [text for text in texts if "contre-offre" in text] == []
