"""Fact tests of the seed data set (negotiations/data/canada_job_grant.json): they keep it what the articles say.

Most read the file alone; the verbatim checks need the seed articles in ../shared and skip without them.
"""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from negotiations.loading import DEFAULT_DATASET, PT_CODES, read_dataset
from negotiations.terms import TermBasisEntry, check_basis, expand_basis_keys, term_paths
from negotiations.text_repair import repair_text

DATA = read_dataset(DEFAULT_DATASET)
SEED_ARTICLE = {
    "cp-2014-01-29-pt-counter-proposal": "000_",
    "ctv-2013-10-03-kenney-power-play": "001_",
    "ipolitics-2013-10-02-clark-alward-roundtable": "002_",
    "cp-2013-11-08-toronto-ministers-meeting": "003_",
}


def _shared() -> Path | None:
    # ../shared next to the project; from a git worktree (/work/wt/<name>) it is one level further up.
    base = Path(settings.BASE_DIR)
    for candidate in (base.parent / "shared", base.parent.parent / "shared"):
        if (candidate / "seeds").is_dir():
            return candidate
    return None


SHARED = _shared()
needs_articles = pytest.mark.skipif(SHARED is None, reason="the seed articles (../shared/seeds) are not available here")


def _words(text: str) -> str:
    """Letters and digits only, lower case, single spaces: punctuation and quote styles vary."""
    return " ".join(re.sub(r"[^\w\s]", " ", repair_text(text).lower()).split())


@pytest.fixture(scope="module")
def articles():
    result = {}
    for slug, prefix in SEED_ARTICLE.items():
        (path,) = (SHARED / "seeds").glob(f"{prefix}*.txt")
        result[slug] = _words(path.read_text(encoding="utf-8"))
    return result


def _positions():
    for raw in DATA["positions"]:
        for code in raw.get("jurisdictions", [raw.get("jurisdiction")]):
            yield code, raw


def test_every_fact_names_a_source():
    for section in ("meetings", "positions", "offers"):
        for raw in DATA[section]:
            assert raw.get("sources"), (section, raw.get("slug") or raw.get("as_of"))
    for statement in DATA["statements"]:
        assert statement["source"], statement["ref"]
    for source in DATA["sources"]:
        # A source can be opened: its address, or a full citation (outlet, title, date).
        assert source["url"] or (source["outlet"] and source["title"] and source["published_on"]), source["slug"]


def test_no_evidence_postdates_its_position():
    dates = {statement["ref"]: statement["date"] for statement in DATA["statements"]}
    for code, raw in _positions():
        for ref in raw["evidence"]:
            assert dates[ref] <= raw["as_of"], f"{code} as of {raw['as_of']}: {ref} is dated {dates[ref]}"


def test_ottawa_has_a_stance_after_the_counter_proposal():
    counter = next(offer for offer in DATA["offers"] if offer["slug"] == "pt-counter-jan-2014")
    assert any(code == "CA" and raw["as_of"] >= counter["agreed_on"] for code, raw in _positions())


def test_the_counter_proposal_was_agreed_and_presented_on_different_days():
    counter = next(offer for offer in DATA["offers"] if offer["slug"] == "pt-counter-jan-2014")
    assert (counter["agreed_on"], counter["tabled_on"]) == ("2014-01-28", "2014-02-04")


def test_the_christmas_eve_offer_is_not_a_public_announcement():
    meeting = next(m for m in DATA["meetings"] if m["slug"] == "federal-offer-2013-12-24")
    assert meeting["kind"] != "announcement"


def test_every_term_of_every_offer_has_a_basis_that_follows_the_rules():
    sources = {source["slug"] for source in DATA["sources"]}
    for offer in DATA["offers"]:
        keyed = expand_basis_keys(offer["basis"], PT_CODES)
        assert set(keyed) == set(term_paths(PT_CODES)), offer["slug"]
        entries = [TermBasisEntry(term=term, status=b["status"], source=b.get("source"), passage=b.get("passage", ""),
                                  note=b.get("note", "")) for term, b in keyed.items()]
        assert check_basis(entries, PT_CODES) == [], offer["slug"]
        assert {entry.source for entry in entries if entry.source} <= sources


def test_the_counter_proposal_says_what_was_modelled():
    counter = next(offer for offer in DATA["offers"] if offer["slug"] == "pt-counter-jan-2014")
    statuses = {term: b["status"] for term, b in expand_basis_keys(counter["basis"], PT_CODES).items()}
    for term in ("split.federal", "sources.federal.LMA", "sources.federal.LMDA", "scale", "employer_min_share",
                 "small_employer_gap_payer", "phase_in"):
        assert statuses[term] == "assumed", term


