"""Services for setting up a club's league: its players and teams (lag), the competitions it
organises, their rounds (omgångar) and matches added by hand.

A club secretary manages their own club's players and teams and the competitions the club
organises; a site admin manages everything. Each function checks that, re-checks the rules a
form also checks (a team is two players of its club; a match is between two teams of the
competition, in one of its rounds), and writes in one transaction. Matches are logged in the audit
log; a match's teams change only while nothing has been played.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Club, Competition, Match, Player, Round, Team
from scoring.selectors import with_play

from .audit import audit_log, match_snapshot
from .enrolment import require_enrolment_rules, require_team_change_allowed
from .errors import DomainError, MatchStateError
from .derived import derived_refresh
from .figures import figures_refresh
from .rating import rating_refresh
from .standings import standings_refresh
from .invitations import invitations_sync
from .locking import lock, lock_competition, lock_match, lock_matches
from .seasons import require_open_season

__all__ = [
    "competition_save",
    "match_create",
    "match_schedule_update",
    "player_save",
    "round_save",
    "team_save",
]

S = Match.Status


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You may not change this."))


def _require_club(user, club: Club) -> None:
    _require(permissions.can_manage_club(user, club))


def _stored_club_id(model, pk) -> int | None:
    if pk is None:
        return None
    return model.objects.filter(pk=pk).values_list("club_id", flat=True).first()


@transaction.atomic
def player_save(*, user, player: Player) -> Player:
    """Create or change a player of a club the user manages (a player never changes club here)."""
    _require_club(user, player.club)
    stored = _stored_club_id(Player, player.pk)
    if stored is not None:
        _require(permissions.can_manage_club(user, stored) and stored == player.club_id)
    player.name = player.name.strip()
    # One person, one row: "Anna Berg" and "anna berg" are the same player to a reader. Two members
    # who do share a name are told apart by their member numbers (the form says the same).
    same = Player.objects.filter(club=player.club, name__iexact=player.name).exclude(pk=player.pk)
    if same.filter(member_number="").exists() or (not player.member_number and same.exists()):
        raise DomainError(
            _("The club already has a player called %(name)s. If they are two people, give both a member number.")
            % {"name": player.name}
        )
    player.save()
    lock(player)  # where it is shown: a player stays in its club
    return player


@transaction.atomic
def team_save(*, user, team: Team, reserves: Iterable[Player] | None = None) -> Team:
    """Create or change a team: two different players of the team's own club, and a captain; and
    its reserves, when given, players of its club too. The competitions it plays in must still
    have it so (services.enrolment)."""
    _require_club(user, team.club)
    stored = _stored_club_id(Team, team.pk)
    if stored is not None:
        _require(stored == team.club_id)
    if team.player_one_id == team.player_two_id:
        raise DomainError(_("A team is two different players."))
    team.name = team.name.strip()
    # "Essen" and "essen" are one team to the people reading the tables (the database says so too).
    if Team.objects.filter(club=team.club, name__iexact=team.name).exclude(pk=team.pk).exists():
        raise DomainError(_("The club already has a team called %(name)s.") % {"name": team.name})
    if team.player_one.club_id != team.club_id or team.player_two.club_id != team.club_id:
        raise DomainError(_("Both players must belong to the team's club."))
    if team.pk is not None and _players_change(team) and with_play(Match.objects.filter(Q(home_team=team) | Q(away_team=team))).exists():
        # Protocols, the players' pages and their statistics name a match's players through its
        # team: new players would take over the old ones' matches.
        raise DomainError(_(
            "%(team)s has played matches, and their protocols must keep the players who played them. "
            "Form a new team for the new pair."
        ) % {"team": team.name})
    reserves = None if reserves is None else list(reserves)
    if reserves is not None and any(player.club_id != team.club_id for player in reserves):
        raise DomainError(_("A team's reserves must belong to the team's club."))
    if team.pk is not None:
        kept = set(team.reserves.values_list("pk", flat=True)) if reserves is None else {p.pk for p in reserves}
        require_team_change_allowed(team, {team.player_one_id, team.player_two_id} | kept)
    team.save()
    if reserves is not None:
        team.reserves.set([player for player in reserves if player.pk not in (team.player_one_id, team.player_two_id)])
    lock(team)  # where it is shown: a team stays in its club
    return team


def _players_change(team: Team) -> bool:
    stored = Team.objects.filter(pk=team.pk).values_list("player_one_id", "player_two_id").first()
    return stored is not None and set(stored) != {team.player_one_id, team.player_two_id}


@transaction.atomic
def competition_save(*, user, competition: Competition, teams: Iterable[Team] | None = None) -> Competition:
    """Create or change a competition the user's club organises, and choose its teams.

    Teams that already have a match in the competition stay in it: removing them would orphan
    their matches. A chosen team of another club is invited, and enters when its club accepts
    (services.invitations)."""
    _require(permissions.can_manage_competition(user, competition))
    rated_by = None
    if competition.pk:
        stored = lock_competition(competition)
        _require(permissions.can_manage_competition(user, stored))
        competition.edition = stored.edition  # the form's copy is saved whole: with the edition moved
        rated_by = (stored.is_public, stored.requires_confirmation)
    require_open_season(competition.season)
    competition.save()
    if teams is not None:
        teams = list(teams)
        chosen = {team.pk for team in teams}
        playing = set(
            Match.objects.filter(competition=competition).values_list("home_team_id", flat=True)
        ) | set(Match.objects.filter(competition=competition).values_list("away_team_id", flat=True))
        missing = playing - chosen
        if missing:
            names = ", ".join(sorted(str(t) for t in Team.objects.filter(pk__in=missing)))
            raise DomainError(
                _("These teams have matches in the competition and cannot be removed: %(names)s.")
                % {"names": names}
            )
        require_enrolment_rules(competition, teams)
        competition.teams.set(invitations_sync(user=user, competition=competition, teams=teams))
    else:
        require_enrolment_rules(competition, competition.teams.all())
    # Its points rules, whether results need confirmation, or its teams may have changed; and
    # with whether it is public and needs confirmation, which of its results are rated
    # (services.rating) and in its figures' sums (services.figures).
    if rated_by not in (None, (competition.is_public, competition.requires_confirmation)):
        derived_refresh(competitions=[competition], matches=competition.matches.values_list("pk", flat=True))
    else:
        standings_refresh(competition=competition)
    return competition


@transaction.atomic
def round_save(*, user, round: Round) -> Round:  # noqa: A002 - the model's name
    _require(permissions.can_manage_competition(user, round.competition))
    lock_competition(round.competition)
    if round.pk:
        stored_competition = Round.objects.filter(pk=round.pk).values_list("competition_id", flat=True).first()
        _require(stored_competition == round.competition_id)
    if Round.objects.filter(competition=round.competition, number=round.number).exclude(pk=round.pk).exists():
        raise DomainError(_("The competition already has a round %(number)s.") % {"number": round.number})
    existed = round.pk is not None
    old_date = Round.objects.filter(pk=round.pk).values_list("date", flat=True).first() if round.pk else None
    round.save()
    if existed and round.date != old_date:
        figures_refresh(competitions=[round.competition_id])  # the month its results were played in
    if old_date and round.date and round.date != old_date:
        _move_matches_with_their_round(user, round, old_date)
        # The day orders the results typed in without a time (selectors.rating.in_played_order).
        rating_refresh(matches=round.matches.values_list("pk", flat=True))
    return round


def _move_matches_with_their_round(user, round: Round, old_date) -> None:  # noqa: A002
    """A round moved to another day takes its matches not yet begun that were set for its old
    day along, at the same time of day: the pages, the printed protocols and the teams' calendar
    feeds then all give the new day. A match given a day of its own (postponed) stays."""
    for match in lock_matches(Match.objects.filter(round=round, status=S.SCHEDULED, scheduled_start__isnull=False)):
        start = timezone.localtime(match.scheduled_start)
        if start.date() != old_date:
            continue
        before = match_snapshot(match)
        match.scheduled_start = timezone.make_aware(datetime.combine(round.date, start.time().replace(tzinfo=None)))
        match.save(update_fields=["scheduled_start", "version", "updated_at"])
        audit_log(match=match, user=user, action="match_update", before=before, after=match_snapshot(match),
                  reason=_("The round was moved to another day."))


def _check_pairing(
    competition: Competition,
    round: Round | None,  # noqa: A002
    table: int | None,
    home_team: Team,
    away_team: Team,
    exclude_pk: int | None = None,
) -> None:
    if home_team.pk == away_team.pk:
        raise DomainError(_("A team cannot play itself: choose two different teams."))
    entered = set(competition.teams.values_list("pk", flat=True))
    if home_team.pk not in entered or away_team.pk not in entered:
        raise DomainError(_("Both teams must take part in the competition."))
    if round is not None:
        if round.competition_id != competition.pk:
            raise DomainError(_("The round belongs to another competition."))
        others = Match.objects.filter(round=round).exclude(pk=exclude_pk)
        busy = others.filter(home_team__in=[home_team, away_team]) | others.filter(
            away_team__in=[home_team, away_team]
        )
        if busy.exists():
            raise DomainError(_("One of the teams already plays a match in this round."))
        if table is not None and others.filter(table=table).exists():
            raise DomainError(_("Table %(table)s is already taken in this round.") % {"table": table})


@transaction.atomic
def match_create(
    *,
    user,
    competition: Competition,
    round: Round | None,  # noqa: A002
    table: int | None,
    home_team: Team,
    away_team: Team,
    scheduled_start: datetime | None = None,
) -> Match:
    """Add one match by hand (schedules are generated elsewhere)."""
    _require(permissions.can_manage_competition(user, competition))
    lock_competition(competition)
    _check_pairing(competition, round, table, home_team, away_team)
    match = Match.objects.create(
        competition=competition,
        round=round,
        table=table,
        home_team=home_team,
        away_team=away_team,
        scheduled_start=scheduled_start,
    )
    audit_log(match=match, user=user, action="match_create", after=match_snapshot(match))
    return match


@transaction.atomic
def match_schedule_update(
    *,
    user,
    match: Match,
    expected_version: int | None,
    round: Round | None,  # noqa: A002
    table: int | None,
    home_team: Team,
    away_team: Team,
    scheduled_start: datetime | None,
) -> Match:
    """Change when and where a match is played; its teams only while nothing has been played."""
    locked = lock_match(match, expected_version)
    _require(permissions.can_manage_competition(user, locked.competition))
    teams_change = (home_team.pk, away_team.pk) != (locked.home_team_id, locked.away_team_id)
    if teams_change and (locked.deal_count or locked.status not in Match.NOT_STARTED_STATUSES):
        raise MatchStateError(_("The teams of a match that has been played cannot be changed."))
    _check_pairing(locked.competition, round, table, home_team, away_team, exclude_pk=locked.pk)
    before = {**match_snapshot(locked), "round": locked.round_id, "table": locked.table,
              "home_team": locked.home_team_id, "away_team": locked.away_team_id}
    locked.round = round
    locked.table = table
    locked.home_team = home_team
    locked.away_team = away_team
    locked.scheduled_start = scheduled_start
    locked.save()
    # Byes count by their round's results; its round and start order it among the rated
    # matches; its round and month are where its figures are summed, if it counts.
    derived_refresh(competitions=[locked.competition], matches=[locked])
    after = {**match_snapshot(locked), "round": locked.round_id, "table": locked.table,
             "home_team": locked.home_team_id, "away_team": locked.away_team_id}
    audit_log(match=locked, user=user, action="match_update", before=before, after=after)
    return locked
