"""The places after each round are data: the services keep them with the standings rows
(RoundPlace), the competition page's chart reads them, and they equal the places worked out by
ranking the table again after every round, as the page did before. The migration that filled them
for the competitions played so far gives the same places. The page's queries:
tests/views/test_places_chart_queries.py."""

from importlib import import_module

import pytest
from django.apps import apps

from scoring.models import Match, RoundPlace
from scoring.selectors import competition_standings, counted_q
from scoring.selectors.history import places_by_round
from scoring.services import standings_refresh
from tests.factories import make_club, make_competition, make_result, make_team
from tests.selectors.test_standings_equal_reference import _season

pytestmark = pytest.mark.django_db


def places_ranked_again(competition) -> tuple[list[int], list[tuple[int, list]]]:
    """The rounds and each team's places, worked out as the page did before: the whole table ranked
    again after every round with a counted result, teams in the order of the latest table."""
    rounds = sorted(set(
        Match.objects.filter(competition=competition).filter(counted_q(competition), round__isnull=False)
        .values_list("round__number", flat=True)
    ))  # fmt: skip
    tables = [competition_standings(competition, up_to_round=number) for number in rounds]
    places: dict = {}
    for index, rows in enumerate(tables):
        for row in rows:
            places.setdefault(row.record.team_id, [None] * len(rounds))[index] = row.rank
    return rounds, [(row.record.team_id, places[row.record.team_id]) for row in tables[-1]]


def places_read(competition) -> tuple[list[int], list[tuple[int, list]]]:
    chart = places_by_round(competition)
    return chart.rounds, [(team.team_id, team.places) for team in chart.teams]


@pytest.mark.parametrize(
    ("points_key", "overrides", "requires_confirmation"),
    [
        ("sv-serie", {}, False),
        ("sv-serie", {"abandoned": "as-played", "bye": "win", "draw": 0.5, "win": 1.5}, True),
        ("fi-liitto", {"bye": "win", "draw": 0.1, "win": 0.3}, False),
        ("fi-liitto", {"tiebreaks": ["points", "head_to_head", "card_points_for", "name"]}, False),
        ("sv-serie", {"tiebreaks": ["points", "buchholz", "name"]}, False),
    ],
)
def test_the_places_read_equal_the_places_ranked_again_after_every_round(points_key, overrides,
                                                                          requires_confirmation):  # fmt: skip
    club = make_club()
    # Two teams of one name and Swedish letters, for the order of tied teams; an odd number, for byes.
    teams = [make_team(f"Lag {name}", club=club) for name in "ÅABCDEFGÖ"] + [make_team("Lag A", club=make_club())]
    teams.append(make_team("Lag H", club=club))
    competition = make_competition(organiser=club, teams=teams, points_key=points_key, points_overrides=overrides,
                                   requires_confirmation=requires_confirmation)
    _season(competition, teams, seed=len(overrides) + requires_confirmation)
    standings_refresh(competition=competition)  # the byes the season gave
    expected = places_ranked_again(competition)
    assert len(expected[0]) >= 5
    assert places_read(competition) == expected
    # Some teams shared a place after some round: the ties had to be broken or kept.
    columns = list(zip(*(places for _team, places in expected[1])))
    assert any(len(set(column)) < len(column) for column in columns)

    # A team that played and left, and a result of an earlier round that no longer counts.
    competition.teams.remove(teams[3])
    counted = Match.objects.filter(competition=competition, round__number=2).filter(counted_q(competition)).first()
    Match.objects.filter(pk=counted.pk).update(status=Match.Status.SCHEDULED, home_points=None)
    standings_refresh(competition=competition)
    assert places_read(competition) == places_ranked_again(competition)

    # The migration's step, for the competitions played before the places were kept.
    RoundPlace.objects.all().delete()
    import_module("scoring.migrations.0015_round_places").fill_places(apps, None)
    assert places_read(competition) == places_ranked_again(competition)


def test_no_places_are_kept_where_no_chart_is_drawn():
    club = make_club()
    teams = [make_team(club=club) for _ in range(4)]
    competition = make_competition(organiser=club, teams=teams)
    for number, (home, away) in enumerate([(0, 1), (2, 3), (0, 2)], start=1):
        make_result(competition, teams[home], teams[away], round_number=number)
    assert RoundPlace.objects.filter(round__competition=competition).count() == 3 * 4
    competition.kind = competition.Kind.INDIVIDUAL
    competition.save()
    standings_refresh(competition=competition)
    assert not RoundPlace.objects.filter(round__competition=competition).exists()
    assert places_by_round(competition) is None