def _money(text: str) -> list[Decimal]:
    return [Decimal(m.replace(",", "")) for m in re.findall(r"\$([0-9][0-9,]*[0-9]|[0-9])(?![0-9,]| million)", text)]


def test_figures_in_prose_match_the_terms():
    offers = {offer["slug"]: offer for offer in DATA["offers"]}
    counter = offers["pt-counter-jan-2014"]["terms"]
    # "$2,500 from the LMA and $7,500 from the LMDA per trainee", "$450 million ... enough for 60,000 trainees"
    assert Decimal(counter["sources"]["federal"]["LMA"]) == 2500 and Decimal(counter["sources"]["federal"]["LMDA"]) == 7500
    assert "$2,500 from the LMA and $7,500 from the LMDA" in counter["assumptions"]
    assert "$450 million" in counter["assumptions"] and Decimal(counter["scale"]["amount"]) == 450_000_000
    assert Decimal(counter["scale"]["amount"]) / Decimal(counter["sources"]["federal"]["LMDA"]) == 60_000
    december = offers["federal-dec-2013"]["terms"]
    assert Decimal(december["scale"]["amount"]) / Decimal(december["sources"]["federal"]["LMA"]) == 60_000
    # The phase-in fractions written out in each assumptions paragraph are the terms' fractions.
    for slug in ("federal-nov-2013", "pt-counter-jan-2014"):
        terms = offers[slug]["terms"]
        for step in terms["phase_in"]:
            fraction = Decimal(step["fraction"])
            if fraction != 1:
                assert f"{fraction.normalize():f}".lstrip("0") in terms["assumptions"].replace(" 0.", " ."), (slug, fraction)
    # November's first year: 15 per cent of the $500 million LMA over the $300 million full scale.
    november = offers["federal-nov-2013"]["terms"]
    assert Decimal("0.15") * 500_000_000 / Decimal(november["scale"]["amount"]) == Decimal(november["phase_in"][0]["fraction"])
    # Summaries: every per-trainee amount they name is one of the offer's amounts.
    for slug, offer in offers.items():
        amounts = {Decimal(offer["terms"]["max_grant"]), *(Decimal(v) for v in offer["terms"]["split"].values()),
                   *(Decimal(v) for payer in offer["terms"]["sources"].values() for v in payer.values())}
        for figure in _money(offer["summary"]):
            assert figure in amounts, (slug, figure)


@needs_articles
def test_every_quote_and_passage_appears_verbatim_in_its_article(articles):
    def check(source, text, where):
        if source in articles:
            assert _words(text) in articles[source], f"{where}: {text!r}"

    for statement in DATA["statements"]:
        check(statement["source"], statement["quote"], statement["ref"])
    for section in ("meetings", "positions"):
        for raw in DATA[section]:
            for item in raw.get("passages", []):
                check(item["source"], item["passage"], raw.get("slug") or raw.get("as_of"))
    for offer in DATA["offers"]:
        for term, basis in offer["basis"].items():
            if basis.get("passage"):
                assert basis["source"] in articles, (offer["slug"], term)
                check(basis["source"], basis["passage"], f"{offer['slug']} {term}")


@needs_articles
def test_plain_facts_the_articles_give_are_recorded():
    text = DEFAULT_DATASET.read_text(encoding="utf-8")
    assert "33 private-sector and labour leaders" in text
    assert "millions of dollars advertising" in text
    lma = next(program for program in DATA["programs"] if program["program"] == "LMA")
    for group in ("Aboriginal", "immigrants", "women", "youth", "older workers", "disabilities", "literacy"):
        assert group in lma["notes"]


@pytest.mark.django_db
def test_the_trainees_the_counter_proposal_s_notes_name_are_the_engine_s(cjg):
    # They read "$450 million ... which keeps December's 60,000 trainees" where the engine, with Quebec out and
    # compensated, gives 46,082: the notes now say both, and why.
    from grants.selectors import fiscal_effect, offer_with_terms
    from negotiations.models import Offer

    effect = fiscal_effect(offer_with_terms("pt-counter-jan-2014"))
    quebec_share = 60_000 - effect.national.trainees
    assert (effect.national.trainees, effect.jurisdiction("QC").trainees) == (46_082, 0)
    assert quebec_share == 13_918
    offer = Offer.objects.get(slug="pt-counter-jan-2014")
    scale = offer.term_basis.get(term="scale")
    for text in (offer.assumptions_en, scale.note_en, offer.assumptions_fr, scale.note_fr):
        digits = re.sub(r"(?<=\d)[,\u00a0\u202f ](?=\d{3}\b)", "", text)
        assert "60000" in digits and "46082" in digits, text
