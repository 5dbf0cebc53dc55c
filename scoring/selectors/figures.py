"""Canasta figures: what the deals of the confirmed protocols tell of a player, a pair (team), a club
or a competition, per season and over all seasons, beside the same figures of the field
(docs/figures.md says how each is defined).

Every figure is counted from one side of a deal (a *side-deal*): the pair's own columns of the
protocol, the canastas, red threes, going out and the deal score the engine computed and the
services stored (`Deal.home_score`, ...). Which results count is selectors.counting's `final_q`,
as for the ranking lists and the season figures: confirmed protocols (or, where a competition asks
no confirmation, finished ones) of public competitions; a walk over has no deals and counts for no
figure here.

The services store the sums (below, "what the services keep"): a row per competition, round and
month, and one per pair, over the side-deals of its final results, worked out from the deals by
one statement of sums grouped by match (competition_sums); a page adds up stored rows in one
grouped query and divides. The number of queries does not grow with the number of matches, deals
or seasons.

A club's pairs may meet each other: each side of such a deal is the club's, and counts once for
each side, as both sides count in the club's season figures (selectors.history).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from datetime import date, datetime, timedelta

from django.db import connection
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine.standings import swedish_sort_key
from scoring.models import Club, Competition, Deal, Match, Player, Team

from .counting import final_q

SIDES = ("home", "away")
# Deal scores are counted in bands for the spread's chart: below 0, then 500 points wide from 0 to
# 3 000, then 3 000 and more. Each band is its lower bound (None: every score below the next).
SCORE_BANDS: tuple[int | None, ...] = (None, 0, 500, 1000, 1500, 2000, 2500, 3000)
COUNT, RATIO, SHARE, POINTS, MINUTE = "count", "ratio", "share", "points", "minute"


@dataclass(frozen=True)
class Figure:
    """One figure as the pages, the workbook and the JSON name it: `key` is the property of
    `Figures` and the JSON key, `kind` how it is written (scoring.formatting.figure_text)."""

    key: str
    label: str
    kind: str
    explanation: str

    @property
    def compared(self) -> bool:
        """Whether the field's value stands beside it (an average; a count of the field's matches
        says nothing of a pair)."""
        return self.kind != COUNT


FIGURES = (
    Figure("matches", _("Matches"), COUNT,
           _("Matches with deals in confirmed protocols; a walk over has none.")),
    Figure("deals", _("Deals"), COUNT, _("Deals played in those matches.")),
    Figure("deals_per_match", _("Deals per match"), RATIO, _("Deals divided by matches.")),
    Figure("natural_per_deal", _("Natural canastas per deal"), RATIO,
           _("The side's natural canastas, divided by its deals.")),
    Figure("mixed_per_deal", _("Mixed canastas per deal"), RATIO,
           _("The side's mixed canastas, divided by its deals.")),
    Figure("went_out_share", _("Went out, share of deals"), SHARE,
           _("How many of the deals the side ended by going out, concealed or not.")),
    Figure("concealed_share", _("Went out concealed, share of deals"), SHARE,
           _("How many of the deals the side ended by going out concealed.")),
    Figure("red_threes_per_deal", _("Red threes per deal"), RATIO,
           _("Only deals played under rules that count red threes.")),
    Figure("average_score", _("Average deal score"), POINTS,
           _("The side's deal scores added up, divided by its deals.")),
    Figure("score_spread", _("Spread of the deal scores"), POINTS,
           _("How far a deal score typically lies from the average (the standard deviation).")),
    Figure("clock_share", _("Matches ended by the clock"), SHARE,
           _("Matches the final signal ended, of all matches.")),
    Figure("target_share", _("Matches ended at 5000"), SHARE,
           _("Matches a side ended by reaching the target, of all matches.")),
    Figure("target_minute", _("Minute the deal to 5000 was dealt"), MINUTE,
           _("In matches ended at the target whose protocol has minutes: the minute the last deal was dealt, on average.")),
)


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True)
class Figures:
    """The sums over a set of side-deals, and the figures made from them. Sums add up (`+`): a
    season's two sides, a year's seasons, a competition's teams."""

    matches: int = 0
    deals: int = 0
    natural: int = 0
    mixed: int = 0
    went_out: int = 0
    concealed: int = 0
    red_threes: int = 0
    red_three_deals: int = 0  # side-deals under rules that count red threes
    score: int = 0
    score_squares: int = 0
    clock_ends: int = 0
    target_ends: int = 0
    target_minutes: float = 0.0  # the minutes of the deals to the target, summed
    timed_targets: int = 0  # matches ended at the target whose minute is known
    score_bands: tuple[int, ...] = field(default=(0,) * len(SCORE_BANDS))

    def __add__(self, other: Figures) -> Figures:
        values = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self) if f.name != "score_bands"}
        bands = tuple(a + b for a, b in zip(self.score_bands, other.score_bands))
        return Figures(**values, score_bands=bands)

    @property
    def deals_per_match(self) -> float | None:
        return _ratio(self.deals, self.matches)

    @property
    def natural_per_deal(self) -> float | None:
        return _ratio(self.natural, self.deals)

    @property
    def mixed_per_deal(self) -> float | None:
        return _ratio(self.mixed, self.deals)

    @property
    def canastas_per_deal(self) -> float | None:
        return _ratio(self.natural + self.mixed, self.deals)

    @property
    def went_out_share(self) -> float | None:
        return _ratio(self.went_out, self.deals)

    @property
    def concealed_share(self) -> float | None:
        return _ratio(self.concealed, self.deals)

    @property
    def red_threes_per_deal(self) -> float | None:
        return _ratio(self.red_threes, self.red_three_deals)

    @property
    def average_score(self) -> float | None:
        return _ratio(self.score, self.deals)

    @property
    def score_spread(self) -> float | None:
        """The standard deviation of the deal scores (of all of them: the population's)."""
        if not self.deals:
            return None
        mean = self.score / self.deals
        return math.sqrt(max(0.0, self.score_squares / self.deals - mean * mean))

    @property
    def clock_share(self) -> float | None:
        return _ratio(self.clock_ends, self.matches)

    @property
    def target_share(self) -> float | None:
        return _ratio(self.target_ends, self.matches)

    @property
    def target_minute(self) -> float | None:
        return _ratio(self.target_minutes, self.timed_targets)

    def value(self, key: str) -> float | int | None:
        return getattr(self, key)

    def as_dict(self) -> dict[str, float | int | None]:
        """Every figure by its key, as numbers (the JSON of `manage.py figures`)."""
        return {figure.key: self.value(figure.key) for figure in FIGURES}


