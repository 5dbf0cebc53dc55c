"""Logging in: who the login page is for, and where logging in leads."""

import pytest
from django.urls import reverse

from tests import factories as f

pytestmark = pytest.mark.django_db


def test_the_login_page_says_captains_log_in_too(client):
    page = client.get(reverse("login")).content.decode()

    assert "Här loggar klubbsekreterare, lagkaptener och administratörer in." in page
    assert "Bara sekreterare och administratörer" not in page


def test_logging_in_without_a_next_page_leads_to_my_matches(client):
    f.make_user("hemmakapten", password="rätt-lösenord-123")

    response = client.post(reverse("login"), {"username": "hemmakapten", "password": "rätt-lösenord-123"})

    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:my-matches")
    assert client.get(response["Location"]).status_code == 200


def test_logging_in_with_a_next_page_goes_there(client):
    s = f.protocol_setup()
    protocol = reverse("scoring:match-protocol", args=[s["match"].pk])

    response = client.post(
        reverse("login"), {"username": "sekreterare", "password": "secret-pass-123", "next": protocol}
    )

    assert response.status_code == 302
    assert response["Location"] == protocol



# nginx reads an answer's headers into one buffer of 32 KB, beside the proxy cache's key (up to
# 4 KB, nginx's bound for a request line; deploy/nginx-proxy.conf). Django's own bounds keep every
# Location within it: a `next` over 2 048 characters is ignored (url_has_allowed_host_and_scheme)
# and a redirect over 16 384 is refused. These tests hold them.


def test_a_next_page_too_long_to_be_one_of_the_sites_is_ignored(client):
    f.make_user("hemmakapten", password="rätt-lösenord-123")
    too_long = "/competitions/?x=" + "a" * 3000

    page = client.get(reverse("login"), {"next": too_long}).content.decode()
    response = client.post(reverse("login"), {"username": "hemmakapten", "password": "rätt-lösenord-123", "next": too_long})

    assert '<input type="hidden" name="next" value="">' in page
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:my-matches")


def test_a_long_next_page_of_the_site_is_still_followed(client):
    f.make_user("hemmakapten", password="rätt-lösenord-123")
    long_enough = "/competitions/?x=" + "a" * 1900

    response = client.post(reverse("login"), {"username": "hemmakapten", "password": "rätt-lösenord-123", "next": long_enough})

    assert response.status_code == 302 and response["Location"] == long_enough


def test_the_way_to_the_login_page_from_the_longest_address_nginx_passes_fits_its_buffer(client):
    """The redirect to the login page carries the address asked for, escaped ("%" is "%25")."""
    response = client.get("/my-matches/?x=" + "%" * 4000)

    assert response.status_code == 302 and response["Location"].startswith(reverse("login") + "?next=")
    assert 12_000 < len(response["Location"]) <= 16_384
