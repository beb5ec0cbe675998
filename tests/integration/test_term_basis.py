"""The basis of each term: stored by the services, entered in the offer form, shown on the pages, the CSV and the API."""

import re

import pytest
from django.urls import reverse

from negotiations.models import Offer, TermBasis
from negotiations.offer_forms import basis_field
from negotiations.services import offers as services
from negotiations.term_basis import offer_basis
from negotiations.terms import TermBasisEntry
from tests.factories import SourceFactory
from tests.offer_world import offer_post

pytestmark = pytest.mark.django_db


def test_the_api_gives_every_terms_basis_and_the_agreed_date(client, cjg):
    data = client.get("/api/offers/pt-counter-jan-2014").json()
    basis = data["terms_basis"]
    assert len(basis) == 30 and set(basis) >= {"split.federal", "sources.federal.LMA", "treatments.QC", "phase_in"}
    assert basis["scale"]["status"] == "assumed" and "450 million" in basis["scale"]["note"]
    assert basis["treatments.QC"] == {"status": "inferred", "source": "cp-2014-01-29-pt-counter-proposal",
                                      "note": basis["treatments.QC"]["note"]}
    assert basis["treatments.ON"]["status"] == "assumed"
    assert data["agreed_on"] == "2014-01-28" and data["tabled_on"] == "2014-02-04"
    december = client.get("/api/offers/federal-dec-2013").json()
    assert december["agreed_on"] is None
    assert december["terms_basis"]["shortfall_liability"]["status"] == "reported"
    assert "on the hook" in december["terms_basis"]["shortfall_liability"]["note"]


def test_the_api_lists_sources_each_with_a_url_or_a_citation(client, cjg):
    data = client.get("/api/sources?limit=5").json()
    assert data["count"] == 12 and len(data["items"]) == 5
    every = client.get("/api/sources").json()["items"]
    assert all(item["url"] or item["citation"] for item in every)
    ipolitics = next(item for item in every if item["slug"] == "ipolitics-2013-10-02-clark-alward-roundtable")
    assert ipolitics["author"] == "Olesia Plokhii" and "Olesia Plokhii" in ipolitics["citation"]
    assert client.get("/api/sources?limit=0").status_code == 422


def test_the_offer_page_marks_assumed_and_inferred_values(client, cjg):
    page = client.get(reverse("negotiations:offer", args=["pt-counter-jan-2014"])).content.decode()
    assert re.search(r'<details class="basis-mark basis-assumed" data-term="scale"><summary>assumed', page)
    assert 'data-term="treatments.QC"><summary>inferred' in page
    assert "Rests on 27 assumed terms" in page and "agreed on January 28, 2014" in page
    assert "enough for December&#x27;s 60,000 trainees" in page  # the note is readable text, not colour


def test_fiscal_page_compare_and_csv_say_what_figures_rest_on(client, cjg):
    fiscal = client.get(reverse("grants:fiscal", args=["pt-counter-jan-2014"])).content.decode()
    assert "These figures rest on 27 assumed terms" in fiscal
    assert re.search(r'data-line="trainees"><summary>rests on \d+ assumed terms', fiscal)
    explain = client.get(reverse("grants:explain", args=["pt-counter-jan-2014"]) + "?line=trainees").content.decode()
    # A sentence with its subject ("This figure: rests on 5 assumed terms: …" before).
    assert "This figure rests on 5 assumed terms: federal money from Labour Market Development Agreements," in explain
    compare = client.get(reverse("grants:compare") + "?a=federal-dec-2013&b=pt-counter-jan-2014").content.decode()
    assert compare.count("figure-basis-mark") >= 20
    csv = client.get(reverse("grants:fiscal_csv", args=["pt-counter-jan-2014"])).content.decode().splitlines()
    assert csv[0].endswith(",Basis")
    quebec = next(line for line in csv if line.startswith("QC,"))
    assert "inferred: " in quebec and "treatments.QC" in quebec and "treatments.ON" not in quebec
    assert "assumed: " in csv[-1] and "scale" in csv[-1]


def test_meeting_and_source_pages_show_the_supporting_passages(client, cjg):
    page = client.get(reverse("negotiations:meeting", args=["toronto-premiers-roundtable-2013-10-02"])).content.decode()
    assert "33 private sector labour leaders" in page
    source = client.get(reverse("negotiations:source", args=["cp-2013-11-08-toronto-ministers-meeting"])).content.decode()
    assert "Passages the record rests on" in source and "Not online here; cite it as:" in source


def test_an_offer_without_any_basis_says_so(client, budget):
    page = client.get(reverse("negotiations:offer", args=[budget.slug])).content.decode()
    assert "basis not given" in page and "30 terms have no basis given" in page
    assert "Every term of this offer was reported" not in page


def test_an_offer_whose_terms_are_all_reported_says_so(client, budget):
    source = SourceFactory(slug="budget-doc")
    for line in offer_basis(budget).lines:
        TermBasis.objects.create(offer=budget, term=line.term, status="reported", source=source, passage="as budgeted")
    page = client.get(reverse("negotiations:offer", args=[budget.slug])).content.decode()
    assert "Every term of this offer was reported by a source." in page
    fiscal = client.get(reverse("grants:fiscal", args=[budget.slug])).content.decode()
    assert "Every term of this offer was reported by a source." in fiscal and "From reported terms only." in fiscal


