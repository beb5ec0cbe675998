"""Issue 13.1: dates are bounded wherever they enter, and no stored date can break a page that spans time."""

import datetime
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from grants.models import Scenario
from negotiations import bounds
from negotiations.article_import import _parse_date
from negotiations.loading import DEFAULT_DATASET, DatasetError, load_dataset
from negotiations.models import ArticleImport, KeyDate, Meeting, Offer, Position, ProposedStatement, Statement
from negotiations.services import imports
from negotiations.validators import validate_not_after_today
from tests.offer_world import offer_post

pytestmark = pytest.mark.django_db

FAR = [datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(9999, 11, 30), datetime.date(14, 3, 1)]
RANGE_WORDS = "between 1900-01-01 and 2100-12-31"


def write_far_dates(first, last):
    """As a hand-written SQL update would: no validation, no signal."""
    statements = list(Statement.objects.order_by("pk").values_list("pk", flat=True)[:2])
    Statement.objects.filter(pk=statements[0]).update(date=first)
    Statement.objects.filter(pk=statements[1]).update(date=last)
    offers = list(Offer.objects.order_by("pk").values_list("pk", flat=True)[:2])
    Offer.objects.filter(pk=offers[0]).update(tabled_on=first)
    Offer.objects.filter(pk=offers[1]).update(tabled_on=last)
    positions = list(Position.objects.order_by("pk").values_list("pk", flat=True)[:2])
    Position.objects.filter(pk=positions[0]).update(as_of=first)
    Position.objects.filter(pk=positions[1]).update(as_of=last)
    Meeting.objects.filter(pk=Meeting.objects.order_by("pk").values("pk")[:1]).update(date=last)


PAGES = [
    "/", "/negotiations/canada-job-grant/stances", "/negotiations/canada-job-grant/stances/ON/2013-11",
    "/jurisdictions/ON/", "/jurisdictions/CA/", "/jurisdictions/ON/?date_from=2013-01-01&date_to=2014-12-31",
    "/offers/", "/compare/", "/statements/", "/meetings/", "/people/", "/sources/",
    "/api/offers", "/api/statements", "/api/positions", "/api/meetings", "/api/jurisdictions/ON/timeline",
    "/negotiations/canada-job-grant/", "/negotiations/canada-job-grant/calendar.ics",
]


@pytest.mark.parametrize(("first", "last"), [(FAR[0], FAR[1]), (FAR[3], FAR[2])])
def test_far_dates_written_in_sql_break_no_page(client, cjg, first, last):
    write_far_dates(first, last)
    offers = [f"/offers/{slug}/" for slug in Offer.objects.values_list("slug", flat=True)]
    fiscal = [f"/offers/{slug}/fiscal/" for slug in Offer.objects.values_list("slug", flat=True)]
    for page in PAGES + offers + fiscal:
        response = client.get(page)
        assert response.status_code == 200, page
        assert len(response.content) < 2_000_000, page


def test_the_matrix_keeps_to_the_densest_span_and_says_so(client, cjg):
    write_far_dates(FAR[0], FAR[1])
    page = client.get("/negotiations/canada-job-grant/stances").content.decode()
    assert 0 < page.count('<th scope="col" class="month">') <= bounds.MAX_SPAN_MONTHS
    assert '<time datetime="2013-11">' in page  # the record itself is still shown
    # (dates in words: "January 1, 1 to December 31, 9999")
    assert re.search(r"runs from January 1, 0*1 to December 31, 9999; the matrix shows the months where most of it lies",
                     page)
    assert '<time datetime="2012-11">' not in page  # nor twenty empty years around it


def test_a_month_outside_the_bounds_is_refused_not_drawn(client, cjg):
    response = client.get("/negotiations/canada-job-grant/stances/ON/9999-12")
    assert response.status_code == 400


def statement_post(**changes):
    statement = Statement.objects.select_related("negotiation", "speaker", "source").first()
    return {"negotiation": statement.negotiation.slug, "speaker": statement.speaker.slug,
            "jurisdiction": "ON", "date": "2013-11-30", "date_precision": "day", "language": "en",
            "quote": "A new quote.", "source": statement.source.slug, **changes}


