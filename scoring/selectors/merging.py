"""What a player or team entered twice may be merged into (services.merging): the club's other
players, the same name in any letter case first; the club's other teams that take part in a
competition with it."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from scoring.models import Competition, Player, Team

from .names import order_by_name


def merge_candidates(obj: Player | Team) -> list:
    """The rows `obj` may be merged into, as the confirmation page offers them."""
    if isinstance(obj, Player):
        others = order_by_name(Player.objects.filter(club_id=obj.club_id).exclude(pk=obj.pk))
        same_name = obj.name.casefold()
        return sorted(others, key=lambda player: player.name.casefold() != same_name)
    shared = Competition.objects.filter(teams=obj).values("pk")
    teams = Team.objects.filter(club_id=obj.club_id, competitions__in=shared).exclude(pk=obj.pk).distinct()
    return order_by_name(teams.select_related("player_one", "player_two"))


def merge_subject(model: type[Player] | type[Team], pk: int) -> Player | Team:
    """The player or team a merge page is about; 404 when there is none."""
    return get_object_or_404(model, pk=pk)


def merge_choices(model: type[Player] | type[Team], candidates: list) -> QuerySet:
    """The rows a merge form accepts as the one to keep: the candidates, and nothing else."""
    return model.objects.filter(pk__in=[row.pk for row in candidates])
