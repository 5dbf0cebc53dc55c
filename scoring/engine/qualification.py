"""Who goes on from a championship's stage to the next, and what they carry there (docs/rules.md,
"Championships: qualification and carried points").

Input: each heat's table as the standings rank it (engine.standings StandingRows in rank order, one
list per heat), the stage's rule (the first `per_heat` of each heat, then the best `best_of_rest` of
the others with all heats ranked together), the stage's tie-break order, and the pairs that
withdrew. Output: the pairs going on, each with why, and the next in line in their order.

- A heat's places are its table's order: a place shared ("2=") is decided by the order the table
  prints, and the pair is marked as tied at the line when the line falls inside the tie.
- The rest (every pair of every heat not among its heat's first) is ranked with the standings'
  own ranking (rank_teams, the stage's tie-breaks; head-to-head finds no match between pairs of
  different heats and so separates nobody).
- A pair that withdrew does not go on; the list is drawn as if it had not, and its place goes to
  the next in line, the first of the rest not taken.
- Carried points are a share of a pair's match points and of its card points (for and against
  alike, so a difference is carried by the same share), rounded half up to the table's precision.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .standings import StandingRow, TeamRecord, rank_teams

__all__ = [
    "PLACE",
    "BEST_OF_REST",
    "REPLACEMENT",
    "Carried",
    "Entrant",
    "HeatTable",
    "Qualifying",
    "carried_share",
    "seed_into_heats",
    "who_goes_on",
    "with_carried",
]

# Why a pair goes on.
PLACE = "place"  # among the first of its heat
BEST_OF_REST = "best_of_rest"  # among the best of the others, all heats ranked together
REPLACEMENT = "replacement"  # next in line, in the place of a pair that withdrew


@dataclass(frozen=True)
class HeatTable:
    heat_id: Any
    rows: Sequence[StandingRow]  # in rank order


@dataclass(frozen=True)
class Entrant:
    """A pair going on (or next in line): its record, its heat, its place there and why."""

    record: TeamRecord
    heat_id: Any
    heat_rank: int
    heat_tied: bool
    why: str = ""
    rest_place: int | None = None  # its place among the rest, all heats ranked together
    rest_of: int | None = None  # how many places the rest had (best_of_rest)
    replaces: Any = None  # the team id of the pair that withdrew
    tied_at_line: bool = False  # the line fell inside a shared place: the table's order decided

    @property
    def team_id(self) -> Any:
        return self.record.team_id


@dataclass(frozen=True)
class Qualifying:
    going_on: tuple[Entrant, ...]
    next_in_line: tuple[Entrant, ...]
    withdrawn: tuple[Entrant, ...]


def _tied_at_line(rows: Sequence[StandingRow], index: int, line: int) -> bool:
    """Whether the row at `index` shares its place with a row on the other side of `line`."""
    row = rows[index]
    if not row.tied:
        return False
    same = [i for i, other in enumerate(rows) if other.rank == row.rank]
    return min(same) < line <= max(same)


def who_goes_on(
    heats: Sequence[HeatTable],
    *,
    per_heat: int,
    best_of_rest: int,
    tiebreaks: Sequence[str],
    withdrawn: Collection[Any] = (),
) -> Qualifying:
    """The pairs going on from a stage, in the order they went on (each heat's first by place,
    heat by heat, then the best of the rest, then those taking the places of pairs that withdrew),
    and the next in line. The list is drawn as if nobody had withdrawn; a withdrawn pair's place
    then goes to the first of the rest not taken, who is marked as taking it."""
    withdrawn = set(withdrawn)
    firsts: list[Entrant] = []
    rest: list[Entrant] = []
    gone: list[Entrant] = []
    vacated: list[Any] = []
    for heat in heats:
        for index, row in enumerate(heat.rows):
            entrant = Entrant(row.record, heat.heat_id, row.rank, row.tied, PLACE,
                              tied_at_line=_tied_at_line(heat.rows, index, per_heat))
            if index >= per_heat:
                rest.append(entrant)
            elif row.record.team_id in withdrawn:
                gone.append(entrant)
                vacated.append(row.record.team_id)
            else:
                firsts.append(entrant)
    by_team = {entrant.team_id: entrant for entrant in rest}
    ranked = rank_teams([entrant.record for entrant in rest], tiebreaks)
    taken: list[Entrant] = []
    replacing: list[Entrant] = []
    waiting: list[Entrant] = []
    for position, standing in enumerate(ranked, start=1):
        at_line = standing.tied and any(other.rank == standing.rank for other in ranked[:best_of_rest]) and any(
            other.rank == standing.rank for other in ranked[best_of_rest:]
        )
        entrant = by_team[standing.record.team_id]
        entrant = replace(entrant, why="", rest_place=position, rest_of=best_of_rest,
                          tied_at_line=at_line or entrant.tied_at_line)
        if entrant.team_id in withdrawn:
            gone.append(entrant)
            if position <= best_of_rest:
                vacated.append(entrant.team_id)
        elif position <= best_of_rest:
            taken.append(replace(entrant, why=BEST_OF_REST))
        else:
            waiting.append(entrant)
    for replaced in vacated:
        if not waiting:
            break
        replacing.append(replace(waiting.pop(0), why=REPLACEMENT, replaces=replaced))
    return Qualifying(going_on=tuple(firsts + taken + replacing), next_in_line=tuple(waiting), withdrawn=tuple(gone))


def seed_into_heats(ordered: Sequence[Any], heat_count: int) -> list[list[Any]]:
    """The pairs going on, in their order, dealt into the next stage's heats to and fro (1, 2, 2,
    1, 1, 2, ...), so that each heat gets strong and weaker pairs alike."""
    if heat_count < 1:
        raise ValueError("at least one heat")
    heats: list[list[Any]] = [[] for _heat in range(heat_count)]
    for index, item in enumerate(ordered):
        lap, place = divmod(index, heat_count)
        heats[place if lap % 2 == 0 else heat_count - 1 - place].append(item)
    return heats


@dataclass(frozen=True)
class Carried:
    """What a pair carries into the next stage's table: match points and card points for and
    against (counted as no match played)."""

    points: Decimal = Decimal(0)
    card_points_for: int = 0
    card_points_against: int = 0


def _share(value: Any, percent: int, step: str) -> Decimal:
    return (Decimal(str(value)) * Decimal(percent) / 100).quantize(Decimal(step), rounding=ROUND_HALF_UP)


def carried_share(record: TeamRecord, *, points_percent: int, cards_percent: int) -> Carried:
    """The share of a pair's match points (to a tenth, as the table keeps them) and of its card
    points (whole points) that it carries on."""
    if not (0 <= points_percent <= 100 and 0 <= cards_percent <= 100):
        raise ValueError("a share is 0-100 per cent")
    return Carried(
        points=_share(record.points, points_percent, "0.1"),
        card_points_for=int(_share(record.card_points_for, cards_percent, "1")),
        card_points_against=int(_share(record.card_points_against, cards_percent, "1")),
    )


def with_carried(record: TeamRecord, carried: Carried) -> TeamRecord:
    """A pair's record in its table with the points it carried in from the stage before: they
    count as points and card points, not as matches played."""
    points = Decimal(str(record.points)) + carried.points
    return replace(
        record,
        points=int(points) if points == int(points) else float(points),
        card_points_for=record.card_points_for + carried.card_points_for,
        card_points_against=record.card_points_against + carried.card_points_against,
    )
