"""Pairing for the schedules (spelprogram): who meets whom in which round, and who is at home. Pure Python.

- `round_robin(teams, double=False)`: a league series by Berger tables. Every pair meets once (twice
  in a double round robin); with an odd number of teams one team has a bye (frirond) each round.
  Home and away are balanced: every team's home count is within one of its away count, and in a
  double round robin exactly equal (the second half repeats the first with home and away swapped).
- `swiss_pairings(...)`: the next round of a tournament by Monrad: teams in standing order (match
  points, then card points) are paired with the nearest team below that they have not met; a
  rematch happens only when no pairing of the whole field avoids it. With an odd count the
  lowest-placed team that has had no bye (or the fewest) sits out.

Teams are any hashable ids; nothing here touches the database (scoring.services.schedules writes
the rounds and matches).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

__all__ = [
    "Pairing",
    "ScheduledRound",
    "round_dates",
    "round_robin",
    "swiss_pairings",
    "SwissRound",
]

Team = Hashable


@dataclass(frozen=True)
class Pairing:
    home: Team
    away: Team
    table: int


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    pairings: tuple[Pairing, ...]
    bye: Team | None = None


def _berger_round(index: int, players: int) -> list[tuple[int, int]]:
    """Round `index` (0-based) of the Berger table for an even number of players 0..players-1.

    Player players-1 is fixed; the others sit on a circle that turns players/2 places each round.
    The fixed player alternates home and away; on the circle the upper position is at home.
    """
    circle = players - 1
    offset = (index * (players // 2)) % circle
    seats = [(offset + k) % circle for k in range(circle)]
    fixed = players - 1
    pairs = [(seats[0], fixed) if index % 2 == 0 else (fixed, seats[0])]
    for k in range(1, players // 2):
        pairs.append((seats[k], seats[circle - k]))
    return pairs


def round_robin(teams: Sequence[Team], *, double: bool = False) -> list[ScheduledRound]:
    """All rounds of a single (or double) round robin in Berger order, tables numbered from 1."""
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice")
    if len(teams) < 2:
        return []
    players = len(teams) + len(teams) % 2  # an odd field gets a ghost: its opponent has a bye
    ghost = len(teams) if len(teams) % 2 else None
    first_half: list[tuple[list[tuple[Team, Team]], Team | None]] = []
    for index in range(players - 1):
        pairs, bye = [], None
        for home, away in _berger_round(index, players):
            if ghost is not None and ghost in (home, away):
                bye = teams[away if home == ghost else home]
                continue
            pairs.append((teams[home], teams[away]))
        first_half.append((pairs, bye))
    halves = [first_half]
    if double:
        halves.append([([(away, home) for home, away in pairs], bye) for pairs, bye in first_half])
    rounds = []
    number = 0
    for half in halves:
        for pairs, bye in half:
            number += 1
            rounds.append(
                ScheduledRound(
                    number=number,
                    pairings=tuple(Pairing(home, away, table) for table, (home, away) in enumerate(pairs, 1)),
                    bye=bye,
                )
            )
    return rounds


def round_dates(first: date | None, count: int, interval_days: int = 7) -> list[date | None]:
    """The dates of `count` rounds: the first date, then every `interval_days` days."""
    if first is None:
        return [None] * count
    return [first + timedelta(days=interval_days * index) for index in range(count)]


# -- Monrad / Swiss ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissRound:
    pairings: tuple[Pairing, ...]
    bye: Team | None
    rematches: int = 0
    notes: tuple[str, ...] = field(default=())


def _pair_strict(order: list[Team], met: set[frozenset], budget: list[int]) -> list[tuple[Team, Team]] | None:
    """Pair `order` top-down with the nearest unmet team below; backtrack; None when impossible."""
    if not order:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    top, rest = order[0], order[1:]
    for index, candidate in enumerate(rest):
        if frozenset((top, candidate)) in met:
            continue
        remainder = _pair_strict(rest[:index] + rest[index + 1 :], met, budget)
        if remainder is not None:
            return [(top, candidate), *remainder]
    return None


def _pair_fewest_rematches(order: list[Team], met: set[frozenset]) -> list[tuple[Team, Team]]:
    """Greedy fallback when no pairing avoids every rematch: nearest unmet, else nearest."""
    remaining = list(order)
    pairs = []
    while remaining:
        top = remaining.pop(0)
        choice = next(
            (i for i, other in enumerate(remaining) if frozenset((top, other)) not in met), 0
        )
        pairs.append((top, remaining.pop(choice)))
    return pairs


def swiss_pairings(
    standing_order: Sequence[Team],
    *,
    previous: Iterable[tuple[Team, Team]] = (),
    byes: Mapping[Team, int] | None = None,
    home_balance: Mapping[Team, int] | None = None,
    search_budget: int = 200_000,
) -> SwissRound:
    """Pair the next round of a tournament.

    `standing_order`: the teams best first (match points, then card points; the caller ranks).
    `previous`: the (home, away) pairs already played in the tournament.
    `byes`: how many byes each team has had; `home_balance`: home games minus away games so far.
    The team with the lower balance is at home (the higher-placed one when equal).
    """
    order = list(standing_order)
    if len(set(order)) != len(order):
        raise ValueError("a team appears twice")
    byes = byes or {}
    home_balance = home_balance or {}
    met = {frozenset(pair) for pair in previous}
    bye_candidates: list[Team | None] = [None]
    if len(order) % 2:
        # Lowest-placed first among those with the fewest byes.
        bye_candidates = sorted(order[::-1], key=lambda team: byes.get(team, 0))
    pairs = None
    bye = bye_candidates[0]
    budget = [search_budget]
    for candidate in bye_candidates:
        field_ = [team for team in order if team != candidate]
        pairs = _pair_strict(field_, met, budget)
        if pairs is not None:
            bye = candidate
            break
        if budget[0] < 0:
            break
    rematches = 0
    if pairs is None:
        bye = bye_candidates[0]
        pairs = _pair_fewest_rematches([team for team in order if team != bye], met)
        rematches = sum(1 for pair in pairs if frozenset(pair) in met)
    pairings = []
    for table, (upper, lower) in enumerate(pairs, start=1):
        if home_balance.get(lower, 0) < home_balance.get(upper, 0):
            upper, lower = lower, upper
        pairings.append(Pairing(upper, lower, table))
    return SwissRound(pairings=tuple(pairings), bye=bye, rematches=rematches)
