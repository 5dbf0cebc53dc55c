"""Every public page answers anonymous visitors for a public competition, and 404 for one that is
not public; team, player and club pages leave non-public competitions out."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def competition_urls(competition, match):
    pk = competition.pk
    return [
        reverse("scoring:competition-detail", args=[pk]),
        reverse("scoring:competition-detail", args=[pk]) + "?after=1",
        reverse("scoring:competition-live", args=[pk]),
        reverse("scoring:competition-rounds", args=[pk]),
        reverse("scoring:round-detail", args=[pk, 1]),
        reverse("scoring:round-live", args=[pk, 1]),
        reverse("scoring:round-clock", args=[pk, 1]),
        reverse("scoring:round-clock-live", args=[pk, 1]),
        reverse("scoring:competition-embed", args=[pk]),
        reverse("scoring:competition-live", args=[pk]) + "?embed=1",
        reverse("scoring:competition-feed", args=[pk]),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:match-live", args=[match.pk]),
    ]


def test_every_page_of_a_public_competition_answers_anonymous_visitors(client, league):
    team = league["teams"]["ess"]
    urls = competition_urls(league["competition"], league["played"]) + [
        reverse("scoring:competition-list"),
        reverse("scoring:match-detail", args=[league["live"].pk]),
        reverse("scoring:team-detail", args=[team.pk]),
        reverse("scoring:team-calendar", args=[team.pk]),
        reverse("scoring:player-detail", args=[team.player_one_id]),
        reverse("scoring:club-list"),
        reverse("scoring:club-detail", args=[league["organiser"].pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_every_page_of_a_non_public_competition_is_404(client, league):
    for url in competition_urls(league["hidden"], league["hidden_match"]):
        assert client.get(url).status_code == 404, url


def test_non_public_competition_is_invisible_in_lists_and_team_pages(client, league):
    hidden = league["hidden"]
    listing = client.get(reverse("scoring:competition-list")).content.decode()
    assert "Mellansvenska serien" in listing
    assert hidden.name not in listing

    club = client.get(reverse("scoring:club-detail", args=[league["organiser"].pk])).content.decode()
    assert hidden.name not in club
    team = client.get(reverse("scoring:team-detail", args=[league["teams"]["dam"].pk])).content.decode()
    assert hidden.name not in team
    assert reverse("scoring:match-detail", args=[league["hidden_match"].pk]) not in team
    feed = client.get(reverse("scoring:team-calendar", args=[league["teams"]["dam"].pk])).content.decode()
    assert hidden.name not in feed


def test_the_organisers_secretary_sees_a_non_public_competition(client, league):
    client.force_login(league["secretary"])
    url = reverse("scoring:competition-detail", args=[league["hidden"].pk])

    assert client.get(url).status_code == 200
    assert league["hidden"].name in client.get(reverse("scoring:competition-list")).content.decode()
    # Embeds and feeds are for other websites: public competitions only, whoever asks.
    assert client.get(reverse("scoring:competition-embed", args=[league["hidden"].pk])).status_code == 404


def test_pages_are_swedish_by_default_and_link_together(client, league):
    response = client.get(reverse("scoring:competition-detail", args=[league["competition"].pk]))
    content = response.content.decode()

    assert '<html lang="sv">' in content
    assert "Tabell" in content
    assert reverse("scoring:team-detail", args=[league["teams"]["ess"].pk]) in content
    assert reverse("scoring:match-detail", args=[league["played"].pk]) in content
    assert reverse("scoring:round-detail", args=[league["competition"].pk, 2]) in content


def test_start_page_and_menu_lead_to_the_competitions(client, league):
    content = client.get(reverse("scoring:home")).content.decode()

    assert content.count(f'href="{reverse("scoring:competition-list")}"') >= 2


def test_unknown_round_match_team_player_and_club_are_404(client, league):
    competition = league["competition"]
    for url in (
        reverse("scoring:round-detail", args=[competition.pk, 99]),
        reverse("scoring:match-detail", args=[999999]),
        reverse("scoring:team-detail", args=[999999]),
        reverse("scoring:player-detail", args=[999999]),
        reverse("scoring:club-detail", args=[999999]),
        reverse("scoring:competition-detail", args=[999999]),
    ):
        assert client.get(url).status_code == 404, url


def test_a_public_page_sends_no_inline_script_or_style(client, league):
    content = client.get(reverse("scoring:match-detail", args=[league["played"].pk])).content.decode()

    assert "<script>" not in content
    assert " style=" not in content
    assert "<style" not in content


def test_a_postponed_match_shows_its_new_time_in_the_results(client, league):
    from datetime import datetime

    from django.utils import timezone

    from scoring.models import Match

    later = league["later"]
    new_start = timezone.make_aware(datetime(2026, 12, 3, 18, 30))
    Match.objects.filter(pk=later.pk).update(status=Match.Status.POSTPONED, scheduled_start=new_start)
    html = client.get(reverse("scoring:round-detail", args=[league["competition"].pk, 2])).content.decode()
    assert "Uppskjuten till 3 december 18:30" in html
