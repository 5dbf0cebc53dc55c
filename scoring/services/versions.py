"""The versions the public pages' validators are made of, moved by the services in their own
transactions (docs/architecture.md, "What is kept (caching)").

Every service that changes something a public page or document shows calls one of these before it
returns, inside its transaction, so the new version is committed with the change or not at all:

| change                                                     | versions moved                        |
|------------------------------------------------------------|---------------------------------------|
| a deal, result, walk over, confirmation, dispute, correction | the match's competition              |
| a competition's rules or settings, its rounds and matches  | that competition                      |
| a team, player or club renamed, merged, added or deleted   | every competition it appears in, and the clubs whose pages list it |
| a season closed or reopened                                | the season's competitions             |

A version is a counter per row: a page of one competition reads that competition's; a page of
several (a team's, a player's, a club's, the lists) reads the sum and count of theirs
(scoring.selectors.versions), which moves whenever one of them does.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q

from scoring.models import Club, Competition, Match, Player, Team


def require_transaction() -> None:
    """A version moved outside the change's transaction could be read before the change commits,
    and a page drawn from the old data would be kept under the new validator."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("A version is moved inside the transaction of the change it stands for.")


def competition_version_bump(competition_ids: Iterable[int]) -> None:
    """Move the version of each competition named: every public page and document of it gets a new
    validator."""
    require_transaction()
    ids = {pk for pk in competition_ids if pk is not None}
    if ids:
        Competition.objects.filter(pk__in=ids).update(version=F("version") + 1)


def club_version_bump(club_ids: Iterable[int]) -> None:
    """Move the version of each club named: its page, the club list and the pages naming its
    players and teams get a new validator."""
    require_transaction()
    ids = {pk for pk in club_ids if pk is not None}
    if ids:
        Club.objects.filter(pk__in=ids).update(version=F("version") + 1)


def appearances_version_bump(*, team_ids: Iterable[int] = (), player_ids: Iterable[int] = (), club_ids: Iterable[int] = ()) -> None:
    """A team, player or club changed (renamed, merged, added, deleted): move every competition it
    appears in (as a team, a player of a team, a substitute, an entrant, an organiser) and the
    clubs whose pages list it. Call it before a deletion, while the rows still say where they
    appear, and after a move, for the new place."""
    team_ids, player_ids, club_ids = set(team_ids), set(player_ids), set(club_ids)
    teams = Team.objects.filter(Q(pk__in=team_ids) | Q(player_one__in=player_ids) | Q(player_two__in=player_ids) | Q(club__in=club_ids))
    team_ids |= set(teams.values_list("pk", flat=True))
    competitions = set(
        Competition.objects.filter(
            Q(teams__in=team_ids) | Q(entrants__in=player_ids) | Q(organiser__in=club_ids)
        ).values_list("pk", flat=True)
    )
    competitions |= set(
        Match.objects.filter(
            Q(home_team__in=team_ids) | Q(away_team__in=team_ids)
            | Q(home_substitute__in=player_ids) | Q(away_substitute__in=player_ids)
        ).values_list("competition_id", flat=True)
    )  # fmt: skip
    competition_version_bump(competitions)
    clubs = set(club_ids)
    clubs |= set(Team.objects.filter(pk__in=team_ids).values_list("club_id", flat=True))
    clubs |= set(Player.objects.filter(pk__in=player_ids).values_list("club_id", flat=True))
    club_version_bump(clubs)


def versions_bump_for(*objects) -> None:
    """Move the versions of what shows each of `objects` (a player, team, club, competition, round
    or match): the one call of a service that changes rows of several kinds."""
    from scoring.models import Round

    competitions, clubs, teams, players = set(), set(), set(), set()
    for obj in objects:
        if isinstance(obj, Player):
            players.add(obj.pk)
        elif isinstance(obj, Team):
            teams.add(obj.pk)
        elif isinstance(obj, Club):
            clubs.add(obj.pk)
        elif isinstance(obj, Competition):
            competitions.add(obj.pk)
            clubs.add(obj.organiser_id)
        elif isinstance(obj, (Round, Match)):
            competitions.add(obj.competition_id)
        else:
            raise TypeError(obj)
    competition_version_bump(competitions)
    club_version_bump(clubs)
    if teams or players:
        appearances_version_bump(team_ids=teams, player_ids=players)
