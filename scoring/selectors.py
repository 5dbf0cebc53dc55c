"""Reads for pages, exports and commands: standings (tabell), round and team results, player figures.

Standings are computed from the match totals the services store on each Match (home_for,
home_against, away_for, away_against, home_points, away_points, winner) with SQL aggregates: one
query grouped by home team, one grouped by away team, one for the head-to-head results, one for the
teams, one for byes when they score. The number of queries does not grow with the number of
matches; no code here loops over deals. The engine (`engine.standings.rank_teams`) ranks the rows
by the competition's tie-break order.

Which results count ("counted" matches):
- status confirmed; or finished / submitted when the competition does not require confirmation.
  A walk over (end forfeit / warnings) counts the same way, with its award stored on the match;
- a void (abandoned) match only when the competition's `points_rules.abandoned` is "as-played"
  (the services then store its totals as the result);
- a bye (no Match row, a `Bye` row) only when `points_rules.bye` is "win", and only once its round
  has a counted result: a won match without card points.

A *preliminary* result is shown but does not count yet: finished or submitted while the competition
requires confirmation.

Names sort the Swedish way (Å, Ä, Ö after Z): `engine.standings.swedish_sort_key` in Python, the
ICU collation "sv-SE-x-icu" in PostgreSQL (`order_by_name`).
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce, Collate

from scoring import compiled_queries
from scoring.cache import cached_by_competition
from scoring.engine.standings import (
    METRICS,
    HeadToHeadResult,
    StandingRow,
    TeamRecord,
    rank_teams,
    swedish_sort_key,
)
from scoring.models import Bye, Competition, Deal, Match, Player, Round, Team

__all__ = [
    "PlayerStatistics",
    "SWEDISH_COLLATION",
    "competition_standings",
    "counted_q",
    "number",
    "order_by_name",
    "player_statistics",
    "preliminary_q",
    "round_byes",
    "round_results",
    "standings_preliminary_count",
    "team_results",
]

S = Match.Status
PLAYED_STATUSES = (S.FINISHED, S.SUBMITTED, S.CONFIRMED)
SWEDISH_COLLATION = "sv-SE-x-icu"


# -- which results count ------------------------------------------------------------------------


def counted_q(competition: Competition, *, include_preliminary: bool = False, prefix: str = "") -> Q:
    """A Q over Match rows of `competition` whose result enters its table.

    `include_preliminary`: also results that wait for confirmation (a "preliminary table").
    `prefix`: a lookup path to the match ("match__") when filtering related rows.
    """
    if competition.requires_confirmation and not include_preliminary:
        statuses: tuple[str, ...] = (S.CONFIRMED,)
    else:
        statuses = PLAYED_STATUSES
    q = Q(**{f"{prefix}status__in": statuses})
    if competition.points_rules.abandoned == "as-played":
        q |= Q(**{f"{prefix}status": S.VOID})
    # Only rows the services gave a result (a void match without deals has none).
    return q & Q(**{f"{prefix}home_points__isnull": False})


def preliminary_q(competition: Competition) -> Q:
    """Results shown but not counting yet: finished or submitted, waiting for confirmation."""
    if not competition.requires_confirmation:
        return Q(pk__in=[])
    return Q(status__in=(S.FINISHED, S.SUBMITTED), home_points__isnull=False)


def _in_rounds(up_to_round: int | None, prefix: str = "") -> Q:
    if up_to_round is None:
        return Q()
    return Q(**{f"{prefix}round__number__lte": up_to_round})


def number(value: Any) -> int | float:
    """Match points as a plain number: 1, 0.5, 2 (an int when integral)."""
    if value is None:
        return 0
    if isinstance(value, Decimal):
        value = float(value)
    return int(value) if float(value).is_integer() else float(value)


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
    """How many results are shown but do not count yet (waiting for confirmation)."""
    if not competition.requires_confirmation:
        return 0
    return (
        Match.objects.filter(competition=competition)
        .filter(preliminary_q(competition), _in_rounds(up_to_round))
        .count()
    )


# -- names --------------------------------------------------------------------------------------


def order_by_name(queryset: QuerySet, field: str = "name") -> list:
    """The rows of `queryset` sorted by `field` the Swedish way (Å, Ä, Ö after Z), as a list.

    PostgreSQL sorts with the ICU collation; other databases (SQLite) get a Python sort with the
    engine's key. Either way the result is a list, so callers see one type.
    """
    if connection.vendor == "postgresql":
        return list(queryset.order_by(Collate(F(field), SWEDISH_COLLATION), "pk"))

    def key(obj: Any) -> tuple[str, str]:
        value = obj
        for part in field.split("__"):
            value = value[part] if isinstance(value, dict) else getattr(value, part)
        return swedish_sort_key(value or "")

    return sorted(queryset, key=key)


# -- rounds and teams ---------------------------------------------------------------------------


def _with_counts(matches: QuerySet, competition: Competition) -> QuerySet:
    preliminary = (
        ExpressionWrapper(preliminary_q(competition), output_field=BooleanField())
        if competition.requires_confirmation
        else Value(False, output_field=BooleanField())
    )
    return matches.annotate(
        counts=ExpressionWrapper(counted_q(competition), output_field=BooleanField()),
        preliminary=preliminary,
    )


def round_results(round: Round) -> QuerySet:
    """The matches of a round by table, with teams; each row has `counts` and `preliminary`."""
    matches = (
        Match.objects.filter(round=round)
        .select_related("home_team", "away_team", "home_team__club", "away_team__club", "round")
        .order_by("table", "id")
    )
    return _with_counts(matches, round.competition)


def round_byes(round: Round) -> list[Bye]:
    """The teams without a match in the round (odd number of teams)."""
    return list(Bye.objects.filter(round=round).select_related("team"))


def team_results(team: Team, competition: Competition | None = None) -> QuerySet:
    """A team's matches (home or away), earliest round first, with opponents and competitions."""
    matches = Match.objects.filter(Q(home_team=team) | Q(away_team=team))
    if competition is not None:
        matches = matches.filter(competition=competition)
    return matches.select_related(
        "competition", "round", "home_team", "away_team"
    ).order_by(F("round__date").asc(nulls_last=True), "round__number", "scheduled_start", "id")


