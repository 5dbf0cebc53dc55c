"""Individual club nights (partners rotate) and the Buchholz tie-break.

Terms: in an *individual* competition each player plays for himself; every round the players are
drawn into *partnerships* (two players on one side) and *tables* (two partnerships). A deal's score
counts for both partners. A player's *Buchholz* is the sum of the match points of every opponent he
has met, once per meeting (the strength of his opposition; chess pairing programs use it the same
way); for a pair tournament it is the sum of the opposing pairs' points.

Pairing a round (`pair_round`):
- round one is drawn at random from a seed, so that the draw can be made again and checked;
- later rounds follow Monrad: the players in order of the table (match points, card points, then the
  rating, which orders players equal so far, new ones among them), each table formed from the
  highest players still free, so that nobody partners the same player twice and, after that,
  nobody meets the same opponent twice, while that can be avoided; a search finds such a round if
  there is one, and else the round with the fewest repeats (repeated partners weigh most);
- when the number of players is not a multiple of four, the lowest-placed players who have sat
  out least often sit out the round.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .standings import TeamRecord

__all__ = [
    "BuchholzRecord",
    "PairingHistory",
    "PlayerStanding",
    "RoundPairing",
    "buchholz",
    "pair_round",
]

# The cost of a repeat: a partner again is much worse than an opponent again.
PARTNER_REPEAT = 100
OPPONENT_REPEAT = 10
# The search looks at this many tables before it settles for the best round found.
SEARCH_LIMIT = 20_000
# A table is first sought among the next players in rank order (Monrad); only when that leaves
# repeats does the search look further down the list.
WINDOW = 8


@dataclass(frozen=True)
class BuchholzRecord(TeamRecord):
    """A table row with the Buchholz figure (engine.standings' metric "buchholz")."""

    buchholz: float = 0


def buchholz(points: Mapping[Hashable, float], opponents: Mapping[Hashable, Iterable[Hashable]]) -> dict:
    """Each one's Buchholz: the sum of `points` of every opponent met, once per meeting."""
    return {who: sum(points.get(other, 0) for other in met) for who, met in opponents.items()}


@dataclass(slots=True)
class PlayerStanding:
    """A player as the pairing sees him: his figures so far and his rating."""

    player_id: Hashable
    points: float = 0
    card_points: int = 0
    rating: float = 1500.0


@dataclass(slots=True)
class PairingHistory:
    """Who has partnered and met whom so far (each pair of ids in either order), and who sat out."""

    partners: set = field(default_factory=set)
    opponents: set = field(default_factory=set)
    sat_out: dict = field(default_factory=dict)  # player id -> times

    def add_table(self, home: Sequence[Hashable], away: Sequence[Hashable]) -> None:
        for side in (home, away):
            self.partners.add(frozenset(side))
        for a in home:
            for b in away:
                self.opponents.add(frozenset((a, b)))

    def partnered(self, a, b) -> bool:
        return frozenset((a, b)) in self.partners

    def met(self, a, b) -> bool:
        return frozenset((a, b)) in self.opponents


@dataclass(slots=True)
class RoundPairing:
    tables: list  # [((a, b), (c, d)), ...] in table order: home partnership, away partnership
    sitting_out: list
    repeats: int  # the cost of repeats that could not be avoided (0: none)


def _table_cost(a, b, c, d, history: PairingHistory) -> int:
    cost = 0
    if history.partnered(a, b):
        cost += PARTNER_REPEAT
    if history.partnered(c, d):
        cost += PARTNER_REPEAT
    for x in (a, b):
        for y in (c, d):
            if history.met(x, y):
                cost += OPPONENT_REPEAT
    return cost


def _best_split(four: Sequence, history: PairingHistory) -> tuple[int, tuple]:
    """The best way to seat four players (in rank order) as two partnerships: Monrad puts the
    first with the fourth and the second with the third first, then the other ways."""
    a, b, c, d = four
    splits = (((a, d), (b, c)), ((a, c), (b, d)), ((a, b), (c, d)))
    return min(((_table_cost(*home, *away, history), (home, away)) for home, away in splits), key=lambda x: x[0])


def _order(players: Sequence[PlayerStanding]) -> list[PlayerStanding]:
    return sorted(players, key=lambda p: (-p.points, -p.card_points, -p.rating, str(p.player_id)))


def _sitting_out(ordered: list[PlayerStanding], history: PairingHistory) -> list[Hashable]:
    extra = len(ordered) % 4
    if not extra:
        return []
    # The fewest sit-outs first, then the lowest placed.
    candidates = sorted(
        range(len(ordered)), key=lambda i: (history.sat_out.get(ordered[i].player_id, 0), -i)
    )
    return [ordered[i].player_id for i in candidates[:extra]]


def _search(ids: list, history: PairingHistory) -> tuple[int, list]:
    cost, tables = _search_within(ids, history, WINDOW)
    if cost and len(ids) > WINDOW:
        wide_cost, wide_tables = _search_within(ids, history, len(ids))
        if wide_cost is not None and wide_cost < cost:
            return wide_cost, wide_tables
    return cost, tables


def _search_within(ids: list, history: PairingHistory, window: int) -> tuple[int, list]:
    """Tables for `ids` (in rank order): the first round found without repeats, else the one with
    the fewest."""
    best: list = [None, None]
    budget = [SEARCH_LIMIT]

    def walk(free: list, tables: list, cost: int) -> bool:
        if best[0] is not None and cost >= best[0]:
            return False
        if not free:
            best[0], best[1] = cost, list(tables)
            return cost == 0
        budget[0] -= 1
        if budget[0] < 0 and best[0] is not None:
            return True
        first, rest = free[0], free[1:window]
        # The highest free players first: Monrad keeps tables among players of like score.
        options = []
        for others in combinations(range(len(rest)), 3):
            four = (first, *(rest[i] for i in others))
            split_cost, split = _best_split(four, history)
            options.append((split_cost, sum(others), others, split))
        options.sort(key=lambda o: (o[0], o[1]))
        for split_cost, _distance, others, split in options:
            remaining = [p for i, p in enumerate(free[1:]) if i not in others]
            tables.append(split)
            if walk(remaining, tables, cost + split_cost):
                return True
            tables.pop()
        return False

    walk(ids, [], 0)
    return best[0], best[1]


def pair_round(
    players: Sequence[PlayerStanding], history: PairingHistory | None = None, *, seed: int | None = None
) -> RoundPairing:
    """The tables of the next round. With no history (round one) the draw is random from `seed`."""
    history = history or PairingHistory()
    if not history.partners:
        ids = [p.player_id for p in sorted(players, key=lambda p: str(p.player_id))]
        random.Random(seed).shuffle(ids)
        extra = len(ids) % 4
        sitting = ids[len(ids) - extra:] if extra else []
        playing = ids[: len(ids) - extra]
        tables = [((playing[i], playing[i + 1]), (playing[i + 2], playing[i + 3])) for i in range(0, len(playing), 4)]
        return RoundPairing(tables=tables, sitting_out=sitting, repeats=0)
    ordered = _order(players)
    sitting = _sitting_out(ordered, history)
    playing = [p.player_id for p in ordered if p.player_id not in set(sitting)]
    cost, tables = _search(playing, history)
    return RoundPairing(tables=tables or [], sitting_out=sitting, repeats=cost or 0)
