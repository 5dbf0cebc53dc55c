"""Every season's figures of a player, a pair (team) or a club, and a player's rating history.

A season's figures sum the final results of public competitions (selectors.counting.final_q) whose
`season` names it, grouped in SQL by season (one query per side): matches, won, drawn, lost, match
points and card points for, as the ranking lists count them (selectors.rankings). The rating at
the end of a season is where the player stood after his last rated match of it; a pair's is the
mean of its players'. A club's figures are the sums of its pairs' results. Whether a season is
closed (an archive) comes from the Season rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import F, Q
from django.utils import timezone

from scoring.engine.standings import swedish_sort_key
from scoring.models import Club, Match, Player, RoundPlace, Season, Team

from .counting import number
from .rating import add_side_totals, final_matches, rating_rows


@dataclass(frozen=True)
class SeasonFigures:
    season: str
    closed: bool
    matches: int
    won: int
    drawn: int
    lost: int
    points: int | float
    card_points: int
    rating: float | None  # at the end of the season (None for a club)


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated match."""

    match_id: int
    when: date | None
    label: str
    rating: float


# Up to this many teams, SQLite finds their final results by the match's team columns; beside a
# longer list it reads every final result of a status instead (its planner has no statistics of
# the data), so their matches' ids are read first.
FEW_PAIRS = 2


def _by_season(pairs: list[int]) -> dict[str, dict]:
    """The season totals of the teams `pairs` (ids), home and away, by the match's own indexed
    team columns (a condition on the joined teams' players or club reads every match)."""
    where = {side: Q(**{f"{side}_team_id__in": pairs}) for side in ("home", "away")}
    if len(pairs) > FEW_PAIRS:
        of_pairs = Match.objects.filter(where["home"] | where["away"]).order_by()
        ids = list(of_pairs.values_list("pk", flat=True))
        where = {side: Q(pk__in=ids) & where[side] for side in where}
    totals: dict[str, dict] = {}
    for side in ("home", "away"):
        add_side_totals(totals, final_matches().filter(where[side]), side, F("competition__season"))
    return totals


def _ratings_at_season_end(player_ids: list[int]) -> dict[int, dict[str, float]]:
    """For each player, season -> the rating after his last rated match of that season."""
    result: dict[int, dict[str, float]] = {pid: {} for pid in player_ids}
    rows = rating_rows().filter(player_id__in=set(player_ids))
    for player_id, season, after in rows.values_list("player_id", "match__competition__season", "after"):
        result[player_id][season] = after  # in order: the last of a season stays
    return result


def _figures(totals: dict[str, dict], rating_of) -> list[SeasonFigures]:
    closed = set(Season.objects.filter(closed_at__isnull=False).values_list("name", flat=True))
    return [
        SeasonFigures(
            season=season, closed=season in closed, matches=t["matches"], won=t["won"], drawn=t["drawn"],
            lost=t["matches"] - t["won"] - t["drawn"], points=number(t["points"]), card_points=t["cards"],
            rating=rating_of(season),
        )
        for season, t in sorted(totals.items(), reverse=True)
    ]


def player_seasons(player: Player, pairs: list[int] | None = None) -> list[SeasonFigures]:
    """A player's figures per season, newest first (`pairs`: the ids of his teams, when the
    caller has them)."""
    if pairs is None:
        pairs = list(Team.objects.filter(Q(player_one=player) | Q(player_two=player)).values_list("pk", flat=True))
    totals = _by_season(pairs)
    at_end = _ratings_at_season_end([player.pk])[player.pk]
    return _figures(totals, at_end.get)


def team_seasons(team: Team) -> list[SeasonFigures]:
    """A pair's figures per season, newest first; its rating is its players' mean."""
    totals = _by_season([team.pk])
    at_end = _ratings_at_season_end([team.player_one_id, team.player_two_id])

    def rating_of(season):
        values = [at_end[team.player_one_id].get(season), at_end[team.player_two_id].get(season)]
        return None if None in values else sum(values) / 2

    return _figures(totals, rating_of)


def club_seasons(club: Club, pairs: list[int] | None = None) -> list[SeasonFigures]:
    """A club's figures per season (the sums of its pairs' results), newest first (`pairs`: the
    ids of its teams, when the caller has them)."""
    if pairs is None:
        pairs = list(Team.objects.filter(club=club).values_list("pk", flat=True))
    totals = _by_season(pairs)
    return _figures(totals, lambda season: None)


def rating_points(player: Player) -> list[RatingPoint]:
    """A player's rating after each of his rated matches, in the order they were played."""
    points = []
    rows = rating_rows().filter(player=player).values_list(
        "match_id", "match__started_at", "match__scheduled_start", "match__round__date", "match__competition__name",
        "match__competition__season", "after",
    )  # the columns a point shows, not three models a row
    for match_id, started_at, scheduled_start, round_date, name, season, after in rows:
        when = started_at or scheduled_start
        day = timezone.localtime(when).date() if isinstance(when, datetime) else round_date
        points.append(RatingPoint(match_id=match_id, when=day, label=f"{name} {season}", rating=after))
    return points


# -- a competition's table round by round -------------------------------------------------------

# A place-by-round chart per team is drawn for competitions up to this size (a federation-scale
# table of hundreds of teams would be a wall of charts; its table is enough).
PLACES_MAX_TEAMS = 16


@dataclass(frozen=True)
class TeamPlaces:
    team_id: int
    name: str
    places: list[int | None]  # one per round in `CompetitionPlaces.rounds`

    @property
    def final(self) -> int | None:
        return self.places[-1] if self.places else None


@dataclass(frozen=True)
class CompetitionPlaces:
    rounds: list[int]
    teams: list[TeamPlaces]  # in the order of the latest table
    team_count: int


def places_charted(competition) -> bool:
    """Whether the competition's page draws the places chart, and so whether the services keep its
    places after each round (RoundPlace): a team competition of up to PLACES_MAX_TEAMS teams (a club
    night's partnerships change every round: their places say nothing)."""
    if competition.kind == competition.Kind.INDIVIDUAL:
        return False
    return competition.teams.count() <= PLACES_MAX_TEAMS


def places_by_round(competition) -> CompetitionPlaces | None:
    """Each team's place in the table after each round with a counted result, as the services keep
    it (RoundPlace): one query however many rounds were played. None when there are fewer than
    two such rounds or no chart is drawn (places_charted: the services keep no places then)."""
    if competition.kind == competition.Kind.INDIVIDUAL:
        return None
    rows = RoundPlace.objects.filter(round__competition=competition).values_list(
        "round__number", "team_id", "team__name", "place"
    )
    rounds = sorted({round_number for round_number, _team, _name, _place in rows})
    if len(rounds) < 2:
        return None
    column = {round_number: index for index, round_number in enumerate(rounds)}
    places: dict[int, list[int | None]] = {}
    names: dict[int, str] = {}
    for round_number, team_id, name, place in rows:
        names[team_id] = name
        places.setdefault(team_id, [None] * len(rounds))[column[round_number]] = place
    # In the order of the latest table: teams sharing a place stand in name order (rank_teams).
    last = column[rounds[-1]]
    order = sorted(places, key=lambda team_id: (places[team_id][last] or len(places), swedish_sort_key(names[team_id])))
    return CompetitionPlaces(
        rounds=rounds,
        teams=[TeamPlaces(team_id=pk, name=names[pk], places=places[pk]) for pk in order],
        team_count=len(order),
    )
