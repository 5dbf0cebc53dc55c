"""The standings (tabell) of a competition: SQL aggregates over the stored match totals, ranked by
the engine (see the package's docstring)."""

from __future__ import annotations

import decimal
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum

from scoring import compiled_queries
from scoring.cache import cached_by_competition
from scoring.engine.standings import METRICS, HeadToHeadResult, StandingRow, TeamRecord, rank_teams
from scoring.models import Bye, Competition, Match, Team

from .counting import _in_rounds, counted_q, number, preliminary_q


# -- standings ----------------------------------------------------------------------------------


# The standings' statements are compiled once per process and shape and then run as plain SQL
# (scoring/compiled_queries.py, issue 7). Their SQL depends on the statement, on which results
# count (counted_q of the competition: a hashable Q) and on whether a round limit applies; the
# competition's id, the round number and the team ids are the sentinels' values.
_COMPETITION = -737_373_737
_ROUND = 32_719  # within a round number's range (the ORM refuses a lookup outside it)
_TEAMS = -757_575_757
# The SQLite backend's reading of a DECIMAL aggregate (15 significant digits), as the ORM does it.
_sqlite_decimal = decimal.Context(prec=15).create_decimal_from_float
_TENTH = Decimal("0.1")


def _run_compiled(
    name: str, competition: Competition, up_to_round: int | None, include_preliminary: bool,
    build: Callable[[QuerySet], QuerySet], teams: list[int] | None = None,
) -> tuple[list[str], list[tuple]]:
    """Statement `name`, `build(the counted matches)`, for the competition: its columns and rows.
    `teams` (ids) stands for the list `[_TEAMS]` in the built query."""
    stand_in = Competition(
        pk=_COMPETITION, requires_confirmation=competition.requires_confirmation,
        points_key=competition.points_key, points_overrides=competition.points_overrides,
    )
    counted = counted_q(stand_in, include_preliminary=include_preliminary)

    def matches() -> QuerySet:
        return Match.objects.filter(competition_id=_COMPETITION).filter(
            counted, _in_rounds(None if up_to_round is None else _ROUND)
        )

    return compiled_queries.run(
        ("standings", name, counted, up_to_round is None),
        lambda: build(matches()),
        {_COMPETITION: competition.pk, _ROUND: up_to_round},
        {_TEAMS: teams} if teams is not None else None,
    )


def _points(value, *, column: bool = False) -> Decimal | None:
    """Match points as the ORM reads them: a Decimal (SQLite gives a number; a column is quantised
    to its one decimal place, an aggregate is not)."""
    if value is None or isinstance(value, Decimal):
        return value
    result = _sqlite_decimal(value)
    return result.quantize(_TENTH) if column else result


def _side_totals(
    competition: Competition, side: str, up_to_round: int | None, include_preliminary: bool
) -> dict[int, dict[str, Any]]:
    """One aggregate query: each team's record from the matches in which it played `side`."""

    def build(matches: QuerySet) -> QuerySet:
        return (
            matches.values(team_id=F(f"{side}_team_id"), team_name=F(f"{side}_team__name"))
            .annotate(
                played=Count("id"),
                won=Count("id", filter=Q(winner=side)),
                drawn=Count("id", filter=Q(winner="draw")),
                points=Sum(f"{side}_points"),
                card_for=Sum(f"{side}_for"),
                card_against=Sum(f"{side}_against"),
            )
            .order_by()
        )

    columns, rows = _run_compiled(f"side:{side}", competition, up_to_round, include_preliminary, build)
    totals = {}
    for values in rows:
        row = dict(zip(columns, values))
        row["points"] = _points(row["points"])
        totals[row["team_id"]] = row
    return totals


