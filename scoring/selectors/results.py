"""The results of a round and of a team, each match marked as counting or preliminary."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import BooleanField, ExpressionWrapper, F, Q, QuerySet

from scoring.models import Bye, Competition, Match, Round, Team

from .counting import counted_q, preliminary_flag


# -- rounds and teams ---------------------------------------------------------------------------


# JSON columns that a list of matches never shows (the match page and the documents read them).
LIST_DEFERRED = ("rules_snapshot", "points_snapshot", "competition__rules_overrides", "competition__points_overrides")


def _with_counts(matches: QuerySet, competition: Competition) -> QuerySet:
    return matches.annotate(
        counts=ExpressionWrapper(counted_q(competition), output_field=BooleanField()),
        preliminary=preliminary_flag(competition),
    )


def _round_matches(round: Round) -> QuerySet:
    """The matches of a round by table."""
    return Match.objects.filter(round=round).order_by("table", "id")


def round_results(round: Round) -> QuerySet:
    """The matches of a round by table, with teams; each row has `counts` and `preliminary`."""
    matches = (
        _round_matches(round)
        .select_related("competition", "home_team", "away_team", "home_team__club", "away_team__club", "round")
        # A results list shows scores, not the rules a match was played under: a national round
        # has 300 matches, and their snapshots would be decoded for nothing.
        .defer(*LIST_DEFERRED)
    )
    return _with_counts(matches, round.competition)


# What a results table (scoring.listings.ResultsTable) shows of a match and its rows: a round's
# page and the competition's current round read these only, as the ORM's cost of a row grows with
# its columns (the documents read round_results whole). The round and its competition are the
# same for every match: they are not read again per row.
RESULT_ROW_FIELDS = (
    "version", "updated_at", "status", "end", "deal_count", "home_total", "away_total", "table",
    "scheduled_start", "competition_id", "round_id", "home_team_id", "away_team_id", "home_team__name",
    "away_team__name", "disputed_at",
)  # fmt: skip


def round_result_rows(round: Round) -> list[Match]:
    """round_results as a results table reads them: the same matches, order and marks, with the
    columns the table shows (RESULT_ROW_FIELDS), each with `round` and its competition set."""
    competition = round.competition
    matches = _round_matches(round).select_related("home_team", "away_team")
    rows = list(_with_counts(matches.only(*RESULT_ROW_FIELDS), competition))
    for match in rows:
        Match.round.field.set_cached_value(match, round)
        if match.competition_id == competition.pk:
            Match.competition.field.set_cached_value(match, competition)
    return rows


RESULT_FIELDS = (
    "round_id", "table", "status", "end", "deal_count",
    "home_team", "away_team", "home_total", "away_total", "home_points", "away_points", "disputed_at",
)  # fmt: skip


def competition_results(competition: Competition) -> dict[int, list[Match]]:
    """Every match of the competition as its round's results show it (teams, `preliminary`), by
    round id, in one query: what round_results gives for one round, for all rounds at once (a
    competition's workbook or PDF would otherwise ask once per round)."""
    matches = (
        Match.objects.filter(competition=competition, round__isnull=False)
        .select_related("home_team", "away_team")
        # Only what a results row shows: ten thousand matches stay small in memory.
        .only(*RESULT_FIELDS, "home_team__name", "away_team__name")
        .annotate(preliminary=preliminary_flag(competition))
        .order_by("round_id", "table", "id")
    )
    by_round: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        by_round[match.round_id].append(match)
    return by_round


def round_byes(round: Round) -> list[Bye]:
    """The teams without a match in the round (odd number of teams)."""
    return list(Bye.objects.filter(round=round).select_related("team"))


def team_results(team: Team, competition: Competition | None = None) -> QuerySet:
    """A team's matches (home or away), earliest round first, with opponents and competitions."""
    matches = Match.objects.filter(Q(home_team=team) | Q(away_team=team))
    if competition is not None:
        matches = matches.filter(competition=competition)
    return matches.select_related(
        "competition", "round", "home_team", "away_team"
    ).order_by(F("round__date").asc(nulls_last=True), "round__number", "scheduled_start", "id")
