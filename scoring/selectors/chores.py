"""Reads for the season's chores: who is checked in for a day's draw, a match's moves by agreement,
and the matches overdue for a reminder (scoring.services.checkin, moves, reminders).

Who may see what is decided by scoring.permissions in the views; these reads only say what there is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Q, QuerySet

from scoring import permissions
from scoring.models import CheckIn, Competition, Match, MatchMove, Player, Reminder, Team

from .names import order_by_name

S = Match.Status


# -- check-in before the draw ----------------------------------------------------------------------


def checked_in_ids(competition: Competition, day: date) -> set[int]:
    """The ids of the teams (a tournament) or players (a club night) checked in on `day`."""
    column = "player_id" if competition.kind == Competition.Kind.INDIVIDUAL else "team_id"
    return set(CheckIn.objects.filter(competition=competition, day=day).values_list(column, flat=True))


def check_in_candidates(competition: Competition) -> QuerySet:
    """Who may be checked in: the competition's teams, or a club night's players signed up."""
    if competition.kind == Competition.Kind.INDIVIDUAL:
        return order_by_name(competition.entrants.select_related("club"))
    return order_by_name(competition.teams.select_related("club"))


def present_teams(competition: Competition, day: date) -> list[Team]:
    """The teams a tournament's draw of `day` pairs: those checked in, or all when nobody is."""
    teams = list(competition.teams.all())
    present = checked_in_ids(competition, day)
    return [team for team in teams if team.pk in present] if present else teams


def present_players(competition: Competition, day: date) -> list[Player]:
    """The players a club night's draw of `day` pairs: those checked in, or all when nobody is."""
    players = list(competition.entrants.all())
    present = checked_in_ids(competition, day)
    return [player for player in players if player.pk in present] if present else players


# -- matches moved by agreement ----------------------------------------------------------------------


def match_moves(match: Match) -> list[MatchMove]:
    """A match's proposals, the latest first, with who did what."""
    return list(match.moves.select_related("proposed_by", "answered_by", "approved_by"))


def open_move(match: Match) -> MatchMove | None:
    """The proposal still to be decided, if any."""
    return match.moves.filter(status__in=MatchMove.OPEN_STATUSES).first()


def moves_to_decide(user) -> list[MatchMove]:
    """The proposals waiting for the user's yes or no: a new date for a match whose away side the
    user answers for (permissions.can_answer_move, as a query), or one both teams agreed to in a
    competition the user organises (can_approve_move)."""
    clubs = sorted(permissions.secretary_club_ids(user))
    answer = Q(status=MatchMove.Status.WAITING_AWAY, match__in=Match.objects.filter(
        permissions.confirmer_matches(user, clubs))) & ~Q(proposed_by=user)  # fmt: skip
    approve = Q(status=MatchMove.Status.WAITING_ORGANISER) & permissions.managed_by(user, "match__competition__organiser")
    return list(MatchMove.objects.filter(answer | approve, match__competition__archived=False)
                .select_related("match__home_team", "match__away_team", "match__competition").order_by("new_start", "pk"))  # fmt: skip


def competition_open_moves(competition: Competition) -> list[MatchMove]:
    """The competition's proposals still to be decided, for its organiser's page: none in an
    archive, whose matches can no longer move."""
    if competition.archived:
        return []
    return list(MatchMove.objects.filter(match__competition=competition, status__in=MatchMove.OPEN_STATUSES)
                .select_related("match__home_team", "match__away_team").order_by("new_start", "pk"))  # fmt: skip


# -- reminders -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Overdue:
    """A match overdue for its protocol or its confirmation, and the reminder sent about it, if any."""

    match: Match
    kind: str  # Reminder.Kind
    since: datetime | date
    reminded_at: datetime | None


def _waiting_confirmation(now: datetime, days: int) -> Q:
    cutoff = now - timedelta(days=days)
    return Q(competition__requires_confirmation=True, status__in=Match.CONFIRMABLE_STATUSES) & (
        Q(submitted_at__lte=cutoff) | Q(submitted_at__isnull=True, updated_at__lte=cutoff)
    )


def _without_protocol(now: datetime, days: int) -> Q:
    cutoff = now - timedelta(days=days)
    return Q(status=S.SCHEDULED, deal_count=0) & (
        Q(scheduled_start__lte=cutoff)
        | Q(scheduled_start__isnull=True, round__date__lte=(cutoff - timedelta(days=1)).date())
    )


def overdue_matches(now: datetime, competition: Competition | None = None) -> list[Overdue]:
    """The matches overdue by their competitions' `reminder_days`: a protocol waiting for
    confirmation since then (submitted, or finished and not submitted), or a match whose day has
    passed since then with nothing recorded. One query per distinct number of days (a handful)."""
    competitions = Competition.objects.filter(archived=False, reminder_days__isnull=False)
    if competition is not None:
        competitions = competitions.filter(pk=competition.pk)
    found: list[Overdue] = []
    for days in sorted(set(competitions.values_list("reminder_days", flat=True))):
        matches = Match.objects.filter(competition__in=competitions.filter(reminder_days=days))
        for kind, condition in ((Reminder.Kind.CONFIRMATION, _waiting_confirmation(now, days)),
                                (Reminder.Kind.PROTOCOL, _without_protocol(now, days))):  # fmt: skip
            rows = matches.filter(condition).select_related(
                "competition", "round", "home_team__club", "away_team__club"
            ).order_by("scheduled_start", "round__date", "pk")
            sent = dict(Reminder.objects.filter(match__in=rows, kind=kind).values_list("match_id", "sent_at"))
            for match in rows:
                if kind == Reminder.Kind.CONFIRMATION:
                    since = match.submitted_at or match.updated_at
                else:
                    since = match.scheduled_start or match.round.date
                found.append(Overdue(match, kind, since, sent.get(match.pk)))
    return found
