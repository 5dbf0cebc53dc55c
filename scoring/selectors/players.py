"""A player's figures over the finished matches of their teams."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Competition, Deal, Match, Player



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
