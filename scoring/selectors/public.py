"""Reads for the public pages that scoring.selectors does not offer.

Owns: which competitions the public (and a signed-in organiser) may see, whether a round is being
played right now (the pages then poll for news), the hall clock of a round, a team's fixtures for
its calendar feed, and the teams, players and clubs the public pages list.

Terms: a *visible* competition is a public one, or one the signed-in user organises; everything of a
competition that is not visible (its rounds, matches, embeds, feeds) answers 404. A round is *live*
while one of its matches is in progress, or on the day it is played while a match has not started.
A match's protocol is read by selectors.protocols; nothing here computes a score.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime, timedelta

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, F, Max, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from scoring import permissions
from scoring.models import Club, Competition, Match, Player, Round, Team
from .names import order_by_name
from .players import PlayerStatistics, player_statistics_by_competition
from .results import RESULT_ROW_FIELDS, team_results

S = Match.Status


# -- visibility ---------------------------------------------------------------------------------


def visible_competitions(user=None) -> QuerySet[Competition]:
    """Public competitions, plus those a signed-in site admin or organising secretary may manage."""
    competitions = Competition.objects.select_related("organiser")
    if permissions.is_site_admin(user):
        return competitions
    return competitions.filter(Q(is_public=True) | permissions.managed_by(user, "organiser"))


def competitions_newest_first(user=None) -> list[Competition]:
    """The visible competitions, the latest season first, then by name."""
    return list(visible_competitions(user).order_by("-season", "name"))


def competition_ids_in_play(competitions: list[Competition]) -> set[int]:
    """Which of the competitions have a match in progress."""
    return set(
        Match.objects.filter(competition__in=[c.pk for c in competitions], status=S.IN_PROGRESS)
        .values_list("competition_id", flat=True)
        .distinct()
    )


def is_visible_competition(competition_id: int, user=None) -> bool:
    return visible_competitions(user).filter(pk=competition_id).exists()


def get_visible_competition(pk: int, user=None) -> Competition:
    try:
        return visible_competitions(user).get(pk=pk)
    except Competition.DoesNotExist:
        raise Http404("No such competition.") from None


def get_visible_round(competition: Competition, number: int) -> Round:
    try:
        return competition.rounds.get(number=number)
    except Round.DoesNotExist:
        raise Http404("No such round.") from None


def competition_rounds(competition: Competition) -> list[Round]:
    """The rounds of a competition by number."""
    return list(competition.rounds.order_by("number"))


# What the public pages of a match show of it (one query, however many names a page prints); no
# organiser or club is named there.
MATCH_PAGE_RELATED = (
    "competition",
    "round",
    "home_team__player_one",
    "home_team__player_two",
    "away_team__player_one",
    "away_team__player_two",
    "home_substitute",
    "away_substitute",
)
def get_visible_match(pk: int, user=None) -> Match:
    # One row by its key: no ordering (Match's default ordering would join the round for nothing).
    matches = Match.objects.select_related(*MATCH_PAGE_RELATED).filter(pk=pk).order_by()
    if getattr(user, "is_authenticated", False):
        matches = matches.filter(competition__in=visible_competitions(user))
    else:
        matches = matches.filter(competition__is_public=True)
    # get(), not first(): first() would order the one row by its key, and putting that order
    # into the SQL costs more than the rest of the query.
    try:
        return matches.get()
    except Match.DoesNotExist:
        raise Http404("No such match.") from None


def public_matches() -> QuerySet[Match]:
    """Matches of public competitions, for pages about a team, a player or a club."""
    return Match.objects.filter(competition__is_public=True)


# -- live rounds ---------------------------------------------------------------------------------


def _live_match_q(today) -> Q:
    return Q(status=S.IN_PROGRESS) | Q(status=S.SCHEDULED, round__date=today)


def round_live_state(round_: Round) -> tuple[bool, datetime | None]:
    """Whether the round is live (its pages poll for news while a match of it is played, or about
    to be on its day) and when its latest match changed (last_change), in one query: what a
    round's page shows at its top."""
    figures = round_.matches.aggregate(
        live=Count("id", filter=_live_match_q(timezone.localdate())), latest=Max("updated_at")
    )
    return figures["live"] > 0, figures["latest"]


def live_rounds(competition: Competition) -> QuerySet[Round]:
    today = timezone.localdate()
    live = Match.objects.filter(round=OuterRef("pk")).filter(_live_match_q(today))
    return competition.rounds.filter(Exists(live))


