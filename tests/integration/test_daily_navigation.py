"""Navigation and refusals (issue 16 point 8): who curates in the admin, the menu, and the site's own
403, 404 and 500 pages with a way on."""

import pytest
from django.contrib.auth.models import Group
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from tests.factories import NegotiationFactory, UserFactory
from tests.offer_world import user_with

pytestmark = pytest.mark.django_db


def member_of(group: str, username: str):
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get(name=group))
    return user


def menu(client) -> str:
    html = client.get("/").content.decode()
    return html[html.index('<ul class="site-nav"'):html.index("</nav>")]


@pytest.mark.parametrize("group", ["Editor", "Admin"])
def test_editors_and_admins_curate_in_the_admin_and_see_its_link(client, group):
    client.force_login(member_of(group, "curator"))
    assert f'href="{reverse("admin:index")}"' in menu(client)
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert "/admin/negotiations/position/" in index.content.decode()
    assert client.get("/admin/negotiations/position/").status_code == 200


def test_editors_log_in_to_the_admin_through_its_own_form(client):
    member_of("Editor", "curator")
    response = client.post(reverse("admin:login"), {"username": "curator", "password": "correct horse battery staple",
                                                     "next": "/admin/"})
    assert response.status_code == 302 and response["Location"] == "/admin/"


@pytest.mark.parametrize("who", ["anonymous", "viewer", "permissions only"])
def test_the_admin_link_is_shown_only_to_those_who_can_use_it(client, who):
    if who == "viewer":
        client.force_login(member_of("Viewer", "viewer"))
    elif who == "permissions only":
        client.force_login(user_with("view_offer", username="reader"))
    assert 'href="/admin/"' not in menu(client)
    assert client.get(reverse("admin:index")).status_code == 302  # to the admin's login


def test_the_stance_matrix_is_in_the_main_menu(client):
    NegotiationFactory(slug="canada-job-grant")
    assert f'href="{reverse("negotiations:stances_current")}"' in menu(client)
    response = client.get(reverse("negotiations:stances_current"))
    assert response.status_code == 302 and response["Location"] == "/negotiations/canada-job-grant/stances"


def test_404_is_in_the_sites_frame_with_a_way_on(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<ul class="site-nav"' in html and 'id="error-404"' in html
    assert "/no/such/page/" in html and 'action="/search/"' in html


def test_403_is_in_the_sites_frame_and_says_what_to_do(client):
    client.force_login(member_of("Viewer", "viewer"))
    response = client.post(reverse("negotiations:offer_withdraw", args=["any"]), {})
    assert response.status_code == 403
    html = response.content.decode()
    assert '<ul class="site-nav"' in html and 'id="error-403"' in html and "Editor group" in html


def test_500_is_in_the_sites_frame_without_the_database(django_assert_num_queries):
    request = RequestFactory().get("/")
    with django_assert_num_queries(0):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert '<ul class="site-nav"' in html and 'id="error-500"' in html and 'href="/"' in html


def test_an_htmx_request_refused_with_a_whole_page_goes_to_it(client):
    response = client.get("/no/such/page/", headers={"HX-Request": "true"})
    assert response.status_code == 404 and response["HX-Redirect"] == "/no/such/page/"
