"""Replaying a match (parti): running totals, opening minimums, the end, the winner and the points.

`replay(rules, deals)` takes the deals of one match in order and returns a MatchState: for each deal
its score breakdown, the running totals after it, each side's opening minimum before it, and its
problems (the deal's own checks plus those that need the match: opening-minimum, after-match-end,
dealt-after-time) and warnings (the deal's own plus total-mismatch, deals-out-of-order, many-deals).
Each side's totals and minimums are kept by one SideRun, the same code for home and away. The match ends after the deal in which a side
reaches the target (rule 34 a), after a deal that ended by the clock, or — in a timed match — after
a deal marked `time_up` (no new deal could be dealt), or when the caller says the final signal came
after the last deal, between deals (`clock_expired`).

Addition slips are judged by rule 35 b: a written running total is checked against the written
total before it plus the deal score, so each slip is noted once, where it was made, and an
opening minimum that follows the written total is right as well. A slip is a warning (docs/rules.md,
"Revision 3"): the protocol goes in as written and the computed totals count.

Deals after the end are still scored (so a file check can show them) but carry `after-match-end`;
the result is the totals at the end.

`forfeit_outcome` scores a walk over by the competition's award.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .deal import (
    DEAL_CHECKS,
    DEAL_WARNINGS,
    END_CLOCK,
    DealEntry,
    DealScore,
    SideEntry,
    deal_scores,
    run_checks,
    score_deal,
)
from .problems import AWAY, HOME, Problem
from .rules import PointsRules, RuleSet

END_TARGET = "target"
MATCH_END_CLOCK = "clock"
# A timed match with more deals than this is unusual (docs/rules.md, "Warnings").
MANY_DEALS_IN_TIMED_MATCH = 15


@dataclass(slots=True)
class ReplayedDeal:
    entry: DealEntry
    # The deal scores; `score` has their breakdown.
    home_score: int
    away_score: int
    home_total: int
    away_total: int
    home_min_before: int
    away_min_before: int
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    rules: RuleSet

    @property
    def score(self) -> DealScore:
        """The breakdown of the deal's score (rule 34 b), made from the entry when asked for:
        most replayed deals are only added up, and the entry and rules never change."""
        return score_deal(self.rules, self.entry)

    @property
    def number(self) -> int:
        return self.entry.number

    def total(self, side: str) -> int:
        return self.home_total if side == HOME else self.away_total

    def min_before(self, side: str) -> int:
        return self.home_min_before if side == HOME else self.away_min_before


@dataclass(slots=True)
class Outcome:
    """How a finished match counts: the winner and each side's match points."""

    winner: str  # "home", "away" or "draw"
    home_points: float
    away_points: float
    # Card points for the standings table (the totals, or a forfeit award).
    home_for: int
    home_against: int
    away_for: int
    away_against: int


@dataclass(slots=True)
class MatchState:
    rules: RuleSet
    deals: tuple[ReplayedDeal, ...]
    home_total: int
    away_total: int
    # Opening minimums for the next deal (after the last deal replayed).
    home_min_next: int
    away_min_next: int
    finished: bool
    end: str | None  # "target", "clock" or None
    end_deal: int | None  # the number of the deal after which the match ended
    winner: str | None  # "home", "away", "draw" or None while unfinished
    outcome: Outcome | None = None
    errors: int = 0
    warnings: int = 0
    match_warnings: tuple[Problem, ...] = field(default=())

    @property
    def accepts_deals(self) -> bool:
        return not self.finished

    def total(self, side: str) -> int:
        return self.home_total if side == HOME else self.away_total

    def min_next(self, side: str) -> int:
        return self.home_min_next if side == HOME else self.away_min_next


def winner_of(home_total: int, away_total: int) -> str:
    if home_total > away_total:
        return HOME
    if away_total > home_total:
        return AWAY
    return "draw"


def played_outcome(points: PointsRules, home_total: int, away_total: int) -> Outcome:
    winner = winner_of(home_total, away_total)
    if winner == "draw":
        home_points = away_points = points.draw
    elif winner == HOME:
        home_points, away_points = points.win, points.loss
    else:
        home_points, away_points = points.loss, points.win
    # Positional, in the fields' order (winner, points, for and against): a replay of a finished
    # match makes one, and keywords cost more than the rest of this function.
    return Outcome(winner, home_points, away_points, home_total, away_total, away_total, home_total)


