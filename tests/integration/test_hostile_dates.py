"""Issue 13.1: dates are bounded wherever they enter, and no stored date can break a page that spans time."""

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from negotiations import bounds
from negotiations.loading import DEFAULT_DATASET, DatasetError, load_dataset
from negotiations.models import Meeting, Offer, Position, Statement
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FAR = [datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(9999, 11, 30), datetime.date(14, 3, 1)]
RANGE_WORDS = "between 1900-01-01 and 2100-12-31"


@pytest.fixture
def cjg():
    call_command("load_cjg", stdout=io.StringIO())


@pytest.fixture
def editor(client):
    user = UserFactory(username="hostile-editor", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


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
    assert "runs from 0001-01-01 to 9999-12-31; the matrix shows the months where most of it lies" in page
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
def test_the_statement_form_refuses_a_date_outside_the_range(client, cjg, editor, date):
    before = Statement.objects.count()
    response = client.post(reverse("negotiations:statement_new"), statement_post(date=date))
    assert response.status_code == 200
    assert RANGE_WORDS in str(response.context["form"].errors["date"])
    assert Statement.objects.count() == before


def test_the_position_form_refuses_a_date_outside_the_range(client, cjg, editor):
    response = client.post(reverse("negotiations:position_new"), {
        "negotiation": "canada-job-grant", "jurisdiction": "ON", "as_of": "9999-11-30", "date_precision": "day",
        "stance": "opposes", "summary": "Opposes it."})
    assert RANGE_WORDS in str(response.context["form"].errors["as_of"])


def test_the_offer_form_refuses_a_date_outside_the_range(client, cjg, editor):
    response = client.post(reverse("negotiations:offer_new"), {"tabled_on": "9999-12-31", "title": "Far"})
    assert RANGE_WORDS in str(response.context["form"].errors["tabled_on"])


def test_the_admin_refuses_a_date_outside_the_range(client, cjg, editor):
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
