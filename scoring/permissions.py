"""Who may do what. Roles: site admin, club secretary, team captain, the public.

- A club secretary manages their club's players and teams, the competitions their club organises,
  and the protocols of matches in which their club's team is the home team (the home team keeps the
  protocol, docs/rules.md, "Who keeps the protocol").
- A team captain confirms the protocols of their team's matches, never one they entered themselves;
  for a team without a captain, its club's secretary does.

Every rule of who may do what is stated here once; views, template tags and services ask these
functions. `match_actions` says what a user may do with a match now: these rights and the match's
state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import attrgetter, or_

from django.db.models import Exists, OuterRef, Q

from scoring.engine.match import MatchState
from scoring.models import Club, Competition, Match


def is_site_admin(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_superuser)


def is_secretary_of(user, club: Club | int | None) -> bool:
    if not getattr(user, "is_authenticated", False) or club is None:
        return False
    club_id = club if isinstance(club, int) else club.pk
    if getattr(user, "scoring_secretary_club_ids", None) is None:
        known = getattr(user, "scoring_secretary_of_known", {})
        if club_id in known:
            return known[club_id]
    return club_id in secretary_club_ids(user)


def secretary_club_ids(user) -> set[int]:
    """The ids of the clubs the user is a secretary of (read once per request)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = getattr(user, "scoring_secretary_club_ids", None)
    if cache is None:
        cache = {club_id for (club_id,) in _secretary_club_ids(user.pk)}
        user.scoring_secretary_club_ids = cache
    return cache


# -- a match read with what deciding who may enter its protocol needs --------------------------
#
# The protocol pages (and every saved deal) read the match and then ask whether the user is a
# secretary of its home club or of its organiser. The match query answers that too, so the
# question costs no query of its own.

HOME_CLUB_SECRETARY = "user_is_home_club_secretary"
ORGANISER_SECRETARY = "user_is_organiser_secretary"


def secretary_flags(user_id) -> dict[str, Exists]:
    """Annotations for a Match query: whether the user (`user_id`, a value or an expression) is
    a secretary of the match's home club, and of its organiser."""
    links = Club.secretaries.through.objects.filter(user_id=user_id)
    return {
        HOME_CLUB_SECRETARY: Exists(links.filter(club_id=OuterRef("home_team__club_id"))),
        ORGANISER_SECRETARY: Exists(links.filter(club_id=OuterRef("competition__organiser_id"))),
    }


def remember_secretary_flags(user, match: Match) -> None:
    """Keep what a match read with secretary_flags(user) learnt, for is_secretary_of."""
    known = dict(getattr(user, "scoring_secretary_of_known", {}))
    known[match.home_team.club_id] = bool(getattr(match, HOME_CLUB_SECRETARY))
    known[match.competition.organiser_id] = bool(getattr(match, ORGANISER_SECRETARY))
    user.scoring_secretary_of_known = known


def _secretary_club_ids(user_id: int) -> list[tuple[int]]:
    """The clubs the user is a secretary of: the link table alone (no join, no ordering)."""
    return list(Club.secretaries.through.objects.filter(user_id=user_id).values_list("club_id"))


def can_manage_club(user, club: Club) -> bool:
    return is_site_admin(user) or is_secretary_of(user, club)


def can_keep_member_list(user, club: Club) -> bool:
    """The club's member list (its players' birth years and e-mail addresses, read from and written
    to a file): the club's own secretaries and site admins, nobody else; not the organiser of a
    club night another club's player signed up for, whose club consents to the sign-up only."""
    return can_manage_club(user, club)


def can_manage_competition(user, competition: Competition) -> bool:
    return is_site_admin(user) or is_secretary_of(user, competition.organiser_id)


def can_manage_championship(user, championship) -> bool:
    """A championship is its organiser's, as a competition is (its heats are the organiser's too)."""
    return is_site_admin(user) or is_secretary_of(user, championship.organiser_id)


def can_enter_or_manage(user, match: Match) -> bool:
    """Keeps the match's protocol, or manages its competition: who handles the match's table link,
    its photos and its table's conflicts. A table link itself never does."""
    if holds_table_link(user, match):
        return False
    return can_enter_protocol(user, match) or can_manage_competition(user, match.competition)


# The clubs whose secretaries keep a match's protocol, as paths from the match: the home club (the
# home team keeps the protocol, docs/rules.md, "Who keeps the protocol") and the organiser. Stated once for the check of one match
# (can_enter_protocol) and the query of many (protocol_keeper_matches).
PROTOCOL_KEEPER_CLUBS = ("home_team.club_id", "competition.organiser_id")


