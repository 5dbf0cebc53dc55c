"""Pages for a signed-in user are sent with `Cache-Control: private, no-store`; public pages for
visitors stay cacheable."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories as f

pytestmark = pytest.mark.django_db


def test_signed_in_pages_are_private_and_not_stored(client):
    setup = f.protocol_setup()
    match = setup["match"]
    client.force_login(setup["secretary"])
    for url in (
        reverse("scoring:my-matches"),
        reverse("scoring:match-protocol", args=[match.pk]),
        reverse("scoring:manage-home"),
        reverse("scoring:competition-detail", args=[match.competition_id]),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:team-calendar", args=[match.home_team_id]),
        reverse("scoring:standings-xlsx", args=[match.competition_id]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-store", url


def test_a_visitors_pages_are_not_marked_no_store(client):
    match = f.protocol_setup()["match"]
    response = client.get(reverse("scoring:competition-detail", args=[match.competition_id]))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