NO_FIGURES = Figures()


@dataclass(frozen=True)
class FigureLine:
    """One figure of a table: its value, and the field's beside it (None: not compared)."""

    figure: Figure
    own: float | int | None
    field: float | int | None


def figure_lines(own: Figures, field: Figures | None = None) -> list[FigureLine]:
    return [
        FigureLine(figure, own.value(figure.key), field.value(figure.key) if field is not None and figure.compared else None)
        for figure in FIGURES
    ]


@dataclass(frozen=True)
class ScoreBand:
    """A band of deal scores: from `low` (None: any score below `high`) up to `high` (None: no end),
    its share of the side's deals and of the field's."""

    low: int | None
    high: int | None
    deals: int
    share: float | None
    field_share: float | None


def score_bands(own: Figures, field: Figures | None = None) -> list[ScoreBand]:
    """The spread of the deal scores as a table: how many deals fell in each band."""
    bands = []
    for index, low in enumerate(SCORE_BANDS):
        high = SCORE_BANDS[index + 1] if index + 1 < len(SCORE_BANDS) else None
        field_share = _ratio(field.score_bands[index], field.deals) if field is not None else None
        bands.append(ScoreBand(low, high, own.score_bands[index], _ratio(own.score_bands[index], own.deals), field_share))
    return bands


# -- a player, a pair, a club: season by season, beside the federation -------------------------

@dataclass(frozen=True)
class FiguresRow:
    """A season's figures (`season` None: over all seasons) and the field's beside them."""

    season: str | None
    own: Figures
    field: Figures

    @property
    def lines(self) -> list[FigureLine]:
        return figure_lines(self.own, self.field)

    @property
    def bands(self) -> list[ScoreBand]:
        return score_bands(self.own, self.field)


