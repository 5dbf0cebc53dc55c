"""Entering a team of another club into a competition, or signing up a player of another club for
a club night (an individual competition): an invitation its club accepts or declines.

A competition's organiser enters the organising club's own teams directly. A team of another club
is invited instead (competition_save calls invitations_sync): it becomes one of the competition's
teams only when a secretary of the team's club accepts. Until then it is not among the
competition's teams, so it is in no standings, results, feed or document, and no match (and so no
walk over) can be made for it. A site administrator enters any team directly.

A player is asked for in the same way (SignupInvitation): a club night signs up its own club's
players directly; a player of another club becomes one of its entrants only when a secretary of
the player's club accepts, and until then is in no pairing, table, ranking or page of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Competition, Invitation, Player, SignupInvitation, Team

from .versions import competition_version_bump
from .audit import audit_log
from .errors import DomainError
from .seasons import require_open

__all__ = ["invitation_answer", "invitations_sync", "refuse_rotating", "signup_invitation_answer", "signup_invitations_sync"]

I = Invitation.Status  # noqa: E741 - the model's own short name, as S for Match.Status


def invitations_sync(*, user, competition: Competition, teams: Iterable[Team]) -> list[Team]:
    """Of the chosen `teams`, those the competition may enter now (its own club's, those already
    entered, and any for a site administrator); the others are invited, and an invitation for a
    team no longer chosen is withdrawn. Call inside the competition's transaction."""
    teams = list(teams)
    entered = set(competition.teams.values_list("pk", flat=True))
    refuse_rotating(competition, [team for team in teams if team.pk not in entered])
    direct: list[Team] = []
    invited: set[int] = set()
    for team in teams:
        if team.pk in entered or team.club_id == competition.organiser_id or permissions.is_site_admin(user):
            direct.append(team)
            continue
        invited.add(team.pk)
        invitation, created = Invitation.objects.get_or_create(
            competition=competition, team=team, defaults={"invited_by": user}
        )
        if not created and invitation.status == I.DECLINED:
            # Asked again after a no: a new question for the team's club.
            invitation.status, invitation.invited_by = I.PENDING, user
            invitation.answered_by, invitation.answered_at = None, None
            invitation.invited_at = timezone.now()
            invitation.save()
        if created or invitation.status == I.PENDING:
            audit_log(match=None, user=user, action="team invited", object_type="invitation",
                      object_id=invitation.pk, after={"competition": competition.pk, "team": team.pk})  # fmt: skip
        elif invitation.status == I.ACCEPTED:
            direct.append(team)  # accepted earlier, then left out and chosen again
    Invitation.objects.filter(competition=competition, status=I.PENDING).exclude(team__in=invited).delete()
    return direct


def refuse_rotating(competition: Competition, teams: Iterable[Team]) -> None:
    """A club night's rotating partnership (services.individual) plays only in its club night: it
    enters no league, cup or other club's competition, invited or not."""
    names = sorted(
        team.name for team in teams
        if team.rotating and (competition.kind != Competition.Kind.INDIVIDUAL or team.club_id != competition.organiser_id)
    )  # fmt: skip
    if names:
        raise DomainError(
            _("A club night's rotating partnership plays only in its club night: %(names)s.") % {"names": ", ".join(names)}
        )


@transaction.atomic
def invitation_answer(*, user, invitation: Invitation, accept: bool) -> Invitation:
    """The team's club accepts (the team enters the competition) or declines an invitation."""
    locked = Invitation.objects.select_for_update().select_related("team", "competition").get(pk=invitation.pk)
    if not permissions.can_manage_club(user, locked.team.club):
        raise PermissionDenied(_("You may not change this."))
    if locked.status != I.PENDING:
        raise DomainError(_("This invitation has already been answered."))
    require_open(locked.competition)
    locked.status = I.ACCEPTED if accept else I.DECLINED
    locked.answered_by, locked.answered_at = user, timezone.now()
    locked.save()
    if accept:
        locked.competition.teams.add(locked.team)
        competition_version_bump([locked.competition_id])
    audit_log(match=None, user=user, action="invitation accepted" if accept else "invitation declined",
              object_type="invitation", object_id=locked.pk,
              after={"competition": locked.competition_id, "team": locked.team_id})  # fmt: skip
    return locked


# -- players of another club signed up for a club night ---------------------------------------


def signup_invitations_sync(*, user, competition: Competition, players: Iterable[Player]) -> list[Player]:
    """Of the chosen `players`, those the club night signs up now (its own club's, those signed up
    already, and any for a site administrator); the others are asked for, and a request for a
    player no longer chosen is withdrawn. Call inside the competition's transaction."""
    entered = set(competition.entrants.values_list("pk", flat=True))
    direct: list[Player] = []
    invited: set[int] = set()
    for player in players:
        if player.pk in entered or player.club_id == competition.organiser_id or permissions.is_site_admin(user):
            direct.append(player)
            continue
        invited.add(player.pk)
        invitation, created = SignupInvitation.objects.get_or_create(
            competition=competition, player=player, defaults={"invited_by": user}
        )
        if not created and invitation.status == I.DECLINED:
            # Asked again after a no: a new question for the player's club.
            invitation.status, invitation.invited_by = I.PENDING, user
            invitation.answered_by, invitation.answered_at = None, None
            invitation.invited_at = timezone.now()
            invitation.save()
        if created or invitation.status == I.PENDING:
            audit_log(match=None, user=user, action="player invited", object_type="signup_invitation",
                      object_id=invitation.pk, after={"competition": competition.pk, "player": player.pk})  # fmt: skip
        elif invitation.status == I.ACCEPTED:
            direct.append(player)  # accepted earlier, then left out and chosen again
    SignupInvitation.objects.filter(competition=competition, status=I.PENDING).exclude(player__in=invited).delete()
    return direct


@transaction.atomic
def signup_invitation_answer(*, user, invitation: SignupInvitation, accept: bool) -> SignupInvitation:
    """The player's club accepts (the player is signed up for the club night) or declines."""
    locked = SignupInvitation.objects.select_for_update().select_related("player", "competition").get(pk=invitation.pk)
    if not permissions.can_manage_club(user, locked.player.club):
        raise PermissionDenied(_("You may not change this."))
    if locked.status != I.PENDING:
        raise DomainError(_("This invitation has already been answered."))
    require_open(locked.competition)
    locked.status = I.ACCEPTED if accept else I.DECLINED
    locked.answered_by, locked.answered_at = user, timezone.now()
    locked.save()
    if accept:
        locked.competition.entrants.add(locked.player)
        # The player now appears among the club night's entrants: its pages change.
        competition_version_bump([locked.competition_id])
    audit_log(match=None, user=user, action="player invitation accepted" if accept else "player invitation declined",
              object_type="signup_invitation", object_id=locked.pk,
              after={"competition": locked.competition_id, "player": locked.player_id})  # fmt: skip
    return locked
