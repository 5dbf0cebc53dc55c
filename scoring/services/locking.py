"""How a service takes the row it changes, and moves the versions the public pages' validators are
made of (scoring.selectors.versions; docs/architecture.md, "What is kept (caching)").

A service locks what it changes with one of these, inside its transaction, before it changes it:
SELECT ... FOR UPDATE, held until the transaction ends, so two writers of one row are served one
after the other (on SQLite, which has no row locks, the connection opens its transactions
IMMEDIATE, settings.py). The same call moves the versions of the pages that show the row, so the new
versions are committed with the change or not at all, and no service places them by hand:

| locked                              | versions moved                                          |
|-------------------------------------|---------------------------------------------------------|
| a match (lock_match, lock_matches)  | the match's own, claimed (the service saves it), and its competition's |
| a competition (lock_competition), a round, a season | the competition's, the season's competitions' |
| a player, team or club (lock)       | every competition it appears in, and the clubs whose pages list it |

A page of several competitions (a club's, a team's, a player's, the lists, the rankings) reads the
count and sum of their versions, so it moves with any of them (a club's page with the competitions
it organises). A match or competition of a closed season is an archive: its locks refuse it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q, QuerySet

from scoring.models import Club, Competition, Match, Player, Round, Season, Team

from . import seasons
from .errors import StaleMatchError


def lock_matches(matches: QuerySet, *, expected_version: int | None = None, shown: bool = True) -> list[Match]:
    """The rows of `matches`, locked, with what deciding who may act reads. Refused when one is of
    a closed season (services.seasons.require_open), or changed since the form that carried
    `expected_version` was made (StaleMatchError: a concurrent edit is refused, never overwritten).
    A change a public page shows (`shown`) claims each match's next version, which the service saves
    with the match, and moves its competition's."""
    locked = list(matches.select_for_update(of=("self",)).select_related("competition", "home_team", "away_team"))
    for match in locked:
        if expected_version is not None and match.version != expected_version:
            raise StaleMatchError()
        seasons.require_open(match.competition)
        if shown:
            match.version += 1
    if shown:
        move_versions(*locked)
    return locked


def lock_match(match: Match, expected_version: int | None = None, *, shown: bool = True) -> Match:
    """One match's row, as lock_matches takes it; a match gone meanwhile is a stale form."""
    locked = lock_matches(Match.objects.filter(pk=match.pk), expected_version=expected_version, shown=shown)
    if not locked:
        raise StaleMatchError()
    return locked[0]


def lock_competition(competition: Competition) -> Competition:
    """The competition's row, locked, its version moved; refused in a closed season."""
    locked = lock(competition)
    seasons.require_open(locked)
    return locked


def lock(obj):
    """The row of `obj` (a player, team, club, competition, round or season) read again and locked,
    the versions of the pages that show it moved: call it before a change or a deletion, while the
    rows still say where it appears, and for a row just made or moved, after it. An archive is the
    caller's to refuse (deleting and merging say why in their plans)."""
    locked = type(obj).objects.select_for_update(of=("self",)).get(pk=obj.pk)
    move_versions(locked)
    if isinstance(locked, (Club, Competition)):
        locked.version += 1  # as moved in the row: a copy saved after this keeps it
    return locked


def move_versions(*objects) -> None:
    """Move the versions of the pages that show each of `objects` (table above), in the transaction
    of the change: moved outside it, a version could be read before the change commits, and a page
    drawn from the old data would be kept under the new validator. Without a lock: for rows no one
    else writes yet (matches stored in bulk) and for the admin."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("A version is moved inside the transaction of the change it stands for.")

    def of(*models) -> set:
        return {obj.pk for obj in objects if isinstance(obj, models)}

    players, teams, clubs = of(Player), of(Team), of(Club)
    competitions = Q(pk__in=of(Competition) | {obj.competition_id for obj in objects if isinstance(obj, (Round, Match))})
    competitions |= Q(season__in=[obj.name for obj in objects if isinstance(obj, Season)])
    if players or teams or clubs:
        of_them = Q(player_one__in=players) | Q(player_two__in=players) | Q(club__in=clubs)
        teams |= set(Team.objects.filter(of_them).values_list("pk", flat=True))
        played = Match.objects.filter(Q(home_team__in=teams) | Q(away_team__in=teams)
                                      | Q(home_substitute__in=players) | Q(away_substitute__in=players))  # fmt: skip
        competitions |= Q(teams__in=teams) | Q(entrants__in=players) | Q(organiser__in=clubs)
        competitions |= Q(pk__in=played.values("competition_id"))
        clubs |= set(Team.objects.filter(pk__in=teams).values_list("club_id", flat=True))
        clubs |= set(Player.objects.filter(pk__in=players).values_list("club_id", flat=True))
        Club.objects.filter(pk__in=clubs).update(version=F("version") + 1)
    Competition.objects.filter(competitions).update(version=F("version") + 1)