@dataclass(frozen=True)
class MonthFigures:
    month: date
    own: Figures
    field: Figures


@dataclass(frozen=True)
class SubjectFigures:
    """The figures section of a player's, pair's or club's page: all seasons first, then each
    season newest first; the latest season month by month (the chart of canastas per deal)."""

    kind: str  # "player", "team", "club"
    subject: Player | Team | Club
    rows: list[FiguresRow]
    chart_season: str | None
    months: list[MonthFigures]

    @property
    def total(self) -> FiguresRow:
        return self.rows[0]

    @property
    def seasons(self) -> list[FiguresRow]:
        return self.rows[1:]

    @property
    def has_deals(self) -> bool:
        return bool(self.total.own.deals)

    @property
    def definitions(self) -> tuple[Figure, ...]:
        return FIGURES


# The sums of each side's half of a match's deals, in this order after the match's id and its
# number of deals; then the deals that ended at each score band, side by side.
SIDE_COLUMNS = ("natural", "mixed", "red3", "score")


def _side_sql(side: str) -> list[str]:
    bands = []
    for index, low in enumerate(SCORE_BANDS):
        high = SCORE_BANDS[index + 1] if index + 1 < len(SCORE_BANDS) else None
        tests = [f'"{side}_score" >= {low}'] if low is not None else []
        tests += [f'"{side}_score" < {high}'] if high is not None else []
        test = " AND ".join(tests)
        bands.append(f"SUM(CASE WHEN {test} THEN 1 ELSE 0 END)")
    return [
        *(f'SUM("{side}_{column}")' for column in SIDE_COLUMNS),
        f'SUM("{side}_score" * "{side}_score")',
        f"SUM(CASE WHEN \"out\" = '{side}' THEN 1 ELSE 0 END)",
        f"SUM(CASE WHEN \"out\" = '{side}' AND \"concealed\" THEN 1 ELSE 0 END)",
        *bands,
    ]


# Plain SQL, one statement of sums grouped by match: building the same aggregate with the ORM (a
# filtered count for each side, band and way of going out) cost ten times the SQL itself. Every
# column is the deal's own; which matches count is the ORM's (competition_sums,
# selectors.counting.final_q).
MATCH_SUMS_SQL = (
    'SELECT "match_id", COUNT(*), '
    + ", ".join(_side_sql("home") + _side_sql("away"))
    + ' FROM "scoring_deal" WHERE "match_id" IN ({}) GROUP BY "match_id"'
)
SIDE_WIDTH = len(_side_sql("home"))
MATCH_SUMS_CHUNK = 500  # match ids a statement names (SQLite binds at most 32 766 values)


def _month(round_date: date | None, started_at) -> date | None:
    """The month a match was played in (its first day): its round's date's, or the day it started
    (here)."""
    day = round_date or (timezone.localtime(started_at).date() if started_at is not None else None)
    return day.replace(day=1) if day is not None else None


