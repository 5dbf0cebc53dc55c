"""The Canasta figures on the player, pair, club and competition pages, and the records pages of the
federation, a competition and a club (scoring.views.figures): public, in Swedish and English, and
drawn with as many queries whatever the number of matches. The world is the hand-made season of
tests/selectors/test_figures.py."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.devdata.federation import FederationSize, build_federation
from scoring.devdata.generate import match_deals
from scoring.engine import replay
from scoring.models import Match, Round
from tests.selectors.test_figures import build_season

pytestmark = pytest.mark.django_db
STOCKHOLM = ZoneInfo("Europe/Stockholm")


@pytest.fixture
def season(db):
    return build_season()


def pages(world) -> dict[str, str]:
    teams, clubs = world["teams"], world["clubs"]
    series = world["competitions"]["series"]
    return {
        "player": reverse("scoring:player-detail", args=[world["players"]["Anna"].pk]),
        "team": reverse("scoring:team-detail", args=[teams["ab"].pk]),
        "club": reverse("scoring:club-detail", args=[clubs["ess"].pk]),
        "competition": reverse("scoring:competition-detail", args=[series.pk]),
        "records": reverse("scoring:records"),
        "club-records": reverse("scoring:club-records", args=[clubs["ess"].pk]),
        "competition-records": reverse("scoring:competition-records", args=[series.pk]),
    }


def test_the_figures_and_records_pages_show_the_seasons_figures(client, season):
    urls = pages(season)
    team = client.get(urls["team"]).content.decode()
    assert 'id="canasta-figures-heading"' in team
    # Anna/Bo's 2026/27 (tests/selectors/test_figures.py): 17 natural canastas in 16 deals.
    assert "1,06" in team and "Alla par" in team
    assert "<svg" in team.split('id="canasta-figures-heading"')[1]
    for name in ("player", "club", "competition"):
        body = client.get(urls[name]).content.decode()
        assert 'id="canasta-figures-heading"' in body, name
        assert reverse("scoring:records") in body or reverse("scoring:competition-records", args=[season["competitions"]["series"].pk]) in body
    records = client.get(urls["records"]).content.decode()
    comeback = season["matches"]["m2"]
    assert f'{reverse("scoring:match-detail", args=[comeback.pk])}#deal-2' in records
    assert "3\u202f850" in records  # the largest deficit turned into a win
    competition = client.get(urls["competition-records"]).content.decode()
    assert 'data-team-id="' in competition and "Hela tävlingen" in competition
    english = client.get("/en" + urls["records"]).content.decode()
    assert "Largest deficit turned into a win" in english


def test_a_page_of_nothing_played_says_so(client, db):
    from tests.factories import make_club, make_competition

    club = make_club("Tomma klubben")
    competition = make_competition(organiser=club)
    for url in (reverse("scoring:club-detail", args=[club.pk]), reverse("scoring:club-records", args=[club.pk]),
                reverse("scoring:competition-detail", args=[competition.pk]),
                reverse("scoring:competition-records", args=[competition.pk])):
        response = client.get(url)
        assert response.status_code == 200
        assert "Inga bekräftade protokoll med givar än." in response.content.decode(), url


def test_records_of_a_competition_that_is_not_public_are_not_shown(client, season):
    hidden = season["competitions"]["hidden"]
    assert client.get(reverse("scoring:competition-records", args=[hidden.pk])).status_code == 404


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def more_matches(world, count: int) -> None:
    """`count` more confirmed matches of Anna/Bo and Cilla/Dan in the series, in later rounds,
    with generated deals (through the services, as the federation's example data is made)."""
    series = world["competitions"]["series"]
    ab, cd = world["teams"]["ab"], world["teams"]["cd"]
    rng = random.Random(7)
    rules = series.rules
    played = []
    for index in range(count):
        round_, _ = Round.objects.get_or_create(competition=series, number=10 + index)
        started = datetime.combine(datetime(2027, 1, 1).date() + timedelta(days=7 * index), time(18), tzinfo=STOCKHOLM)
        home, away = (ab, cd) if index % 2 else (cd, ab)
        match = Match(competition=series, round=round_, table=1, home_team=home, away_team=away,
                      started_at=started, rules_snapshot=rules.to_dict(), points_snapshot=series.points_rules.to_dict())
        played.append((match, replay(rules, list(match_deals(rng, rules)), points=series.points_rules)))
    services.matches_record_played(played=played)
    services.standings_refresh(competition=series)


def test_each_figures_page_asks_as_many_queries_at_any_size(client, season):
    urls = pages(season)
    # Each page is drawn once before it is counted: a first look fills what is kept per process
    # (the code's version, a replay of the rating kept under the editions it read).
    for url in urls.values():
        client.get(url)
    small = {name: _queries(client, url) for name, url in urls.items()}
    more_matches(season, 20)
    build_federation(size=FederationSize(clubs=2, teams_per_club=4, leagues=1, league_size=8, national_rounds=2), seed=3)
    assert Match.objects.count() > 4 * len(season["matches"])
    for url in urls.values():
        client.get(url)
    large = {name: _queries(client, url) for name, url in urls.items()}
    assert large == small
