"""A competition's table after each round: the places chart of a competition page.

Input: the counted results (docs/rules.md, "Which results count"), each with its round's number, the
byes, and the competition's points rules. The table after round n adds up the results of rounds up
to n as the table does (docs/rules.md, "Match points and standings"): a match is played by both
sides, won by its winner, drawn when drawn and lost otherwise; a bye counts as a won match (no card
points) where the points rules say so, once its round has a counted result. Each table is ranked by
`rank_teams` with the competition's tie-breaks, Buchholz and head-to-head over the results up to
that round. The services store the places (scoring/services/standings.py), so a page reads them
instead of ranking the table again after every round.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields

from .individual import BuchholzRecord, buchholz
from .rules import PointsRules
from .standings import HeadToHeadResult, StandingRow, TeamRecord, rank_teams

__all__ = ["RoundResult", "tables_after_each_round"]


@dataclass(frozen=True)
class RoundResult:
    """One counted result and its round: `winner` is "home", "away" or "draw" (anything else is a
    loss for both, as a void match without a winner)."""

    round_number: int
    home_id: Hashable
    away_id: Hashable
    winner: str
    home_points: float
    away_points: float
    home_for: int
    home_against: int
    away_for: int
    away_against: int


def tables_after_each_round(
    names: Mapping[Hashable, str],
    entered: Sequence[Hashable],
    results: Iterable[RoundResult],
    points_rules: PointsRules,
    byes: Iterable[tuple[int, Hashable]] = (),
    adjust: Callable[[TeamRecord], TeamRecord] | None = None,
) -> dict[int, list[StandingRow]]:
    """The ranked table after each round with a counted result, by round number.

    `names`: every team's name (the competition's teams and any team a result or a bye names);
    `entered`: the competition's teams, in every table from the first round on with zeros before
    their first result; a team that has left it enters the tables with its first result or bye.
    `byes`: (round number, team) of each bye. `adjust`: what the table adds to each record before
    it is ranked, as the table as it stands does (points a pair carried in from a stage before)."""
    results = sorted(results, key=lambda result: result.round_number)
    rounds = sorted({result.round_number for result in results})
    byes_in: dict[int, list[Hashable]] = {}
    if points_rules.bye == "win":
        for number, team_id in byes:
            byes_in.setdefault(number, []).append(team_id)
    figures: dict[Hashable, list] = {team_id: [0, 0, 0, 0, 0, 0, 0] for team_id in entered}
    order = list(entered)
    opponents: dict[Hashable, list[Hashable]] = {team_id: [] for team_id in entered}
    head_to_head: list[HeadToHeadResult] = []
    tables: dict[int, list[StandingRow]] = {}
    next_result = 0
    for number in rounds:
        while next_result < len(results) and results[next_result].round_number == number:
            result = results[next_result]
            next_result += 1
            for side, team_id, other_id in (("home", result.home_id, result.away_id),
                                            ("away", result.away_id, result.home_id)):  # fmt: skip
                row = _row(figures, order, team_id)
                row[0] += 1
                row[1 if result.winner == side else 2 if result.winner == "draw" else 3] += 1
                row[4] += getattr(result, f"{side}_points") or 0
                row[5] += getattr(result, f"{side}_for") or 0
                row[6] += getattr(result, f"{side}_against") or 0
                opponents.setdefault(team_id, []).append(other_id)
            head_to_head.append(HeadToHeadResult(
                home_id=result.home_id, away_id=result.away_id, home_points=result.home_points or 0,
                away_points=result.away_points or 0, home_for=result.home_for or 0, away_for=result.away_for or 0,
            ))  # fmt: skip
        for team_id in byes_in.get(number, ()):
            row = _row(figures, order, team_id)
            row[0] += 1
            row[1] += 1
            row[4] += points_rules.win
        records = [
            TeamRecord(team_id=team_id, name=names[team_id], played=row[0], won=row[1], drawn=row[2], lost=row[3],
                       points=row[4], card_points_for=row[5], card_points_against=row[6])  # fmt: skip
            for team_id in order
            for row in (figures[team_id],)
        ]
        if adjust is not None:
            records = [adjust(record) for record in records]
        if "buchholz" in points_rules.tiebreaks:
            strength = buchholz({record.team_id: record.points for record in records}, opponents)
            records = [
                BuchholzRecord(**{f.name: getattr(record, f.name) for f in fields(TeamRecord)},
                               buchholz=strength.get(record.team_id, 0))  # fmt: skip
                for record in records
            ]
        tables[number] = rank_teams(records, points_rules.tiebreaks, head_to_head)
    return tables


def _row(figures: dict[Hashable, list], order: list[Hashable], team_id: Hashable) -> list:
    """A team's running figures (played, won, drawn, lost, points, for, against), made at its first
    result when it is no longer among the competition's teams."""
    if team_id not in figures:
        figures[team_id] = [0, 0, 0, 0, 0, 0, 0]
        order.append(team_id)
    return figures[team_id]
