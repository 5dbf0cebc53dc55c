"""The merge pages: what moves or why not, the merge itself, and nobody else's club."""

import pytest
from django.urls import reverse

from scoring.models import Player, Team
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    secretary = f.make_user("sekreterare")
    club = f.make_club("Hemmaklubben", secretary=secretary)
    client.force_login(secretary)
    return club


def merge_url(obj):
    kind = "player" if isinstance(obj, Player) else "team"
    return reverse(f"scoring:manage-{kind}-merge", args=[obj.pk])


def test_a_refused_merge_says_why_and_offers_no_merge_button(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    f.make_team("Essen", club=club, players=(one, two))

    page = client.get(merge_url(two), {"into": one.pk}).content.decode()

    assert "De kan inte slås ihop" in page
    assert "samma spelare två gånger" in page
    assert "Slå ihop anna med Anna</button>" not in page
    refused = client.post(merge_url(two), {"into": one.pk})
    assert refused.status_code == 409  # a refusal is a 4xx, never a success
    assert "samma spelare två gånger" in refused.content.decode()
    assert Player.objects.filter(pk=two.pk).exists()


def test_a_team_is_merged_from_its_page(client, club):
    competition = f.make_competition(organiser=club)
    kept, twice = f.make_team("Essen", club=club), f.make_team("Essen B", club=club)
    competition.teams.add(kept, twice)

    page = client.get(merge_url(twice)).content.decode()
    assert f'<option value="{kept.pk}">Essen (' in page

    response = client.post(merge_url(twice), {"into": kept.pk})

    assert response.status_code == 302
    assert not Team.objects.filter(pk=twice.pk).exists()


def test_another_clubs_secretary_may_not_merge(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    client.force_login(f.make_user())

    assert client.get(merge_url(two)).status_code == 403
    assert client.post(merge_url(two), {"into": one.pk}).status_code == 403
    assert Player.objects.filter(pk=two.pk).exists()


def test_only_the_clubs_own_players_are_offered(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    stranger = f.make_player("Anna", club=f.make_club())

    response = client.post(merge_url(two), {"into": stranger.pk})

    assert "Välj spelaren som ska finnas kvar." in response.content.decode()
    assert Player.objects.filter(pk=two.pk).exists() and Player.objects.filter(pk=stranger.pk).exists()
    assert one.pk != stranger.pk