def forfeit_outcome(points: PointsRules, winner: str) -> Outcome:
    """A walk over (or a match lost after repeated warnings): the competition's award."""
    win = (points.forfeit_winner_points, points.forfeit_winner_for, points.forfeit_winner_against)
    lose = (points.forfeit_loser_points, points.forfeit_loser_for, points.forfeit_loser_against)
    home, away = (win, lose) if winner == HOME else (lose, win)
    return Outcome(
        winner=winner,
        home_points=home[0],
        away_points=away[0],
        home_for=home[1],
        home_against=home[2],
        away_for=away[1],
        away_against=away[2],
    )


@dataclass(slots=True)
class SideRun:
    """One side's running state through a replay: its computed total, its total as the protocol
    has it (written where written, otherwise computed: rule 35 b), and the step of the opening
    table its computed total is on (RuleSet.opening_step), looked up again only when the total
    leaves the step."""

    side: str
    total: int
    basis: int
    minimum: int = 0
    low: float = 0
    high: float = 0

    @classmethod
    def start(cls, rules: RuleSet, side: str, total: int, written: int | None) -> SideRun:
        minimum, low, high = rules.opening_step(total)
        return cls(side, total, total if written is None else written, minimum, low, high)

    def minimum_before(self, rules: RuleSet) -> int:
        """The opening minimum for the side's computed total before the deal."""
        if not self.low <= self.total < self.high:
            self.minimum, self.low, self.high = rules.opening_step(self.total)
        return self.minimum

    def minimum_problem(self, rules: RuleSet, entry: SideEntry) -> Problem | None:
        """A written opening minimum that is neither the one for the computed total before the deal
        nor the one for the total as written (rule 35 b: correcting an addition slip during a
        deal does not change the minimum of the first meld, so the players may rightly have gone by
        the written total). The computed one is compared first: it is most often the one written."""
        written = entry.written_min
        if written is None or written == self.minimum or written == rules.opening_minimum(self.basis):
            return None
        side = self.side
        return Problem(
            "opening-minimum", side, f"{side}_min", {"written": written, "computed": self.minimum, "total": self.total}
        )

    def add(self, entry: SideEntry, score: int) -> Problem | None:
        """Add the deal score to the totals; the slip of addition if the written running total is
        not the total before plus the deal score, both as written where written (otherwise
        computed). Judged this way (rule 35 b) a slip is noted once, at the deal where it was made:
        the next deal's written total adds up from the written one, as the players kept it. The
        computed totals are the ones shown and counted: arithmetic slips are always corrected."""
        self.total += score
        written = entry.written_total
        if written is None:
            self.basis = self.total
            return None
        before = self.basis
        if entry.written_score is not None:
            score = entry.written_score
        self.basis = written
        if written == before + score:
            return None
        side = self.side
        slip = {"written": written, "expected": before + score, "before": before, "score": score, "computed": self.total}
        return Problem("total-mismatch", side, f"{side}_total", slip)


