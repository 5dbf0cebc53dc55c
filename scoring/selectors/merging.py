"""What a player or team entered twice may be merged into (services.merging): the club's other
players, the same name in any letter case first; the club's other teams that take part in a
competition with it. Which competitions a merge changes, and whether one of them is an archive of a
closed season (then the merge is refused, and not offered)."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from scoring.models import Competition, Match, Player, Team

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


def merge_competitions(*rows: Player | Team) -> QuerySet[Competition]:
    """The competitions a merge of `rows` (players, or teams) changes: those of the teams concerned
    (their places and matches), and a player's sign-ups, the matches he substituted in and the
    rounds he sat out (services.merging moves all of these)."""
    if all(isinstance(row, Team) for row in rows):
        teams = list(rows)
        signed_up = Q(pk__in=[])
    else:
        players = list(rows)
        teams = list(Team.objects.filter(Q(player_one__in=players) | Q(player_two__in=players)))
        substituted = Match.objects.filter(Q(home_substitute__in=players) | Q(away_substitute__in=players))
        signed_up = (Q(entrants__in=players) | Q(pk__in=substituted.values("competition_id"))
                     | Q(rounds__sitting_out__in=players))  # fmt: skip
    played = Match.objects.filter(Q(home_team__in=teams) | Q(away_team__in=teams)).values("competition_id")
    return Competition.objects.filter(Q(teams__in=teams) | Q(pk__in=played) | signed_up).distinct()


def merge_archive(*rows: Player | Team) -> Competition | None:
    """A competition of a closed season that a merge of `rows` would change, or None. A closed
    season's competitions are archives that nothing changes (services.seasons), so such a merge is
    refused (services.merging) and the pages do not offer it: a player or team that appears in an
    archive is kept as it is, named as the archive names it."""
    return merge_competitions(*rows).filter(archived=True).order_by("season", "name").first()
