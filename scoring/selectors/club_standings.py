"""The club table (klubbtabell) of an inter-club series: clubs ranked on the sum of their pairs'
results.

A club's record is the sum of the records of its teams in the competition's standings
(selectors.standings.competition_standings, so exactly the results that count there, byes and walk
overs included): played, won, drawn, lost, match points, card points for and against. The
competition's `club_standings_order` names the figures that rank the clubs (models.ClubStandingsOrder);
the engine ranks them (engine.standings.rank_teams), and clubs equal on every figure share a rank.
"""

from __future__ import annotations

from decimal import Decimal

from scoring.engine.standings import StandingRow, TeamRecord, rank_teams
from scoring.models import ClubStandingsOrder, Competition, Team

from .counting import number
from .standings import competition_standings

TIEBREAKS = {
    ClubStandingsOrder.POINTS_CARDS: ("points", "card_points_for", "name"),
    ClubStandingsOrder.POINTS_DIFFERENCE: ("points", "difference", "name"),
    ClubStandingsOrder.CARDS: ("card_points_for", "name"),
}


def club_standings(competition: Competition, *, up_to_round: int | None = None) -> list[StandingRow]:
    """The clubs of the competition's teams in rank order; each row's `extra["teams"]` is how many
    pairs the club has in it."""
    rows = competition_standings(competition, up_to_round=up_to_round)
    clubs = {
        team_id: (club_id, club_name)
        for team_id, club_id, club_name in Team.objects.filter(pk__in=[r.record.team_id for r in rows]).values_list(
            "id", "club_id", "club__name"
        )
    }
    sums: dict[int, dict] = {}
    for row in rows:
        club_id, club_name = clubs[row.record.team_id]
        total = sums.setdefault(
            club_id,
            {"name": club_name, "teams": 0, "played": 0, "won": 0, "drawn": 0, "lost": 0,
             "points": Decimal(0), "for": 0, "against": 0},
        )
        record = row.record
        total["teams"] += 1
        total["played"] += record.played
        total["won"] += record.won
        total["drawn"] += record.drawn
        total["lost"] += record.lost
        total["points"] += Decimal(str(record.points))
        total["for"] += record.card_points_for
        total["against"] += record.card_points_against
    records = [
        TeamRecord(
            team_id=club_id, name=total["name"], played=total["played"], won=total["won"],
            drawn=total["drawn"], lost=total["lost"], points=number(total["points"]),
            card_points_for=total["for"], card_points_against=total["against"],
        )
        for club_id, total in sums.items()
    ]
    ranked = rank_teams(records, TIEBREAKS[ClubStandingsOrder(competition.club_standings_order)])
    return [
        StandingRow(rank=row.rank, tied=row.tied, record=row.record, extra={"teams": sums[row.record.team_id]["teams"]})
        for row in ranked
    ]
