"""Entering a team of another club into a competition: an invitation its club accepts or declines.

A competition's organiser enters the organising club's own teams directly. A team of another club
is invited instead (competition_save calls invitations_sync): it becomes one of the competition's
teams only when a secretary of the team's club accepts. Until then it is not among the
competition's teams, so it is in no standings, results, feed or document, and no match (and so no
walk over) can be made for it. A site administrator enters any team directly.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Competition, Invitation, Team

from .versions import competition_version_bump
from .audit import audit_log
from .errors import DomainError

__all__ = ["invitation_answer", "invitations_sync"]

I = Invitation.Status  # noqa: E741 - the model's own short name, as S for Match.Status


def invitations_sync(*, user, competition: Competition, teams: Iterable[Team]) -> list[Team]:
    """Of the chosen `teams`, those the competition may enter now (its own club's, those already
    entered, and any for a site administrator); the others are invited, and an invitation for a
    team no longer chosen is withdrawn. Call inside the competition's transaction."""
    teams = list(teams)
    entered = set(competition.teams.values_list("pk", flat=True))
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


@transaction.atomic
def invitation_answer(*, user, invitation: Invitation, accept: bool) -> Invitation:
    """The team's club accepts (the team enters the competition) or declines an invitation."""
    locked = Invitation.objects.select_for_update().select_related("team", "competition").get(pk=invitation.pk)
    if not permissions.can_manage_club(user, locked.team.club):
        raise PermissionDenied(_("You may not change this."))
    if locked.status != I.PENDING:
        raise DomainError(_("This invitation has already been answered."))
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
