"""Standings (tabell): ranking teams by a competition's tie-break order.

Input: one TeamRecord per team (played, won, drawn, lost, match points, card points for and against,
already aggregated by the caller from stored match totals) and, for head-to-head, the counted
results between teams (HeadToHeadResult). Output: StandingRow in rank order with `rank` and `tied`.

Metrics live in a registry (METRICS); a competition's `tiebreaks` list names them in order. Teams
equal on every metric but `name` share a rank ("3="); `name` only orders them (the Swedish way: Å, Ä,
Ö after Z). `head_to_head` compares the tied teams on the matches among themselves only: match
points first, then card-point difference in those matches. When it leaves fewer teams still tied
(three tied, two of them equal in their mini-table), it is applied again to just those.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "TeamRecord",
    "HeadToHeadResult",
    "StandingRow",
    "METRICS",
    "rank_teams",
    "swedish_sort_key",
]


@dataclass(frozen=True)
class TeamRecord:
    team_id: Any
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0
    card_points_for: int = 0
    card_points_against: int = 0

    @property
    def difference(self) -> int:
        return self.card_points_for - self.card_points_against

    @property
    def ratio(self) -> Fraction:
        if self.card_points_against <= 0:
            # No points against: the best possible ratio when anything was scored.
            return Fraction(10**9) if self.card_points_for > 0 else Fraction(0)
        return Fraction(self.card_points_for, self.card_points_against)


@dataclass(frozen=True)
class HeadToHeadResult:
    home_id: Any
    away_id: Any
    home_points: float
    away_points: float
    home_for: int
    away_for: int


@dataclass(frozen=True)
class StandingRow:
    rank: int
    tied: bool
    record: TeamRecord
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.tied else str(self.rank)


# -- Swedish alphabetical order -----------------------------------------------------------------

_SWEDISH_TAIL = {"å": "{", "ä": "|", "æ": "|", "ö": "}", "ø": "}"}


def swedish_sort_key(name: str) -> tuple[str, str]:
    """A key that sorts names as a Swedish reader expects: Å, Ä, Ö after Z; é as e; ü as y."""
    folded = []
    for char in name.casefold():
        if char in _SWEDISH_TAIL:
            folded.append(_SWEDISH_TAIL[char])
        elif char == "ü":
            folded.append("y")
        else:
            decomposed = unicodedata.normalize("NFD", char)
            folded.append(decomposed[0])
    return ("".join(folded), name)


# -- the metric registry ------------------------------------------------------------------------

Metric = Callable[[TeamRecord], Any]

METRICS: dict[str, Metric] = {
    "points": lambda r: r.points,
    "card_points_for": lambda r: r.card_points_for,
    "difference": lambda r: r.difference,
    "ratio": lambda r: r.ratio,
    "wins": lambda r: r.won,
    # The sum of the opponents' match points (engine.individual.BuchholzRecord; 0 for a row
    # without it): who met the stronger field ranks first.
    "buchholz": lambda r: getattr(r, "buchholz", 0),
    # head_to_head and name are handled by rank_teams: they depend on the group being ranked.
    "head_to_head": lambda r: 0,
    "name": lambda r: 0,
}


def _head_to_head_values(
    group: Sequence[TeamRecord], results: Iterable[HeadToHeadResult]
) -> dict[Any, tuple[float, int]]:
    ids = {record.team_id for record in group}
    values: dict[Any, list[float]] = {team_id: [0, 0] for team_id in ids}
    for result in results:
        if result.home_id in ids and result.away_id in ids:
            values[result.home_id][0] += result.home_points
            values[result.home_id][1] += result.home_for - result.away_for
            values[result.away_id][0] += result.away_points
            values[result.away_id][1] += result.away_for - result.home_for
    return {team_id: (v[0], v[1]) for team_id, v in values.items()}


def _rank_groups(
    group: list[TeamRecord],
    metrics: Sequence[str],
    results: Sequence[HeadToHeadResult],
) -> list[list[TeamRecord]]:
    """Split a group of teams into ordered groups of teams still tied after `metrics`."""
    if len(group) <= 1:
        return [list(group)]  # one team: nothing to order (a 600-team table is mostly such groups)
    if not metrics:
        return [sorted(group, key=lambda r: swedish_sort_key(r.name))]
    metric, rest = metrics[0], metrics[1:]
    if metric == "name":
        # Orders within a tie but never breaks it.
        return [sorted(group, key=lambda r: swedish_sort_key(r.name))]
    if metric == "head_to_head":
        h2h = _head_to_head_values(group, results)
        value_of: Metric = lambda r: h2h[r.team_id]  # noqa: E731
    else:
        value_of = METRICS[metric]
    buckets: dict[Any, list[TeamRecord]] = {}
    for record in group:
        buckets.setdefault(value_of(record), []).append(record)
    ordered: list[list[TeamRecord]] = []
    for value in sorted(buckets, reverse=True):
        bucket = buckets[value]
        if metric == "head_to_head" and 1 < len(bucket) < len(group):
            # Still tied, but fewer: head to head again among just these teams (their matches
            # against each other), as league rules do, before the next tie-break.
            ordered.extend(_rank_groups(bucket, metrics, results))
        else:
            ordered.extend(_rank_groups(bucket, rest, results))
    return ordered


def rank_teams(
    records: Iterable[TeamRecord],
    tiebreaks: Sequence[str],
    results: Sequence[HeadToHeadResult] = (),
) -> list[StandingRow]:
    unknown = [name for name in tiebreaks if name not in METRICS]
    if unknown:
        raise ValueError(f"unknown tie-break metric(s): {', '.join(unknown)}")
    rows: list[StandingRow] = []
    position = 1
    for tied_group in _rank_groups(list(records), list(tiebreaks), list(results)):
        tied = len(tied_group) > 1
        for record in tied_group:
            rows.append(StandingRow(rank=position, tied=tied, record=record))
        position += len(tied_group)
    return rows