@pytest.mark.parametrize("date", ["9999-12-31", "0014-03-01", "0001-01-01", "2101-01-01"])
def test_the_statement_form_refuses_a_date_outside_the_range(client, cjg, logged_in_superuser, date):
    before = Statement.objects.count()
    response = client.post(reverse("negotiations:statement_new"), statement_post(date=date))
    assert response.status_code == 200
    assert RANGE_WORDS in str(response.context["form"].errors["date"])
    assert Statement.objects.count() == before


def test_the_position_form_refuses_a_date_outside_the_range(client, cjg, logged_in_superuser):
    response = client.post(reverse("negotiations:position_new"), {
        "negotiation": "canada-job-grant", "jurisdiction": "ON", "as_of": "9999-11-30", "date_precision": "day",
        "stance": "opposes", "summary": "Opposes it."})
    assert RANGE_WORDS in str(response.context["form"].errors["as_of"])


def test_the_offer_form_refuses_a_date_outside_the_range(client, cjg, logged_in_superuser):
    response = client.post(reverse("negotiations:offer_new"), {"tabled_on": "9999-12-31", "title": "Far"})
    assert RANGE_WORDS in str(response.context["form"].errors["tabled_on"])


def test_the_admin_refuses_a_date_outside_the_range(client, cjg, logged_in_superuser):
    statement = Statement.objects.first()
    url = reverse("admin:negotiations_statement_change", args=[statement.pk])
    response = client.get(url)
    form = response.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(date="9999-12-31")
    response = client.post(url, data)
    assert response.status_code == 200
    assert RANGE_WORDS in str(response.context["adminform"].form.errors["date"])
    statement.refresh_from_db()
    assert statement.date.year < 2100


def test_the_timeline_filter_refuses_a_date_outside_the_range(client, cjg):
    response = client.get("/jurisdictions/ON/?date_from=0001-01-01")
    assert response.status_code == 200
    assert RANGE_WORDS in str(response.context["form"].errors["date_from"])


def test_the_loader_refuses_a_date_outside_the_range(cjg):
    data = json.loads(DEFAULT_DATASET.read_text())
    data["statements"][0]["date"] = "9999-12-31"
    with pytest.raises(DatasetError, match="between 1900-01-01 and 2100-12-31"):
        load_dataset(data)


# The newer models' dates (issues 14 to 19): each has the validator and a database constraint.
NEWER_DATES = [(KeyDate, "date"), (ArticleImport, "published_on"), (ProposedStatement, "date"),
               (Offer, "agreed_on"), (Offer, "withdrawn_on"), (Scenario, "as_of")]


@pytest.mark.parametrize(("model", "name"), NEWER_DATES)
@pytest.mark.parametrize("far", [FAR[0], FAR[1], datetime.date(1899, 12, 31), datetime.date(2101, 1, 1)])
def test_the_newer_dates_refuse_a_date_outside_the_range(model, name, far):
    field = model._meta.get_field(name)
    with pytest.raises(ValidationError, match=RANGE_WORDS):
        field.clean(far, None)
    # (a withdrawal has happened: its latest day is today)
    latest = datetime.date.today() if validate_not_after_today in field.validators else bounds.LATEST_DATE
    for edge in (bounds.EARLIEST_DATE, latest):
        assert field.clean(edge, None) == edge
    assert f"{model._meta.model_name}_{name}_range" in {c.name for c in model._meta.constraints}


def refused_by_the_database(queryset, **values):
    with pytest.raises(IntegrityError), transaction.atomic():
        queryset.update(**values)


@pytest.fixture
def article_import(cjg):
    article = ("OTTAWA - The federal minister said on Monday: \"The grant stays as it is,\" "
               "after the meeting with the provinces.\n\nThe provinces said they would reply.")
    created, _ = imports.article_import_create(
        actor=None, data=article, negotiation=Offer.objects.first().negotiation,
        published=datetime.date(2013, 11, 4))
    if not created.proposals.exists():
        ProposedStatement.objects.create(article_import=created, order=1, quote="The grant stays as it is.")
    return created


def test_the_database_refuses_the_newer_dates_outside_the_range(cjg, article_import, logged_in_superuser):
    for far in (FAR[0], FAR[1]):
        refused_by_the_database(KeyDate.objects.all(), date=far)
        refused_by_the_database(Offer.objects.all(), agreed_on=far)
        refused_by_the_database(Offer.objects.all(), withdrawn_on=far)
        refused_by_the_database(ArticleImport.objects.all(), published_on=far)
        refused_by_the_database(ProposedStatement.objects.all(), date=far)
    # Empty stays allowed where the field may be empty.
    Offer.objects.update(agreed_on=None, withdrawn_on=None)
    ArticleImport.objects.update(published_on=None)
    ProposedStatement.objects.update(date=None)


