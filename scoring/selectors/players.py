"""A player's figures over the finished matches of their teams."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Competition, Deal, Match, Player

from .figures import SIDE_WIDTH, match_sums



# -- players ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStatistics:
    matches: int
    won: int
    drawn: int
    lost: int
    deals: int
    deal_score_total: int
    natural_canastas: int
    mixed_canastas: int
    goings_out: int

    @property
    def canastas(self) -> int:
        return self.natural_canastas + self.mixed_canastas

    @property
    def average_deal_score(self) -> float | None:
        return self.deal_score_total / self.deals if self.deals else None

    @property
    def win_percentage(self) -> float | None:
        return 100 * self.won / self.matches if self.matches else None


def _player_side_q(player: Player, side: str, prefix: str = "") -> Q:
    return (
        Q(**{f"{prefix}{side}_team__player_one": player})
        | Q(**{f"{prefix}{side}_team__player_two": player})
        | Q(**{f"{prefix}{side}_substitute": player})
    )


def player_statistics(player: Player, competition: Competition | None = None) -> PlayerStatistics:
    """A player's figures over the finished matches of their teams (two queries).

    A match counts for a player whose team played it, or who was a substitute in it. (The protocol
    does not say which team member a substitute replaced, so both members keep the match.) Deals
    come from finished, submitted and confirmed matches; a walk over counts as a match, not deals.
    """
    matches = Match.objects.filter(status__in=Match.PLAYED_STATUSES)
    if competition is not None:
        matches = matches.filter(competition=competition)
    home_q, away_q = _player_side_q(player, "home"), _player_side_q(player, "away")
    figures = matches.filter(home_q | away_q).aggregate(
        matches=Count("id"),
        won=Count("id", filter=(home_q & Q(winner="home")) | (away_q & Q(winner="away"))),
        drawn=Count("id", filter=Q(winner="draw")),
    )
    deals = Deal.objects.filter(match__in=matches)
    home_deals = _player_side_q(player, "home", "match__")
    away_deals = _player_side_q(player, "away", "match__")
    zero = Value(0)
    deal_figures = deals.filter(home_deals | away_deals).aggregate(
        deals=Count("id"),
        score=Coalesce(Sum("home_score", filter=home_deals), zero) + Coalesce(Sum("away_score", filter=away_deals), zero),
        natural=Coalesce(Sum("home_natural", filter=home_deals), zero)
        + Coalesce(Sum("away_natural", filter=away_deals), zero),
        mixed=Coalesce(Sum("home_mixed", filter=home_deals), zero)
        + Coalesce(Sum("away_mixed", filter=away_deals), zero),
        out=Count("id", filter=(home_deals & Q(out="home")) | (away_deals & Q(out="away")), output_field=IntegerField()),
    )
    return PlayerStatistics(
        matches=figures["matches"],
        won=figures["won"],
        drawn=figures["drawn"],
        lost=figures["matches"] - figures["won"] - figures["drawn"],
        deals=deal_figures["deals"],
        deal_score_total=deal_figures["score"] or 0,
        natural_canastas=deal_figures["natural"] or 0,
        mixed_canastas=deal_figures["mixed"] or 0,
        goings_out=deal_figures["out"],
    )


# What player_statistics_by_competition adds up per competition.
TOTALS = ("matches", "won", "drawn", "deals", "score", "natural", "mixed", "out")


def player_statistics_by_competition(player: Player, matches: list[Match]) -> dict[int, PlayerStatistics]:
    """player_statistics for each competition of `matches` (the player's matches, read with their
    teams), by competition id: the matches' figures from the rows in hand, the deals' from one
    query over these matches' deals, grouped by match (selectors.figures.match_sums, plain SQL),
    whatever the number of competitions."""
    sides: dict[int, tuple[bool, bool]] = {}
    totals: dict[int, dict[str, int]] = {}
    for match in matches:
        if match.status not in Match.PLAYED_STATUSES:
            continue
        home = player.pk in (match.home_team.player_one_id, match.home_team.player_two_id, match.home_substitute_id)
        away = player.pk in (match.away_team.player_one_id, match.away_team.player_two_id, match.away_substitute_id)
        if not (home or away):
            continue
        sides[match.pk] = (home, away)
        figures = totals.setdefault(match.competition_id, dict.fromkeys(TOTALS, 0))
        figures["matches"] += 1
        figures["won"] += (home and match.winner == "home") or (away and match.winner == "away")
        figures["drawn"] += match.winner == "draw"
    competition_of = {match.pk: match.competition_id for match in matches}
    for pk, deals, *side_sums in match_sums(list(sides)):
        home, away = sides[pk]
        figures = totals[competition_of[pk]]
        figures["deals"] += deals
        for index, playing in enumerate((home, away)):
            if playing:
                natural, mixed, _red3, score, _squares, went_out = side_sums[index * SIDE_WIDTH : index * SIDE_WIDTH + 6]
                figures["score"] += score or 0
                figures["natural"] += natural or 0
                figures["mixed"] += mixed or 0
                figures["out"] += went_out or 0
    return {
        competition_id: PlayerStatistics(
            matches=t["matches"], won=t["won"], drawn=t["drawn"], lost=t["matches"] - t["won"] - t["drawn"],
            deals=t["deals"], deal_score_total=t["score"], natural_canastas=t["natural"], mixed_canastas=t["mixed"],
            goings_out=t["out"],
        )
        for competition_id, t in totals.items()
    }  # fmt: skip
