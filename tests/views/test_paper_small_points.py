"""Smaller points of the secretary's and captain's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import protocol_setup

pytestmark = pytest.mark.django_db


def test_an_empty_deal_is_not_said_to_be_without_problems(client):
    setup = protocol_setup()
    client.force_login(setup["secretary"])

    html = client.get(reverse("scoring:match-protocol", args=[setup["match"].pk])).content.decode()

    assert "Inga problem hittades" not in html
    assert "Inget ifyllt än" in html


def test_the_web_standings_say_how_ties_are_broken(client):
    from tests.factories import make_competition, make_team

    competition = make_competition(name="Serien", teams=[make_team("Ett"), make_team("Två")])

    html = client.get(reverse("scoring:competition-detail", args=[competition.pk])).content.decode()

    assert "Ordning: matchpoäng, kortpoäng för, skillnad, inbördes möten, namn." in html