def _counts_red_threes(value) -> bool:
    """Whether a match's rules (its rules_snapshot's `red_three`) count red threes: red threes are
    counted per deal only where the rule set the match was played under counts them (docs/rules.md,
    "Scoring one deal"); elsewhere they need not be written, and a deal without them says nothing."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class CountedMatch:
    """A final result, and what each side of its deals adds up to: (side, key) pairs, a key being
    a round and month, say; a side may add to several keys, or none."""

    keys: tuple[tuple[str, tuple], ...]
    end: str
    started_at: datetime | None
    red_threes_count: bool


def match_sums(ids: list[int]) -> list[tuple]:
    """MATCH_SUMS_SQL of these matches: one statement per MATCH_SUMS_CHUNK of them."""
    sums: list[tuple] = []
    with connection.cursor() as cursor:
        for start in range(0, len(ids), MATCH_SUMS_CHUNK):
            chunk = ids[start : start + MATCH_SUMS_CHUNK]
            cursor.execute(MATCH_SUMS_SQL.format(", ".join(["%s"] * len(chunk))), chunk)
            sums += cursor.fetchall()
    return sums


# The Figures a side of a match adds to (added_up), in the order it adds them, before the bands.
ACCUMULATED = (
    "matches", "deals", "natural", "mixed", "went_out", "concealed", "red_threes", "red_three_deals", "score",
    "score_squares", "clock_ends", "target_ends", "timed_targets",
)  # fmt: skip


def added_up(matches: dict[int, CountedMatch]) -> dict[tuple, Figures]:
    """The side-deals of `matches` (by id) added up by their keys: their deals' sums (match_sums),
    and one query more for the minute of the deal to the target. That deal is a match's last
    (reaching the target ends it, docs/rules.md "The end of a match"); its minute is known when the
    protocol has the match's start and the minute that deal was dealt."""
    sums = match_sums(list(matches))
    timed = [pk for pk, *_sums in sums if matches[pk].end == Match.End.TARGET and matches[pk].started_at is not None]
    last_dealt = dict(
        Deal.objects.filter(match_id__in=timed, number=F("match__deal_count"), dealt_at__isnull=False)
        .values_list("match_id", "dealt_at").order_by()
    ) if timed else {}  # fmt: skip
    totals: dict[tuple, list] = {}
    for pk, deals, *sides in sums:
        match = matches[pk]
        dealt_at = last_dealt.get(pk)
        for side, key in match.keys:
            total = totals.setdefault(key, [0] * (len(ACCUMULATED) + len(SCORE_BANDS)) + [timedelta()])
            start = SIDES.index(side) * SIDE_WIDTH
            side_sums = (value or 0 for value in sides[start : start + SIDE_WIDTH])
            natural, mixed, red3, score, squares, went_out, concealed, *bands = side_sums
            counted_red = match.red_threes_count
            values = (
                1, deals, natural, mixed, went_out, concealed, red3 if counted_red else 0, deals if counted_red else 0,
                score, squares, match.end == Match.End.CLOCK, match.end == Match.End.TARGET, dealt_at is not None, *bands,
            )  # fmt: skip
            for index, value in enumerate(values):
                total[index] += value
            if dealt_at is not None:
                total[-1] += dealt_at - match.started_at
    return {
        key: Figures(
            **dict(zip(ACCUMULATED, total)), score_bands=tuple(total[len(ACCUMULATED) : -1]),
            target_minutes=total[-1].total_seconds() / 60,
        )
        for key, total in totals.items()
    }  # fmt: skip


def subject_figures(kind: str, subject: Player | Team | Club) -> SubjectFigures:
    """A player's, pair's or club's figures (`kind` "player", "team" or "club"): the stored sums of
    its pairs' side-deals in public competitions by season and month, and the federation's beside
    them (federation_by_month). Two queries, whatever the number of seasons or matches."""
    own_rows = OWN_ROWS[kind]
    own = stored_sums(("season", "month"), f'c."is_public" AND {own_rows}', *[subject.pk] * own_rows.count("%s"))
    field = federation_by_month()
    by_season: dict[str, Figures] = {}
    field_by_season: dict[str, Figures] = {}
    for (season, _month), figures in own.items():
        by_season[season] = by_season.get(season, NO_FIGURES) + figures
    for (season, _month), figures in field.items():
        field_by_season[season] = field_by_season.get(season, NO_FIGURES) + figures
    seasons = sorted(by_season, reverse=True)
    rows = [FiguresRow(None, sum(by_season.values(), NO_FIGURES), sum(field_by_season.values(), NO_FIGURES))]
    rows += [FiguresRow(season, by_season[season], field_by_season.get(season, NO_FIGURES)) for season in seasons]
    latest = seasons[0] if seasons else None
    months = sorted(
        (
            MonthFigures(month, figures, field.get((season, month), NO_FIGURES))
            for (season, month), figures in own.items()
            if season == latest and month is not None
        ),
        key=lambda row: row.month,
    )
    return SubjectFigures(kind=kind, subject=subject, rows=rows, chart_season=latest, months=months)


def player_figures(player: Player) -> SubjectFigures:
    """A player's figures: the deals of the pairs he played in (a substitute's are not his, as in
    the ranking lists: the protocol does not say whom he replaced)."""
    return subject_figures("player", player)


def team_figures(team: Team) -> SubjectFigures:
    return subject_figures("team", team)


