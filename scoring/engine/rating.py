"""The Canasta rating: an Elo rating of players from the results of counted competition matches.

Terms: a *rated match* is one played match between two sides (pairs); each side is the two players
who held its cards. A side's *strength* is the mean of its players' ratings before the match. The
*expected score* of side A against side B is 1 / (1 + 10^((Rb − Ra) / 400)); its *result* is 1 for a
win, 0.5 for a draw, 0 for a loss. Each player of a side then gains K × (result − expected), where K
is the player's own factor: 32 while the player has played fewer than 30 rated matches (a new
player's rating finds its level quickly), 16 from the 31st match on (an established rating moves
slowly). Everyone starts at 1500.

Which matches are rated is the caller's decision (walk overs and voided matches are not: nothing
was played at the table); this module only takes them in the order given and replays the whole
history, so a corrected result earlier in the season changes every rating after it, in order.
Ratings are kept as floats and rounded only for display.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

__all__ = [
    "ESTABLISHED_AFTER",
    "K_ESTABLISHED",
    "K_NEW",
    "START",
    "RatedMatch",
    "RatingChange",
    "Ratings",
    "expected_score",
    "k_factor",
    "rate",
]

START = 1500.0
K_NEW = 32
K_ESTABLISHED = 16
# A player's first 30 rated matches use K_NEW.
ESTABLISHED_AFTER = 30

RESULT = {"home": (1.0, 0.0), "away": (0.0, 1.0), "draw": (0.5, 0.5)}


# Plain slotted dataclasses, as the engine's other values: a federation's history makes one
# RatingChange per player and match, and a frozen dataclass's setattr per field costs.
@dataclass(slots=True)
class RatedMatch:
    """One played match: `home` and `away` are each the two player ids of a side; `winner` is
    "home", "away" or "draw"."""

    match_id: Hashable
    home: tuple[Hashable, Hashable]
    away: tuple[Hashable, Hashable]
    winner: str


@dataclass(slots=True)
class RatingChange:
    """What one match did to one player's rating."""

    match_id: Hashable
    player_id: Hashable
    before: float
    after: float
    k: int
    expected: float
    result: float

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass
class Ratings:
    """The outcome of replaying a history: each player's rating and number of rated matches, and
    every change in match order."""

    rating: dict[Hashable, float] = field(default_factory=dict)
    matches: dict[Hashable, int] = field(default_factory=dict)
    changes: list[RatingChange] = field(default_factory=list)

    def of(self, player_id: Hashable) -> float:
        return self.rating.get(player_id, START)

    def history(self, player_id: Hashable) -> list[RatingChange]:
        return [change for change in self.changes if change.player_id == player_id]


def expected_score(strength: float, opponent_strength: float) -> float:
    """The Elo expectation of a side of `strength` against one of `opponent_strength`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent_strength - strength) / 400.0))


def k_factor(matches_before: int) -> int:
    """K for a player who has played `matches_before` rated matches before this one."""
    return K_NEW if matches_before < ESTABLISHED_AFTER else K_ESTABLISHED


def rate(matches: Iterable[RatedMatch], ratings: Ratings | None = None) -> Ratings:
    """Replay `matches` in the order given and return every player's rating; from `ratings` (each
    player's rating and rated matches so far, changed in place) when the replay goes on from a
    point of the history, else from the start."""
    ratings = Ratings() if ratings is None else ratings
    for match in matches:
        if match.winner not in RESULT:
            raise ValueError(f"match {match.match_id!r}: winner must be home, away or draw")
        players = {"home": match.home, "away": match.away}
        before = {pid: ratings.of(pid) for side in players.values() for pid in side}
        strength = {side: sum(before[pid] for pid in pids) / len(pids) for side, pids in players.items()}
        results = dict(zip(("home", "away"), RESULT[match.winner]))
        for side, other in (("home", "away"), ("away", "home")):
            expected = expected_score(strength[side], strength[other])
            for pid in players[side]:
                played = ratings.matches.get(pid, 0)
                k = k_factor(played)
                after = before[pid] + k * (results[side] - expected)
                ratings.rating[pid] = after
                ratings.matches[pid] = played + 1
                ratings.changes.append(
                    RatingChange(
                        match_id=match.match_id, player_id=pid, before=before[pid], after=after,
                        k=k, expected=expected, result=results[side],
                    )
                )
    return ratings
