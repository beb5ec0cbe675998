"""Fuzzing the offer form: whatever is posted, a valid form or field errors, never an exception, never half an offer.

Hypothesis builds posts of negotiations.offer_forms.OfferForm, field by field as the form names
them: sometimes terms that add up, then with a few fields replaced by anything (text, numbers
written every which way, NaN, huge exponents, other scripts' digits) or left out. Checked:

* the form is either valid, and then its terms add up (negotiations.terms.check_terms finds
  nothing, and the split and each payer's sources sum exactly), or it has errors; it never raises;
* the live preview's parser (negotiations.offer_forms.terms_parser: the terms form with its fields
  built once and shared by every instance) reads every post exactly as OfferTermsForm does: the
  same errors, the same terms, and nothing carried over from one post to the next;
* an editor posting it to /offers/new, to its live validation, and to the fiscal preview
  (grants:preview) never gets a 5xx; a save writes the offer with exactly its non-zero funding
  rows, and a refusal writes nothing (Offer and FundingSource rows are counted around each post).
"""

import datetime
import os
from decimal import Decimal

import pytest
from django.db import transaction
from django.http import QueryDict
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from negotiations.models import FundingSource, Offer
from negotiations.offer_forms import (
    PAYER_PROGRAMS,
    PHASE_IN_ROWS,
    OfferForm,
    OfferTermsForm,
    basis_field,
    program_field,
    terms_parser,
    treatment_field,
)
from negotiations.terms import check_terms, term_paths
from tests.profiles import examples
from tests.shared import PT_CODES

pytestmark = pytest.mark.django_db

# The same examples on every run by default; FUZZ_EXAMPLES=N draws N fresh ones per test instead (a longer hunt).
HUNT = int(os.environ.get("FUZZ_EXAMPLES", "0"))

PROGRAM_FIELDS = [program_field(payer, program) for payer, programs in PAYER_PROGRAMS.items() for program in programs]
PHASE_IN_FIELDS = [f"phase_in_{part}_{row}" for row in range(PHASE_IN_ROWS) for part in ("year", "fraction")]
BASIS_PARTS = ("status", "source", "note", "kept_passage", "kept_note")
BASIS_FIELDS = [basis_field(path, part) for path in term_paths(PT_CODES) for part in BASIS_PARTS]
# Every field the form defines (checked against the form below, so a renamed field fails loudly).
FIELDS = [
    "title", "slug", "negotiation", "tabled_by", "tabled_on", "date_precision", "responds_to", "status",
    "meeting", "summary", "sources", "version", "title_fr", "summary_fr", "assumptions_fr",
    "max_grant", "federal_amount", "provincial_amount", "employer_amount",
    "scale_program", "scale_amount", "employer_min_share", "small_employer_gap_payer", "shortfall_liability",
    "assumptions", *PROGRAM_FIELDS, *(treatment_field(code) for code in PT_CODES), *PHASE_IN_FIELDS,
    "agreed_on", *BASIS_FIELDS,
]
SEEDED_OFFERS = ["budget-2013", "federal-nov-2013", "federal-dec-2013", "pt-counter-jan-2014"]
CHOICES = {
    "negotiation": ["canada-job-grant"],
    "tabled_by": ["CA", *PT_CODES],
    "date_precision": ["day", "month", "year", "approximate"],
    "status": ["tabled", "superseded", "rejected", "accepted", "withdrawn"],
    "responds_to": ["", *SEEDED_OFFERS],
    "scale_program": ["LMA", "LMDA", "CJF", "PT_OWN", "FEDERAL_NEW"],
    "small_employer_gap_payer": ["", "federal", "provincial"],
    "shortfall_liability": ["none", "province", "federal"],
    **{treatment_field(code): ["participates", "opts_out_compensated", "federal_direct"] for code in PT_CODES},
    **{basis_field(path, "status"): ["", "reported", "inferred", "assumed"] for path in term_paths(PT_CODES)},
}

# -- strategies

ODD_NUMBERS = st.sampled_from([
    "NaN", "-nan", "Infinity", "-Infinity", "inf", "1e999", "1E-999", "-0", "+5", "0.000", "5,000", "5 000",
    " 5000 ", "5000.001", "0.005", "9" * 13, "9" * 30, "0x10", "1_000", "٥٠٠٠", "５０００", "½", "1e3", ".5", "5.",
    "-", "--5", "1/3", "\x00", "5000\x00",
])
ANYTHING = st.one_of(
    st.just(""),
    st.text(max_size=40),
    ODD_NUMBERS,
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.floats().map(repr),
)
# A value for one field: anything, a list of anything (as a multi-valued post), or None for "left out".
FIELD_VALUE = st.one_of(st.none(), ANYTHING, st.lists(ANYTHING, min_size=1, max_size=3))

