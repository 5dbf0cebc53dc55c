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
- a void (abandoned) match only when its points rules, as they were when it was voided, say
  `abandoned` "as-played" (the services then store its totals as the result; otherwise none);
- a bye (no Match row, a `Bye` row) only when `points_rules.bye` is "win", and only once its round
  has a counted result: a won match without card points.

A *preliminary* result is shown but does not count yet: finished or submitted while the competition
requires confirmation.

Names sort the Swedish way (Å, Ä, Ö after Z): `engine.standings.swedish_sort_key` in Python, the
ICU collation "sv-SE-x-icu" in PostgreSQL (`order_by_name`).
"""

from __future__ import annotations

from .counting import S, counted_q, number, preliminary_q, with_play
from .names import SWEDISH_COLLATION, order_by_name
from .players import PlayerStatistics, player_statistics
from .results import competition_results, round_byes, round_result_rows, round_results, team_results
from .standings import competition_standings, standing_values, standings_columns, standings_preliminary_count

__all__ = [
    "PlayerStatistics",
    "S",
    "SWEDISH_COLLATION",
    "competition_results",
    "competition_standings",
    "counted_q",
    "number",
    "order_by_name",
    "player_statistics",
    "preliminary_q",
    "with_play",
    "round_byes",
    "round_result_rows",
    "round_results",
    "standing_values",
    "standings_columns",
    "standings_preliminary_count",
    "team_results",
]