def test_the_services_refuse_a_broken_basis_and_write_nothing(budget):
    offer = Offer.objects.get(slug="budget-2013")
    with pytest.raises(services.InvalidOfferTerms) as caught:
        services.offer_update(
            actor=None, offer=offer, expected_version=offer.version, negotiation=offer.negotiation, title=offer.title,
            tabled_by=list(offer.tabled_by.all()), tabled_on=offer.tabled_on, terms=_terms_of(offer),
            basis=[TermBasisEntry(term="scale", status="assumed", note=""),
                   TermBasisEntry(term="max_grant", status="reported", source="nowhere", passage="p")],
        )
    assert {p.field for p in caught.value.problems} == {"basis.scale", "basis.max_grant"}
    assert not TermBasis.objects.exists()
    offer.refresh_from_db()
    services.offer_update(
        actor=None, offer=offer, expected_version=offer.version, negotiation=offer.negotiation, title=offer.title,
        tabled_by=list(offer.tabled_by.all()), tabled_on=offer.tabled_on, terms=_terms_of(offer),
        basis=[TermBasisEntry(term="scale", status="assumed", note="Full implementation.")],
    )
    row = TermBasis.objects.get(offer=offer)
    assert (row.term, row.status, row.note) == ("scale", "assumed", "Full implementation.")
    assert row.history.count() == 1


def _terms_of(offer):
    from grants.selectors import offer_terms

    return offer_terms(Offer.objects.prefetch_related("funding_sources", "treatments__jurisdiction", "phase_in").get(pk=offer.pk))


def test_the_form_keeps_everything_and_says_what_each_basis_lacks(client, budget, offer_editor):
    client.force_login(offer_editor)
    data = offer_post(title="A new offer with bases")
    data[basis_field("split.federal", "status")] = "reported"  # no source on the row, none on the offer
    data[basis_field("split.federal", "note")] = "Ottawa pays $5,000."
    data[basis_field("scale", "status")] = "assumed"  # no note
    response = client.post(reverse("negotiations:offer_new"), data)
    page = response.content.decode()
    assert response.status_code == 200 and not Offer.objects.filter(title="A new offer with bases").exists()
    slot = re.search(r'id="id_basis__split__federal__status_error"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "A reported term needs the source that states it." in slot
    slot = re.search(r'id="id_basis__scale__status_error"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "An assumed term needs the assumption" in slot
    assert 'value="A new offer with bases"' in page and "Ottawa pays $5,000.</textarea>" in page


def test_the_form_records_bases_defaulting_to_the_offers_source(client, budget, offer_editor):
    SourceFactory(slug="cp-article")
    client.force_login(offer_editor)
    data = offer_post(title="Offer with its bases", sources=["cp-article"], agreed_on="2013-12-20")
    data[basis_field("split.federal", "status")] = "reported"
    data[basis_field("split.federal", "note")] = "Ottawa would pay $5,000."
    data[basis_field("scale", "status")] = "assumed"
    data[basis_field("scale", "note")] = "Full scale."
    response = client.post(reverse("negotiations:offer_new"), data)
    assert response.status_code == 302
    offer = Offer.objects.get(title="Offer with its bases")
    assert str(offer.agreed_on) == "2013-12-20"
    rows = {row.term: row for row in offer.term_basis.select_related("source")}
    assert rows["split.federal"].source.slug == "cp-article" and rows["split.federal"].passage == "Ottawa would pay $5,000."
    assert rows["scale"].note == "Full scale." and rows["scale"].source is None
    edit = client.get(reverse("negotiations:offer_edit", args=[offer.slug])).content.decode()
    assert 'value="Full scale."' in edit


def test_the_preview_says_when_no_basis_is_given_yet(client, budget, offer_editor):
    client.force_login(offer_editor)
    data = offer_post()
    page = client.post(reverse("grants:preview"), data).content.decode()
    assert "Basis not yet given" in page
    data[basis_field("scale", "status")] = "assumed"
    page = client.post(reverse("grants:preview"), data).content.decode()
    assert "Rests on 1 assumed term: national amount drawn" in page
    # Each note under the name of the figure it is about.
    assert '<li data-line="federal_cost"><strong>Federal cost</strong><br>Rests on 1 assumed term' in page


def test_saving_the_form_unchanged_keeps_every_basis_as_it_was(client, cjg, offer_editor):
    from negotiations.offer_forms import OfferForm
    from negotiations.selectors.offers import offer_for_form, offer_links

    def bases():
        offer = Offer.objects.get(slug="pt-counter-jan-2014")
        return {row.term: (row.status, row.source_id, row.passage, row.note) for row in offer.term_basis.all()}

    before = bases()
    offer = offer_for_form(slug="pt-counter-jan-2014")
    form = OfferForm(initial=OfferForm.initial_from_offer(offer, offer_links(offer)), offer=offer)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value in (None, ""):
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list) else str(value)
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_edit", args=["pt-counter-jan-2014"]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert bases() == before
    assert before["sources.federal.LMA"][2].startswith("Duguid did say")  # an assumed term's passage survives