CENTS = st.integers(min_value=0, max_value=10**8).map(lambda cents: Decimal(cents) / 100)


@st.composite
def terms_that_add_up(draw) -> dict:
    """A post whose terms hold: sources summing to each payer's amount, the split to the maximum grant."""
    data = {
        "title": draw(st.text(min_size=1, max_size=60).filter(lambda t: t.strip() and "\x00" not in t)),
        "slug": "",
        "negotiation": "canada-job-grant",
        "tabled_by": draw(st.lists(st.sampled_from(CHOICES["tabled_by"]), min_size=1, max_size=3, unique=True)),
        "tabled_on": draw(st.dates(datetime.date(1990, 1, 1), datetime.date(2025, 12, 31))).isoformat(),
        "date_precision": draw(st.sampled_from(CHOICES["date_precision"])),
        "status": draw(st.sampled_from(CHOICES["status"])),
        "responds_to": draw(st.sampled_from(CHOICES["responds_to"])),
        "shortfall_liability": draw(st.sampled_from(CHOICES["shortfall_liability"])),
        "small_employer_gap_payer": draw(st.sampled_from(CHOICES["small_employer_gap_payer"])),
        "employer_min_share": draw(st.one_of(st.just(""), st.sampled_from(["0", "0.15", "0.5", "1"]))),
        "assumptions": draw(st.text(max_size=40).filter(lambda t: "\x00" not in t)),
    }
    amounts = {}
    for payer, programs in PAYER_PROGRAMS.items():
        drawn = draw(st.dictionaries(st.sampled_from(programs), CENTS, max_size=3))
        for program, amount in drawn.items():
            data[program_field(payer, program)] = str(amount)
        amounts[payer] = sum(drawn.values(), Decimal(0))
    employer = draw(CENTS)
    if amounts["federal"] + amounts["provincial"] + employer == 0:
        employer = Decimal("0.01")  # the maximum grant must be greater than zero
    data.update({
        "federal_amount": str(amounts["federal"]), "provincial_amount": str(amounts["provincial"]),
        "employer_amount": str(employer), "max_grant": str(amounts["federal"] + amounts["provincial"] + employer),
    })
    drawn_programs = sorted({name.split("_", 1)[1] for name in PROGRAM_FIELDS if Decimal(data.get(name, "0") or 0)})
    data["scale_program"] = draw(st.sampled_from(drawn_programs or CHOICES["scale_program"]))
    data["scale_amount"] = str(draw(st.integers(min_value=1, max_value=10**11)))
    for code in draw(st.lists(st.sampled_from(PT_CODES), max_size=3, unique=True)):
        data[treatment_field(code)] = draw(st.sampled_from(CHOICES[treatment_field(code)]))
    years = draw(st.lists(st.integers(min_value=2000, max_value=2098), max_size=PHASE_IN_ROWS, unique=True))
    for row, year in enumerate(years):
        data[f"phase_in_year_{row}"] = f"{year}-{(year + 1) % 100:02d}"
        data[f"phase_in_fraction_{row}"] = str(draw(st.integers(min_value=0, max_value=10000)) / Decimal(10000))
    return data


def _apply(data: dict, changes: dict) -> dict:
    data = dict(data)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


# Terms that hold with a few fields spoiled, or every field anything at all.
POSTS = st.one_of(
    st.builds(_apply, terms_that_add_up(), st.dictionaries(st.sampled_from(FIELDS), FIELD_VALUE, max_size=3)),
    st.builds(_apply, st.just({}), st.dictionaries(
        st.sampled_from(FIELDS), st.one_of(FIELD_VALUE, st.sampled_from(sum(CHOICES.values(), []))),
        max_size=len(FIELDS),
    )),
)

# -- what must hold


def as_querydict(data: dict) -> QueryDict:
    query = QueryDict(mutable=True)
    for name, value in data.items():
        query.setlist(name, value if isinstance(value, list) else [value])
    return query


