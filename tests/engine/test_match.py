"""Replaying a match (docs/rules.md, "The end of a match", the match-level checks and warnings, and how a
match counts: played_outcome and forfeit_outcome)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import forfeit_outcome, get_points_rules, played_outcome, replay, replay_next

from tests.support.deals import INTERNATIONELL, SV_HEM, SV_TAVLING, clean_deal, deal, renumber, scored_deal

SV_SERIE = get_points_rules("sv-serie")
FI_LIITTO = get_points_rules("fi-liitto")

# Deals of a known score on a stock end (no going-out bonus): (natural canastas, card points).
H2500 = ((4, 500), (0, 0))  # home 2500, away 0


def problems_of(replayed, kind="errors"):
    return {(p.code, p.side, p.field) for p in getattr(replayed, kind)}


def zero_deal(number, **kwargs):
    return deal({"cards": 0}, {"cards": 0}, number=number, end="stock", **kwargs)


def step_by_step(rules, entries):
    """The deals as saving them one at a time scores them (replay_next from the running state)."""
    steps, totals, minute = [], (0, 0), None
    for count, entry in enumerate(entries):
        state = replay_next(rules, entry, totals=totals, deals_before=count, previous_minute=minute)
        steps.extend(state.deals)
        totals = (state.home_total, state.away_total)
        minute = entry.dealt_minute if entry.dealt_minute is not None else minute
    return tuple(steps)


# -- totals and opening minimums ----------------------------------------------------------------


def test_running_totals_and_minimums():
    deals = [
        scored_deal(1, (1, 300), (0, -40)),  # 800, -40
        scored_deal(2, (1, 300), (1, 200)),  # 1600, 660
        scored_deal(3, (2, 400), (0, -60)),  # 3000, 600
    ]
    state = replay(SV_TAVLING, deals)
    assert [(d.home_total, d.away_total) for d in state.deals] == [(800, -40), (1600, 660), (3000, 600)]
    assert [(d.home_min_before, d.away_min_before) for d in state.deals] == [(50, 50), (50, 15), (90, 50)]
    assert [d.min_before("away") for d in state.deals] == [50, 15, 50]
    assert [d.total("home") for d in state.deals] == [800, 1600, 3000]
    assert (state.home_total, state.away_total) == (3000, 600)
    assert (state.home_min_next, state.away_min_next) == (120, 50)
    assert (state.min_next("home"), state.total("away")) == (120, 600)
    assert state.home_total == sum(d.score.home.score for d in state.deals)
    assert not state.finished and state.accepts_deals
    assert (state.end, state.end_deal, state.winner, state.outcome) == (None, None, None, None)
    assert state.errors == 0 and state.warnings == 0
    assert [d.number for d in state.deals] == [1, 2, 3]


def test_no_deals():
    state = replay(SV_TAVLING, [])
    assert state.deals == ()
    assert (state.home_total, state.away_total, state.home_min_next) == (0, 0, 50)
    assert not state.finished


@pytest.mark.parametrize(
    ("rules", "first", "written", "computed"),
    [
        (SV_TAVLING, ((0, -5), (0, 0)), 15, 15),
        (SV_TAVLING, ((0, -5), (0, 0)), 50, 15),
        (SV_TAVLING, ((2, 495), (0, 0)), 50, 50),  # 1495
        (SV_TAVLING, ((2, 500), (0, 0)), 50, 90),  # 1500
        (SV_TAVLING, ((4, 495), (0, 0)), 120, 90),  # 2495
        (SV_TAVLING, ((5, 500), (0, 0)), 90, 120),  # 3000
        (INTERNATIONELL, ((5, 495), (0, 0)), 90, 90),  # 2995
        (SV_HEM, ((4, 500), (0, 0)), 90, 120),  # 2500
        (SV_HEM, ((4, 495), (0, 0)), 90, 90),  # 2495
        (SV_HEM, ((2, 495), (0, 0)), 50, 50),  # 1495
    ],
)
def test_opening_minimum_check(rules, first, written, computed):
    deals = [scored_deal(1, *first), deal({"cards": 0, "min": written}, {"cards": 0}, number=2, end="stock")]
    second = replay(rules, deals).deals[1]
    assert second.home_min_before == computed
    expected = set() if written == computed else {("opening-minimum", "home", "home_min")}
    assert problems_of(second) == expected


def test_opening_minimum_check_away_and_params():
    entry = clean_deal(away={"cards": -40, "min": 15})
    (replayed,) = replay(SV_TAVLING, [entry]).deals
    (problem,) = replayed.errors
    assert (problem.code, problem.side, problem.field) == ("opening-minimum", "away", "away_min")
    assert problem.params == {"written": 15, "computed": 50, "total": 0}


def test_a_wrong_deal_score_is_reported_once_and_the_computed_totals_count():
    # Rule 35 b: the written total adds up from the written deal score, so the slip is the score's
    # alone; later totals that add up as written are not reported again; the computed totals are
    # the ones shown and counted.
    deals = [
        clean_deal(1, home={"cards": 285, "natural": 1, "score": 880, "total": 880}),
        clean_deal(2, home={"cards": 285, "natural": 1, "total": 1765}, away={"cards": -40, "total": -80}),
        clean_deal(3, home={"cards": 285, "natural": 1, "total": 2650}, away={"cards": -40, "total": -120}),
    ]
    # A warning since docs/rules.md, "Revision 3": every deal goes in as written.
    state = replay(SV_TAVLING, deals)
    assert problems_of(state.deals[0], "warnings") == {("score-mismatch", "home", "home_score")}
    assert problems_of(state.deals[1], "warnings") == set()
    assert problems_of(state.deals[2], "warnings") == set()
    assert [d.home_total for d in state.deals] == [885, 1770, 2655]
    assert (state.errors, state.warnings) == (0, 1)


def test_a_total_not_adding_up_is_reported_where_written():
    deals = [
        clean_deal(1, home={"cards": 285, "natural": 1, "total": 885}),
        clean_deal(2, home={"cards": 285, "natural": 1, "total": 1775}),
        clean_deal(3, home={"cards": 285, "natural": 1, "total": 2660}),
    ]
    state = replay(SV_TAVLING, deals)
    assert problems_of(state.deals[1], "warnings") == {("total-mismatch", "home", "home_total")}
    assert problems_of(state.deals[2], "warnings") == set()
    assert state.errors == 0
    assert state.deals[1].warnings[0].params == {
        "written": 1775, "expected": 1770, "before": 885, "score": 885, "computed": 1770,
    }
    assert state.home_total == 2655


def test_total_mismatch_away():
    state = replay(SV_TAVLING, [clean_deal(away={"cards": -40, "total": 40})])
    assert problems_of(state.deals[0], "warnings") == {("total-mismatch", "away", "away_total")}
    assert state.deals[0].errors == ()


def test_start_total():
    state = replay(SV_TAVLING, [clean_deal()], start_total=(1500, -100))
    assert (state.deals[0].home_min_before, state.deals[0].away_min_before) == (90, 15)
    assert (state.home_total, state.away_total) == (2385, -140)


# -- the end by the target ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deals", "end_deal", "totals", "winner"),
    [
        # exactly 5000 ends the match
        ([H2500, H2500], 2, (5000, 0), "home"),
        # 4995 does not; the next deal that reaches it does
        ([H2500, ((4, 495), (0, 0)), ((0, 5), (0, 0))], 3, (5000, 0), "home"),
        ([H2500, ((4, 495), (0, 0))], None, (4995, 0), None),
        # the away side reaches it
        ([((0, 0), (4, 500)), ((0, 0), (4, 505))], 2, (0, 5005), "away"),
        # both reach it in the same deal: the higher total wins
        ([((4, 500), (4, 500)), ((4, 500), (4, 505))], 2, (5000, 5005), "away"),
        ([((4, 505), (4, 500)), ((4, 500), (4, 500))], 2, (5005, 5000), "home"),
        # both reach it with equal totals: a draw
        ([((4, 500), (4, 500)), ((4, 500), (4, 500))], 2, (5000, 5000), "draw"),
        # one side reaches it, the other is far above zero but below: the one that reached wins
        ([((4, 500), (4, 400)), ((4, 500), (4, 400))], 2, (5000, 4800), "home"),
    ],
)
def test_target_end(deals, end_deal, totals, winner):
    entries = [scored_deal(i, home, away) for i, (home, away) in enumerate(deals, start=1)]
    state = replay(SV_TAVLING, entries, points=SV_SERIE)
    assert (state.home_total, state.away_total) == totals
    assert state.end_deal == end_deal
    assert state.winner == winner
    assert state.finished is (end_deal is not None)
    assert state.accepts_deals is (end_deal is None)
    assert state.end == ("target" if end_deal else None)
    assert state.errors == 0
    if end_deal is None:
        assert state.outcome is None
    else:
        assert state.outcome.winner == winner
        points = {"home": (1, 0), "away": (0, 1), "draw": (0.5, 0.5)}[winner]
        assert (state.outcome.home_points, state.outcome.away_points) == points


@pytest.mark.parametrize("rules", [SV_TAVLING, INTERNATIONELL, SV_HEM], ids=lambda r: r.key)
def test_target_in_every_preset(rules):
    entries = [scored_deal(1, *H2500), scored_deal(2, *H2500)]
    state = replay(rules, entries)
    assert state.finished and state.end == "target" and state.end_deal == 2


def test_deal_after_the_target():
    entries = [scored_deal(1, *H2500), scored_deal(2, *H2500), clean_deal(3), clean_deal(4)]
    state = replay(SV_TAVLING, entries, points=SV_SERIE)
    assert state.end_deal == 2
    assert problems_of(state.deals[1]) == set()
    for later in state.deals[2:]:
        assert problems_of(later) == {("after-match-end", None, "deal")}
        assert later.errors[0].params == {"end_deal": 2}
    # Later deals are still scored, but the result is the totals at the end.
    assert state.deals[3].home_total == 5000 + 2 * 885
    assert (state.home_total, state.away_total) == (5000, 0)
    assert state.winner == "home"
    assert state.errors == 2


def test_a_match_never_ends_before_the_target():
    entries = renumber([clean_deal() for _ in range(5)])  # 885 each: 4425
    state = replay(SV_TAVLING, entries)
    assert not state.finished
    state = replay(SV_TAVLING, renumber([clean_deal() for _ in range(6)]))  # 5310
    assert state.finished and state.end_deal == 6


# -- the end by the clock -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock_deal", "totals", "winner"),
    [
        # the higher total wins, whatever the totals (here both negative)
        (deal({"cards": -5}, {"cards": 0}, end="clock"), (-45, -100), "home"),
        (deal({"cards": -70}, {"cards": 0}, end="clock"), (-110, -100), "away"),
        (deal({"cards": -60}, {"cards": 0}, end="clock"), (-100, -100), "draw"),
    ],
)
def test_clock_end_deal(clock_deal, totals, winner):
    first = deal({"cards": -40}, {"cards": -100}, number=1, end="stock")
    state = replay(SV_TAVLING, [first, replace(clock_deal, number=2)], points=SV_SERIE)
    assert state.errors == 0
    assert state.finished and state.end == "clock" and state.end_deal == 2
    assert (state.home_total, state.away_total) == totals
    assert state.winner == winner
    assert state.outcome.winner == winner


def test_clock_expired_between_deals():
    entries = [clean_deal(1), deal({"cards": 0}, {"cards": 200, "natural": 1}, number=2, end="stock")]
    state = replay(SV_TAVLING, entries, clock_expired=True, points=SV_SERIE)
    assert state.finished and state.end == "clock" and state.end_deal == 2
    assert (state.home_total, state.away_total) == (885, 660)
    assert state.winner == "home"
    assert (state.outcome.home_points, state.outcome.away_points) == (1, 0)
    # Without the final signal the same match goes on.
    assert not replay(SV_TAVLING, entries).finished


@pytest.mark.parametrize("rules", [INTERNATIONELL, SV_HEM], ids=lambda r: r.key)
def test_clock_expired_ignored_without_a_clock(rules):
    state = replay(rules, [clean_deal()], clock_expired=True)
    assert not state.finished and state.end is None


@pytest.mark.parametrize("rules", [INTERNATIONELL, SV_HEM], ids=lambda r: r.key)
def test_clock_deal_without_a_clock(rules):
    state = replay(rules, [clean_deal(1), deal({"cards": 0}, {"cards": 0}, number=2, end="clock")])
    assert problems_of(state.deals[1]) == {("clock-not-allowed", None, "end")}
    assert not state.finished


def test_deal_after_clock_end():
    entries = [deal({"cards": 100}, {"cards": 0}, number=1, end="clock"), clean_deal(2)]
    state = replay(SV_TAVLING, entries)
    assert state.end == "clock" and state.end_deal == 1
    assert problems_of(state.deals[1]) == {("after-match-end", None, "deal")}
    assert (state.home_total, state.away_total) == (100, 0)


def test_target_reached_in_a_clock_deal_is_a_target_end():
    entries = [scored_deal(1, *H2500), deal({"natural": 4, "cards": 500}, {"cards": 0}, number=2, end="clock")]
    state = replay(SV_TAVLING, entries)
    assert state.finished and state.end == "target" and state.end_deal == 2


@pytest.mark.parametrize(
    ("rules", "minute", "error"),
    [
        (SV_TAVLING, 0, False),
        (SV_TAVLING, 49, False),
        (SV_TAVLING, 49.5, False),
        # "a new deal may be dealt only before the main time (50 minutes) has run": at 50 it has
        (SV_TAVLING, 50, True),
        (SV_TAVLING, 50.5, True),
        (SV_TAVLING, 55, True),
        (SV_TAVLING, 61, True),
        (SV_TAVLING.with_overrides({"clock_main_minutes": 60, "clock_extra_minutes": 0}), 55, False),
        (SV_TAVLING.with_overrides({"clock_main_minutes": 60, "clock_extra_minutes": 0}), 59, False),
        (SV_TAVLING.with_overrides({"clock_main_minutes": 60, "clock_extra_minutes": 0}), 60, True),
        (INTERNATIONELL, 75, False),
        (SV_HEM, 120, False),
    ],
)
def test_dealt_after_time(rules, minute, error):
    entries = [clean_deal(1, dealt_minute=0), deal({"cards": 0}, {"cards": 0}, number=2, end="stock", dealt_minute=minute)]
    state = replay(rules, entries)
    expected = {("dealt-after-time", None, "dealt")} if error else set()
    assert problems_of(state.deals[1]) == expected
    assert state.errors == (1 if error else 0)


def test_dealt_after_time_params():
    state = replay(SV_TAVLING, [clean_deal(dealt_minute=52)])
    (problem,) = state.deals[0].errors
    assert problem.params == {"minute": 52, "limit": 50}


def test_no_start_times_no_time_check():
    entries = renumber([zero_deal(1) for _ in range(3)])
    assert replay(SV_TAVLING, entries).errors == 0


# -- warnings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "warnings"),
    [
        (deal({"cards": 500, "natural": 5}, {"cards": -40}, out="home"), {("deal-score-high", "home", "home_score")}),
        (deal({"cards": 400, "natural": 5}, {"cards": -40}, out="home"), set()),  # exactly 3000
        (deal({"cards": -40}, {"cards": 505, "natural": 5}, out="away"), {("deal-score-high", "away", "away_score")}),
        # Red threes count 0 under sv-tavling: no high score, but a word about the red threes.
        (deal({"cards": 400, "natural": 5, "red3": 1}, {"cards": -40}, out="home"),
         {("red-threes-not-counted", "home", "home_red3")}),
    ],
)
def test_deal_score_high(entry, warnings):
    state = replay(SV_TAVLING, [entry])
    assert problems_of(state.deals[0], "warnings") == warnings
    assert state.errors == 0
    assert state.warnings == len(warnings)
    assert all(p.is_warning for p in state.deals[0].warnings)


def test_deal_score_high_red_threes_count():
    entry = deal({"cards": 400, "natural": 5, "red3": 1}, {"cards": -40}, out="home")  # 3100
    state = replay(INTERNATIONELL, [entry])
    assert problems_of(state.deals[0], "warnings") == {("deal-score-high", "home", "home_score")}


@pytest.mark.parametrize(
    ("rules", "count", "warned"),
    [
        (SV_TAVLING, 15, False),
        (SV_TAVLING, 16, True),
        (SV_TAVLING, 20, True),
        (INTERNATIONELL, 20, False),
        (SV_HEM, 16, False),
    ],
)
def test_many_deals(rules, count, warned):
    state = replay(rules, [zero_deal(n) for n in range(1, count + 1)])
    warned_deals = [d.number for d in state.deals if ("many-deals", None, "deal") in problems_of(d, "warnings")]
    assert warned_deals == ([16] if warned else [])
    assert state.warnings == (1 if warned else 0)
    assert state.errors == 0
    assert step_by_step(rules, [zero_deal(n) for n in range(1, count + 1)]) == state.deals


@pytest.mark.parametrize(
    ("minutes", "warned"),
    [
        ([0, 12, 8], [3]),
        ([0, 12, 12, 20], []),
        ([0, 5, 10, 7, 15], [4]),
        ([10, 0], [2]),
        ([None, 12, None, 30], []),
    ],
)
def test_deals_out_of_order(minutes, warned):
    entries = [zero_deal(n, dealt_minute=minute) for n, minute in enumerate(minutes, start=1)]
    state = replay(SV_TAVLING, entries)
    found = [d.number for d in state.deals if ("deals-out-of-order", None, "dealt") in problems_of(d, "warnings")]
    assert found == warned
    assert state.errors == 0
    assert state.warnings == len(warned)
    assert step_by_step(SV_TAVLING, entries) == state.deals


# -- outcomes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "home_total", "away_total", "expected"),
    [
        (SV_SERIE, 5120, 3890, ("home", 1, 0, 5120, 3890, 3890, 5120)),
        (SV_SERIE, 2100, 5005, ("away", 0, 1, 2100, 5005, 5005, 2100)),
        (SV_SERIE, 5000, 5000, ("draw", 0.5, 0.5, 5000, 5000, 5000, 5000)),
        (SV_SERIE, -300, -200, ("away", 0, 1, -300, -200, -200, -300)),
        (FI_LIITTO, 5120, 3890, ("home", 2, 0, 5120, 3890, 3890, 5120)),
        (FI_LIITTO, 2100, 5005, ("away", 0, 2, 2100, 5005, 5005, 2100)),
        (FI_LIITTO, 5000, 5000, ("draw", 1, 1, 5000, 5000, 5000, 5000)),
    ],
)
def test_played_outcome(points, home_total, away_total, expected):
    outcome = played_outcome(points, home_total, away_total)
    assert (
        outcome.winner,
        outcome.home_points,
        outcome.away_points,
        outcome.home_for,
        outcome.home_against,
        outcome.away_for,
        outcome.away_against,
    ) == expected


def test_fi_liitto_difference_is_plus_for_the_winner_minus_for_the_loser():
    outcome = played_outcome(FI_LIITTO, 5120, 3890)
    assert outcome.home_for - outcome.home_against == 1230
    assert outcome.away_for - outcome.away_against == -1230


@pytest.mark.parametrize(
    ("points", "winner", "expected"),
    [
        # sv-serie: 1 point, 5000 for, 2500 against; 0 points, 2500 for, 5000 against
        (SV_SERIE, "home", (1, 0, 5000, 2500, 2500, 5000)),
        (SV_SERIE, "away", (0, 1, 2500, 5000, 5000, 2500)),
        # fi-liitto: 2 points and +2000; 0 points and -2000
        (FI_LIITTO, "home", (2, 0, None, None, None, None)),
        (FI_LIITTO, "away", (0, 2, None, None, None, None)),
    ],
)
def test_forfeit_outcome(points, winner, expected):
    outcome = forfeit_outcome(points, winner)
    assert outcome.winner == winner
    assert (outcome.home_points, outcome.away_points) == expected[:2]
    if expected[2] is not None:
        assert (outcome.home_for, outcome.home_against, outcome.away_for, outcome.away_against) == expected[2:]
    loser = "away" if winner == "home" else "home"
    difference = {
        "home": outcome.home_for - outcome.home_against,
        "away": outcome.away_for - outcome.away_against,
    }
    if points is FI_LIITTO:
        assert difference[winner] == 2000
        assert difference[loser] == -2000
    else:
        assert difference[winner] == 2500
        assert difference[loser] == -2500


def test_forfeit_award_overrides():
    points = SV_SERIE.with_overrides({"forfeit_winner_for": 3000, "forfeit_loser_for": 1000})
    outcome = forfeit_outcome(points, "away")
    assert (outcome.away_for, outcome.home_for) == (3000, 1000)


def test_replay_outcome_with_fi_liitto():
    entries = [scored_deal(1, *H2500), scored_deal(2, (4, 500), (1, 300))]
    state = replay(SV_TAVLING, entries, points=FI_LIITTO)
    assert state.outcome.winner == "home"
    assert (state.outcome.home_points, state.outcome.away_points) == (2, 0)
    assert state.outcome.home_for - state.outcome.home_against == 5000 - 800
