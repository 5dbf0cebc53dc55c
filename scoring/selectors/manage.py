"""Reads for the management pages (a club secretary's clubs, players, teams, competitions, rounds,
matches, invitations) and the organiser's tools (schedules, individual competitions).

Who may see what is decided by scoring.permissions in the views; these reads only say what there is.
A *managed* club is one the user is a secretary of (every club for a site admin).
"""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet

from scoring import permissions
from scoring.models import Bye, Club, Competition, Invitation, Match, Player, Round, SignupInvitation, Team

from .names import order_by_name

from .counting import counted_q, with_play
from .merging import merge_archive


# -- the rows a management page edits (get_object_or_404 on these) --------------------------------


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def players() -> QuerySet[Player]:
    return Player.objects.all()


def teams() -> QuerySet[Team]:
    return Team.objects.all()


def competitions() -> QuerySet[Competition]:
    return Competition.objects.all()


def competitions_with_organiser() -> QuerySet[Competition]:
    return Competition.objects.select_related("organiser")


def rounds() -> QuerySet[Round]:
    return Round.objects.all()


def matches() -> QuerySet[Match]:
    return Match.objects.all()


# -- the user's clubs and competitions ------------------------------------------------------------


def managed_clubs(user) -> QuerySet[Club]:
    return Club.objects.filter(permissions.managed_by(user, "pk"))


def managed_clubs_with_counts(user) -> QuerySet[Club]:
    """The user's clubs, each with `player_count` and `team_count`."""
    return managed_clubs(user).annotate(
        player_count=Count("players", distinct=True), team_count=Count("teams", distinct=True)
    )


def managed_competitions_with_counts(user) -> QuerySet[Competition]:
    """The competitions the user's clubs organise (all for a site admin), each with `match_count`."""
    found = competitions_with_organiser().filter(permissions.managed_by(user, "organiser"))
    return found.annotate(match_count=Count("matches"))


# -- a club -------------------------------------------------------------------------------------


def club_players(club: Club) -> list[Player]:
    """The club's players by name whatever its letter case ("anna andersson" beside "Anna
    Andersson"), each with `same_name`: the others of the same name, so the page can offer to
    merge what was entered twice; and each of those with `may_merge`: whether a merge may change
    it (not when it appears in a closed season's archive, merge_archive, which the merge refuses)."""
    players = order_by_name(club.players.all())
    by_name: dict[str, list[Player]] = {}
    for player in players:
        by_name.setdefault(player.name.casefold(), []).append(player)
    for player in players:
        player.same_name = [other for other in by_name[player.name.casefold()] if other.pk != player.pk]
        if player.same_name:
            player.may_merge = merge_archive(player) is None
    return players


def club_teams(club: Club) -> QuerySet[Team]:
    return club.teams.select_related("player_one", "player_two", "captain").order_by("name")


def club_competitions_with_counts(club: Club) -> QuerySet[Competition]:
    """The competitions the club organises, each with `team_count` and `match_count`."""
    return club.organised_competitions.annotate(
        team_count=Count("teams", distinct=True), match_count=Count("matches", distinct=True)
    )


# -- a competition as its organiser sees it -------------------------------------------------------


def competition_teams(competition: Competition) -> QuerySet[Team]:
    return competition.teams.select_related("club").order_by("name")


def competition_rounds_with_matches(competition: Competition) -> QuerySet[Round]:
    """The rounds by number, each with its matches (by table) and byes read in two more queries."""
    matches = Match.objects.select_related("home_team", "away_team").order_by("table", "pk")
    return competition.rounds.prefetch_related(
        Prefetch("matches", queryset=matches), Prefetch("byes", queryset=Bye.objects.select_related("team"))
    ).order_by("number")


def rounds_with_tables(user, rounds) -> set[int]:
    """The rounds (read with their matches, competition_rounds_with_matches) whose round at a
    glance and table cards the user may open: the check of the round's table pages."""
    return {round_.pk for round_ in rounds if permissions.can_print_blank_protocols(user, round_, round_.matches.all())}


def matches_without_round(competition: Competition) -> QuerySet[Match]:
    return competition.matches.filter(round__isnull=True).select_related("home_team", "away_team")


def open_invitations(competition: Competition) -> QuerySet[Invitation]:
    """The competition's invitations not (yet) accepted: waiting or declined."""
    return competition.invitations.exclude(status=Invitation.Status.ACCEPTED).select_related("team__club")


def last_round(competition: Competition) -> Round | None:
    return competition.rounds.order_by("-number").first()


def has_rounds(competition: Competition) -> bool:
    return competition.rounds.exists()


def match_count(competition: Competition) -> int:
    return competition.matches.count()


def team_count(competition: Competition) -> int:
    return competition.teams.count()


def competition_has_play(competition: Competition) -> bool:
    """True once any match has a deal or a result: the schedule is then fixed."""
    return with_play(competition.matches).exists()


def round_is_complete(round: Round) -> bool:
    """Every match of the round has a result that counts, or is void."""
    competition = round.competition
    open_matches = round.matches.exclude(counted_q(competition)).exclude(status=Match.Status.VOID)
    return not open_matches.exists()


def schedule_state(competition: Competition) -> dict:
    """What the schedule tools of the competition's manage page can offer."""
    last = competition.rounds.order_by("-number").first()
    return {
        "team_count": team_count(competition),
        "match_count": match_count(competition),
        "has_play": competition_has_play(competition),
        "next_round": (last.number if last else 0) + 1,
        "previous_complete": last is None or round_is_complete(last),
        "is_tournament": competition.kind == Competition.Kind.TOURNAMENT,
    }


def entrant_count(competition: Competition) -> int:
    """The players signed up for an individual competition."""
    return competition.entrants.count()


def round_bye(round_: Round) -> Bye | None:
    """The bye of a round paired with an odd number of teams (at most one)."""
    return round_.byes.select_related("team").first()


def rounds_with_sitting_out(competition: Competition) -> QuerySet[Round]:
    """An individual competition's rounds by number, with the players who sat each one out."""
    return competition.rounds.order_by("number").prefetch_related("sitting_out")


# -- invitations: another club's competition asks for one of the club's teams ---------------------


def invitations() -> QuerySet[Invitation]:
    return Invitation.objects.select_related("competition__organiser", "team__club", "invited_by")


def club_invitations(user) -> QuerySet[Invitation]:
    """Invitations to the teams of the clubs the user manages, waiting ones first."""
    found = invitations().filter(permissions.managed_by(user, "team__club"))
    return found.order_by("-status", "-invited_at")  # "pending" sorts after "declined"/"accepted"


def waiting_invitation_count(user) -> int:
    """The invitations of the user's clubs' teams and players waiting for an answer."""
    waiting = Invitation.Status.PENDING
    return (club_invitations(user).filter(status=waiting).count()
            + club_signup_invitations(user).filter(status=waiting).count())


# -- players of other clubs asked for a club night (services.invitations) ----------------------


def signup_invitations() -> QuerySet[SignupInvitation]:
    return SignupInvitation.objects.select_related("competition__organiser", "player__club", "invited_by")


def club_signup_invitations(user) -> QuerySet[SignupInvitation]:
    """Requests to sign up the players of the clubs the user manages, waiting ones first."""
    found = signup_invitations().filter(permissions.managed_by(user, "player__club"))
    return found.order_by("-status", "-invited_at")


def waiting_signups(competition: Competition) -> QuerySet[SignupInvitation]:
    """The club night's requests still waiting for the players' clubs."""
    return signup_invitations().filter(competition=competition, status=Invitation.Status.PENDING).order_by("player__name")