def assert_terms_add_up(form: OfferForm) -> None:
    terms = form.terms()
    assert terms.problems() == []
    assert check_terms(
        max_grant=terms.max_grant, federal_amount=terms.federal_amount, provincial_amount=terms.provincial_amount,
        employer_amount=terms.employer_amount, sources=terms.sources, employer_min_share=terms.employer_min_share,
        scale_amount=terms.scale_amount, scale_program=terms.scale_program,
    ) == []
    assert terms.max_grant > 0 and terms.scale_amount > 0
    assert terms.federal_amount + terms.provincial_amount + terms.employer_amount == terms.max_grant
    for payer, amount in (("federal", terms.federal_amount), ("provincial", terms.provincial_amount)):
        assert sum((a for p, _program, a in terms.sources if p == payer), Decimal(0)) == amount


def counts() -> tuple[int, int]:
    return Offer.objects.count(), FundingSource.objects.count()


class Rollback(Exception):
    """Ends an example's savepoint, so each example starts from the same data."""


def test_the_fuzzed_fields_are_the_forms_fields(cjg):
    assert set(FIELDS) == set(OfferForm().fields)


@settings(max_examples=HUNT or examples(300), deadline=None, derandomize=not HUNT,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=POSTS)
def test_form_is_valid_with_terms_that_add_up_or_has_errors(cjg, data):
    form = OfferForm(as_querydict(data))
    if form.is_valid():
        event("valid form")
        assert_terms_add_up(form)
        assert form.own_fields()["tabled_by"]
    else:
        event("form with errors")
        assert form.errors


@pytest.fixture
def parser(cjg):
    return terms_parser()  # one class for every example, as the preview keeps one per record version


def _read(form) -> tuple:
    """What a terms form read from a post: its errors as text, and its terms (None when invalid)."""
    valid = form.is_valid()
    errors = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
    terms = form.terms() if valid else None
    answered = form.cleaned_data.get("responds_to") if valid else None
    return errors, terms, answered


@settings(max_examples=HUNT or examples(300), deadline=None, derandomize=not HUNT,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=POSTS)
def test_the_preview_s_parser_reads_every_post_as_the_terms_form_does(parser, data):
    post = as_querydict(data)
    expected = _read(OfferTermsForm(post))
    assert _read(parser(post)) == expected
    assert _read(parser(post)) == expected  # a second parse of the same post, after other posts
    # The offer form's page posts the preview only the fields filled in (static/js/offer-form.js):
    # a field left out must read as the same field left empty.
    filled = as_querydict({name: values for name, values in post.lists() if any(value != "" for value in values)})
    assert _read(parser(filled)) == expected
    event("valid" if expected[1] is not None else "with errors")


@settings(max_examples=HUNT or examples(80), deadline=None, derandomize=not HUNT,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=POSTS)
def test_posting_never_fails_and_never_writes_half_an_offer(cjg, editor_client, data):
    try:
        with transaction.atomic():
            _post_everywhere(editor_client, data)
            raise Rollback
    except Rollback:
        pass


def _post_everywhere(client, data: dict) -> None:
    # The live preview and the live validation answer whatever is typed, and write nothing.
    before = counts()
    preview = client.post(reverse("grants:preview"), data, HTTP_HX_REQUEST="true")
    assert preview.status_code == 200
    live = client.post(reverse("negotiations:offer_new"), {**data, "_validate": "1", "_touched": "*"},
                       HTTP_HX_REQUEST="true")
    assert live.status_code == 200
    assert counts() == before

    # Saving: a redirect to the new offer with all its funding rows, or the form again and nothing written.
    valid = OfferForm(as_querydict(data)).is_valid()
    response = client.post(reverse("negotiations:offer_new"), data)
    assert response.status_code < 500
    offers, rows = counts()
    event(f"save answered {response.status_code}")
    if response.status_code == 302:
        offer = Offer.objects.latest("pk")
        funding = list(offer.funding_sources.all())
        assert offers == before[0] + 1 and rows == before[1] + len(funding)
        for payer, amount in (("federal", offer.federal_amount), ("provincial", offer.provincial_amount)):
            assert sum((f.amount for f in funding if f.payer == payer), Decimal(0)) == amount
        assert offer.federal_amount + offer.provincial_amount + offer.employer_amount == offer.max_grant
        assert response["Location"] == offer.get_absolute_url()
        assert client.get(response["Location"]).status_code == 200
    else:
        assert response.status_code == 200, response.status_code
        assert (offers, rows) == before
        # Refused only when the form is invalid, or when the save found a clash (a taken address).
        assert not valid or "slug" in response.context["form"].errors