def club_figures(club: Club) -> SubjectFigures:
    """A club's figures: the deals of its pairs."""
    return subject_figures("club", club)


# -- a competition: round by round, and pair by pair beside the competition -----------------------


@dataclass(frozen=True)
class RoundFigures:
    number: int
    figures: Figures


@dataclass(frozen=True)
class TeamFigures:
    team_id: int | None  # None: the whole competition, on the line above its pairs
    name: str
    figures: Figures


@dataclass(frozen=True)
class CompetitionFigures:
    """A competition's figures, round by round (the chart of canastas per deal), and its pairs'
    when asked for, beside the competition's own (the field)."""

    competition: Competition
    total: Figures
    rounds: list[RoundFigures]
    teams: list[TeamFigures]

    @property
    def has_deals(self) -> bool:
        return bool(self.total.deals)

    @property
    def definitions(self) -> tuple[Figure, ...]:
        return FIGURES

    @property
    def lines(self) -> list[FigureLine]:
        return figure_lines(self.total)

    @property
    def bands(self) -> list[ScoreBand]:
        return score_bands(self.total)


def competition_figures(competition: Competition, *, teams: bool = False) -> CompetitionFigures:
    """Round by round as the services keep them (competition_by_round); with `teams`, one query
    more (pair by pair, as they keep them too) and one for their names."""
    by_round = competition_by_round(competition)
    total = sum(by_round.values(), NO_FIGURES)
    rounds = [RoundFigures(number, figures) for (number,), figures in sorted(by_round.items(), key=_round_key) if number]
    team_rows: list[TeamFigures] = []
    if teams:
        stored = stored_sums(("team",), 'f."competition_id" = %s AND f."team_id" IS NOT NULL', competition.pk)
        by_team = {pk: figures for (pk,), figures in stored.items()}
        names = dict(Team.objects.filter(pk__in=by_team).values_list("pk", "name"))
        team_rows = sorted(
            (TeamFigures(pk, names[pk], figures) for pk, figures in by_team.items()),
            key=lambda row: swedish_sort_key(row.name),
        )
    return CompetitionFigures(competition=competition, total=total, rounds=rounds, teams=team_rows)


def _round_key(item) -> int:
    (number,), _figures = item
    return number or 0


# -- what the services keep ------------------------------------------------------------------------
#
# The federation's figures are the same on every player's, pair's and club's page, and a
# competition's round by round on every look at its page; adding them up from the deals read every
# counted deal (1.6 s at the federation's size), and a club's its pairs' thousands. The services
# keep their sums instead, a row per competition, round and month, and one per pair too
# (models.FigureSums, services.figures.figures_refresh), in the transaction that changes them, as
# they keep the standings rows: a page adds up a few hundred stored rows (one grouped query),
# whatever the number of deals, and a deal of a match still being played writes nothing there.
# Stored rather than kept by each process: the sums are right the moment the change commits, in
# every process, with no stamp of the results to compare.

STORED = (*ACCUMULATED, "target_minutes", *(f"band{index}" for index in range(len(SCORE_BANDS))))


def match_figures_part(match: Match) -> tuple[int | None, date | None]:
    """The part of its competition's stored sums a final result of `match` (a row in hand, read
    with its round) is added to: its round (id) and the month it was played in, as
    competition_sums keys it. Each of the part's rows (the competition's and each pair's) adds up
    the final results of that part alone."""
    return match.round_id, _month(match.round.date if match.round_id else None, match.started_at)


def competition_sums(competition_id: int, parts: set[tuple] | None = None) -> dict[tuple, Figures]:
    """What services.figures stores of a competition: the side-deals of its final results by round
    (its id), month and pair: both sides of each deal under pair None (the competition's), and
    each side under its own pair. Three queries (added_up). With `parts` (match_figures_part), the rows
    of those parts alone, from the results of those parts alone."""
    rows = Match.objects.filter(final_q(), competition_id=competition_id).order_by()
    if parts is not None:
        rows = rows.filter(parts_q(parts))
    rows = rows.values_list(
        "pk", "round_id", "round__date", "started_at", "end", "rules_snapshot__red_three", "home_team_id", "away_team_id"
    )
    matches = {}
    for pk, round_id, round_date, started_at, end, red_three, home, away in rows:
        month = _month(round_date, started_at)
        if parts is not None and (round_id, month) not in parts:
            continue
        keys = [(side, (round_id, month, None)) for side in SIDES]
        keys += [(side, (round_id, month, team)) for side, team in zip(SIDES, (home, away))]
        matches[pk] = CountedMatch(keys=tuple(keys), end=end, started_at=started_at,
                                   red_threes_count=_counts_red_threes(red_three))  # fmt: skip
    return added_up(matches)


