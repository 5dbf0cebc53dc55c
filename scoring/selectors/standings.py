"""The standings (tabell) of a competition: SQL aggregates over the stored match totals, ranked by
the engine (see the package's docstring), and the columns a standings table has."""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from scoring.engine.individual import BuchholzRecord, buchholz
from scoring.engine.places import RoundResult, tables_after_each_round
from scoring.engine.qualification import Carried, with_carried
from scoring.engine.rules import PointsRules
from scoring.engine.standings import METRICS, HeadToHeadResult, StandingRow, TeamRecord, rank_teams
from scoring.models import Bye, Competition, Match, StageQualifier, Team, TeamStanding

from .counting import in_rounds, counted_q, number, preliminary_q


# -- the columns --------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsColumn:
    """One column of a standings table. `key` names its value in standing_values() and the column
    of each table drawn from it (the page's, the documents', the command's); `short` heads the
    column on the page and in the command, `full` is its whole name: the page's <abbr> title and
    legend, the documents' heading."""

    key: str
    short: str | Promise
    full: str | Promise


# The columns in their order (docs/rules.md, "Match points and standings").
STANDINGS_COLUMNS = (
    StandingsColumn("rank", pgettext_lazy("standings", "Rank"), pgettext_lazy("standings", "Rank")),
    StandingsColumn("team", _("Team"), _("Team")),
    StandingsColumn("played", pgettext_lazy("standings column, short", "Pl"), _("Played")),
    StandingsColumn("won", pgettext_lazy("standings column, short", "W"), _("Won")),
    StandingsColumn("drawn", pgettext_lazy("standings column, short", "D"), _("Drawn")),
    StandingsColumn("lost", pgettext_lazy("standings column, short", "L"), _("Lost")),
    StandingsColumn("points", pgettext_lazy("standings column, short", "Pts"), _("Match points")),
    StandingsColumn("card_points_for", pgettext_lazy("standings column, short", "For"), _("Card points for")),
    StandingsColumn(
        "card_points_against", pgettext_lazy("standings column, short", "Ag."), _("Card points against")
    ),
    StandingsColumn("difference", pgettext_lazy("standings column, short", "+/−"), _("Difference")),
)
_BY_KEY = {column.key: column for column in STANDINGS_COLUMNS}

# The figures of a team's record that the results add up (engine TeamRecord) and the services store
# (TeamStanding); the rank, the name and the difference come from them.
COUNTED_FIGURES = ("played", "won", "drawn", "lost", "points", "card_points_for", "card_points_against")


def standings_column(key: str) -> StandingsColumn:
    """The column `key` of STANDINGS_COLUMNS, for a table that shows some of the standings' figures
    (the federation's rankings, club and players' tables)."""
    return _BY_KEY[key]


def standings_columns(points_rules: PointsRules) -> tuple[StandingsColumn, ...]:
    """The columns of a table under the competition's points preset: one that ranks by the
    card-point difference alone (fi-liitto) shows the difference only, not the points for and
    against (docs/rules.md, "Competition presets")."""
    if points_rules.card_points == "difference":
        return tuple(c for c in STANDINGS_COLUMNS if c.key not in ("card_points_for", "card_points_against"))
    return STANDINGS_COLUMNS


# -- standings ----------------------------------------------------------------------------------


def _counted_matches(competition: Competition, up_to_round: int | None, include_preliminary: bool) -> QuerySet:
    return Match.objects.filter(competition=competition).filter(
        counted_q(competition, include_preliminary=include_preliminary), in_rounds(up_to_round)
    )


