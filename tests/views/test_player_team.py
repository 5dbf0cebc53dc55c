"""Player figures, team pages with recent form, and club pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def figure(html: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">(.*?)</dd>', html, re.S)
    assert match, name
    return re.sub(r"<[^>]+>", "", match.group(1)).replace("&nbsp;", " ").strip()


def test_player_figures(client, league):
    # Essen played the sample protocol: 8 deals, 5 500 in all, 5 natural and 4 mixed canastas,
    # out 4 times, won. Its non-public match (3 more deals, another win) is left out.
    player = league["teams"]["ess"].player_one
    html = client.get(reverse("scoring:player-detail", args=[player.pk])).content.decode()

    assert figure(html, "matches") == "1"
    assert figure(html, "deals") == "8"
    assert figure(html, "average") == "688"  # 5 500 / 8 = 687.5
    assert figure(html, "canastas") == "9"
    assert figure(html, "goings-out") == "4"
    assert figure(html, "win-percentage") == "100 %"
    assert "5 rena, 4 orena" in html
    assert reverse("scoring:match-detail", args=[league["played"].pk]) in html
    assert reverse("scoring:match-detail", args=[league["hidden_match"].pk]) not in html


def test_player_of_the_losing_team(client, league):
    player = league["teams"]["kung"].player_two
    html = client.get(reverse("scoring:player-detail", args=[player.pk])).content.decode()

    assert figure(html, "matches") == "1"
    assert figure(html, "win-percentage") == "0 %"
    assert figure(html, "average") == "465"  # 3 720 / 8


def test_team_page_players_results_and_form_in_letters(client, league):
    team = league["teams"]["ess"]
    html = client.get(reverse("scoring:team-detail", args=[team.pk])).content.decode()

    assert team.player_one.name in html and team.player_two.name in html
    assert reverse("scoring:player-detail", args=[team.player_one_id]) in html
    # Recent form: a letter and words, not colour alone.
    form = html.split('class="form-letters"', 1)[1].split("</ol>", 1)[0]
    assert 'class="form-letter form-letter--win"' in form
    assert ">V<" in form
    assert "Vinst mot Kungarna" in form
    assert "V = vinst, O = oavgjort, F = förlust." in html
    assert reverse("scoring:team-calendar", args=[team.pk]) in html
    # The scheduled round-2 match is a fixture.
    assert reverse("scoring:match-detail", args=[league["later"].pk]) in html


def test_club_page_lists_teams_and_players(client, league):
    club = league["organiser"]
    html = client.get(reverse("scoring:club-detail", args=[club.pk])).content.decode()

    for team in (league["teams"]["ess"], league["teams"]["dam"]):
        assert reverse("scoring:team-detail", args=[team.pk]) in html
        assert reverse("scoring:player-detail", args=[team.player_one_id]) in html
    assert league["teams"]["kung"].name not in html
    assert "Mellansvenska serien" in html  # organised by this club
    clubs = client.get(reverse("scoring:club-list")).content.decode()
    assert clubs.index("Canastaklubben Ess") < clubs.index("Kortklubben Kung")