def parts_q(parts: set[tuple]) -> Q:
    """A Q over rows with a round (Match, FigureSums) that holds those of `parts` (match_figures_part),
    and perhaps more of the same rounds, or of no round: the caller keeps the parts' own."""
    rounds = {round_id for round_id, _month in parts}
    holds = Q(round_id__in=rounds - {None})
    if None in rounds:
        holds |= Q(round__isnull=True)
    return holds


def stored_values(figures: Figures) -> dict[str, int | float]:
    """A FigureSums row's numbers from Figures."""
    bands = {f"band{index}": count for index, count in enumerate(figures.score_bands)}
    return {**{name: getattr(figures, name) for name in (*ACCUMULATED, "target_minutes")}, **bands}


# What stored sums are added up by, in SQL over the rows (f), their competition (c) and round (r).
STORED_KEYS = {
    "season": 'c."season"', "month": 'f."month"', "round": 'r."number"', "round_id": 'f."round_id"',
    "team": 'f."team_id"',
}  # fmt: skip
# Plain SQL, as for the deals' sums: a grouped query of the ORM with a Sum per stored figure took
# ten times what the database takes to add up a few hundred rows.
STORED_SUMS_SQL = (
    "SELECT {keys}, " + ", ".join(f'SUM(f."{name}")' for name in STORED) + ' FROM "scoring_figuresums" f'
    ' JOIN "scoring_competition" c ON c."id" = f."competition_id" LEFT JOIN "scoring_round" r ON r."id" = f."round_id"'
    " WHERE {where} GROUP BY {keys}"
)
# A subject's pairs' stored rows: a pair's own, a player's (either of a pair: a substitute's deals
# are not his, the protocol does not say whom he replaced), a club's.
OWN_ROWS = {
    "team": 'f."team_id" = %s',
    "player": 'f."team_id" IN (SELECT "id" FROM "scoring_team" WHERE "player_one_id" = %s OR "player_two_id" = %s)',
    "club": 'f."team_id" IN (SELECT "id" FROM "scoring_team" WHERE "club_id" = %s)',
}


def stored_sums(keys: tuple[str, ...], where: str, *params) -> dict[tuple, Figures]:
    """The stored sums of the rows `where` (SQL over f, c and r, with `params`) holds, added up by
    `keys` (of STORED_KEYS): one query, keyed by the tuple of the keys' values."""
    columns = ", ".join(STORED_KEYS[key] for key in keys)
    with connection.cursor() as cursor:
        cursor.execute(STORED_SUMS_SQL.format(keys=columns, where=where), params)
        rows = cursor.fetchall()
    totals = {}
    width = len(keys)
    month = keys.index("month") if "month" in keys else None
    for row in rows:
        key = list(row[:width])
        if month is not None and isinstance(key[month], str):
            key[month] = date.fromisoformat(key[month])  # SQLite's date, as text
        sums = dict(zip(STORED, row[width:]))
        totals[tuple(key)] = Figures(
            **{name: int(sums[name]) for name in ACCUMULATED}, target_minutes=float(sums["target_minutes"]),
            score_bands=tuple(int(sums[f"band{index}"]) for index in range(len(SCORE_BANDS))),
        )  # fmt: skip
    return totals


def federation_by_month() -> dict[tuple, Figures]:
    """Every side-deal of the federation's public competitions, by season and month."""
    return stored_sums(("season", "month"), 'c."is_public" AND f."team_id" IS NULL')


def competition_by_round(competition: Competition) -> dict[tuple, Figures]:
    """The competition's side-deals by round number (None: matches of no round)."""
    return stored_sums(("round",), 'f."competition_id" = %s AND f."team_id" IS NULL', competition.pk)
