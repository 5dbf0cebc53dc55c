"""The standings selector (stored rows for the table as it stands, aggregates for a table after an
earlier round or with preliminary results) equals a reference worked out with plain ORM queries,
for every way a result counts."""

import random
from decimal import Decimal

import pytest
from django.db.models import Count, Exists, F, OuterRef, Q, Sum

from scoring.engine.standings import HeadToHeadResult, TeamRecord, rank_teams
from scoring.models import Bye, Match
from scoring.selectors import competition_standings, counted_q, number
from scoring.selectors.counting import in_rounds
from scoring.selectors.standings import _tied_before_head_to_head
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db
S = Match.Status


def reference_standings(competition, *, up_to_round=None, include_preliminary=False):
    """The selector as it was before (ORM queries built per call), kept here as the yardstick."""
    points_rules = competition.points_rules
    matches = Match.objects.filter(competition=competition).filter(
        counted_q(competition, include_preliminary=include_preliminary), in_rounds(up_to_round)
    )

    def empty(name):
        return {"name": name, "played": 0, "won": 0, "drawn": 0, "lost": 0, "points": Decimal(0), "for": 0,
                "against": 0}

    records = {team_id: empty(name) for team_id, name in competition.teams.values_list("id", "name")}
    for side in ("home", "away"):
        rows = matches.values(team_id=F(f"{side}_team_id"), team_name=F(f"{side}_team__name")).annotate(
            played=Count("id"), won=Count("id", filter=Q(winner=side)), drawn=Count("id", filter=Q(winner="draw")),
            points=Sum(f"{side}_points"), card_for=Sum(f"{side}_for"), card_against=Sum(f"{side}_against"),
        ).order_by()
        for row in rows:
            record = records.setdefault(row["team_id"], empty(row["team_name"]))
            record["played"] += row["played"]
            record["won"] += row["won"]
            record["drawn"] += row["drawn"]
            record["lost"] += row["played"] - row["won"] - row["drawn"]
            record["points"] += row["points"] or 0
            record["for"] += row["card_for"] or 0
            record["against"] += row["card_against"] or 0
    if points_rules.bye == "win":
        byes = (Bye.objects.filter(round__competition=competition)
                .filter(in_rounds(up_to_round), Exists(matches.filter(round=OuterRef("round"))))
                .values("team_id", "team__name").annotate(count=Count("id")).order_by())
        for row in byes:
            record = records.setdefault(row["team_id"], empty(row["team__name"]))
            record["played"] += row["count"]
            record["won"] += row["count"]
            record["points"] += Decimal(str(points_rules.win)) * row["count"]
    team_records = [
        TeamRecord(team_id=team_id, name=v["name"], played=v["played"], won=v["won"], drawn=v["drawn"],
                   lost=v["lost"], points=number(v["points"]), card_points_for=v["for"], card_points_against=v["against"])
        for team_id, v in records.items()
    ]
    head_to_head = []
    if "head_to_head" in points_rules.tiebreaks:
        tied = sorted(_tied_before_head_to_head(team_records, points_rules.tiebreaks)) or [0]
        head_to_head = [
            HeadToHeadResult(home_id=h, away_id=a, home_points=number(hp), away_points=number(ap),
                             home_for=hf or 0, away_for=af or 0)
            for h, a, hp, ap, hf, af in matches.filter(home_team_id__in=tied, away_team_id__in=tied).values_list(
                "home_team_id", "away_team_id", "home_points", "away_points", "home_for", "away_for").order_by()
        ]
    return rank_teams(team_records, points_rules.tiebreaks, head_to_head)


def _season(competition, teams, seed):
    """Six rounds of results in every state, totals chosen so that some teams tie."""
    rng = random.Random(seed)
    statuses = [S.CONFIRMED] * 5 + [S.FINISHED, S.SUBMITTED, S.VOID, S.SCHEDULED, S.IN_PROGRESS]
    table = 0
    for round_number in range(1, 7):
        order = teams[:]
        rng.shuffle(order)
        for home, away in zip(order[0::2], order[1::2]):
            table += 1
            home_total, away_total = rng.choice([(5100, 3000), (3000, 5100), (4000, 4000), (5200, 2100), (2100, 5200)])
            forfeit = rng.choice([None] * 8 + ["home", "away"])
            make_result(competition, home, away, home_total, away_total, round_number=round_number, table=table,
                        status=rng.choice(statuses), forfeit_winner=forfeit)
        if len(order) % 2:
            Bye.objects.create(round=competition.rounds.get(number=round_number), team=order[-1])


@pytest.mark.parametrize(
    ("points_key", "overrides", "requires_confirmation"),
    [
        ("sv-serie", {}, False),
        ("sv-serie", {}, True),
        ("sv-serie", {"abandoned": "as-played", "bye": "win", "draw": 0.5, "win": 1.5}, True),
        ("fi-liitto", {"bye": "win", "draw": 0.1, "win": 0.3}, False),
        ("fi-liitto", {"tiebreaks": ["points", "head_to_head", "card_points_for", "name"]}, False),
    ],
)
def test_the_standings_equal_those_of_the_plain_orm_queries(points_key, overrides, requires_confirmation):
    club = make_club()
    # Two teams of one name (of different clubs) and Swedish letters, for the order of tied teams.
    teams = [make_team(f"Lag {name}", club=club) for name in "ÅABCDEFGÖ"] + [make_team("Lag A", club=make_club())]
    competition = make_competition(organiser=club, teams=teams, points_key=points_key, points_overrides=overrides,
                                   requires_confirmation=requires_confirmation)
    _season(competition, teams, seed=len(overrides) + requires_confirmation)
    # A team that played and then left the competition still has its results.
    competition.teams.remove(teams[3])
    shared_points = False
    for up_to_round in (None, 1, 4):
        for preliminary in (False, True):
            expected = reference_standings(competition, up_to_round=up_to_round, include_preliminary=preliminary)
            rows = competition_standings(competition, up_to_round=up_to_round, include_preliminary=preliminary)
            assert rows == expected, (up_to_round, preliminary)
            played = [row for row in rows if row.record.played]
            shared_points |= len({row.record.points for row in played}) < len(played)
    # The tie-breaks had work to do, and every team is there.
    assert shared_points and len(rows) == len(teams)


def test_two_competitions_of_one_shape_read_their_own_results():
    """The statements are compiled once and reused: each run reads its own competition and round."""
    club = make_club()
    first = make_competition(organiser=club, teams=[make_team(club=club) for _ in range(4)])
    second = make_competition(organiser=club, teams=[make_team(club=club) for _ in range(6)])
    _season(first, list(first.teams.all()), seed=1)
    _season(second, list(second.teams.all()), seed=2)
    for competition in (first, second, first):
        for up_to_round in (None, 2, 3):
            assert competition_standings(competition, up_to_round=up_to_round) == reference_standings(
                competition, up_to_round=up_to_round)
    assert len(competition_standings(second)) == 6
