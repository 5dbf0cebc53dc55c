"""docs/rules.md, "Revision 2", case by case: the partner's hand, rule 35 b (each addition slip reported
once, where it was made; the opening minimum by the written total is right too), `time_up` and the
clock, the card count of canastas-impossible, and the warnings with their codes."""

from __future__ import annotations

import pytest

from scoring.engine import check_deal, replay
from scoring.engine.deal import deal_warnings

from tests.support.deals import INTERNATIONELL, SV_HEM, SV_TAVLING, clean_deal, deal, scored_deal

PRESETS = [SV_TAVLING, INTERNATIONELL, SV_HEM]


def codes(problems):
    return [(p.code, p.side, p.field) for p in problems]


# -- the partner's hand counts minus (rule 12, rule 34 b 2) --------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.key)
def test_concealed_going_out_with_the_partner_holding_165(rules):
    # 105 melded by the player who went out, 165 left in the partner's hand: -60 card points.
    entry = clean_deal(home={"cards": -60, "natural": 1}, concealed=True)
    assert check_deal(rules, entry) == []
    state = replay(rules, [entry])
    assert state.errors == 0
    assert state.deals[0].score.home.score == -60 + 500 + 200


@pytest.mark.parametrize("cards", [0, 5, 30, -1180 + 40])
def test_the_side_that_went_out_may_have_any_card_points(cards):
    entry = clean_deal(home={"cards": cards, "natural": 1}, away={"cards": -40})
    assert check_deal(SV_TAVLING, entry) == []


# -- rule 35 b: addition slips -----------------------------------------------------------------

# (computed total, total written 5 too high, the step's two minimums)
STEPS = [
    pytest.param(1495, 1500, (50, 90), id="1495/1500"),
    pytest.param(2995, 3000, (90, 120), id="2995/3000"),
    pytest.param(-5, 0, (15, 50), id="-5/0"),
]


@pytest.mark.parametrize(("computed", "written", "minimums"), STEPS)
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.key)
def test_an_addition_slip_is_reported_once_where_it_was_made(rules, computed, written, minimums):
    # Reach `computed` in deals of at most 1180 card points, each total written right.
    deals = []
    total = 0
    number = 1
    while total != computed:
        step = max(-1180, min(1180, computed - total))
        deals.append(deal({"cards": step, "total": total + step}, {"cards": 0}, number=number, end="stock"))
        total += step
        number += 1
    # The slip: one more deal of 0 written with a total 5 too high.
    deals.append(deal({"cards": 0, "total": written}, {"cards": 0}, number=number, end="stock"))
    slip_deal = number
    # The next deal: the minimum by the written total, and its total adds up from the written one.
    deals.append(
        deal(
            {"cards": 100, "min": minimums[1], "total": written + 100},
            {"cards": 0},
            number=number + 1,
            end="stock",
        )
    )
    # One more, written consistently, with the minimum by the computed total this time.
    computed_after = computed + 100
    deals.append(
        deal(
            {"cards": 100, "min": rules.opening_minimum(computed_after), "total": written + 200},
            {"cards": 0},
            number=number + 2,
            end="stock",
        )
    )
    state = replay(rules, deals)
    # A warning since revision 3: every deal goes in as written.
    assert state.errors == 0
    warnings = [(d.number, p.code, p.side) for d in state.deals for p in d.warnings]
    assert warnings == [(slip_deal, "total-mismatch", "home")]
    # The computed totals are the ones shown and counted (arithmetic errors are always corrected).
    assert state.home_total == computed + 200
    assert state.deals[-2].home_min_before == rules.opening_minimum(computed)


@pytest.mark.parametrize(("computed", "written", "minimums"), STEPS)
def test_a_minimum_by_neither_total_is_an_error(computed, written, minimums):
    wrong = {15: 120, 50: 120, 90: 15, 120: 15}[minimums[0]]
    state = replay(
        SV_TAVLING,
        [deal({"cards": 0, "total": written, "min": wrong}, {"cards": 0}, end="stock")],
        start_total=(computed, 0),
        written_before=(written, None),
    )
    assert codes(state.deals[0].errors) == [("opening-minimum", "home", "home_min")]
    problem = state.deals[0].errors[0]
    assert problem.params == {"written": wrong, "computed": minimums[0], "total": computed}


def test_the_written_total_before_a_replay_next_counts_too():
    # Saving one deal from the stored state: the last deal's written total is passed on.
    state = replay(
        SV_TAVLING,
        [deal({"cards": 100, "min": 90, "total": 1600}, {"cards": 0}, number=5, end="stock")],
        start_total=(1495, 0),
        written_before=(1500, None),
        deals_before=4,
    )
    assert state.errors == 0


def test_slips_on_both_sides_are_reported_each_once():
    deals = [
        deal({"cards": 300, "total": 305}, {"cards": -40, "total": -45}, number=1, end="stock"),
        deal({"cards": 300, "total": 605}, {"cards": -40, "total": -85}, number=2, end="stock"),
    ]
    state = replay(SV_TAVLING, deals)
    assert codes(state.deals[0].warnings) == [("total-mismatch", "home", "home_total"), ("total-mismatch", "away", "away_total")]
    assert state.deals[1].warnings == ()
    assert state.errors == 0
    assert (state.home_total, state.away_total) == (600, -80)


# -- the end of a match: time_up, the clock and the target --------------------------------------


