"""A competition's enrolment rules, checked whenever its teams or a team's players change: how many
players a team has (its pair and reserves, `Competition.team_players_min` and `team_players_max`:
exactly 2, or 2 to 4), and whether a player may play for two of its teams
(`Competition.one_team_per_player`).

The services that enter teams (competition_save, an accepted invitation) and that change a team's
players (team_save) ask `require_enrolment_rules` inside their transactions; a refusal names the
team, the player and the competition. A club night's partnerships rotate and are drawn by the site
(services.individual): the rules are for teams entered by hand and are not asked of them. An
archive is not checked again (it can no longer change).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _, gettext_lazy, ngettext

from scoring.models import Competition, Player, Team

from .errors import DomainError


class EnrolmentError(DomainError):
    default_message = gettext_lazy("The team does not meet the competition's rules for its teams.")


def team_players(teams: Iterable[Team]) -> dict[int, set[int]]:
    """Each team's players as stored: its pair and its reserves (one query for the reserves)."""
    teams = list(teams)
    players = {team.pk: {team.player_one_id, team.player_two_id} for team in teams}
    reserves = Team.reserves.through.objects.filter(team_id__in=players).values_list("team_id", "player_id")
    for team_id, player_id in reserves:
        players[team_id].add(player_id)
    return players


def require_enrolment_rules(competition: Competition, teams: Iterable[Team],
                            players: Mapping[int, set[int]] | None = None) -> None:  # fmt: skip
    """Refuse (EnrolmentError) when one of `teams`, as entered in `competition`, breaks its rules.
    `players` gives a team's players as they are about to be saved (a team being changed), by the
    team's id; the others' are read."""
    if competition.kind == Competition.Kind.INDIVIDUAL or competition.archived:
        return
    teams = [team for team in teams if not team.rotating]
    rosters = team_players(team for team in teams if team.pk is not None)
    rosters.update(players or {})
    names = {team.pk: team.name for team in teams}
    low, high = competition.team_players_min, competition.team_players_max
    for team in sorted(teams, key=lambda team: team.name):
        count = len(rosters.get(team.pk, ()))
        if count < low or (high is not None and count > high):
            raise EnrolmentError(_size_message(competition, team.name, count, low, high))
    if competition.one_team_per_player:
        seen: dict[int, int] = {}
        for team in sorted(teams, key=lambda team: team.name):
            for player_id in sorted(rosters.get(team.pk, ())):
                other = seen.setdefault(player_id, team.pk)
                if other != team.pk:
                    raise EnrolmentError(_(
                        "%(player)s plays for both %(team)s and %(other)s: in %(competition)s a player plays for "
                        "one team only."
                    ) % {"player": _player_name(player_id), "team": names[other], "other": team.name,
                         "competition": competition.name})  # fmt: skip


def _size_message(competition: Competition, team: str, count: int, low: int, high: int | None) -> str:
    has = ngettext("%(team)s has %(count)s player", "%(team)s has %(count)s players", count) % {
        "team": team, "count": count}
    if high == low:
        rule = ngettext("a team in %(competition)s has exactly %(number)s player",
                        "a team in %(competition)s has exactly %(number)s players", low)
        return _("%(has)s: %(rule)s.") % {"has": has, "rule": rule % {"competition": competition.name, "number": low}}
    if high is None:
        rule = ngettext("a team in %(competition)s has at least %(number)s player",
                        "a team in %(competition)s has at least %(number)s players", low)
        return _("%(has)s: %(rule)s.") % {"has": has, "rule": rule % {"competition": competition.name, "number": low}}
    rule = _("a team in %(competition)s has %(low)s to %(high)s players") % {
        "competition": competition.name, "low": low, "high": high}
    return _("%(has)s: %(rule)s.") % {"has": has, "rule": rule}


def _player_name(player_id: int) -> str:
    return Player.objects.filter(pk=player_id).values_list("name", flat=True).first() or str(player_id)


def require_team_change_allowed(team: Team, players: set[int]) -> None:
    """A team's players about to change to `players` (its pair and reserves): refused when a
    competition the team plays in, not yet an archive, would not have it so."""
    for competition in Competition.objects.filter(teams=team, archived=False).exclude(kind=Competition.Kind.INDIVIDUAL):
        require_enrolment_rules(competition, [*competition.teams.exclude(pk=team.pk), team], {team.pk: players})