def test_the_withdraw_form_refuses_a_date_outside_the_range(client, cjg, logged_in_superuser):
    offer = Offer.objects.order_by("pk").first()
    response = client.post(reverse("negotiations:offer_withdraw", args=[offer.slug]),
                           {"withdrawal_reason": "Gone", "withdrawn_on": "9999-12-31"})
    assert response.status_code == 400
    assert RANGE_WORDS in response.content.decode()
    offer.refresh_from_db()
    assert offer.withdrawn_on is None and offer.status != Offer.Status.WITHDRAWN


def test_the_offer_form_refuses_an_agreed_date_outside_the_range(client, cjg, logged_in_superuser):
    response = client.post(reverse("negotiations:offer_new"), offer_post(agreed_on="0014-03-01"))
    assert response.status_code in (200, 400)
    assert RANGE_WORDS in str(response.context["form"].errors["agreed_on"])
    assert not Offer.objects.filter(agreed_on__year=14).exists()


@pytest.mark.parametrize("date", ["9999-12-31", "0001-01-01"])
def test_the_scenario_form_refuses_a_date_outside_the_range_and_the_database_too(client, cjg, logged_in_superuser, date):
    data = offer_post(title="Far scenario", tabled_on=date)
    response = client.post("/scenarios/new", data)
    assert response.status_code in (200, 400)
    assert RANGE_WORDS in response.content.decode()
    assert not Scenario.objects.exists()
    response = client.post("/scenarios/new", {**data, "tabled_on": "2014-01-29"})
    assert Scenario.objects.count() == 1, response.content.decode()[:2000]
    refused_by_the_database(Scenario.objects.all(), as_of=datetime.date.fromisoformat(date))


def test_the_article_import_refuses_a_publication_date_outside_the_range(client, cjg, logged_in_superuser):
    negotiation = Offer.objects.first().negotiation
    response = client.post("/imports/new", {"text": "OTTAWA - An article.", "negotiation": negotiation.slug,
                                            "published": "9999-12-31"})
    assert response.status_code in (200, 400)
    assert RANGE_WORDS in response.content.decode()
    assert not ArticleImport.objects.exists()


def test_the_import_review_refuses_dates_outside_the_range(client, article_import, logged_in_superuser):
    response = client.post(reverse("negotiations:import_source", args=[article_import.pk]), {
        "outlet": "Ledger", "title": "A title", "author": "", "published_on": "0001-01-01",
        "date_precision": "day", "url": ""})
    assert response.status_code in (200, 400)
    assert RANGE_WORDS in response.content.decode()
    article_import.refresh_from_db()
    assert article_import.published_on == datetime.date(2013, 11, 4)
    proposal = article_import.proposals.first()
    with pytest.raises(ValidationError, match=RANGE_WORDS):
        imports.proposal_decide(actor=logged_in_superuser, proposal=proposal,
                                decision=ProposedStatement.Decision.EDITED, changes={"date": datetime.date(9999, 12, 31)})


@pytest.mark.parametrize("text", ["December 31, 9999", "1 January 0014", "9999-12-31", "March 2150"])
def test_an_article_date_outside_the_range_is_no_date_found(text):
    assert _parse_date(text, anchor=None) == (None, "day")
    assert _parse_date("November 4, 2013", anchor=None)[0] == datetime.date(2013, 11, 4)


def test_the_briefing_refuses_a_date_outside_the_range(client, cjg):
    # Refused next to the field, as any bad filter: the brief is shown for its default period, not from year 1.
    response = client.get("/negotiations/canada-job-grant/briefing?since=0001-01-01")
    assert response.status_code == 200
    html = response.content.decode()
    assert RANGE_WORDS in html
    assert "What changed since January 5, 2014" in html
    assert client.get("/negotiations/canada-job-grant/briefing.pdf?since=0001-01-01").status_code == 400


def test_the_loader_refuses_a_key_date_or_agreed_date_outside_the_range(cjg):
    data = json.loads(DEFAULT_DATASET.read_text())
    data["key_dates"][0]["date"] = "9999-12-31"
    with pytest.raises(DatasetError, match="between 1900-01-01 and 2100-12-31"):
        load_dataset(data)
