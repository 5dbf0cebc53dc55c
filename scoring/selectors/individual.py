"""The table of an individual competition (partners rotate): players ranked by match points, then
card points, then Buchholz (engine.individual), from the results that count in the competition
(selectors.counting.counted_q).

Each round's partnerships are Teams of the competition (`rotating`), so a match is stored as for
pairs; here every match counts for both players of each side: the side's match points and card
points go to each of its two players, and each player has met both players of the other side.
A club night has few matches: they are read in one query and summed per player here, which also
gives each player's opponents for Buchholz.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from scoring.engine.individual import BuchholzRecord, buchholz
from scoring.engine.standings import StandingRow, rank_teams
from scoring.models import Competition, Match, Player

from .counting import counted_q, number

INDIVIDUAL_ORDER = ("points", "card_points_for", "buchholz", "name")


@dataclass(frozen=True)
class PlayerTableRow:
    rank: int
    tied: bool
    record: BuchholzRecord
    club: str

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.tied else str(self.rank)


def _results(competition: Competition):
    return (
        Match.objects.filter(competition=competition)
        .filter(counted_q(competition))
        .values_list(
            "home_team__player_one_id", "home_team__player_two_id", "away_team__player_one_id",
            "away_team__player_two_id", "winner", "home_points", "away_points", "home_for", "home_against",
            "away_for", "away_against",
        )
    )


def individual_standings(competition: Competition) -> list[PlayerTableRow]:
    """Every signed-up player (and anyone who played), in rank order."""
    totals: dict[int, dict] = {}
    opponents: dict[int, list[int]] = {}

    def total(pid: int) -> dict:
        opponents.setdefault(pid, [])
        return totals.setdefault(pid, {"played": 0, "won": 0, "drawn": 0, "points": Decimal(0), "for": 0, "against": 0})

    for pid in competition.entrants.values_list("id", flat=True):
        total(pid)
    for h1, h2, a1, a2, winner, hp, ap, hf, ha, af, aa in _results(competition):
        for side, players, others, points, card_for, card_against in (
            ("home", (h1, h2), (a1, a2), hp, hf, ha),
            ("away", (a1, a2), (h1, h2), ap, af, aa),
        ):
            for pid in players:
                t = total(pid)
                t["played"] += 1
                t["won"] += winner == side
                t["drawn"] += winner == "draw"
                t["points"] += Decimal(str(points or 0))
                t["for"] += card_for or 0
                t["against"] += card_against or 0
                opponents[pid].extend(others)
    points = {pid: number(t["points"]) for pid, t in totals.items()}
    strength = buchholz(points, opponents)
    people = {p.pk: p for p in Player.objects.filter(pk__in=totals).select_related("club")}
    records = [
        BuchholzRecord(
            team_id=pid, name=people[pid].name, played=t["played"], won=t["won"], drawn=t["drawn"],
            lost=t["played"] - t["won"] - t["drawn"], points=points[pid], card_points_for=t["for"],
            card_points_against=t["against"], buchholz=number(Decimal(str(strength[pid]))),
        )
        for pid, t in totals.items()
    ]
    ranked: list[StandingRow] = rank_teams(records, INDIVIDUAL_ORDER)
    return [
        PlayerTableRow(rank=row.rank, tied=row.tied, record=row.record, club=people[row.record.team_id].club.name)
        for row in ranked
    ]