# Cached under the competition's stamp (scoring/cache.py): a new result changes the stamp.
@cached_by_competition
def competition_standings(
    competition: Competition, *, up_to_round: int | None = None, include_preliminary: bool = False
) -> list[StandingRow]:
    """The table of a competition after `up_to_round` (all rounds when None), in rank order.

    Rows are engine StandingRows: `rank`, `tied`, `rank_label` ("3="), `record` (a TeamRecord
    with team_id, name, played, won, drawn, lost, points, card_points_for, card_points_against,
    difference). Every team of the competition appears, with zeros before its first result.
    """
    points_rules = competition.points_rules
    matches = Match.objects.filter(competition=competition).filter(
        counted_q(competition, include_preliminary=include_preliminary), _in_rounds(up_to_round)
    )
    _columns, teams = _run_compiled(
        "teams", competition, up_to_round, include_preliminary,
        lambda _matches: Team.objects.filter(competitions=_COMPETITION).values_list("id", "name"),
    )
    records: dict[int, dict[str, Any]] = {
        team_id: {"name": name, "played": 0, "won": 0, "drawn": 0, "lost": 0, "points": Decimal(0),
                  "for": 0, "against": 0}
        for team_id, name in teams
    }
    for side in ("home", "away"):
        for team_id, row in _side_totals(competition, side, up_to_round, include_preliminary).items():
            record = records.setdefault(
                team_id,
                {"name": row["team_name"], "played": 0, "won": 0, "drawn": 0, "lost": 0,
                 "points": Decimal(0), "for": 0, "against": 0},
            )
            record["played"] += row["played"]
            record["won"] += row["won"]
            record["drawn"] += row["drawn"]
            record["lost"] += row["played"] - row["won"] - row["drawn"]
            record["points"] += row["points"] or 0
            record["for"] += row["card_for"] or 0
            record["against"] += row["card_against"] or 0

    if points_rules.bye == "win":
        counted_in_round = matches.filter(round=OuterRef("round"))
        byes = (
            Bye.objects.filter(round__competition=competition)
            .filter(_in_rounds(up_to_round), Exists(counted_in_round))
            .values("team_id", "team__name")
            .annotate(count=Count("id"))
            .order_by()
        )
        for row in byes:
            record = records.setdefault(
                row["team_id"],
                {"name": row["team__name"], "played": 0, "won": 0, "drawn": 0, "lost": 0,
                 "points": Decimal(0), "for": 0, "against": 0},
            )
            record["played"] += row["count"]
            record["won"] += row["count"]
            record["points"] += Decimal(str(points_rules.win)) * row["count"]

    team_records = [
        TeamRecord(
            team_id=team_id,
            name=values["name"],
            played=values["played"],
            won=values["won"],
            drawn=values["drawn"],
            lost=values["lost"],
            points=number(values["points"]),
            card_points_for=values["for"],
            card_points_against=values["against"],
        )
        for team_id, values in records.items()
    ]
    head_to_head: list[HeadToHeadResult] = []
    if "head_to_head" in points_rules.tiebreaks:
        # Only matches between teams still tied when head-to-head is reached can matter; with no
        # such tie the query finds nothing (team 0), so the number of queries stays the same.
        tied = sorted(_tied_before_head_to_head(team_records, points_rules.tiebreaks)) or [0]
        _columns, results = _run_compiled(
            "head_to_head", competition, up_to_round, include_preliminary,
            lambda matches: matches.filter(home_team_id__in=[_TEAMS], away_team_id__in=[_TEAMS]).values_list(
                "home_team_id", "away_team_id", "home_points", "away_points", "home_for", "away_for"
            ).order_by(),
            teams=tied,
        )
        head_to_head = [
            HeadToHeadResult(
                home_id=home_id,
                away_id=away_id,
                home_points=number(_points(home_points, column=True)),
                away_points=number(_points(away_points, column=True)),
                home_for=home_for or 0,
                away_for=away_for or 0,
            )
            for home_id, away_id, home_points, away_points, home_for, away_for in results
        ]
    return rank_teams(team_records, points_rules.tiebreaks, head_to_head)


def _tied_before_head_to_head(records: list[TeamRecord], tiebreaks) -> set:
    """Teams equal to another team on every tie-break before head_to_head (issue 7: a 600-team
    table then reads a handful of matches for head-to-head instead of every match)."""
    before = [name for name in tiebreaks[: list(tiebreaks).index("head_to_head")] if name != "name"]
    groups: dict[tuple, list] = {}
    for record in records:
        groups.setdefault(tuple(METRICS[name](record) for name in before), []).append(record.team_id)
    return {team_id for group in groups.values() if len(group) > 1 for team_id in group}


def standings_preliminary_count(competition: Competition, up_to_round: int | None = None) -> int:
    """How many results wait for confirmation: submitted by the home secretary and not yet
    confirmed. A finished match not submitted yet waits for its secretary, not for confirmation."""
    if not competition.requires_confirmation:
        return 0
    return (
        Match.objects.filter(competition=competition, status=Match.Status.SUBMITTED)
        .filter(preliminary_q(competition), _in_rounds(up_to_round))
        .count()
    )
