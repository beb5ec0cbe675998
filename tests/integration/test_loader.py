"""The Canada Job Grant data set and its loader: counts, idempotency, curation, terms, validation."""

import copy
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from grants.models import ProgramEnvelope
from negotiations import models as m
from negotiations.loading import DEFAULT_DATASET, DatasetError, load_dataset, read_dataset
from negotiations.text_repair import has_mojibake
from tests.factories import StatementFactory
from tests.shared import PT_CODES

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
# Which seed article each news source in the data set is.
SEED_ARTICLE = {
    "cp-2014-01-29-pt-counter-proposal": "000_",
    "ctv-2013-10-03-kenney-power-play": "001_",
    "ipolitics-2013-10-02-clark-alward-roundtable": "002_",
    "cp-2013-11-08-toronto-ministers-meeting": "003_",
}


@pytest.fixture
def dataset():
    return read_dataset(DEFAULT_DATASET)


@pytest.fixture
def loaded(db, dataset):
    return load_dataset(dataset)


def dump_all() -> dict[str, list[dict]]:
    """Every row of every table of the two apps (history and many-to-many tables included)."""
    dump = {}
    for label in ("negotiations", "grants"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            dump[model._meta.label] = list(model.objects.order_by("pk").values())
    return dump


def row_counts() -> dict[str, int]:
    return {label: len(rows) for label, rows in dump_all().items()}


@pytest.mark.django_db
def test_loading_creates_the_record(loaded):
    """One negotiation, 14 jurisdictions, 3 envelopes, the four offers, 20+ statements, every P/T placed."""
    assert m.Jurisdiction.objects.count() == 14
    assert list(m.Jurisdiction.objects.values_list("code", flat=True)) == ["CA", *PT_CODES]
    assert m.Jurisdiction.objects.get(code="CA").order == 0
    assert ProgramEnvelope.objects.count() == 3
    assert m.Negotiation.objects.get().slug == "canada-job-grant"
    assert m.Offer.objects.count() == 4
    assert m.Statement.objects.count() >= 20
    assert m.Source.objects.count() >= 4
    assert m.Meeting.objects.count() >= 9
    assert m.Person.objects.count() >= 9
    for code in PT_CODES:
        assert m.Position.objects.filter(jurisdiction__code=code).exists(), code
    assert loaded.created == sum(c.created for c in loaded.counts.values())
    assert loaded.of("Offer").created == 4
    assert loaded.of("Jurisdiction").created == 14
    assert loaded.unchanged == loaded.updated == 0


@pytest.mark.django_db
def test_program_envelopes_keep_their_source_and_confidence(loaded):
    envelopes = {e.program: e for e in ProgramEnvelope.objects.all()}
    assert envelopes["LMA"].annual_amount == Decimal("500000000")
    assert envelopes["LMDA"].annual_amount == Decimal("1950000000")
    assert envelopes["CJF"].annual_amount == Decimal("500000000")
    assert all(e.source and e.confidence for e in envelopes.values())


@pytest.mark.django_db
def test_the_pt_populations_add_up_to_canada(loaded):
    canada = m.Jurisdiction.objects.get(code="CA").population
    assert sum(m.Jurisdiction.objects.exclude(code="CA").values_list("population", flat=True)) == canada


@pytest.mark.django_db
def test_loading_twice_changes_nothing(loaded, dataset):
    before = dump_all()
    again = load_dataset(dataset)
    assert again.created == 0
    assert again.updated == 0
    assert again.unchanged == loaded.created
    assert dump_all() == before


@pytest.mark.django_db
def test_update_on_an_untouched_record_changes_nothing(loaded, dataset):
    before = dump_all()
    report = load_dataset(dataset, update=True)
    assert report.created == report.updated == 0
    assert dump_all() == before


@pytest.mark.django_db
def test_reloading_keeps_user_additions_and_edits(loaded, dataset):
    negotiation = m.Negotiation.objects.get(slug="canada-job-grant")
    added = StatementFactory(
        negotiation=negotiation, speaker=m.Person.objects.get(slug="jason-kenney"),
        jurisdiction=m.Jurisdiction.objects.get(code="CA"), source=m.Source.objects.first(),
        quote="A statement a user logged by hand.",
    )
    offer = m.Offer.objects.get(slug="federal-dec-2013")
    offer.title = "Edited by a curator"
    offer.save()
    m.JurisdictionTreatment.objects.filter(offer__slug="pt-counter-jan-2014").delete()
    statements = m.Statement.objects.count()

    report = load_dataset(dataset)

    assert report.created == 0
    assert m.Statement.objects.filter(pk=added.pk, quote="A statement a user logged by hand.").exists()
    assert m.Statement.objects.count() == statements
    assert m.Offer.objects.get(slug="federal-dec-2013").title == "Edited by a curator"
    # A terms row the user removed from an existing offer stays removed.
    assert not m.JurisdictionTreatment.objects.filter(offer__slug="pt-counter-jan-2014").exists()
    assert report.of("JurisdictionTreatment").skipped == 1


@pytest.mark.django_db
def test_update_restores_seeded_fields_and_deletes_nothing(loaded, dataset):
    added = StatementFactory(
        negotiation=m.Negotiation.objects.get(), speaker=m.Person.objects.get(slug="brad-duguid"),
        jurisdiction=m.Jurisdiction.objects.get(code="ON"), source=m.Source.objects.first(),
    )
    offer = m.Offer.objects.get(slug="federal-dec-2013")
    offer.title = "Edited by a curator"
    offer.save()
    m.FundingSource.objects.filter(offer=offer, program="LMDA").update(amount=Decimal("1"))
    m.JurisdictionTreatment.objects.filter(offer__slug="pt-counter-jan-2014").delete()
    m.Meeting.objects.get(slug="fpt-labour-ministers-2013-11-08").sources.clear()
    version = offer.version

    report = load_dataset(dataset, update=True)

    offer.refresh_from_db()
    assert offer.title == "December 2013: Ottawa offers to pay the provincial third (the Christmas Eve offer)"
    assert offer.version == version + 1
    assert offer.funding_sources.get(program="LMDA").amount == Decimal("5000")
    assert m.JurisdictionTreatment.objects.get(offer__slug="pt-counter-jan-2014").jurisdiction.code == "QC"
    assert m.Meeting.objects.get(slug="fpt-labour-ministers-2013-11-08").sources.count() == 2
    assert m.Statement.objects.filter(pk=added.pk).exists()
    assert report.of("Offer").updated == 1
    assert report.of("FundingSource").updated == 1
    assert report.of("JurisdictionTreatment").created == 1
    assert report.of("Meeting").updated == 1
    assert report.created == 1


def offer_terms(slug: str) -> dict:
    offer = m.Offer.objects.get(slug=slug)
    return {
        "split": (offer.max_grant, offer.federal_amount, offer.provincial_amount, offer.employer_amount),
        "sources": {(r.payer, r.program): r.amount for r in offer.funding_sources.all()},
        "scale": (offer.scale_program, offer.scale_amount),
        "employer_min_share": offer.employer_min_share,
        "gap_payer": offer.small_employer_gap_payer,
        "liability": offer.shortfall_liability,
        "treatments": {r.jurisdiction.code: r.treatment for r in offer.treatments.all()},
        "phase_in": [(r.fiscal_year, r.fraction) for r in offer.phase_in.order_by("fiscal_year")],
        "tabled_by": sorted(offer.tabled_by.values_list("code", flat=True)),
        "tabled_on": offer.tabled_on.isoformat(),
        "responds_to": offer.responds_to.slug if offer.responds_to else None,
        "status": offer.status,
        "has_assumptions": bool(offer.assumptions.strip()),
        "has_sources": offer.sources.exists(),
    }


D = Decimal


@pytest.mark.django_db
def test_the_four_offers_terms(loaded):
    assert offer_terms("budget-2013") == {
        "split": (D(15000), D(5000), D(5000), D(5000)),
        "sources": {("federal", "LMA"): D(5000), ("provincial", "PT_OWN"): D(5000)},
        "scale": ("LMA", D(300_000_000)),
        "employer_min_share": None, "gap_payer": "", "liability": "none",
        "treatments": {}, "phase_in": [],
        "tabled_by": ["CA"], "tabled_on": "2013-03-21", "responds_to": None, "status": "superseded",
        "has_assumptions": True, "has_sources": True,
    }
    assert offer_terms("federal-nov-2013") == {
        "split": (D(15000), D(5000), D(5000), D(5000)),
        "sources": {("federal", "LMA"): D(5000), ("provincial", "PT_OWN"): D(5000)},
        "scale": ("LMA", D(300_000_000)),
        "employer_min_share": D("0.15"), "gap_payer": "provincial", "liability": "none",
        "treatments": {},
        "phase_in": [("2014-15", D("0.25")), ("2015-16", D("0.5")), ("2016-17", D("0.75")), ("2017-18", D(1))],
        "tabled_by": ["CA"], "tabled_on": "2013-11-08", "responds_to": "budget-2013", "status": "superseded",
        "has_assumptions": True, "has_sources": True,
    }
    assert offer_terms("federal-dec-2013") == {
        "split": (D(15000), D(10000), D(0), D(5000)),
        "sources": {("federal", "LMA"): D(5000), ("federal", "LMDA"): D(5000)},
        "scale": ("LMA", D(300_000_000)),
        "employer_min_share": None, "gap_payer": "", "liability": "province",
        "treatments": {}, "phase_in": [],
        "tabled_by": ["CA"], "tabled_on": "2013-12-24", "responds_to": "federal-nov-2013", "status": "superseded",
        "has_assumptions": True, "has_sources": True,
    }
    assert offer_terms("pt-counter-jan-2014") == {
        "split": (D(15000), D(10000), D(0), D(5000)),
        "sources": {("federal", "LMA"): D(2500), ("federal", "LMDA"): D(7500)},
        "scale": ("LMDA", D(450_000_000)),
        "employer_min_share": D("0.15"), "gap_payer": "federal", "liability": "none",
        "treatments": {"QC": "opts_out_compensated"},
        "phase_in": [("2014-15", D("0.125")), ("2015-16", D("0.25")), ("2016-17", D("0.5")),
                     ("2017-18", D("0.75")), ("2018-19", D(1))],
        "tabled_by": sorted(PT_CODES), "tabled_on": "2014-02-04", "responds_to": "federal-dec-2013",
        "status": "tabled", "has_assumptions": True, "has_sources": True,
    }


@pytest.mark.django_db
def test_every_statement_and_position_is_sourced_and_dated(loaded):
    for statement in m.Statement.objects.all():
        assert statement.ref and statement.source_id and statement.date, statement.ref
    maltais = m.Statement.objects.filter(speaker__slug="agnes-maltais")
    assert maltais.exists() and all(s.original_language == "fr" and s.language == "en" for s in maltais)
    assert all(s.jurisdiction_id is None for s in m.Statement.objects.filter(speaker__slug="matthew-wilson"))
    for position in m.Position.objects.all():
        assert position.sources.exists(), str(position)
    assert m.Position.objects.get(jurisdiction__code="QC", as_of="2013-11-08").stance == m.Stance.OPTS_OUT
    assert set(m.Position.objects.filter(as_of="2013-07-25").values_list("stance", flat=True)) == {"opposes"}
    assert m.Position.objects.filter(as_of="2013-07-25").count() == 13


@pytest.mark.django_db
def test_no_quote_carries_encoding_damage(loaded):
    for quote in m.Statement.objects.values_list("quote", flat=True):
        assert not has_mojibake(quote), quote
        assert "鈥" not in quote and "\ufffd" not in quote, quote


@pytest.mark.django_db
def test_texts_are_repaired_on_the_way_in(dataset):
    damaged = copy.deepcopy(dataset)
    clean = "But if not, we’re going to go ahead ourselves and administer directly a federal jobs grant."
    statement = next(s for s in damaged["statements"] if s["ref"] == "kenney-2013-10-03-go-ahead-ourselves")
    statement["quote"] = clean.encode("utf-8").decode("gb18030", errors="replace")
    assert has_mojibake(statement["quote"])

    load_dataset(damaged)

    assert m.Statement.objects.get(ref="kenney-2013-10-03-go-ahead-ourselves").quote == clean


@pytest.mark.django_db
def test_terms_that_do_not_add_up_are_refused_and_nothing_is_written(dataset):
    broken = copy.deepcopy(dataset)
    offer = next(o for o in broken["offers"] if o["slug"] == "federal-dec-2013")
    offer["terms"]["split"]["employer"] = "4000.00"
    before = row_counts()

    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)

    assert caught.value.record == "offer 'federal-dec-2013'"
    assert caught.value.field == "terms.split"
    assert "federal-dec-2013" in str(caught.value) and "split" in str(caught.value)
    assert row_counts() == before


