"""How a service takes the row it changes, and moves the editions the public pages' ETags are made
of (scoring.selectors.editions; docs/architecture.md, "What is kept (caching)").

A service locks what it changes with one of these, inside its transaction, before it changes it:
SELECT ... FOR UPDATE, held until the transaction ends, so two writers of one row are served one
after the other (on SQLite, which has no row locks, the connection opens its transactions
IMMEDIATE, settings.py). The same call moves the editions, committed with the change or not at all:
a match's competition's (and the match's own version, which the service saves); a competition's,
round's or season's competitions'; a club's, player's or team's club's, which every page reads. A
closed season's match or competition is an archive: its locks refuse it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q, QuerySet

from scoring.models import Championship, Club, Competition, Match, Player, Round, Season, Team

from . import seasons
from .errors import StaleMatchError


def lock_matches(matches: QuerySet, *, expected_version: int | None = None, shown: bool = True) -> list[Match]:
    """The rows of `matches`, locked, with what deciding who may act reads. Refused when one is of
    a closed season (services.seasons.require_open), or changed since the form that carried
    `expected_version` was made (StaleMatchError: a concurrent edit is refused, never overwritten).
    A change a public page shows (`shown`) claims each match's next version, which the service saves
    with the match, and moves its competition's."""
    locked = list(matches.select_for_update(of=("self",)).select_related("competition", "round", "home_team", "away_team"))
    for match in locked:
        if expected_version is not None and match.version != expected_version:
            raise StaleMatchError()
        seasons.require_open(match.competition)
    if shown:
        show_change(*locked)
    return locked


def show_change(*matches: Match) -> None:
    """Matches locked in this transaction are changed as a public page shows them: each claims its
    next version, which the service saves with the match, and its competition's edition moves. Called by
    lock_matches (`shown`), or later for a row locked without it once the change turns out to be
    shown (a table's proposal agreed)."""
    for match in matches:
        match.version += 1
    move_editions(*matches)


def lock_match(match: Match, expected_version: int | None = None, *, shown: bool = True) -> Match:
    """One match's row, as lock_matches takes it; a match gone meanwhile is a stale form."""
    locked = lock_matches(Match.objects.filter(pk=match.pk), expected_version=expected_version, shown=shown)
    if not locked:
        raise StaleMatchError()
    return locked[0]


def lock_competition(competition: Competition) -> Competition:
    """The competition's row, locked, its edition moved; refused in a closed season."""
    locked = lock(competition)
    seasons.require_open(locked)
    return locked


def lock(obj):
    """The row of `obj` (a player, team, club, competition, round or season) read again and locked,
    its editions moved (above): call it before a change or a deletion, and for a row just made,
    after it. An archive is the caller's to refuse (deleting and merging say why in their plans)."""
    locked = type(obj).objects.select_for_update(of=("self",)).get(pk=obj.pk)
    move_editions(locked)
    if isinstance(locked, (Club, Competition, Championship)):
        locked.edition += 1  # as moved in the row: a copy saved after this keeps it
    return locked


def move_editions(*objects, everywhere: bool = False) -> None:
    """Move the editions of the pages that show each of `objects` (above), or of every page, in the
    transaction of the change, so that no page drawn before it commits is kept under the new ETag.
    Without a lock: for rows no one else writes yet (matches stored in bulk) and for the admin."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("An edition is moved inside the transaction of the change it stands for.")
    competitions = {getattr(o, "competition_id", o.pk) for o in objects if isinstance(o, (Competition, Round, Match))}
    clubs = {getattr(o, "club_id", o.pk) for o in objects if isinstance(o, (Club, Player, Team))}
    seasons_of = [o.name for o in objects if isinstance(o, Season)]
    championships = {o.pk for o in objects if isinstance(o, Championship)}
    for model, shown in ((Competition, Q(pk__in=competitions) | Q(season__in=seasons_of)), (Club, Q(pk__in=clubs)),
                         (Championship, Q(pk__in=championships) | Q(season__in=seasons_of))):
        model.objects.filter(Q() if everywhere else shown).update(edition=F("edition") + 1)
