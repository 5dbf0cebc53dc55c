"""Deleting what was set up by mistake: a player entered twice, a team, a round or a match not yet
played. What has results is never deleted: a player or team with played matches is archived (kept
for the protocols and tables that name it, left out of new teams and competitions); a round or
match with play is refused (void the match instead).

`deletion_plan` says what goes with a thing, for the confirmation page; `delete_or_archive` does
it in one transaction, re-checking the plan, and logs it in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Bye, Competition, Match, Player, Round, Team
from scoring.selectors import with_play

from .locking import lock
from .audit import audit_log, match_snapshot
from .errors import DomainError
from .figures import figures_refresh
from .rating import rating_refresh_after_deleting
from .seasons import SeasonClosedError, archive_refusal

DELETE, ARCHIVE, REFUSE = "delete", "archive", "refuse"


@dataclass
class DeletionPlan:
    kind: str  # "player", "team", "round", "match"
    name: str
    outcome: str  # DELETE, ARCHIVE or REFUSE
    goes_with: list[str] = field(default_factory=list)  # what is deleted together with it
    reason: str = ""  # why it is archived or refused
    season_closed: bool = False  # refused because it would change a closed season's archive

    @property
    def archives(self) -> bool:
        return self.outcome == ARCHIVE


def _match_name(match: Match) -> str:
    where = _("round %(number)s") % {"number": match.round.number} if match.round_id else ""
    return f"{match.home_team.name} – {match.away_team.name}" + (f" ({where})" if where else "")


def _teams_matches(teams) -> Q:
    return Q(home_team__in=teams) | Q(away_team__in=teams)


def deletion_plan(obj) -> DeletionPlan:
    plan = _plan(obj)
    if plan.outcome == DELETE:
        # Deleting takes its matches, rounds and places in competitions along: never out of a
        # closed season's archive (services.seasons).
        refusal = archive_refusal(_competitions_changed(obj))
        if refusal:
            return DeletionPlan(plan.kind, plan.name, REFUSE, reason=refusal, season_closed=True)
    return plan


def _competitions_changed(obj) -> list[Competition]:
    """The competitions deleting `obj` changes."""
    if isinstance(obj, (Round, Match)):
        return [obj.competition]
    teams = [obj] if isinstance(obj, Team) else list(Team.objects.filter(Q(player_one=obj) | Q(player_two=obj)))
    changed = Q(teams__in=teams) | Q(matches__in=Match.objects.filter(_teams_matches(teams)))
    if isinstance(obj, Player):
        changed |= Q(entrants=obj) | Q(rounds__sitting_out=obj)
    return list(Competition.objects.filter(changed).distinct())


def _plan(obj) -> DeletionPlan:
    if isinstance(obj, Player):
        teams = list(Team.objects.filter(Q(player_one=obj) | Q(player_two=obj)))
        matches = Match.objects.filter(_teams_matches(teams)).select_related("home_team", "away_team", "round")
        if with_play(matches).exists():
            return DeletionPlan("player", obj.name, ARCHIVE, reason=_(
                "The player has played: the protocols keep the name. The player is archived instead, "
                "and left out when teams are formed."))
        goes = [_("team %(name)s") % {"name": team.name} for team in teams]
        goes += [_("match %(match)s, not played") % {"match": _match_name(m)} for m in matches]
        return DeletionPlan("player", obj.name, DELETE, goes)
    if isinstance(obj, Team):
        matches = Match.objects.filter(_teams_matches([obj])).select_related("home_team", "away_team", "round")
        if with_play(matches).exists():
            return DeletionPlan("team", obj.name, ARCHIVE, reason=_(
                "The team has played: its results stay in the tables. The team is archived instead, "
                "and left out when competitions are set up."))
        goes = [_("match %(match)s, not played") % {"match": _match_name(m)} for m in matches]
        goes += [_("its place in %(competition)s") % {"competition": c} for c in obj.competitions.all()]
        return DeletionPlan("team", obj.name, DELETE, goes)
    if isinstance(obj, Round):
        matches = obj.matches.select_related("home_team", "away_team", "round")
        name = f"{obj} · {obj.competition}"
        if with_play(matches).exists():
            return DeletionPlan("round", name, REFUSE, reason=_(
                "Matches of this round have been played. A round with results is kept; void a match "
                "that should not count."))
        goes = [_("match %(match)s, not played") % {"match": _match_name(m)} for m in matches]
        goes += [_("the bye of %(team)s") % {"team": bye.team.name} for bye in obj.byes.select_related("team")]
        return DeletionPlan("round", name, DELETE, goes)
    if isinstance(obj, Match):
        if with_play(Match.objects.filter(pk=obj.pk)).exists():
            return DeletionPlan("match", _match_name(obj), REFUSE, reason=_(
                "The match has been played or started. A match with results is kept; void it if it "
                "should not count."))
        return DeletionPlan("match", _match_name(obj), DELETE)
    raise TypeError(obj)


def _may(user, obj) -> bool:
    if isinstance(obj, (Player, Team)):
        return permissions.can_manage_club(user, obj.club)
    return permissions.can_manage_competition(user, obj.competition)


@transaction.atomic
def delete_or_archive(*, user, obj) -> DeletionPlan:
    """Delete `obj` with what goes with it, or archive it if it has results; refuse a round or match
    with play. Returns the plan carried out."""
    if not _may(user, obj):
        raise PermissionDenied(_("You may not change this."))
    pk = obj.pk
    # Before the rows go, while they still say where they appear.
    try:
        lock(obj)
    except type(obj).DoesNotExist:
        raise DomainError() from None  # deleted meanwhile, by someone else
    plan = deletion_plan(obj)
    if plan.outcome == REFUSE:
        raise (SeasonClosedError if plan.season_closed else DomainError)(plan.reason)
    before = {"kind": plan.kind, "name": plan.name, "goes_with": plan.goes_with}
    if plan.outcome == ARCHIVE:
        type(obj).objects.filter(pk=pk).update(archived=True)
        audit_log(match=None, user=user, action=f"{plan.kind}_archive", before=before,
                  object_type=plan.kind, object_id=pk)  # fmt: skip
        return plan
    changed = _competitions_changed(obj)  # while the rows still say which (their figure sums)
    if isinstance(obj, Match):
        before["match"] = match_snapshot(obj)
        obj.delete()
    elif isinstance(obj, Round):
        obj.matches.all().delete()
        obj.delete()
    elif isinstance(obj, Team):
        Match.objects.filter(_teams_matches([obj])).delete()
        Bye.objects.filter(team=obj).delete()
        obj.competitions.clear()
        obj.delete()
    else:
        teams = list(Team.objects.filter(Q(player_one=obj) | Q(player_two=obj)))
        Match.objects.filter(_teams_matches(teams)).delete()
        for team in teams:
            team.competitions.clear()
            team.delete()
        obj.delete()
    rating_refresh_after_deleting()
    figures_refresh(competitions=changed)
    audit_log(match=None, user=user, action=f"{plan.kind}_delete", before=before,
              object_type=plan.kind, object_id=pk)  # fmt: skip
    return plan

