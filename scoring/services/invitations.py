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

from .audit import audit_log
from .enrolment import require_enrolment_rules
from .errors import DomainError
from .locking import lock_competition
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
    return _sync(user=user, competition=competition, model=Invitation, subject="team", chosen=teams,
                 entered=entered, action="team invited", object_type="invitation")  # fmt: skip


def _sync(*, user, competition: Competition, model, subject: str, chosen: list, entered: set[int], action: str,
          object_type: str) -> list:  # fmt: skip
    """What invitations_sync and signup_invitations_sync share: of the `chosen` teams or players
    (`subject`: the invitation's field naming them), those entered directly; the others asked for
    with an invitation of `model`, asked again after a no; a question no longer chosen withdrawn."""
    direct: list = []
    invited: set[int] = set()
    for chosen_one in chosen:
        if chosen_one.pk in entered or chosen_one.club_id == competition.organiser_id or permissions.is_site_admin(user):
            direct.append(chosen_one)
            continue
        invited.add(chosen_one.pk)
        invitation, created = model.objects.get_or_create(
            competition=competition, **{subject: chosen_one}, defaults={"invited_by": user}
        )
        if not created and invitation.status == I.DECLINED:
            # Asked again after a no: a new question for its club.
            invitation.status, invitation.invited_by = I.PENDING, user
            invitation.answered_by, invitation.answered_at = None, None
            invitation.invited_at = timezone.now()
            invitation.save()
        if created or invitation.status == I.PENDING:
            audit_log(match=None, user=user, action=action, object_type=object_type,
                      object_id=invitation.pk, after={"competition": competition.pk, subject: chosen_one.pk})  # fmt: skip
        elif invitation.status == I.ACCEPTED:
            direct.append(chosen_one)  # accepted earlier, then left out and chosen again
    model.objects.filter(competition=competition, status=I.PENDING).exclude(**{f"{subject}__in": invited}).delete()
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
    return _answer(user=user, model=Invitation, pk=invitation.pk, accept=accept, subject="team",
                   join=lambda competition: competition.teams, action="invitation", object_type="invitation")  # fmt: skip


def _answer(*, user, model, pk: int, accept: bool, subject: str, join, action: str, object_type: str):
    """What invitation_answer and signup_invitation_answer share: the club of the invitation's
    `subject` answers; accepted, it joins the competition (`join` gives the competition's set) and
    the competition's pages change."""
    locked = model.objects.select_for_update().select_related(subject, "competition").get(pk=pk)
    if not permissions.can_manage_club(user, getattr(locked, subject).club):
        raise PermissionDenied(_("You may not change this."))
    if locked.status != I.PENDING:
        raise DomainError(_("This invitation has already been answered."))
    require_open(locked.competition)
    locked.status = I.ACCEPTED if accept else I.DECLINED
    locked.answered_by, locked.answered_at = user, timezone.now()
    locked.save()
    if accept:
        competition = lock_competition(locked.competition)
        if subject == "team":  # entered as its own club's would be: by the competition's rules
            require_enrolment_rules(competition, [*competition.teams.all(), locked.team])
        join(competition).add(getattr(locked, subject))
    audit_log(match=None, user=user, action=f"{action} accepted" if accept else f"{action} declined",
              object_type=object_type, object_id=locked.pk,
              after={"competition": locked.competition_id, subject: getattr(locked, f"{subject}_id")})  # fmt: skip
    return locked


# -- players of another club signed up for a club night ---------------------------------------


def signup_invitations_sync(*, user, competition: Competition, players: Iterable[Player]) -> list[Player]:
    """Of the chosen `players`, those the club night signs up now (its own club's, those signed up
    already, and any for a site administrator); the others are asked for, and a request for a
    player no longer chosen is withdrawn. Call inside the competition's transaction."""
    entered = set(competition.entrants.values_list("pk", flat=True))
    return _sync(user=user, competition=competition, model=SignupInvitation, subject="player", chosen=list(players),
                 entered=entered, action="player invited", object_type="signup_invitation")  # fmt: skip


@transaction.atomic
def signup_invitation_answer(*, user, invitation: SignupInvitation, accept: bool) -> SignupInvitation:
    """The player's club accepts (the player is signed up for the club night) or declines."""
    return _answer(user=user, model=SignupInvitation, pk=invitation.pk, accept=accept, subject="player",
                   join=lambda competition: competition.entrants, action="player invitation",
                   object_type="signup_invitation")  # fmt: skip
