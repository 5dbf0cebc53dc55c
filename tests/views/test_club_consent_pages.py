"""Club consent on the pages: nothing about a club night's waiting sign-up of another club's player
is public, the player's club accepts on its invitations page, saving the sign-up page again keeps
the request waiting, and the admin refuses a rotating partnership in a league. The services'
rules are tests/services/test_club_consent.py, whose world (`nights`, `partnership`) this uses."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import SignupInvitation, Team
from scoring.services.individual import individual_signup
from tests import factories as f
from tests.services.test_club_consent import I, nights, partnership  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_nothing_about_a_waiting_sign_up_is_public(nights, client):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    for url in (reverse("scoring:player-detail", args=[guest.pk]),
                reverse("scoring:competition-detail", args=[night.pk]),
                reverse("scoring:competition-players", args=[night.pk])):
        response = client.get(url)
        assert response.status_code in (200, 404)
        html = response.content.decode()
        if url.endswith(f"/players/{guest.pk}/"):
            assert "Klubbkväll" not in html
        else:
            assert "Gästen" not in html


def test_the_players_club_accepts_on_its_invitations_page(nights):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    invitation = SignupInvitation.objects.get(competition=night, player=guest)

    # The organiser cannot answer for the other club.
    organiser = client_for(nights["secretary"])
    organiser.raise_request_exception = False
    refused = organiser.post(reverse("scoring:manage-invitations"),
                             {"kind": "player", "invitation": invitation.pk, "answer": "accept"})
    assert refused.status_code == 403
    assert guest not in night.entrants.all()

    other = client_for(nights["other_secretary"])
    page = other.get(reverse("scoring:manage-invitations")).content.decode()
    assert "Gästen" in page and "Klubbkväll" in page
    response = other.post(reverse("scoring:manage-invitations"),
                          {"kind": "player", "invitation": invitation.pk, "answer": "accept"})
    assert response.status_code == 302
    assert guest in night.entrants.all()
    again = other.post(reverse("scoring:manage-invitations"),
                       {"kind": "player", "invitation": invitation.pk, "answer": "decline"})
    assert again.status_code == 409  # answered already


def test_saving_the_sign_up_page_again_keeps_a_waiting_request(nights):
    night, guest = nights["night"], nights["guest"]
    client = client_for(nights["secretary"])
    url = reverse("scoring:manage-individual", args=[night.pk])
    chosen = [p.pk for p in nights["own"]] + [guest.pk]
    assert client.post(url, {"action": "signup", "players": chosen}).status_code == 302
    page = client.get(url)
    assert guest.pk in page.context["signup"].fields["players"].initial
    assert "Gästen" in page.content.decode()  # listed as waiting for the club's answer
    assert SignupInvitation.objects.filter(competition=night, player=guest, status=I.PENDING).exists()


def test_the_admin_refuses_a_rotating_partnership_in_a_league(nights, partnership):
    league = f.make_competition(name="Ligan", organiser=nights["club"])
    client = client_for(f.make_admin())
    response = client.post(reverse("admin:scoring_competition_change", args=[league.pk]), {
        "name": league.name, "season": league.season, "kind": league.kind, "organiser": league.organiser_id,
        "rules_key": league.rules_key, "points_key": league.points_key, "teams": [partnership.pk],
        "club_standings_order": league.club_standings_order, "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
    })
    assert response.status_code == 200  # the form again, with the reason
    assert "klubbkväll" in response.content.decode()
    assert not Team.objects.filter(pk=partnership.pk, competitions=league).exists()