def holds_table_link(user, match: Match) -> bool:
    """A match's table link (scoring.services.table.TableSide) acts for the players at that table:
    it enters this match's deals both sides agreed to, and nothing of any other match."""
    return getattr(user, "table_match_id", None) is not None and user.table_match_id == match.pk


def can_enter_protocol(user, match: Match) -> bool:
    """The home club's secretary keeps the protocol; the organiser's secretary and admins may too;
    and the table link of the match, for the deals both sides agreed to at the table."""
    return holds_table_link(user, match) or is_site_admin(user) or any(
        is_secretary_of(user, attrgetter(path)(match)) for path in PROTOCOL_KEEPER_CLUBS
    )


def can_print_blank_protocols(user, round, matches) -> bool:
    """A round's blank protocols: its organiser's secretaries, admins, and whoever keeps the
    protocol of one of its `matches` (a query of the round's matches, read only when needed: a
    visitor's round page does not read them for nothing)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if can_manage_competition(user, round.competition):
        return True
    return any(can_enter_protocol(user, match) for match in matches)


def is_captain_of(user, team) -> bool:
    return bool(getattr(user, "is_authenticated", False) and team.captain_id == user.pk)


def can_confirm(user, match: Match) -> bool:
    """The other team's captain confirms: the away captain, and never the user who entered it.
    Where the competition says so, both sides' confirmation at the table stands for it."""
    if holds_table_link(user, match):
        return bool(getattr(user, "both_sides_confirmed", False)) and match.competition.table_confirmation
    if not getattr(user, "is_authenticated", False):
        return False
    if match.entered_by_id is not None and match.entered_by_id == user.pk:
        return False
    if can_enter_protocol(user, match) and not is_site_admin(user):
        # The home side entered it; nobody from that side confirms their own protocol.
        return False
    if is_captain_of(user, match.away_team) or is_site_admin(user):
        return True
    # A team without a captain is spoken for by its club's secretary, or its results could never
    # be confirmed (and never count where confirmation is required).
    return match.away_team.captain_id is None and is_secretary_of(user, match.away_team.club_id)


def can_dispute(user, match: Match) -> bool:
    """Whoever may confirm may dispute instead, and so may the away club's secretary: the other
    side objects, the home side corrects (the home team keeps the protocol, see the module's text)."""
    if can_confirm(user, match):
        return True
    if not getattr(user, "is_authenticated", False) or can_enter_protocol(user, match):
        return False
    return is_secretary_of(user, match.away_team.club_id)


# -- the same rules as a query: the matches a user keeps, confirms or captains --------------------
#
# "My matches" lists many matches at once; asking the predicates above of each would read them
# all. These are the query form of can_enter_protocol, of who confirms (can_confirm, by role) and
# of is_captain_of, stated here beside them (tests/services/test_closed_season.py holds them equal).


def protocol_keeper_matches(club_ids) -> Q:
    """can_enter_protocol for a secretary of `club_ids` (PROTOCOL_KEEPER_CLUBS)."""
    return reduce(or_, (Q(**{path.replace(".", "__") + "__in": club_ids}) for path in PROTOCOL_KEEPER_CLUBS))


def confirmer_matches(user, club_ids) -> Q:
    """Who confirms by role (can_confirm): the away captain, or for an away team without a
    captain its club's secretary."""
    return Q(away_team__captain=user) | Q(away_team__club__in=club_ids, away_team__captain__isnull=True)


def captain_matches(user) -> Q:
    """is_captain_of either team."""
    return Q(home_team__captain=user) | Q(away_team__captain=user)


def managed_by(user, club: str) -> Q:
    """can_manage_club as a query over rows whose club is at the lookup path `club`: "organiser"
    for the competitions the user manages (can_manage_competition), "team__club" or "player__club"
    for what concerns a club's teams or players. Every row for a site admin, none for a visitor.
    It may be or-ed with another condition (a site admin's is a true condition, not an empty Q)."""
    if is_site_admin(user):
        return Q(pk__isnull=False)
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    return Q(**{f"{club}__in": user.secretary_of.all()})


def concerned_matches(user) -> Q | None:
    """The matches whose protocol the user keeps or confirms, and those of the teams they captain;
    None for a site admin (every match)."""
    if is_site_admin(user):
        return None
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    clubs = sorted(secretary_club_ids(user))
    return protocol_keeper_matches(clubs) | confirmer_matches(user, clubs) | captain_matches(user)


def can_view_protocol(user, match: Match) -> bool:
    """Those who keep or confirm the protocol: secretaries of either club or the organiser, the
    captains of both teams, site admins."""
    return (
        can_enter_protocol(user, match)
        or is_secretary_of(user, match.away_team.club_id)
        or is_captain_of(user, match.home_team)
        or is_captain_of(user, match.away_team)
    )


