"""The Canasta rating of every player, read from the stored match results and replayed by the engine
(scoring.engine.rating), and the results that count across competitions.

Terms:
- a *final* result: one that counts in its competition's table for good, that is confirmed, or
  finished / submitted in a competition that does not ask for confirmation, as selectors.counting
  says (final_q: its rule for every competition at once). A void match counts only when the
  services stored a result for it (abandoned "as-played").
- a *rated* match: a final result of a public competition that was played at the table: walk
  overs (forfeit, repeated warnings) and void matches are not rated. The two players of a side are
  the team's pair; a substitute is not rated (the protocol does not say whom he replaced).

Nothing is stored: the whole history is replayed in match order, so a corrected result changes every
later rating, in order. A server process keeps its last replay while the results it was made from
stand (`results_fingerprint`), so the pages that show ratings (the rankings, a player's, a team's)
replay the history once per change of a result, not once per page drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from django.db.models import Count, F, Max, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from scoring.engine.rating import RatedMatch, Ratings, rate
from scoring.models import Competition, Match

from .counting import final_q

S = Match.Status
NOT_PLAYED_AT_TABLE = (Match.End.FORFEIT, Match.End.WARNINGS)


def final_matches() -> QuerySet[Match]:
    """Final results of public competitions."""
    return Match.objects.filter(final_q(), competition__is_public=True)


def add_side_totals(totals: dict, matches: QuerySet[Match], side: str, group: F) -> None:
    """Add to `totals` (keyed by the value of `group`) the matches, wins, draws, match points and
    card points for of `side` ("home" or "away") in `matches`: one aggregate query."""
    rows = (
        matches.values(key=group)
        .annotate(
            matches=Count("id"),
            won=Count("id", filter=Q(winner=side)),
            drawn=Count("id", filter=Q(winner="draw")),
            points=Sum(f"{side}_points"),
            cards=Sum(f"{side}_for"),
        )
        .order_by()
    )
    for row in rows:
        total = totals.setdefault(row["key"], {"matches": 0, "won": 0, "drawn": 0, "points": Decimal(0), "cards": 0})
        total["matches"] += row["matches"]
        total["won"] += row["won"]
        total["drawn"] += row["drawn"]
        total["points"] += Decimal(str(row["points"] or 0))
        total["cards"] += row["cards"] or 0


def in_played_order(matches: QuerySet[Match]) -> QuerySet[Match]:
    """`matches` in the order they were played (the rating's order, and a run of wins')."""
    return (
        matches.annotate(played_at=Coalesce("started_at", "scheduled_start", "submitted_at", "confirmed_at"))
        # Without a recorded time (a result typed in afterwards), the round's day, then the
        # season and the round say which came first.
        .order_by(
            F("played_at").asc(nulls_last=True), F("round__date").asc(nulls_last=True),
            "competition__season", "round__number", "table", "id",
        )
    )


def rated_matches() -> QuerySet[Match]:
    """The matches the rating is computed from, in the order they were played."""
    return in_played_order(
        final_matches()
        .exclude(status=S.VOID)
        .exclude(end__in=NOT_PLAYED_AT_TABLE)
        .filter(winner__in=("home", "away", "draw"))
    )


@dataclass(frozen=True)
class RatingHistory:
    """A replay of every rated match: the engine's Ratings, the matches' ids in order, and each
    player's changes (in order) for the pages of one player."""

    ratings: Ratings
    order: tuple[int, ...]
    by_player: dict

    def changes_of(self, player_id: int) -> list:
        return self.by_player.get(player_id, [])


def results_fingerprint() -> tuple:
    """What moves whenever the rated matches or their order may have changed: the ended matches'
    number, ids and latest change (every service that changes a match saves it, and `updated_at`
    with it; the status and time index answers this), and which competitions are public and ask for
    confirmation (which results are final and rated). Two small queries; a deal in a match still
    being played moves nothing here, as it changes no rating. (A round's date changed after its
    results were typed in without a time orders them anew only with the next result.)"""
    ended = Match.objects.filter(status__in=Match.ENDED_STATUSES).aggregate(
        count=Count("id"), ids=Sum("id"), latest=Max("updated_at")
    )
    competitions = Competition.objects.aggregate(
        count=Count("id"),
        public=Sum("id", filter=Q(is_public=True)),
        confirming=Sum("id", filter=Q(requires_confirmation=True)),
    )
    return (*ended.values(), *competitions.values())


def rating_history() -> RatingHistory:
    """Every player's rating and its changes, replayed from the stored results; the replay is kept
    while the results it was made from stand (results_fingerprint)."""
    return history_while(results_fingerprint())


@lru_cache(maxsize=1)
def history_while(fingerprint: tuple) -> RatingHistory:
    """The replay made while the results had this fingerprint: a server process keeps the latest
    one (functools.lru_cache, safe between threads), the next result's fingerprint replaces it."""
    return replayed_history()


def replayed_history() -> RatingHistory:
    """Every player's rating and its changes, replayed from the stored results now."""
    rows = rated_matches().values_list(
        "id",
        "home_team__player_one_id",
        "home_team__player_two_id",
        "away_team__player_one_id",
        "away_team__player_two_id",
        "winner",
    )
    matches = [RatedMatch(pk, (h1, h2), (a1, a2), winner) for pk, h1, h2, a1, a2, winner in rows]
    ratings = rate(matches)
    by_player: dict = {}
    for change in ratings.changes:
        by_player.setdefault(change.player_id, []).append(change)
    return RatingHistory(ratings=ratings, order=tuple(m.match_id for m in matches), by_player=by_player)

