"""The standings selector: which results count, the figures, tie-breaks, and the query count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.services import standings_refresh
from scoring.models import Bye, Match
from scoring.selectors import competition_standings, standings_preliminary_count
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db

S = Match.Status


def _teams(*names, club=None):
    club = club or make_club()
    return [make_team(name, club=club) for name in names]


def _table(competition, **kwargs):
    return [
        (row.rank_label, row.record.name, row.record.played, row.record.won, row.record.drawn,
         row.record.lost, row.record.points, row.record.card_points_for,
         row.record.card_points_against, row.record.difference)
        for row in competition_standings(competition, **kwargs)
    ]


def test_figures_from_stored_totals_and_teams_without_results():
    a, b, c, d = _teams("Alfa", "Beta", "Gamma", "Delta")
    competition = make_competition(teams=[a, b, c, d])
    make_result(competition, a, b, 5120, 3890)
    make_result(competition, c, a, 4000, 4000, round_number=2)
    make_result(competition, b, c, 2500, 5005, round_number=2, table=2)
    assert _table(competition) == [
        ("1", "Alfa", 2, 1, 1, 0, 1.5, 9120, 7890, 1230),
        ("2", "Gamma", 2, 1, 1, 0, 1.5, 9005, 6500, 2505),
        ("3", "Beta", 2, 0, 0, 2, 0, 6390, 10125, -3735),
        ("4", "Delta", 0, 0, 0, 0, 0, 0, 0, 0),
    ]
    row = competition_standings(competition)[0]
    assert isinstance(row.record.points, float) and row.record.team_id == a.pk


def test_points_are_ints_when_integral():
    a, b = _teams("Alfa", "Beta")
    competition = make_competition(teams=[a, b])
    make_result(competition, a, b)
    points = [row.record.points for row in competition_standings(competition)]
    assert points == [1, 0] and all(isinstance(p, int) for p in points)


def test_preliminary_results_do_not_count_where_confirmation_is_required():
    a, b, c = _teams("Alfa", "Beta", "Gamma")
    competition = make_competition(teams=[a, b, c], requires_confirmation=True)
    make_result(competition, a, b, status=S.CONFIRMED)
    make_result(competition, b, c, status=S.SUBMITTED, round_number=2)
    make_result(competition, c, a, status=S.FINISHED, round_number=3)
    make_result(competition, a, c, status=S.IN_PROGRESS, round_number=4)
    table = {row.record.name: row.record for row in competition_standings(competition)}
    assert (table["Alfa"].played, table["Beta"].played, table["Gamma"].played) == (1, 1, 0)
    # Only the submitted one waits for confirmation; the finished one waits for its secretary.
    assert standings_preliminary_count(competition) == 1
    assert standings_preliminary_count(competition, up_to_round=1) == 0
    preliminary = {r.record.name: r.record for r in competition_standings(competition, include_preliminary=True)}
    assert (preliminary["Alfa"].played, preliminary["Beta"].played, preliminary["Gamma"].played) == (2, 2, 2)


def test_without_confirmation_finished_and_submitted_results_count():
    a, b, c = _teams("Alfa", "Beta", "Gamma")
    competition = make_competition(teams=[a, b, c], requires_confirmation=False)
    make_result(competition, a, b, status=S.FINISHED)
    make_result(competition, b, c, status=S.SUBMITTED, round_number=2)
    make_result(competition, c, a, status=S.IN_PROGRESS, round_number=3)
    table = {row.record.name: row.record.played for row in competition_standings(competition)}
    assert table == {"Alfa": 1, "Beta": 2, "Gamma": 1}
    assert standings_preliminary_count(competition) == 0


def test_forfeit_award_in_swedish_series():
    a, b = _teams("Alfa", "Beta")
    competition = make_competition(teams=[a, b], points_key="sv-serie")
    make_result(competition, a, b, forfeit_winner="away")
    assert _table(competition) == [
        ("1", "Beta", 1, 1, 0, 0, 1, 5000, 2500, 2500),
        ("2", "Alfa", 1, 0, 0, 1, 0, 2500, 5000, -2500),
    ]


def test_forfeit_award_in_finnish_federation_style():
    a, b, c = _teams("Alfa", "Beta", "Gamma")
    competition = make_competition(teams=[a, b, c], points_key="fi-liitto")
    make_result(competition, a, b, forfeit_winner="home")
    make_result(competition, c, a, 5000, 4200, round_number=2)
    assert _table(competition) == [
        ("1", "Alfa", 2, 1, 0, 1, 2, 6200, 5000, 1200),
        ("2", "Gamma", 1, 1, 0, 0, 2, 5000, 4200, 800),
        ("3", "Beta", 1, 0, 0, 1, 0, 0, 2000, -2000),
    ]


def test_void_match_counts_only_as_the_competition_says():
    a, b = _teams("Alfa", "Beta")
    counted_not = make_competition(teams=[a, b])
    make_result(counted_not, a, b, 3000, 2000, status=S.VOID)
    assert [row.record.played for row in competition_standings(counted_not)] == [0, 0]
    as_played = make_competition(teams=[a, b], points_overrides={"abandoned": "as-played"})
    make_result(as_played, a, b, 3000, 2000, status=S.VOID)
    assert _table(as_played)[0] == ("1", "Alfa", 1, 1, 0, 0, 1, 3000, 2000, 1000)


def test_standings_after_a_round():
    a, b, c = _teams("Alfa", "Beta", "Gamma")
    competition = make_competition(teams=[a, b, c])
    make_result(competition, a, b, 5000, 1000, round_number=1)
    make_result(competition, b, c, 5000, 1000, round_number=2)
    make_result(competition, c, a, 5000, 1000, round_number=3)
    after_one = _table(competition, up_to_round=1)
    assert [row[1] for row in after_one] == ["Alfa", "Beta", "Gamma"]
    assert after_one[2][2] == 0
    assert [row[2] for row in _table(competition)] == [2, 2, 2]


def test_bye_scores_as_the_competition_says():
    a, b, c = _teams("Alfa", "Beta", "Gamma")
    plain = make_competition(teams=[a, b, c])
    match = make_result(plain, a, b)
    Bye.objects.create(round=match.round, team=c)
    assert {r.record.name: r.record.played for r in competition_standings(plain)}["Gamma"] == 0

    winning = make_competition(teams=[a, b, c], points_overrides={"bye": "win"})
    match = make_result(winning, a, b)
    Bye.objects.create(round=match.round, team=c)
    # A bye in a round with no counted result yet scores nothing.
    future = make_result(winning, b, a, round_number=2, status=S.SCHEDULED)
    Bye.objects.create(round=future.round, team=c)
    gamma = {r.record.name: r.record for r in competition_standings(winning)}["Gamma"]
    assert (gamma.played, gamma.won, gamma.points, gamma.card_points_for) == (1, 1, 1, 0)


def test_query_count_does_not_grow_with_the_number_of_matches(django_assert_max_num_queries):
    def build(match_count):
        club = make_club()
        teams = [make_team(club=club) for _ in range(20)]
        competition = make_competition(organiser=club, teams=teams)
        matches = []
        for index in range(match_count):
            home = teams[index % 20]
            away = teams[(index * 7 + 3) % 20]
            if home == away:
                away = teams[(index + 1) % 20]
            matches.append(
                make_result(competition, home, away, 5000 + index % 300, 3000 + (index * 35) % 2500,
                            round_number=1 + index // 10, table=1 + index % 10, save=False)
            )
        Match.objects.bulk_create(matches)
        standings_refresh(competition=competition)
        return competition

    small, large = build(10), build(1000)
    counts, after_round = [], []
    for competition in (small, large):
        competition = type(competition).objects.get(pk=competition.pk)
        with CaptureQueriesContext(connection) as queries:
            rows = competition_standings(competition)
        counts.append(len(queries))
        assert len(rows) == 20
        with CaptureQueriesContext(connection) as queries:
            competition_standings(competition, up_to_round=50)
        after_round.append(len(queries))
    # The table as it stands: the teams, their stored rows, head-to-head among tied teams.
    assert counts[0] == counts[1] <= 3
    assert after_round[0] == after_round[1]
    assert sum(row.record.played for row in competition_standings(large)) == 2000