def live_round_numbers(competition: Competition) -> set[int]:
    return set(live_rounds(competition).values_list("number", flat=True))


def neighbour_rounds(round_: Round) -> dict:
    """`previous_round` and `next_round` of `round_` in its competition (None at either end), in
    one query."""
    rounds = Round.objects.filter(competition_id=round_.competition_id)
    before = rounds.filter(number__lt=round_.number).order_by("-number").values("number")[:1]
    after = rounds.filter(number__gt=round_.number).order_by("number").values("number")[:1]
    found = list(rounds.filter(Q(number=Subquery(before)) | Q(number=Subquery(after))))
    return {
        "previous_round": next((r for r in found if r.number < round_.number), None),
        "next_round": next((r for r in found if r.number > round_.number), None),
    }


def rounds_with_state(competition: Competition) -> list[Round]:
    """The competition's rounds in order, each with `live` (a match of it is played, or about to be
    on its day) and `played` (a match of it has a result or was abandoned), in one query."""
    today = timezone.localdate()
    matches = Match.objects.filter(round=OuterRef("pk"))
    return list(
        competition.rounds.annotate(
            live=Exists(matches.filter(_live_match_q(today))),
            played=Exists(matches.filter(status__in=Match.ENDED_STATUSES)),
        ).order_by("number")
    )


def last_change(*, competition: Competition | None = None, round: Round | None = None) -> datetime | None:  # noqa: A002
    """When the latest match of the competition or the round changed (every service's change to a
    match or its deals moves its updated_at): the "updated" time of a live page, which is what it
    shows whenever it is drawn."""
    matches = Match.objects.filter(competition=competition) if competition is not None else round.matches.all()
    return matches.aggregate(latest=Max("updated_at"))["latest"]


def current_round(rounds: list[Round]) -> Round | None:
    """Of `rounds_with_state`: the round the competition is at: the first being played, else the
    last with a result, else the first."""
    live = [round_ for round_ in rounds if round_.live]
    played = [round_ for round_ in rounds if round_.played]
    if live:
        return live[0]
    if played:
        return played[-1]
    return rounds[0] if rounds else None


# -- the hall clock ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HallClock:
    """The signals of a timed round: the main signal (no new deal after it) and the final one."""

    started_at: datetime | None
    main_minutes: int
    extra_minutes: int

    @property
    def final_minutes(self) -> int:
        return self.main_minutes + self.extra_minutes

    @property
    def main_signal_at(self) -> datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.main_minutes)

    @property
    def final_signal_at(self) -> datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.final_minutes)

    def main_signal_passed(self, now: datetime) -> bool:
        """No new deal may be dealt (docs/rules.md, "The end of a match")."""
        return self.started_at is not None and now >= self.main_signal_at

    def final_signal_passed(self, now: datetime) -> bool:
        return self.started_at is not None and now >= self.final_signal_at


def hall_clock(round_: Round) -> HallClock | None:
    """None when the competition's rule set plays without a clock."""
    rules = round_.competition.rules
    if not rules.has_clock:
        return None
    return HallClock(
        started_at=round_.clock_started_at,
        main_minutes=rules.clock_main_minutes,
        extra_minutes=rules.clock_extra_minutes,
    )


# -- a team's fixtures ---------------------------------------------------------------------------


def team_fixtures(team: Team) -> QuerySet[Match]:
    """Every match of the team in a public competition, with what a calendar entry needs."""
    return (
        public_matches()
        .filter(Q(home_team=team) | Q(away_team=team))
        .select_related("competition", "round", "home_team__club", "away_team__club")
        .order_by("round__date", "scheduled_start", "round__number", "table", "pk")
    )


# -- teams, players and clubs --------------------------------------------------------------------


def teams() -> QuerySet[Team]:
    """Teams, for a feed about one (what belongs to it is filtered to public competitions)."""
    return Team.objects.all()


def team_page_team(pk: int) -> Team:
    """The team of a team page, with its club and players; 404 when there is none."""
    return get_object_or_404(Team.objects.select_related("club", "player_one", "player_two"), pk=pk)


def team_public_matches(team: Team) -> QuerySet[Match]:
    """The team's matches in public competitions, earliest first (selectors.team_results), with
    what its page shows of them: the results tables' columns and the winner (its recent form)."""
    return team_results(team).filter(competition__is_public=True).only(*RESULT_ROW_FIELDS, "winner")