def can_manage_result(user, match: Match) -> bool:
    """Void and reopen: the protocol keeper or the organiser."""
    return can_enter_protocol(user, match) or can_manage_competition(user, match.competition)


def can_see_photos(user, match: Match) -> bool:
    """The photos of the signed paper protocol (services.photos): the captains, the clubs'
    secretaries and the organiser; never the public."""
    return can_view_protocol(user, match) or can_manage_competition(user, match.competition)


def can_see_audit(user, match: Match) -> bool:
    """The match's audit log: the protocol keeper or the organiser."""
    return can_manage_result(user, match)


# -- a match moved by agreement (services.moves): each party acts for itself ---------------------


def can_propose_move(user, match: Match) -> bool:
    """The home club's secretary proposes a new date (the home team hosts, and keeps the protocol);
    a site admin may too. Neither the organiser's secretary nor a table link speaks for the home
    team here."""
    if holds_table_link(user, match):
        return False
    return is_site_admin(user) or is_secretary_of(user, match.home_team.club_id)


def can_answer_move(user, match: Match, proposed_by_id: int | None) -> bool:
    """The away team answers, as it confirms a protocol (can_confirm): its captain, or for a team
    without a captain its club's secretary; a site admin. Never the one who proposed it."""
    if holds_table_link(user, match) or not getattr(user, "is_authenticated", False):
        return False
    if proposed_by_id is not None and proposed_by_id == user.pk:
        return False
    if is_captain_of(user, match.away_team) or is_site_admin(user):
        return True
    return match.away_team.captain_id is None and is_secretary_of(user, match.away_team.club_id)


def can_approve_move(user, match: Match) -> bool:
    """Where the competition asks for it, its organiser approves a move both teams agreed to: the
    organiser's secretaries and site admins, never a team's captain."""
    return not holds_table_link(user, match) and can_manage_competition(user, match.competition)


def can_see_moves(user, match: Match) -> bool:
    """A match's proposed moves: both sides (as its protocol) and the organiser."""
    return can_view_protocol(user, match) or can_manage_competition(user, match.competition)


# -- what a user may do with a match now: the rights above and the match's state ---------------

S = Match.Status
CLOSED_WITHOUT_PLAY = (Match.End.FORFEIT, Match.End.WARNINGS, Match.End.ABANDONED)


@dataclass(frozen=True)
class Actions:
    """What the user may do with the match now, by permission and state."""

    enter: bool = False
    start: bool = False
    clock: bool = False
    forfeit: bool = False
    postpone: bool = False
    void: bool = False
    submit: bool = False
    confirm: bool = False
    dispute: bool = False
    reopen: bool = False
    correct: bool = False
    upload: bool = False
    move: bool = False  # see or take a step of moving it by agreement (services.moves)

    @property
    def any_lifecycle(self) -> bool:
        return any(
            (self.start, self.clock, self.forfeit, self.postpone, self.void, self.submit,
             self.confirm, self.dispute, self.reopen, self.move)
        )  # fmt: skip


def match_actions(user, match: Match, state: MatchState) -> Actions:
    if match.competition.archived:
        # A closed season's competitions are archives (services.seasons.require_open): nothing to do.
        return Actions()
    enter = can_enter_protocol(user, match)
    manage_result = can_manage_result(user, match)
    status = match.status
    played_out = match.end in CLOSED_WITHOUT_PLAY
    open_for_deals = status in Match.DEAL_STATUSES
    return Actions(
        enter=enter and open_for_deals and not state.finished and not played_out,
        start=enter and status in Match.NOT_STARTED_STATUSES,
        clock=enter and match.rules.has_clock and status == S.IN_PROGRESS and match.deal_count > 0,
        forfeit=enter and status in Match.OPEN_STATUSES,
        postpone=enter and status in Match.NOT_STARTED_STATUSES and not match.deal_count,
        void=manage_result and status != S.VOID,
        submit=enter and status == S.FINISHED,
        confirm=status in Match.CONFIRMABLE_STATUSES and can_confirm(user, match),
        dispute=status in Match.CONFIRMABLE_STATUSES and can_dispute(user, match),
        reopen=manage_result and status in Match.REOPENABLE_STATUSES,
        correct=enter and status in Match.CORRECTABLE_STATUSES and not played_out and match.deal_count > 0,
        upload=enter and status in Match.OPEN_STATUSES and not played_out,
        move=status in Match.NOT_STARTED_STATUSES and not match.deal_count and not holds_table_link(user, match)
        and can_see_moves(user, match),
    )