@pytest.mark.django_db
def test_sources_that_do_not_add_up_are_refused(dataset):
    broken = copy.deepcopy(dataset)
    offer = next(o for o in broken["offers"] if o["slug"] == "budget-2013")
    offer["terms"]["sources"]["federal"]["LMA"] = "4999.99"
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert (caught.value.record, caught.value.field) == ("offer 'budget-2013'", "terms.sources")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, value, field",
    [
        (("employer_min_share",), "1.5", "terms.employer_min_share"),
        (("phase_in", 0, "fraction"), "1.25", "terms.phase_in[0].fraction"),
        (("max_grant",), 15000.0, "terms.max_grant"),
    ],
)
def test_shares_outside_0_to_1_and_float_money_are_refused(dataset, path, value, field):
    broken = copy.deepcopy(dataset)
    target = next(o for o in broken["offers"] if o["slug"] == "federal-nov-2013")["terms"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert (caught.value.record, caught.value.field) == ("offer 'federal-nov-2013'", field)


@pytest.mark.django_db
def test_a_problem_found_while_writing_rolls_everything_back(dataset):
    broken = copy.deepcopy(dataset)
    broken["positions"][-1]["evidence"] = ["no-such-statement"]
    before = row_counts()
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert caught.value.field == "evidence"
    assert "no-such-statement" in caught.value.message
    assert row_counts() == before


@pytest.mark.django_db
def test_a_record_that_fails_model_validation_is_named(dataset):
    broken = copy.deepcopy(dataset)
    broken["statements"][0]["date_precision"] = "fortnight"
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert caught.value.record == f"statement {broken['statements'][0]['ref']!r}"
    assert caught.value.field == "date_precision"
    assert m.Statement.objects.count() == 0


@pytest.mark.django_db
def test_command_prints_its_report():
    out = io.StringIO()
    call_command("load_cjg", stdout=out)
    assert "Offer: 4 created" in out.getvalue()
    out = io.StringIO()
    call_command("load_cjg", "--update", stdout=out)
    assert "Total: 0 created" in out.getvalue()
    assert "0 updated" in out.getvalue()


@pytest.mark.django_db
def test_command_refuses_a_bad_file(tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        call_command("load_cjg", "--file", str(tmp_path / "missing.json"), stdout=io.StringIO())
    not_json = tmp_path / "broken.json"
    not_json.write_text("{ not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("load_cjg", "--file", str(not_json), stdout=io.StringIO())
    bad_terms = tmp_path / "bad_terms.json"
    data = read_dataset(DEFAULT_DATASET)
    data["offers"][0]["terms"]["split"]["federal"] = "1.00"
    bad_terms.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=r"offer 'budget-2013', terms\.split"):
        call_command("load_cjg", "--file", str(bad_terms), stdout=io.StringIO())
    assert m.Offer.objects.count() == 0


def _words(text: str) -> str:
    """Letters and digits only, lower case, single spaces: punctuation and quote styles vary."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


@pytest.mark.django_db
@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed articles are not available here")
def test_every_quote_appears_in_its_article(loaded):
    from negotiations.text_repair import repair_text

    articles = {}
    for slug, prefix in SEED_ARTICLE.items():
        (path,) = SEEDS.glob(f"{prefix}*.txt")
        articles[slug] = _words(repair_text(path.read_text(encoding="utf-8")))
    for statement in m.Statement.objects.select_related("source"):
        assert statement.source.slug in articles, statement.ref
        assert _words(statement.quote) in articles[statement.source.slug], statement.ref


@pytest.mark.django_db
def test_a_key_used_twice_is_refused(dataset):
    broken = copy.deepcopy(dataset)
    broken["statements"].append(copy.deepcopy(broken["statements"][0]))
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert (caught.value.record, caught.value.field) == (f"statement {broken['statements'][0]['ref']!r}", "ref")
    assert m.Jurisdiction.objects.count() == 0


@pytest.mark.django_db
def test_update_warns_when_a_users_extra_row_breaks_an_offers_sums(loaded, dataset):
    offer = m.Offer.objects.get(slug="federal-dec-2013")
    m.FundingSource.objects.create(offer=offer, payer="federal", program="FEDERAL_NEW", amount=Decimal("100"))

    report = load_dataset(dataset, update=True)

    assert m.FundingSource.objects.filter(offer=offer, program="FEDERAL_NEW").exists()  # never deleted
    assert any("federal-dec-2013" in warning for warning in report.warnings)
    assert any(line.startswith("Warning:") for line in report.lines())


@pytest.mark.django_db
def test_each_terms_basis_agreed_date_and_passages_are_loaded(loaded):
    counter = m.Offer.objects.get(slug="pt-counter-jan-2014")
    assert str(counter.agreed_on) == "2014-01-28"
    bases = {row.term: row for row in counter.term_basis.select_related("source")}
    assert len(bases) == 30  # every term path, groups expanded
    assert bases["treatments.QC"].status == "inferred" and bases["treatments.ON"].status == "assumed"
    assert bases["scale"].status == "assumed" and bases["scale"].source is None
    roundtable = m.Meeting.objects.get(slug="toronto-premiers-roundtable-2013-10-02")
    assert roundtable.passages.filter(passage__contains="33 private sector labour leaders").exists()
    assert m.SourcePassage.objects.filter(position__isnull=False).count() > 10


@pytest.mark.django_db
@pytest.mark.parametrize("basis, field, message", [
    ({"scale": {"status": "assumed"}}, "basis.scale", "assumption"),
    ({"scale": {"status": "reported", "source": "cp-2013-11-08-toronto-ministers-meeting"}}, "basis.scale", "passage"),
    ({"treatment": {"status": "assumed", "note": "x"}}, "basis.treatment", "neither a term path"),
    ({"scale": {"status": "guessed", "note": "x"}}, "basis.scale.status", "must be one of"),
])
def test_a_basis_that_breaks_the_term_rules_is_refused(dataset, basis, field, message):
    broken = copy.deepcopy(dataset)
    broken["offers"][0]["basis"] = basis
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert (caught.value.record, caught.value.field) == ("offer 'budget-2013'", field)
    assert message in caught.value.message
    assert m.Offer.objects.count() == 0


@pytest.mark.django_db
def test_the_conditions_words_are_loaded_in_french_and_fill_a_kept_row(loaded, dataset):
    condition = m.Condition.objects.get(position__jurisdiction__code="ON", position__as_of="2013-11-08",
                                        term="sources.federal.LMA")
    assert condition.text_en == "No funding taken from programs that serve vulnerable workers."
    assert condition.text_fr == "Aucun financement retiré des programmes qui servent les travailleurs vulnérables."
    # A row kept as users left it (no update) still gets the French it lacks, and nothing else changes.
    m.Condition.objects.filter(pk=condition.pk).update(text_fr=None, text_en="Edited by a user.")
    load_dataset(dataset)
    condition.refresh_from_db()
    assert (condition.text_en, condition.text_fr) == (
        "Edited by a user.", "Aucun financement retiré des programmes qui servent les travailleurs vulnérables.")


@pytest.mark.django_db
def test_french_conditions_that_do_not_match_the_rows_are_refused(dataset):
    broken = copy.deepcopy(dataset)
    key = "ON 2013-11-08"
    broken["french"]["positions"][key]["checks"] = ["un", "deux", "trois", "quatre", "cinq"]
    with pytest.raises(DatasetError) as refused:
        load_dataset(broken)
    assert "checks" in str(refused.value) and "one per condition in order" in str(refused.value)
    assert not m.Position.objects.exists()


@pytest.mark.django_db
def test_the_term_bases_notes_are_loaded_in_french_groups_expanded(loaded):
    note = m.TermBasis.objects.get(offer__slug="federal-nov-2013", term="employer_min_share")
    assert (note.note_en, note.note_fr) == ("Read as 15 per cent of the maximum grant.",
                                             "Interprété comme 15 pour cent de la subvention maximale.")
    # A group's French note ("treatments") reaches each term under it; a term's own note wins over its group's.
    ontario = m.TermBasis.objects.get(offer__slug="pt-counter-jan-2014", term="treatments.ON")
    quebec = m.TermBasis.objects.get(offer__slug="pt-counter-jan-2014", term="treatments.QC")
    assert ontario.note_fr.startswith("Duguid dit que d'autres provinces")
    assert quebec.note_fr.startswith("Le Québec reste à l'écart")


@pytest.mark.django_db
def test_a_french_note_for_no_term_is_refused(dataset):
    broken = copy.deepcopy(dataset)
    broken["french"]["offers"]["budget-2013"]["basis"]["nowhere"] = "Nulle part."
    with pytest.raises(DatasetError) as refused:
        load_dataset(broken)
    assert "basis.nowhere" in str(refused.value) and "neither a term path nor a group" in str(refused.value)
    assert not m.Offer.objects.exists()


LEFT_OUT = object()


def changed(data: dict, path: tuple, value) -> dict:
    """A copy of ``data`` with the value at ``path`` replaced by ``value`` (removed when it is LEFT_OUT)."""
    broken = copy.deepcopy(data)
    *parents, last = path
    target = broken
    for key in parents:
        target = target[key]
    if value is LEFT_OUT:
        del target[last]
    else:
        target[last] = value
    return broken


@pytest.mark.django_db
@pytest.mark.parametrize("path, value, record, field, words", [
    # A wrong type: money is written as a string, a count as a whole number, a text as text.
    (("offers", 3, "terms", "max_grant"), 15000, "offer 'pt-counter-jan-2014'", "terms.max_grant",
     'must be a number written as a string, such as "5000.00" (got 15000)'),
    (("jurisdictions", 0, "order"), "0", "jurisdiction 'CA'", "order", "must be a whole number (got '0')"),
    (("offers", 0, "tabled_by", 0), 13, "offer 'budget-2013'", "tabled_by[0]", "must be text (got 13)"),
    (("offers", 0, "terms", "scale", "program"), "LMX", "offer 'budget-2013'", "terms.scale.program",
     "must be one of 'LMA', 'LMDA', 'CJF', 'PT_OWN' or 'FEDERAL_NEW' (got 'LMX')"),
    (("programs", 0, "annual_amount"), 5, "program 'LMA'", "annual_amount", "written as a string"),  # grants' part
    (("french", "offers", "budget-2013", "title"), 3, "French texts of offers 'budget-2013'", "title",
     "must be text (got 3)"),
    # An unknown key: a misspelt field is refused rather than silently left out.
    (("offers", 0, "titel"), "A title", "offer 'budget-2013'", "titel", "is not a known field"),
    (("offers", 0, "terms", "split", "provincal"), "0.00", "offer 'budget-2013'", "terms.split.provincal",
     "is not a known field"),
    (("offerz",), [], "data set", "offerz", "is not a known field"),
    # A fiscal year that is not a year and the next one's last two digits.
    (("offers", 1, "terms", "phase_in", 0, "fiscal_year"), "2014-2015", "offer 'federal-nov-2013'",
     "terms.phase_in[0].fiscal_year", "must be a fiscal year written like 2014-15 (got '2014-2015')"),
    (("offers", 1, "terms", "phase_in", 0, "fiscal_year"), "2014-16", "offer 'federal-nov-2013'",
     "terms.phase_in[0].fiscal_year", "(got '2014-16')"),
    # A required key left out; a record without its key is named by its place in the file.
    (("offers", 0, "title"), LEFT_OUT, "offer 'budget-2013'", "title", "is required"),
    (("offers", 0, "terms", "split"), LEFT_OUT, "offer 'budget-2013'", "terms.split", "is required"),
    (("offers", 2, "slug"), LEFT_OUT, "offers[2]", "slug", "is required"),
    (("negotiation",), LEFT_OUT, "data set", "negotiation", "is required"),
])
def test_a_value_of_the_wrong_shape_is_refused_by_its_place(dataset, path, value, record, field, words):
    before = row_counts()
    with pytest.raises(DatasetError) as caught:
        load_dataset(changed(dataset, path, value))
    assert (caught.value.record, caught.value.field) == (record, field)
    assert words in caught.value.message
    assert str(caught.value).startswith(f"{record}, {field}: ")
    assert row_counts() == before


@pytest.mark.django_db
def test_the_first_shape_problem_is_named_and_the_others_counted(dataset):
    broken = changed(changed(dataset, ("offers", 0, "title"), LEFT_OUT), ("offers", 1, "title"), LEFT_OUT)
    with pytest.raises(DatasetError) as caught:
        load_dataset(broken)
    assert (caught.value.record, caught.value.field) == ("offer 'budget-2013'", "title")
    assert caught.value.message == "is required (and 1 more problem in the data set)"
