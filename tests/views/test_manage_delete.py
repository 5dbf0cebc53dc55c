"""Deleting what was set up by mistake, after a page that says what goes with it; what has results
is archived or kept, never deleted; names are unique in a club whatever their letter case."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import AuditEntry, Match, Player, Round, Team
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def s(client):
    setup = f.protocol_setup()
    client.force_login(setup["secretary"])
    return setup


def test_a_player_entered_twice_is_deleted_after_a_confirmation(client, s):
    twice = f.make_player("Anna Berg", club=s["home"].club)
    url = reverse("scoring:manage-player-delete", args=[twice.pk])

    page = client.get(url).content.decode()
    assert "Ta bort Anna Berg?" in page and "kan inte ångras" in page
    response = client.post(url)

    assert response.status_code == 302
    assert not Player.objects.filter(pk=twice.pk).exists()
    assert AuditEntry.objects.filter(action="player_delete").exists()


def test_a_team_without_play_goes_with_its_matches_not_played(client, s):
    url = reverse("scoring:manage-team-delete", args=[s["home"].pk])

    page = client.get(url).content.decode()
    assert "Hemmalaget – Bortalaget" in page  # its match goes with it, and the page says so
    client.post(url)

    assert not Team.objects.filter(pk=s["home"].pk).exists()
    assert not Match.objects.filter(pk=s["match"].pk).exists()


def test_a_team_with_results_is_archived_not_deleted(client, s):
    f.play_match(s["match"], s["secretary"], [f.winning_deal(1)])
    url = reverse("scoring:manage-team-delete", args=[s["home"].pk])

    assert "Arkivera Hemmalaget?" in client.get(url).content.decode()
    client.post(url)

    team = Team.objects.get(pk=s["home"].pk)
    assert team.archived
    assert Match.objects.filter(pk=s["match"].pk).exists()


def test_a_round_or_match_with_play_cannot_be_deleted(client, s):
    f.play_match(s["match"], s["secretary"], [f.winning_deal(1)])
    for url in (reverse("scoring:manage-round-delete", args=[s["match"].round_id]),
                reverse("scoring:manage-match-delete", args=[s["match"].pk])):  # fmt: skip
        assert "kan inte tas bort" in client.get(url).content.decode()
        client.post(url)
    assert Round.objects.filter(pk=s["match"].round_id).exists() and Match.objects.filter(pk=s["match"].pk).exists()


def test_a_match_not_played_is_deleted(client, s):
    client.post(reverse("scoring:manage-match-delete", args=[s["match"].pk]))

    assert not Match.objects.filter(pk=s["match"].pk).exists()


def test_names_are_unique_in_a_club_whatever_the_letter_case(client, s):
    club = s["home"].club
    f.make_player("Anna Berg", club=club)

    player = client.post(reverse("scoring:manage-player-create", args=[club.pk]), {"name": "anna berg", "member_number": ""})
    one, two = f.make_player("Ett", club=club), f.make_player("Två", club=club)
    team = client.post(reverse("scoring:manage-team-create", args=[club.pk]), {
        "name": "HEMMALAGET", "player_one": one.pk, "player_two": two.pk, "captain": "",
    })  # fmt: skip

    assert "redan en spelare som heter anna berg" in player.content.decode()
    assert "redan ett lag som heter HEMMALAGET" in team.content.decode()
    assert Player.objects.filter(name__iexact="anna berg").count() == 1
    assert Team.objects.filter(name__iexact="hemmalaget").count() == 1
