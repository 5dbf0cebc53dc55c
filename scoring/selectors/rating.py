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

The history is replayed in match order, so a corrected result changes every later rating, in order:
the services replay it when a result changes and store each player's rating before and after each
rated match (PlayerRating, services.rating); the pages that show ratings (the rankings, a
player's, a team's) read those rows and replay nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from scoring.models import Match, Player, PlayerRating

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


# Up to this many players are asked for by id; more are picked out of everyone's.
FEW_PLAYERS = 50


def rating_rows() -> QuerySet[PlayerRating]:
    """The stored rating rows (services.rating keeps them), in the order the rating replays the
    matches."""
    return PlayerRating.objects.order_by("seq")


def rated_match_ids() -> list[int]:
    """The rated matches' ids, in the order the rating replays them."""
    return list(rating_rows().values_list("match_id", flat=True).distinct())


def ratings_after_last(player_ids: Iterable[int] | None = None, where: Q = Q()) -> dict[int, float]:
    """Each player's rating after his last rated match (of those `where` takes, a Q over the
    rows: `Q(match__competition__season="2026/27")`), of `player_ids` or everyone; a player with
    no such match is left out. One query, an indexed look-up per player (a long list of ids is
    picked out here: the SQL of an IN list of a federation's players costs more to build)."""
    last = PlayerRating.objects.filter(where, player=OuterRef("pk")).order_by("-seq").values("after")[:1]
    wanted = None if player_ids is None else set(player_ids)
    players = Player.objects.all()
    if wanted is not None and len(wanted) <= FEW_PLAYERS:
        players = players.filter(pk__in=wanted)
    rows = players.annotate(rating=Subquery(last)).exclude(rating=None).values_list("pk", "rating").order_by()
    return {pk: rating for pk, rating in rows if wanted is None or pk in wanted}


def rating_changes(player_id: int) -> list[PlayerRating]:
    """A player's rating rows (before and after each of his rated matches), in order."""
    return list(rating_rows().filter(player_id=player_id))
