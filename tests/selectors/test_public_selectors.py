"""Selectors for the public pages: round and team results, player figures, Swedish name order."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Bye, Match, Team
from scoring.selectors import (
    order_by_name,
    player_statistics,
    round_byes,
    round_results,
    team_results,
)
from tests.factories import (
    make_club,
    make_competition,
    make_player,
    make_result,
    make_team,
    protocol_setup,
    winning_deal,
)

pytestmark = pytest.mark.django_db


def _play(setup, sides):
    match = setup["match"]
    for number, side in enumerate(sides, start=1):
        match = services.deals_record(
            match=match, user=setup["secretary"], entry=winning_deal(number, side),
            expected_version=match.version,
        )
    return match


def test_player_statistics_from_deals():
    setup = protocol_setup()
    match = _play(setup, ["home", "away", "home", "home"])
    assert match.status == Match.Status.FINISHED and match.winner == "home"
    home_player = setup["home"].player_one
    figures = player_statistics(home_player)
    assert (figures.matches, figures.won, figures.lost, figures.deals) == (1, 1, 0, 4)
    assert figures.average_deal_score == (3 * 1885 - 40) / 4
    assert (figures.natural_canastas, figures.mixed_canastas, figures.canastas) == (6, 3, 9)
    assert figures.goings_out == 3
    assert figures.win_percentage == 100
    away = player_statistics(setup["away"].player_two)
    assert (away.matches, away.won, away.lost, away.deals, away.goings_out, away.canastas) == (1, 0, 1, 4, 1, 3)
    assert away.win_percentage == 0
    nobody = player_statistics(make_player())
    assert nobody.matches == 0 and nobody.average_deal_score is None and nobody.win_percentage is None


def test_player_statistics_ignore_unfinished_matches_and_count_substitutes():
    setup = protocol_setup()
    _play(setup, ["home"])  # in progress
    assert player_statistics(setup["home"].player_one).deals == 0
    substitute = make_player(club=setup["away"].club)
    competition = setup["match"].competition
    match = make_result(competition, setup["away"], setup["home"], 3000, 5000, round_number=2)
    match.home_substitute = substitute
    match.save()
    figures = player_statistics(substitute)
    assert (figures.matches, figures.won, figures.lost) == (1, 0, 1)


def test_player_statistics_query_count(django_assert_max_num_queries):
    setup = protocol_setup()
    _play(setup, ["home", "home", "home"])
    with django_assert_max_num_queries(2):
        player_statistics(setup["home"].player_one)


def test_round_results_flags_counted_and_preliminary(django_assert_max_num_queries):
    club = make_club()
    a, b, c, d, e = (make_team(name, club=club) for name in "ABCDE")
    competition = make_competition(organiser=club, teams=[a, b, c, d, e])
    make_result(competition, a, b, table=2)
    make_result(competition, c, d, table=1, status=Match.Status.SUBMITTED)
    first = competition.rounds.get(number=1)
    Bye.objects.create(round=first, team=e)
    with django_assert_max_num_queries(2):
        rows = [(m.table, m.home_team.name, m.away_team.name, m.counts, m.preliminary, m.round.number)
                for m in round_results(first)]
    assert rows == [(1, "C", "D", False, True, 1), (2, "A", "B", True, False, 1)]
    assert [bye.team.name for bye in round_byes(first)] == ["E"]


def test_team_results_in_round_order():
    club = make_club()
    a, b, c = (make_team(name, club=club) for name in "ABC")
    competition = make_competition(organiser=club, teams=[a, b, c])
    make_result(competition, c, a, round_number=2)
    make_result(competition, a, b, round_number=1)
    make_result(competition, b, c, round_number=3)
    assert [(m.round.number, m.home_team.name, m.away_team.name) for m in team_results(a)] == [
        (1, "A", "B"), (2, "C", "A"),
    ]
    other = make_competition(organiser=club, teams=[a, b])
    make_result(other, b, a)
    assert len(team_results(a)) == 3
    assert len(team_results(a, competition)) == 2


def test_order_by_name_sorts_the_swedish_way():
    club = make_club()
    for name in ("Örebro", "Zeta", "Ängby", "Åmål", "Alfa", "ärlan"):
        make_team(name, club=club)
    names = [team.name for team in order_by_name(Team.objects.filter(club=club))]
    assert names == ["Alfa", "Zeta", "Åmål", "Ängby", "ärlan", "Örebro"]
    dicts = order_by_name(Team.objects.filter(club=club).values("name", "club__name"), "name")
    assert [row["name"] for row in dicts][-1] == "Örebro"
