"""A NUL character (%00) in a request is refused with the site's bad-request page before any view
or query reads it: PostgreSQL cannot hold one in a string, so an admin filter or search, a public
page's parameter, a table link's client id or a login with one answered 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import TableDeal
from scoring.services import table
from tests import factories as f

pytestmark = pytest.mark.django_db

MATCH_LIST = "/admin/scoring/match/"


@pytest.fixture
def client():
    # As in production: the bad-request page, not an exception raised into the test.
    return Client(raise_request_exception=False)


@pytest.fixture
def admin_client(client):
    f.protocol_setup()
    client.force_login(f.make_admin())
    return client


def assert_bad_request_page(response):
    assert response.status_code == 400
    page = response.content.decode()
    assert "Felaktig begäran" in page and "Bad request" in page


@pytest.mark.parametrize(
    "query", ["status=%00", "q=%00", "q=lag%00", "competition__id__exact=%00", "competition__id__exact=1%00", "%00=1"]
)
def test_the_admins_match_list_refuses_a_nul_in_a_filter_or_search(admin_client, query):
    assert_bad_request_page(admin_client.get(f"{MATCH_LIST}?{query}"))


@pytest.mark.parametrize(
    "address",
    [
        "/admin/scoring/competition/?kind=%00",
        "/admin/scoring/competition/?season=%00",
        "/admin/scoring/competition/?is_public__exact=%00",
        "/admin/scoring/competition/?rules_key=%00",
        "/admin/scoring/player/?club__id__exact=%00",
        "/admin/scoring/team/?club__id__exact=%00",
        "/admin/scoring/round/?competition__id__exact=%00",
        "/admin/scoring/auditentry/?action=%00",
        "/admin/scoring/auditentry/?at__year=%00",
        "/admin/auth/user/?q=%00",
    ],
)
def test_every_admin_filter_refuses_a_nul(admin_client, address):
    assert_bad_request_page(admin_client.get(address))


@pytest.mark.parametrize("query", ["competition__id__exact=abc", "status=inget", "at__year=x"])
def test_other_bad_filter_values_are_the_admins_own_no_server_error(admin_client, query):
    """Without a NUL the admin answers a value it cannot use itself (its list, or ?e=1)."""
    model = "auditentry" if query.startswith("at__") else "match"
    assert admin_client.get(f"/admin/scoring/{model}/?{query}").status_code in (200, 302)


def test_the_admins_match_list_still_filters(admin_client):
    assert admin_client.get(f"{MATCH_LIST}?status=finished&q=lag").status_code == 200


@pytest.mark.parametrize("address", ["/competitions/?sida=%00", "/?%00", "/en/competitions/?q=%00", "/%00/"])
def test_a_public_page_refuses_a_nul(client, address):
    assert_bad_request_page(client.get(address))


def test_a_table_post_with_a_nul_in_its_client_id_is_refused_and_nothing_is_stored(client):
    s = f.protocol_setup()
    link = table.table_link_issue(match=s["match"], user=s["secretary"])
    data = {"client_id": "a\x00b", "side": "home", "kind": "deal", "number": "1", "home_cards": "485",
            "home_natural": "2", "home_mixed": "1", "out": "home", "away_cards": "-40"}  # fmt: skip

    response = client.post(reverse("scoring:table-propose", args=[link.code]), data)

    assert_bad_request_page(response)
    assert not TableDeal.objects.exists()


def test_a_login_with_a_nul_in_the_name_is_refused(client):
    f.make_user("sekreterare", password="rätt-lösenord-123")

    response = client.post(reverse("login"), {"username": "sekre\x00terare", "password": "rätt-lösenord-123"})

    assert_bad_request_page(response)
    assert get_user_model().objects.get(username="sekreterare").last_login is None


def test_a_cookie_with_a_nul_is_refused(client):
    # In a quoted cookie value an octal escape is a character: \000 is a NUL.
    response = client.get(reverse("scoring:competition-list"), HTTP_COOKIE='sessionid="\\000abcdefghijklmnop"')

    assert_bad_request_page(response)
