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
