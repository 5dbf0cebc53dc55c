"""Who may do what. Roles: site admin, club secretary, team captain, the public.

- A club secretary manages their club's players and teams, the competitions their club organises,
  and the protocols of matches in which their club's team is the home team (the home team keeps the
  protocol, seed 001).
- A team captain confirms the protocols of their team's matches, never one they entered themselves.
"""

from __future__ import annotations

from scoring.models import Club, Competition, Match


def is_site_admin(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_superuser)


def is_secretary_of(user, club: Club | int | None) -> bool:
    if not getattr(user, "is_authenticated", False) or club is None:
        return False
    club_id = club if isinstance(club, int) else club.pk
    cache = getattr(user, "_secretary_club_ids", None)
    if cache is None:
        # The link table alone: no join to the clubs and no ordering (read on every save, issue 7).
        cache = set(Club.secretaries.through.objects.filter(user_id=user.pk).values_list("club_id", flat=True))
        user._secretary_club_ids = cache
    return club_id in cache


def is_secretary(user) -> bool:
    return is_site_admin(user) or (
        getattr(user, "is_authenticated", False) and user.secretary_of.exists()
    )


def can_manage_club(user, club: Club) -> bool:
    return is_site_admin(user) or is_secretary_of(user, club)


def can_manage_competition(user, competition: Competition) -> bool:
    return is_site_admin(user) or is_secretary_of(user, competition.organiser_id)


def can_enter_protocol(user, match: Match) -> bool:
    """The home club's secretary keeps the protocol; the organiser's secretary and admins may too."""
    return (
        is_site_admin(user)
        or is_secretary_of(user, match.home_team.club_id)
        or is_secretary_of(user, match.competition.organiser_id)
    )


def is_captain_of(user, team) -> bool:
    return bool(getattr(user, "is_authenticated", False) and team.captain_id == user.pk)


def can_confirm(user, match: Match) -> bool:
    """The other team's captain confirms: the away captain, and never the user who entered it."""
    if not getattr(user, "is_authenticated", False):
        return False
    if match.entered_by_id is not None and match.entered_by_id == user.pk:
        return False
    if can_enter_protocol(user, match) and not is_site_admin(user):
        # The home side entered it; nobody from that side confirms their own protocol.
        return False
    return is_captain_of(user, match.away_team) or is_site_admin(user)