# -- players ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStatistics:
    matches: int
    won: int
    drawn: int
    lost: int
    deals: int
    deal_score_total: int
    natural_canastas: int
    mixed_canastas: int
    goings_out: int

    @property
    def canastas(self) -> int:
        return self.natural_canastas + self.mixed_canastas

    @property
    def average_deal_score(self) -> float | None:
        return self.deal_score_total / self.deals if self.deals else None

    @property
    def win_percentage(self) -> float | None:
        return 100 * self.won / self.matches if self.matches else None


def _player_side_q(player: Player, side: str, prefix: str = "") -> Q:
    return (
        Q(**{f"{prefix}{side}_team__player_one": player})
        | Q(**{f"{prefix}{side}_team__player_two": player})
        | Q(**{f"{prefix}{side}_substitute": player})
    )


def player_statistics(player: Player, competition: Competition | None = None) -> PlayerStatistics:
    """A player's figures over the finished matches of their teams (two queries).

    A match counts for a player whose team played it, or who was a substitute in it. (The protocol
    does not say which team member a substitute replaced, so both members keep the match.) Deals
    come from finished, submitted and confirmed matches; a walk over counts as a match, not deals.
    """
    matches = Match.objects.filter(status__in=PLAYED_STATUSES)
    if competition is not None:
        matches = matches.filter(competition=competition)
    home_q, away_q = _player_side_q(player, "home"), _player_side_q(player, "away")
    figures = matches.filter(home_q | away_q).aggregate(
        matches=Count("id"),
        won=Count("id", filter=(home_q & Q(winner="home")) | (away_q & Q(winner="away"))),
        drawn=Count("id", filter=Q(winner="draw")),
    )
    deals = Deal.objects.filter(match__in=matches)
    home_deals = _player_side_q(player, "home", "match__")
    away_deals = _player_side_q(player, "away", "match__")
    zero = Value(0)
    deal_figures = deals.filter(home_deals | away_deals).aggregate(
        deals=Count("id"),
        score=Coalesce(Sum("home_score", filter=home_deals), zero) + Coalesce(Sum("away_score", filter=away_deals), zero),
        natural=Coalesce(Sum("home_natural", filter=home_deals), zero)
        + Coalesce(Sum("away_natural", filter=away_deals), zero),
        mixed=Coalesce(Sum("home_mixed", filter=home_deals), zero)
        + Coalesce(Sum("away_mixed", filter=away_deals), zero),
        out=Count("id", filter=(home_deals & Q(out="home")) | (away_deals & Q(out="away")), output_field=IntegerField()),
    )
    return PlayerStatistics(
        matches=figures["matches"],
        won=figures["won"],
        drawn=figures["drawn"],
        lost=figures["matches"] - figures["won"] - figures["drawn"],
        deals=deal_figures["deals"],
        deal_score_total=deal_figures["score"] or 0,
        natural_canastas=deal_figures["natural"] or 0,
        mixed_canastas=deal_figures["mixed"] or 0,
        goings_out=deal_figures["out"],
    )
