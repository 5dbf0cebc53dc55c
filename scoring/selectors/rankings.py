"""Ranking lists (rankinglistor): players and fixed pairs over a season, per club or site-wide.

A ranking list sums the final results (selectors.counting.final_q) of public competitions, chosen by
season, competition kind and club: per player (the two players of a team's pair each get the
match; a substitute is not counted, as in the rating) or per pair (team). Walk overs count as in
the tables, with their award; the rating leaves them out. Rows are ranked the way the Swedish
series rank ("det är vinst och kortpoäng som räknas", docs/rules.md, "Competition presets"): match points,
then card points for, by the engine's standings ranking; equal rows share a rank ("3=").

The figures add up the competitions' stored standings rows (summed_totals); the rating is read
from the rows the services keep (selectors.rating). The same rows feed the page
`/rankings/`, and `manage.py rankings --json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet

from scoring.engine.qualification import Carried
from scoring.engine.standings import TeamRecord, rank_teams
from scoring.models import Club, Competition, Match, Player, StageQualifier, Team, TeamStanding

from .counting import number
from .standings import scoring_byes
from .rating import final_matches, rating_changes, ratings_after_last

RANKING_ORDER = ("points", "card_points_for", "name")
PLAYERS, PAIRS = "players", "pairs"


@dataclass(frozen=True)
class RankingFilter:
    """Which results a list sums: a season ("2026/27"), a club's id, a competition kind; None is
    every one."""

    season: str | None = None
    club: int | None = None
    kind: str | None = None

    def as_query(self) -> dict[str, str]:
        values = {"season": self.season, "club": self.club, "kind": self.kind}
        return {key: str(value) for key, value in values.items() if value not in (None, "")}


@dataclass(frozen=True)
class RankingRow:
    rank: int
    tied: bool
    id: int  # the player's or the team's
    name: str
    club_id: int
    club: str
    matches: int
    won: int
    drawn: int
    lost: int
    points: int | float
    card_points: int
    rating: float | None

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.tied else str(self.rank)


def seasons() -> list[str]:
    """The seasons of public competitions, newest first."""
    return list(
        Competition.objects.filter(is_public=True)
        .order_by("-season")
        .values_list("season", flat=True)
        .distinct()
    )


def clubs() -> QuerySet[Club]:
    """The clubs a list may be chosen by, by name."""
    return Club.objects.order_by("name")


def club_name(club_id: int | None) -> str | None:
    """The name of the club a list is chosen by, or None (no club chosen, or no such club)."""
    if club_id is None:
        return None
    return Club.objects.filter(pk=club_id).values_list("name", flat=True).first()


def players() -> QuerySet[Player]:
    """Players with their clubs, for the matches behind a row of a list."""
    return Player.objects.select_related("club")


def teams() -> QuerySet[Team]:
    """Pairs (teams) with their clubs, for the matches behind a row of a list."""
    return Team.objects.select_related("club")


def _filtered(filter: RankingFilter) -> QuerySet[Match]:
    matches = final_matches()
    if filter.season:
        matches = matches.filter(competition__season=filter.season)
    if filter.kind:
        matches = matches.filter(competition__kind=filter.kind)
    return matches


def _sides(list_kind: str) -> list[tuple[str, str]]:
    """(side, path to the ranked object) for every place a ranked object holds in a match."""
    if list_kind == PAIRS:
        return [("home", "home_team"), ("away", "away_team")]
    return [(side, f"{side}_team__{member}") for side in ("home", "away") for member in ("player_one", "player_two")]


def rankings(filter: RankingFilter = RankingFilter(), list_kind: str = PLAYERS) -> list[RankingRow]:
    """The ranking list of players (or pairs), in rank order."""
    return ranked_list(filter, list_kind)


def summed_totals(filter: RankingFilter, list_kind: str) -> dict[int, dict]:
    """Each player's (or pair's) matches, wins, draws, match points and card points over the
    final results the filter takes. A competition's final results are what its table counts, so
    these are its stored standings rows (TeamStanding, kept by the services) without what a table
    adds beside its matches: the byes that score as a won match and the points a pair carried in
    from a championship's stage before (selectors.standings). A player's are his pairs' summed.
    A few small queries, however many matches the federation has."""
    rows = TeamStanding.objects.filter(competition__is_public=True)
    if filter.season:
        rows = rows.filter(competition__season=filter.season)
    if filter.kind:
        rows = rows.filter(competition__kind=filter.kind)
    if list_kind == PAIRS:
        # A partnership drawn for one round of an individual competition is no fixed pair.
        rows = rows.filter(team__rotating=False)
    rows = list(rows.exclude(played=0).values_list(
        "competition_id", "team_id", "team__club_id", "team__player_one_id", "team__player_one__club_id",
        "team__player_two_id", "team__player_two__club_id", "played", "won", "drawn", "points", "card_points_for",
    ))  # fmt: skip
    besides = beside_the_matches({competition_id for competition_id, *_rest in rows})
    totals: dict[int, dict] = {}
    for competition_id, team_id, club_id, one, one_club, two, two_club, played, won, drawn, points, cards in rows:
        byes, carried = besides.get((competition_id, team_id), ((0, 0), None))
        played, won = played - byes[0], won - byes[0]
        points -= byes[1]
        if carried is not None:
            points -= carried.points
            cards -= carried.card_points_for
        if not played:
            continue  # byes and points carried in, no match
        held = [(team_id, club_id)] if list_kind == PAIRS else [(one, one_club), (two, two_club)]
        for key, club in held:
            if filter.club and club != filter.club:
                continue
            total = totals.setdefault(key, {"matches": 0, "won": 0, "drawn": 0, "points": Decimal(0), "cards": 0})
            total["matches"] += played
            total["won"] += won
            total["drawn"] += drawn
            total["points"] += points
            total["cards"] += cards
    return totals


def beside_the_matches(competition_ids: set[int]) -> dict[tuple[int, int], tuple]:
    """What each pair's standings row in these competitions holds beside its matches, by
    (competition, team): its byes that score ((count, match points)) and what it carried in
    (selectors.standings.carried_points: a Carried, or None)."""
    besides: dict[tuple[int, int], tuple] = {}
    for competition in Competition.objects.filter(pk__in=competition_ids):
        win = Decimal(str(competition.points_rules.win))
        for row in scoring_byes(competition):
            besides[(competition.pk, row["team_id"])] = ((row["count"], win * row["count"]), None)
    for competition_id, team_id, points, card_for, card_against in StageQualifier.objects.filter(
        entered__in=competition_ids
    ).values_list("entered_id", "team_id", "carried_points", "carried_for", "carried_against"):
        byes = besides.get((competition_id, team_id), ((0, Decimal(0)), None))[0]
        besides[(competition_id, team_id)] = (byes, Carried(points, card_for, card_against))
    return besides


@dataclass(frozen=True)
class Ranked:
    """What a list shows of a ranked player or pair (a pair's players for its rating)."""

    pk: int
    name: str
    club_id: int
    club_name: str
    player_one_id: int | None = None
    player_two_id: int | None = None


# Up to this many players or pairs are asked for by id; more are picked out of everyone's (the SQL
# of an IN list of a federation's players costs more to build than reading them all).
FEW = 50


def ranked_objects(pks: set[int], list_kind: str) -> dict[int, Ranked]:
    """The players (or pairs) `pks`, by id: one query of plain values."""
    model = Team if list_kind == PAIRS else Player
    columns = ["pk", "name", "club_id", "club__name"]
    if list_kind == PAIRS:
        columns += ["player_one_id", "player_two_id"]
    rows = model.objects.filter(pk__in=pks) if len(pks) <= FEW else model.objects.all()
    return {row[0]: Ranked(*row) for row in rows.values_list(*columns).order_by() if row[0] in pks}


def ranked_list(filter: RankingFilter, list_kind: str) -> list[RankingRow]:
    """The ranking list of players (or pairs), in rank order, made now."""
    totals = summed_totals(filter, list_kind)
    objects = ranked_objects(set(totals), list_kind)
    records = [
        TeamRecord(
            team_id=pk,
            name=objects[pk].name,
            played=total["matches"],
            won=total["won"],
            drawn=total["drawn"],
            lost=total["matches"] - total["won"] - total["drawn"],
            points=number(total["points"]),
            card_points_for=total["cards"],
        )
        for pk, total in totals.items()
    ]
    ranked = rank_teams(records, RANKING_ORDER)
    # The rating: with a season (or kind) chosen, where the player stood after his last match of
    # it; otherwise today's. A pair's is the mean of its players'. Every rated match is a final
    # result of a public competition, as the list's are: the season and kind choose among them.
    people = set(totals) if list_kind == PLAYERS else {
        pid for team in objects.values() for pid in (team.player_one_id, team.player_two_id)
    }
    where = Q()
    if filter.season:
        where &= Q(match__competition__season=filter.season)
    if filter.kind:
        where &= Q(match__competition__kind=filter.kind)
    at_end = ratings_after_last(people, where)

    def rating_of(pk: int) -> float | None:
        if list_kind == PLAYERS:
            return at_end.get(pk)
        team = objects[pk]
        values = [at_end.get(team.player_one_id), at_end.get(team.player_two_id)]
        return None if None in values else sum(values) / 2

    rows = []
    for row in ranked:
        obj = objects[row.record.team_id]
        rows.append(
            RankingRow(
                rank=row.rank, tied=row.tied, id=obj.pk, name=obj.name, club_id=obj.club_id,
                club=obj.club_name, matches=row.record.played, won=row.record.won,
                drawn=row.record.drawn, lost=row.record.lost, points=row.record.points,
                card_points=row.record.card_points_for, rating=rating_of(obj.pk),
            )
        )
    return rows


def ranking_matches(filter: RankingFilter, *, player: Player | None = None, team: Team | None = None) -> QuerySet[Match]:
    """The matches behind a row of a ranking list: those it sums, in the order they were played."""
    matches = _filtered(filter)
    if team is not None:
        matches = matches.filter(Q(home_team=team) | Q(away_team=team))
    else:
        matches = matches.filter(
            Q(home_team__player_one=player) | Q(home_team__player_two=player)
            | Q(away_team__player_one=player) | Q(away_team__player_two=player)
        )
    return matches.select_related(
        "competition", "round", "home_team", "away_team", "home_team__club", "away_team__club"
    ).order_by("round__date", "competition__name", "round__number", "table", "id")


@dataclass(frozen=True)
class MatchFigures:
    """One match behind a ranking row, as it counted for the player or pair: the side, its match
    points and card points, and (for a player) the rating before and after it (None when the
    match was not rated: a walk over or a void match)."""

    match: Match
    side: str
    won: bool
    points: int | float
    card_points: int
    rating_before: float | None
    rating_after: float | None


def ranking_match_rows(filter: RankingFilter, *, player: Player | None = None, team: Team | None = None) -> list[MatchFigures]:
    matches = list(ranking_matches(filter, player=player, team=team))
    changes = {}
    if player is not None:
        changes = {c.match_id: c for c in rating_changes(player.pk)}
    rows = []
    for match in matches:
        if team is not None:
            side = "home" if match.home_team_id == team.pk else "away"
        else:
            side = "home" if player.pk in (match.home_team.player_one_id, match.home_team.player_two_id) else "away"
        change = changes.get(match.pk)
        rows.append(
            MatchFigures(
                match=match, side=side, won=match.winner == side,
                points=number(getattr(match, f"{side}_points")),
                card_points=getattr(match, f"{side}_for") or 0,
                rating_before=change.before if change else None,
                rating_after=change.after if change else None,
            )
        )
    return rows