def test_time_up_ends_a_timed_match_by_the_clock_after_that_deal():
    deals = [clean_deal(1, dealt_minute=0), clean_deal(2, dealt_minute=47, time_up=True)]
    state = replay(SV_TAVLING, deals)
    assert (state.finished, state.end, state.end_deal, state.winner) == (True, "clock", 2, "home")
    assert state.errors == 0


def test_a_deal_after_time_up_is_after_the_end_and_does_not_count():
    deals = [clean_deal(1, time_up=True), clean_deal(2)]
    state = replay(SV_TAVLING, deals)
    assert codes(state.deals[1].errors) == [("after-match-end", None, "deal")]
    assert state.deals[1].home_total == 1770  # scored, running on from the deal before
    assert state.home_total == 885  # the result is the totals at the end of the match


@pytest.mark.parametrize("rules", [INTERNATIONELL, SV_HEM], ids=lambda r: r.key)
def test_time_up_without_a_clock_is_an_error_and_ends_nothing(rules):
    state = replay(rules, [clean_deal(1, time_up=True)])
    assert codes(state.deals[0].errors) == [("clock-not-allowed", None, "time_up")]
    assert not state.finished


def test_a_clock_deal_that_reaches_the_target_ends_by_the_target():
    deals = [scored_deal(n, home=(2, 600)) for n in range(1, 4)]  # 1600 each
    deals.append(deal({"cards": 500, "natural": 1}, {"cards": 0}, number=4, end="clock"))
    state = replay(SV_TAVLING, deals)
    assert (state.end, state.end_deal) == ("target", 4)


def test_a_time_up_deal_that_reaches_the_target_ends_by_the_target():
    deals = [scored_deal(n, home=(2, 600)) for n in range(1, 4)]
    deals.append(deal({"cards": 500, "natural": 1}, {"cards": 0}, number=4, end="stock", time_up=True))
    state = replay(SV_TAVLING, deals)
    assert (state.end, state.end_deal) == ("target", 4)


@pytest.mark.parametrize(("minute", "error"), [(0, False), (49, False), (50, True), (55, True)])
def test_dealt_after_time(minute, error):
    state = replay(SV_TAVLING, [clean_deal(1, dealt_minute=minute)])
    assert (("dealt-after-time", None, "dealt") in codes(state.deals[0].errors)) is error


# -- canastas-impossible counts cards ---------------------------------------------------------------


def test_five_natural_and_twelve_mixed_canastas_need_119_cards():
    entry = deal({"cards": 600, "natural": 5, "mixed": 6}, {"cards": 400, "mixed": 6}, end="stock")
    (problem,) = check_deal(SV_TAVLING, entry)
    assert problem.code == "canastas-impossible"
    assert problem.params["reason"] == "cards"
    assert problem.params["needed"] == 119


def test_fourteen_canastas_fit_in_two_packs():
    entry = deal({"cards": 500, "natural": 4, "mixed": 4}, {"cards": 500, "natural": 3, "mixed": 3}, end="stock")
    assert check_deal(SV_TAVLING, entry) == []


# -- warnings ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "warned"), [(0, False), (100, False), (500, False), (50, True), (150, True), (25, True)]
)
def test_penalty_unusual(penalty, warned):
    entry = clean_deal(away={"cards": -40, "penalty": penalty})
    found = codes(deal_warnings(SV_TAVLING, entry))
    assert (("penalty-unusual", "away", "away_penalty") in found) is warned
    state = replay(SV_TAVLING, [entry])
    assert (("penalty-unusual", "away", "away_penalty") in codes(state.deals[0].warnings)) is warned


def test_red_threes_not_counted_only_where_they_count_nothing():
    entry = clean_deal(away={"cards": -40, "red3": 2})
    assert codes(deal_warnings(SV_TAVLING, entry)) == [("red-threes-not-counted", "away", "away_red3")]
    for rules in (INTERNATIONELL, SV_HEM):
        assert "red-threes-not-counted" not in [p.code for p in deal_warnings(rules, entry)]


@pytest.mark.parametrize("rules", [INTERNATIONELL, SV_HEM], ids=lambda r: r.key)
def test_melded_assumed(rules):
    # Not written, no canasta, card points not above zero, did not go out: taken as not melded.
    assumed = clean_deal(away={"cards": -40, "red3": 1})
    assert codes(deal_warnings(rules, assumed)) == [("melded-assumed", "away", "away_melded")]
    assert replay(rules, [assumed]).deals[0].score.away.score == -140
    # Near misses: `melded` written either way, or the side evidently melded.
    for away in ({"cards": -40, "red3": 1, "melded": False}, {"cards": -40, "red3": 1, "melded": True},
                 {"cards": 20, "red3": 1}, {"cards": -40, "red3": 0}):
        assert deal_warnings(rules, clean_deal(away=away)) == []
    assert deal_warnings(SV_TAVLING, assumed) == [p for p in deal_warnings(SV_TAVLING, assumed) if p.code != "melded-assumed"]


def test_warnings_never_make_a_deal_an_error():
    entry = clean_deal(away={"cards": -40, "red3": 1, "penalty": 50})
    state = replay(INTERNATIONELL, [entry])
    assert state.errors == 0
    assert [p.code for p in state.deals[0].warnings] == ["penalty-unusual", "melded-assumed"]
    assert all(p.is_warning for p in state.deals[0].warnings)