def _side_totals(
    competition: Competition, side: str, up_to_round: int | None, include_preliminary: bool
) -> dict[int, dict[str, Any]]:
    """One aggregate query: each team's record from the matches in which it played `side`."""
    rows = (
        _counted_matches(competition, up_to_round, include_preliminary)
        .values(team_id=F(f"{side}_team_id"), team_name=F(f"{side}_team__name"))
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
    return {row["team_id"]: row for row in rows}


def _empty(name: str) -> dict[str, Any]:
    return {"name": name, "played": 0, "won": 0, "drawn": 0, "lost": 0, "points": Decimal(0), "for": 0, "against": 0}


def _as_records(records: dict[int, dict[str, Any]], entered: list[int]) -> list[TeamRecord]:
    """TeamRecords in one order whatever made them: the competition's teams as the database lists
    them, then teams that have results but have left it, by id."""
    order = entered + sorted(set(records) - set(entered))
    return [
        TeamRecord(
            team_id=team_id,
            name=records[team_id]["name"],
            played=records[team_id]["played"],
            won=records[team_id]["won"],
            drawn=records[team_id]["drawn"],
            lost=records[team_id]["lost"],
            points=number(records[team_id]["points"]),
            card_points_for=records[team_id]["for"],
            card_points_against=records[team_id]["against"],
        )
        for team_id in order
    ]


def computed_team_records(
    competition: Competition, *, up_to_round: int | None = None, include_preliminary: bool = False
) -> list[TeamRecord]:
    """Each team's record worked out from the matches (SQL aggregates: one query per side, one
    for the teams, one for byes when they score). The services store the all-rounds records
    (services.standings_refresh); a table after an earlier round, or with preliminary results,
    is worked out here."""
    points_rules = competition.points_rules
    matches = _counted_matches(competition, up_to_round, include_preliminary)
    teams = list(Team.objects.filter(competitions=competition).values_list("id", "name"))
    records: dict[int, dict[str, Any]] = {team_id: _empty(name) for team_id, name in teams}
    for side in ("home", "away"):
        for team_id, row in _side_totals(competition, side, up_to_round, include_preliminary).items():
            record = records.setdefault(team_id, _empty(row["team_name"]))
            record["played"] += row["played"]
            record["won"] += row["won"]
            record["drawn"] += row["drawn"]
            record["lost"] += row["played"] - row["won"] - row["drawn"]
            record["points"] += row["points"] or 0
            record["for"] += row["card_for"] or 0
            record["against"] += row["card_against"] or 0

    for row in scoring_byes(competition, matches, up_to_round):
        record = records.setdefault(row["team_id"], _empty(row["team__name"]))
        record["played"] += row["count"]
        record["won"] += row["count"]
        record["points"] += Decimal(str(points_rules.win)) * row["count"]
    return carried_into(competition, _as_records(records, [team_id for team_id, _name in teams]))


def scoring_byes(competition: Competition, counted: QuerySet | None = None, up_to_round: int | None = None) -> list[dict]:
    """Where a bye counts as a won match (docs/rules.md, "Byes"): each team's byes in rounds with a
    counted result (`counted`, the competition's counted matches), as rows of team_id, team__name
    and count; none under other rules (no query)."""
    if competition.points_rules.bye != "win":
        return []
    if counted is None:
        counted = _counted_matches(competition, up_to_round, False)
    return list(
        Bye.objects.filter(round__competition=competition)
        .filter(in_rounds(up_to_round), Exists(counted.filter(round=OuterRef("round"))))
        .values("team_id", "team__name")
        .annotate(count=Count("id"))
        .order_by()
    )


def carried_into(competition: Competition, records: list[TeamRecord]) -> list[TeamRecord]:
    """The records with the points each pair carried into this competition from a championship's
    stage before it (docs/rules.md, "Championships: qualification and carried points"): one
    indexed query, nothing for a competition that is no heat."""
    carried = carried_points(competition)
    return [with_carried(record, carried[record.team_id]) if record.team_id in carried else record for record in records]


def carried_points(competition: Competition) -> dict:
    """What each pair carried into this competition from a championship's stage before it, by team."""
    return {
        team_id: Carried(points, card_for, card_against)
        for team_id, points, card_for, card_against in StageQualifier.objects.filter(entered=competition)
        .values_list("team_id", "carried_points", "carried_for", "carried_against")
    }


def stored_team_records(competition: Competition) -> list[TeamRecord]:
    """Each team's record as the services keep it (TeamStanding rows): two indexed queries, the
    competition's teams and its rows, however many matches it has. A team of the competition
    without a row yet has no result."""
    teams = list(Team.objects.filter(competitions=competition).values_list("id", "name"))
    records: dict[int, dict[str, Any]] = {team_id: _empty(name) for team_id, name in teams}
    rows = TeamStanding.objects.filter(competition=competition).values_list("team_id", "team__name", *COUNTED_FIGURES)
    for team_id, name, played, won, drawn, lost, points, card_for, card_against in rows:
        records[team_id] = {"name": name, "played": played, "won": won, "drawn": drawn, "lost": lost,
                            "points": points, "for": card_for, "against": card_against}
    return _as_records(records, [team_id for team_id, _name in teams])


def tables_by_round(competition: Competition) -> dict[int, list[StandingRow]]:
    """The table after each round with a counted result, by round number, ranked by the engine
    (engine.places) from the counted results of the competition's rounds: three queries however
    many rounds were played, and one for the points carried in from a championship's stage before.
    The services store the places (RoundPlace, services.standings_refresh); each table equals
    competition_standings(up_to_round=n)."""
    points_rules = competition.points_rules
    names = dict(Team.objects.filter(competitions=competition).values_list("id", "name"))
    entered = list(names)
    results = []
    rows = _counted_matches(competition, None, False).filter(round__isnull=False).values_list(
        "round__number", "home_team_id", "home_team__name", "away_team_id", "away_team__name", "winner",
        "home_points", "away_points", "home_for", "home_against", "away_for", "away_against",
    ).order_by()
    for round_number, home_id, home_name, away_id, away_name, winner, *figures in rows:
        names.setdefault(home_id, home_name)
        names.setdefault(away_id, away_name)
        home_points, away_points, home_for, home_against, away_for, away_against = figures
        results.append(RoundResult(
            round_number=round_number, home_id=home_id, away_id=away_id, winner=winner,
            home_points=number(home_points), away_points=number(away_points), home_for=home_for or 0,
            home_against=home_against or 0, away_for=away_for or 0, away_against=away_against or 0,
        ))  # fmt: skip
    byes = []
    if points_rules.bye == "win":
        for round_number, team_id, name in Bye.objects.filter(round__competition=competition).values_list(
            "round__number", "team_id", "team__name"
        ):
            names.setdefault(team_id, name)
            byes.append((round_number, team_id))
    carried = carried_points(competition)

    def with_carried_in(record: TeamRecord) -> TeamRecord:
        return with_carried(record, carried[record.team_id]) if record.team_id in carried else record

    return tables_after_each_round(names, entered, results, points_rules, byes, with_carried_in if carried else None)


def competition_standings(
    competition: Competition, *, up_to_round: int | None = None, include_preliminary: bool = False
) -> list[StandingRow]:
    """The table of a competition after `up_to_round` (all rounds when None), in rank order.

    Rows are engine StandingRows: `rank`, `tied`, `rank_label` ("3="), `record` (a TeamRecord
    with team_id, name, played, won, drawn, lost, points, card_points_for, card_points_against,
    difference). Every team of the competition appears, with zeros before its first result.
    The table as it stands reads the stored rows; head-to-head reads only the tied teams' matches.
    """
    points_rules = competition.points_rules
    matches = _counted_matches(competition, up_to_round, include_preliminary)
    if up_to_round is None and not include_preliminary:
        team_records = stored_team_records(competition)
    else:
        team_records = computed_team_records(
            competition, up_to_round=up_to_round, include_preliminary=include_preliminary
        )
    if "buchholz" in points_rules.tiebreaks:
        team_records = _with_buchholz(team_records, matches)
    head_to_head: list[HeadToHeadResult] = []
    if "head_to_head" in points_rules.tiebreaks:
        # Only matches between teams still tied when head-to-head is reached can matter; with no
        # such tie the query finds nothing (team 0), so the number of queries stays the same.
        tied = sorted(_tied_before_head_to_head(team_records, points_rules.tiebreaks)) or [0]
        results = matches.filter(home_team_id__in=tied, away_team_id__in=tied).values_list(
            "home_team_id", "away_team_id", "home_points", "away_points", "home_for", "away_for"
        ).order_by()
        head_to_head = [
            HeadToHeadResult(
                home_id=home_id,
                away_id=away_id,
                home_points=number(home_points),
                away_points=number(away_points),
                home_for=home_for or 0,
                away_for=away_for or 0,
            )
            for home_id, away_id, home_points, away_points, home_for, away_for in results
        ]
    return rank_teams(team_records, points_rules.tiebreaks, head_to_head)


def _with_buchholz(records: list[TeamRecord], matches: QuerySet) -> list[TeamRecord]:
    """The records with each team's Buchholz (the sum of the match points of every opponent met in
    the counted matches), a tie-break of pair tournaments (engine.individual)."""
    opponents: dict = {record.team_id: [] for record in records}
    for home_id, away_id in matches.values_list("home_team_id", "away_team_id"):
        opponents.setdefault(home_id, []).append(away_id)
        opponents.setdefault(away_id, []).append(home_id)
    strength = buchholz({record.team_id: record.points for record in records}, opponents)
    return [
        BuchholzRecord(**{f.name: getattr(record, f.name) for f in fields(TeamRecord)}, buchholz=strength.get(record.team_id, 0))
        for record in records
    ]


def _tied_before_head_to_head(records: list[TeamRecord], tiebreaks) -> set:
    """Teams equal to another team on every tie-break before head_to_head (a 600-team table then
    reads a handful of matches for head-to-head instead of every match)."""
    before = [name for name in tiebreaks[: list(tiebreaks).index("head_to_head")] if name != "name"]
    groups: dict[tuple, list] = {}
    for record in records:
        groups.setdefault(tuple(METRICS[name](record) for name in before), []).append(record.team_id)
    return {team_id for group in groups.values() if len(group) > 1 for team_id in group}


def standing_values(row: StandingRow) -> dict[str, Any]:
    """One row of a standings table as plain values, in the shape every reader of the table gets
    (the PDF and workbook tables, `standings --json`, the competition feed): match points as a plain
    number (1, 0.5, 2), the rank with its printed label (3= for a tie)."""
    record = row.record
    return {
        "rank": row.rank,
        "tied": row.tied,
        "rank_label": row.rank_label,
        "team": record.name,
        "played": record.played,
        "won": record.won,
        "drawn": record.drawn,
        "lost": record.lost,
        "points": number(record.points),
        "card_points_for": record.card_points_for,
        "card_points_against": record.card_points_against,
        "difference": record.difference,
    }


def standings_preliminary_count(competition: Competition, up_to_round: int | None = None) -> int:
    """How many results wait for confirmation: submitted by the home secretary and not yet
    confirmed. A finished match not submitted yet waits for its secretary, not for confirmation."""
    if not competition.requires_confirmation:
        return 0
    return (
        Match.objects.filter(competition=competition, status=Match.Status.SUBMITTED)
        .filter(preliminary_q(competition), in_rounds(up_to_round))
        .count()
    )