# A match among a team's results: one played out, with a winner.
WITH_RESULT = Q(status__in=Match.PLAYED_STATUSES) & ~Q(winner="")


def team_public_results_and_fixtures(team: Team) -> tuple[list[Match], list[Match]]:
    """The team's matches in public competitions, earliest first, in one query: those with a
    result, and those without one (live, to be played, or ended without a winner yet; not the
    void ones)."""
    matches = team_public_matches(team).exclude(~WITH_RESULT & Q(status=S.VOID))
    rows = matches.annotate(has_result=ExpressionWrapper(WITH_RESULT, output_field=BooleanField()))
    results, fixtures = [], []
    for match in rows:
        (results if match.has_result else fixtures).append(match)
    return results, fixtures


def team_public_competitions(team: Team) -> QuerySet[Competition]:
    return team.competitions.filter(is_public=True).order_by("-season", "name")


def players() -> QuerySet[Player]:
    return Player.objects.select_related("club")


def player_teams(player: Player) -> QuerySet[Team]:
    """The teams the player is one of the pair of."""
    return Team.objects.filter(Q(player_one=player) | Q(player_two=player)).select_related("club")


def pair_ids(player: Player) -> list[int]:
    """The ids of the teams the player is one of the pair of."""
    return list(Team.objects.filter(Q(player_one=player) | Q(player_two=player)).values_list("pk", flat=True))


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def clubs_by_name() -> list[Club]:
    return order_by_name(Club.objects.all())


def club_teams(club: Club) -> list[Team]:
    return order_by_name(club.teams.select_related("player_one", "player_two"))


def club_players(club: Club) -> list[Player]:
    return order_by_name(club.players.all())


def club_competitions(club: Club, user=None) -> QuerySet[Competition]:
    """The visible competitions the club organises, the latest season first."""
    return visible_competitions(user).filter(organiser=club).order_by("-season", "name")


# -- a player's matches and figures --------------------------------------------------------------


# What a player's figures read of his matches besides the results table's columns
# (selectors.players.player_statistics_by_competition: his side and the winner).
PLAYER_MATCH_FIELDS = (
    "winner", "home_substitute_id", "away_substitute_id", "home_team__player_one_id", "home_team__player_two_id",
    "away_team__player_one_id", "away_team__player_two_id",
)  # fmt: skip


def player_matches(player: Player, pairs: list[int] | None = None) -> list[Match]:
    """The matches of a player's teams (or where they substituted) in public competitions, newest
    first; scheduled ones left out (`pairs`: the ids of the player's teams, when the caller has them)."""
    if pairs is None:
        pairs = pair_ids(player)
    # The match's own indexed columns against the ids as a list: a condition on the joined teams'
    # players, or on a subquery, lets SQLite read every match of a status instead.
    in_match = (
        Q(home_team_id__in=pairs) | Q(away_team_id__in=pairs) | Q(home_substitute=player) | Q(away_substitute=player)
    )
    return list(
        public_matches()
        .filter(in_match)
        .exclude(status__in=Match.NOT_STARTED_STATUSES)
        .select_related("competition", "round", "home_team", "away_team")
        .only(*RESULT_ROW_FIELDS, *PLAYER_MATCH_FIELDS)
        .order_by(F("round__date").desc(nulls_last=True), "-round__number", "-pk")
    )


def public_player_statistics(
    player: Player, matches: list[Match] | None = None
) -> list[tuple[Competition, PlayerStatistics]]:
    """selectors.player_statistics for each public competition the player has played in
    (`matches`: the player's matches, when the caller has them already)."""
    if matches is None:
        matches = player_matches(player)
    competition_ids = {match.competition_id for match in matches}
    competitions = Competition.objects.filter(pk__in=competition_ids).order_by("-season", "name")
    figures = player_statistics_by_competition(player, matches)
    empty = PlayerStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0)  # only matches not played out there yet
    return [(competition, figures.get(competition.pk, empty)) for competition in competitions]


def sum_statistics(parts: list[PlayerStatistics]) -> PlayerStatistics:
    """Figures over several competitions: every field of PlayerStatistics is a count or a sum."""
    names = [f.name for f in fields(PlayerStatistics)]
    return PlayerStatistics(**{name: sum(getattr(part, name) for part in parts) for name in names})
