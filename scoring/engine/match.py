"""Replaying a match (parti): running totals, opening minimums, the end, the winner and the points.

`replay(rules, deals)` takes the deals of one match in order and returns a MatchState: for each deal
its score breakdown, the running totals after it, each side's opening minimum before it, and its
problems (the deal's own checks plus those that need the match: opening-minimum, total-mismatch,
after-match-end, dealt-after-time, and the warnings). The match ends after the deal in which a side
reaches the target (rule 34 a), after a deal that ended by the clock, or — in a timed match — after
a deal marked `time_up` (no new deal could be dealt), or when the caller says the final signal came
after the last deal, between deals (`clock_expired`).

Addition slips are judged by rule 35 b: a written running total is checked against the written
total before it plus the deal score, so each slip is reported once, where it was made, and an
opening minimum that follows the written total is right as well.

Deals after the end are still scored (so a file check can show them) but carry `after-match-end`;
the result is the totals at the end.

`forfeit_outcome` scores a walk over by the competition's award.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .deal import (
    DEAL_CHECKS,
    END_CLOCK,
    NO_PROBLEMS,
    DealEntry,
    DealScore,
    deal_fast_path,
    run_checks,
    score_deal,
)
from .problems import AWAY, HOME, Problem
from .rules import PointsRules, RuleSet

END_TARGET = "target"
MATCH_END_CLOCK = "clock"
# A timed match with more deals than this is unusual (RULES.md, warnings).
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
    home_total, away_total = start_total
    # The totals before each deal as the protocol has them: written where written, otherwise
    # computed (rule 35 b; see the running totals below).
    home_basis = home_total if written_before[0] is None else written_before[0]
    away_basis = away_total if written_before[1] is None else written_before[1]
    replayed: list[ReplayedDeal] = []
    end: str | None = None
    end_deal: int | None = None
    end_totals = (home_total, away_total)
    error_count = 0
    warning_count = 0
    main_minutes = rules.clock_main_minutes
    opening_minimum = rules.opening_minimum
    target = rules.target
    has_clock = rules.has_clock

    # Each side's opening minimum, and the range of totals it holds for (RuleSet.opening_step).
    home_min, home_low, home_high = rules.opening_step(home_total)
    away_min, away_low, away_high = rules.opening_step(away_total)

    for index, deal in enumerate(deals, start=deals_before):
        if not home_low <= home_total < home_high:
            home_min, home_low, home_high = rules.opening_step(home_total)
        if not away_low <= away_total < away_high:
            away_min, away_low, away_high = rules.opening_step(away_total)
        # The deal scores, and whether the deal passes every check: the checks run only for a
        # deal that may not, and of the warnings only those that find something (deal.py). A deal
        # without problems shares the one empty tuple; the rare problem found below makes a new
        # tuple.
        home_score, away_score, passes, found = deal_fast_path(rules, deal)
        if passes:
            errors = NO_PROBLEMS
        else:
            errors = tuple(run_checks(DEAL_CHECKS, rules, deal, (home_score, away_score)))
        if not found:
            warnings = NO_PROBLEMS
        elif len(found) == 1:  # a deal with a warning has one, most often
            warnings = tuple(found[0](rules, deal, (home_score, away_score)))
        else:
            warnings = tuple(run_checks(found, rules, deal, (home_score, away_score)))
        home_entry, away_entry = deal.home, deal.away

        # A written minimum is most often the computed one: that comparison first.
        written = home_entry.written_min
        if written != home_min and written is not None and written != opening_minimum(home_basis):
            errors += (_minimum_problem(HOME, written, home_min, home_total),)
        written = away_entry.written_min
        if written != away_min and written is not None and written != opening_minimum(away_basis):
            errors += (_minimum_problem(AWAY, written, away_min, away_total),)

        home_total += home_score
        away_total += away_score
        # Each side's total after the deal as the protocol has it, and a slip of addition where its
        # written total is not the total before plus the deal score, both as written where written
        # (otherwise computed). Judged this way (rule 35 b) a slip is reported once, at the deal
        # where it was made: the next deal's written total adds up from the written one, as the
        # players kept it. The computed totals are still the ones shown and counted: arithmetic
        # errors are always corrected.
        written = home_entry.written_total
        if written is None:
            home_basis = home_total
        else:
            score = home_score if home_entry.written_score is None else home_entry.written_score
            if written != home_basis + score:
                errors += (_total_problem(HOME, written, home_basis, score, home_total),)
            home_basis = written
        written = away_entry.written_total
        if written is None:
            away_basis = away_total
        else:
            score = away_score if away_entry.written_score is None else away_entry.written_score
            if written != away_basis + score:
                errors += (_total_problem(AWAY, written, away_basis, score, away_total),)
            away_basis = written

        if end is not None:
            errors += (Problem("after-match-end", None, "deal", {"end_deal": end_deal}),)

        minute = deal.dealt_minute
        if minute is not None:
            # A new deal may be dealt only before the main time has run (RULES.md, the end of a
            # match): at 50:00 it has.
            if main_minutes is not None and minute >= main_minutes:
                errors += (Problem("dealt-after-time", None, "dealt", {"minute": minute, "limit": main_minutes}),)
            if previous_minute is not None and minute < previous_minute:
                warnings += (Problem("deals-out-of-order", None, "dealt", {"minute": minute}),)
            previous_minute = minute

        if main_minutes is not None and index == MANY_DEALS_IN_TIMED_MATCH:
            warnings += (Problem("many-deals", None, "deal", {"limit": MANY_DEALS_IN_TIMED_MATCH}),)

        if errors:
            error_count += len(errors)
        if warnings:
            warning_count += len(warnings)
        replayed.append(
            ReplayedDeal(deal, home_score, away_score, home_total, away_total, home_min, away_min, errors, warnings, rules)
        )

        if end is None:
            # The target first: a deal that reaches it ends the match by the target even when the
            # clock ended it too (RULES.md, the end of a match).
            if home_total >= target or away_total >= target:
                end = END_TARGET
            elif has_clock and (deal.time_up or deal.end == END_CLOCK):  # only a written end is the clock
                end = MATCH_END_CLOCK
            if end is not None:
                end_deal = deal.number
                end_totals = (home_total, away_total)

    if end is None:
        end_totals = (home_total, away_total)
        if clock_expired and has_clock:
            # The final signal came between deals: the match ends as it stands.
            end = MATCH_END_CLOCK
            end_deal = replayed[-1].number if replayed else None

    finished = end is not None
    winner = winner_of(*end_totals) if finished else None
    outcome = played_outcome(points, *end_totals) if finished and points is not None else None
    home_end, away_end = end_totals
    # Positional, in the fields' order: a season's files make a state per file, and keywords cost
    # more than the rest of the state.
    return MatchState(
        rules, tuple(replayed), home_end, away_end, opening_minimum(home_end), opening_minimum(away_end),
        finished, end, end_deal, winner, outcome, error_count, warning_count,
    )  # fmt: skip


def _minimum_problem(side: str, written: int, computed: int, total: int) -> Problem:
    """A written opening minimum that is neither the computed one nor the one for the total as
    written: rule 35 b, correcting an addition slip during a deal does not change the minimum of
    the first meld, so the minimum for the written total is right as well."""
    return Problem("opening-minimum", side, f"{side}_min", {"written": written, "computed": computed, "total": total})


def _total_problem(side: str, written: int, before: int, score: int, computed: int) -> Problem:
    """A written running total that is not the total before it plus the deal score, both as
    written where written (rule 35 b): the slip of addition, where it was made."""
    slip = {"written": written, "expected": before + score, "before": before, "score": score, "computed": computed}
    return Problem("total-mismatch", side, f"{side}_total", slip)


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