def replay(
    rules: RuleSet,
    deals: list[DealEntry] | tuple[DealEntry, ...],
    *,
    points: PointsRules | None = None,
    clock_expired: bool = False,
    start_total: tuple[int, int] = (0, 0),
    written_before: tuple[int | None, int | None] = (None, None),
    deals_before: int = 0,
    previous_minute: float | None = None,
) -> MatchState:
    """Replay the deals of one match in order.

    `clock_expired`: in a timed match the final signal came after the last deal, between deals (as
    `time_up` on the last deal does).
    `points`: the competition's points rules, to compute the outcome of a finished match.
    `start_total`, `written_before`, `deals_before`, `previous_minute`: where the deals start from
    when they follow deals replayed earlier (see replay_next): the computed totals, the totals as
    written on the protocol's last deal (None where not written), the number of deals and the
    minute the last timed one was dealt; the returned state holds only the deals given.
    """
    home = SideRun.start(rules, HOME, start_total[0], written_before[0])
    away = SideRun.start(rules, AWAY, start_total[1], written_before[1])
    replayed: list[ReplayedDeal] = []
    end: str | None = None
    end_deal: int | None = None
    end_totals = (home.total, away.total)
    error_count = 0
    warning_count = 0
    main_minutes = rules.clock_main_minutes
    target = rules.target
    has_clock = rules.has_clock

    for index, deal in enumerate(deals, start=deals_before):
        scores = deal_scores(rules, deal)
        # Each check and warning of the deal alone, stated once in deal.py; a deal without
        # problems shares the one empty tuple.
        errors = tuple(run_checks(DEAL_CHECKS, rules, deal, scores))
        warnings = tuple(run_checks(DEAL_WARNINGS, rules, deal, scores))
        minimums = []
        for run, entry, score in ((home, deal.home, scores[0]), (away, deal.away, scores[1])):
            minimums.append(run.minimum_before(rules))
            problem = run.minimum_problem(rules, entry)
            if problem is not None:
                errors += (problem,)
            slip = run.add(entry, score)
            if slip is not None:
                warnings += (slip,)

        if end is not None:
            errors += (Problem("after-match-end", None, "deal", {"end_deal": end_deal}),)

        minute = deal.dealt_minute
        if minute is not None:
            # A new deal may be dealt only before the main time has run (docs/rules.md, "The end of a
            # match"): at 50:00 it has.
            if main_minutes is not None and minute >= main_minutes:
                errors += (Problem("dealt-after-time", None, "dealt", {"minute": minute, "limit": main_minutes}),)
            if previous_minute is not None and minute < previous_minute:
                warnings += (Problem("deals-out-of-order", None, "dealt", {"minute": minute}),)
            previous_minute = minute

        if main_minutes is not None and index == MANY_DEALS_IN_TIMED_MATCH:
            warnings += (Problem("many-deals", None, "deal", {"limit": MANY_DEALS_IN_TIMED_MATCH}),)

        error_count += len(errors)
        warning_count += len(warnings)
        replayed.append(
            ReplayedDeal(deal, *scores, home.total, away.total, *minimums, errors, warnings, rules)
        )

        if end is None:
            # The target first: a deal that reaches it ends the match by the target even when the
            # clock ended it too (docs/rules.md, "The end of a match").
            if home.total >= target or away.total >= target:
                end = END_TARGET
            elif has_clock and (deal.time_up or deal.end == END_CLOCK):  # only a written end is the clock
                end = MATCH_END_CLOCK
            if end is not None:
                end_deal = deal.number
                end_totals = (home.total, away.total)

    if end is None:
        end_totals = (home.total, away.total)
        if clock_expired and has_clock:
            # The final signal came between deals: the match ends as it stands.
            end = MATCH_END_CLOCK
            end_deal = replayed[-1].number if replayed else None

    finished = end is not None
    winner = winner_of(*end_totals) if finished else None
    outcome = played_outcome(points, *end_totals) if finished and points is not None else None
    home_end, away_end = end_totals
    return MatchState(
        rules=rules,
        deals=tuple(replayed),
        home_total=home_end,
        away_total=away_end,
        home_min_next=rules.opening_minimum(home_end),
        away_min_next=rules.opening_minimum(away_end),
        finished=finished,
        end=end,
        end_deal=end_deal,
        winner=winner,
        outcome=outcome,
        errors=error_count,
        warnings=warning_count,
    )


def replay_next(
    rules: RuleSet,
    deal: DealEntry,
    *,
    totals: tuple[int, int],
    deals_before: int,
    written_before: tuple[int | None, int | None] = (None, None),
    previous_minute: float | None = None,
    points: PointsRules | None = None,
    clock_expired: bool = False,
) -> MatchState:
    """The next deal of an unfinished match, from the running state the earlier deals left.

    Equal to the last deal of `replay(rules, [*earlier, deal])` (tests/engine/test_match.py proves
    it): what the earlier deals pass on is the running totals, their count and the time of the
    last one, and the totals as written on the last deal (rule 35 b). Saving a deal uses this, so
    that it costs the same in deal 2 as in deal 12. Only for a match that has not ended: after the
    end, replay the whole match (the deal then carries after-match-end).
    """
    return replay(
        rules,
        (deal,),
        points=points,
        clock_expired=clock_expired,
        start_total=totals,
        written_before=written_before,
        deals_before=deals_before,
        previous_minute=previous_minute,
    )
