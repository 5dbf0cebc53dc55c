"""Hypothesis properties of the engine.

Deals are generated LEGAL by construction from card counts: how many natural and mixed canastas each
side has within what two packs allow, card points as multiples of 5 within the pack's 1180, a side
that went out holding at least the least value of its canastas, a side that has not melded holding
no canasta and no positive card points, at most four red threes in all. Such deals must never be
rejected; matches of them must add up, end exactly where docs/rules.md, "The end of a match", says, and survive a trip through
the CSV format unchanged.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    DealEntry, SideEntry, check_deal, get_points_rules, get_rules, replay, replay_next, score_deal,
)
from scoring.engine.deal import deal_warnings
from scoring.files.protocol_file import read_csv, write_csv
from tests.support.depth import examples

PACK = 1180
RULE_SETS = [
    get_rules("sv-tavling"),
    get_rules("internationell-1951"),
    get_rules("sv-hem"),
    get_rules("sv-hem", {"canastas_to_go_out": 2}),
    get_rules("sv-tavling", {"clock_main_minutes": 60, "clock_extra_minutes": 0}),
]
SV_SERIE = get_points_rules("sv-serie")

# The full counts (TEST_DEPTH=deep); a short run tries 50 of each (tests/support/depth.py).
PROPERTY_SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MATCH_SETTINGS = settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def multiple_of_5(low: int, high: int) -> st.SearchStrategy[int]:
    """A multiple of 5 in [low, high]; low and high are multiples of 5."""
    return st.integers(low // 5, high // 5).map(lambda n: n * 5)


@st.composite
def legal_deals(draw, rules, number: int = 1, allow_clock: bool = True) -> DealEntry:
    ends = ["out", "stock"] + (["clock"] if rules.has_clock and allow_clock else [])
    end = draw(st.sampled_from(ends))
    out = draw(st.sampled_from(["home", "away"])) if end == "out" else None
    concealed = draw(st.booleans()) if out else False
    # The side that went out is drawn first, so it can take the canastas it needs.
    first = out or draw(st.sampled_from(["home", "away"]))
    second = "away" if first == "home" else "home"
    has_melded = {side: side == out or draw(st.booleans()) for side in (first, second)}

    need = rules.canastas_to_go_out if out else 0
    natural = {first: 0, second: 0}
    mixed = {first: 0, second: 0}
    if has_melded[first]:
        natural[first] = draw(st.integers(0, 8))
        mixed_limit = min(11 - natural[first], 12, 2 * (11 - natural[first]))
        mixed[first] = draw(st.integers(max(0, need - natural[first]), mixed_limit))
    if has_melded[second]:
        n_first, m_first = natural[first], mixed[first]
        # Two packs: 11 ranks, 12 wild cards, and 100 cards that are not threes (at most 14
        # canastas of 7 cards).
        natural[second] = draw(st.integers(0, min(11 - n_first - (m_first + 1) // 2, 14 - n_first - m_first)))
        mixed_limit = min(
            11 - natural[second],
            12 - m_first,
            2 * (11 - n_first - natural[second]) - m_first,
            14 - n_first - m_first - natural[second],
        )
        mixed[second] = draw(st.integers(0, mixed_limit))

    cards = {}
    # The side that went out may have card points below zero too: the partner's hand counts
    # minus (rule 12, rule 34 b 2).
    least = -PACK
    cards[first] = draw(multiple_of_5(least, PACK if has_melded[first] else 0))
    high = min(PACK if has_melded[second] else 0, PACK - cards[first])
    cards[second] = draw(multiple_of_5(-PACK, high))

    red3 = {first: draw(st.integers(0, 4))}
    red3[second] = draw(st.integers(0, 4 - red3[first]))
    penalty = {side: draw(st.one_of(st.just(0), multiple_of_5(0, 500))) for side in (first, second)}
    # `melded` written or left to the default (which then agrees or is irrelevant).
    melded = {side: draw(st.sampled_from([None, has_melded[side]])) for side in (first, second)}

    sides = {
        side: SideEntry(
            cards=cards[side],
            natural=natural[side],
            mixed=mixed[side],
            red3=red3[side],
            penalty=penalty[side],
            melded=melded[side],
        )
        for side in ("home", "away")
    }
    return DealEntry(
        number=number,
        home=sides["home"],
        away=sides["away"],
        out=out,
        concealed=concealed,
        end=draw(st.sampled_from([end, None])) if end != "clock" else end,
    )


@st.composite
def rules_and_deal(draw):
    rules = draw(st.sampled_from(RULE_SETS))
    return rules, draw(legal_deals(rules))


@st.composite
def rules_and_match(draw, max_deals: int = 14):
    rules = draw(st.sampled_from(RULE_SETS))
    count = draw(st.integers(0, max_deals))
    deals = [draw(legal_deals(rules, number, allow_clock=draw(st.integers(0, 9)) == 0)) for number in range(1, count + 1)]
    return rules, deals


def expected_score(rules, deal: DealEntry, side: str) -> int:
    """Rule 34 b written out again, independently of the engine."""
    entry = deal.home if side == "home" else deal.away
    melded = entry.melded if entry.melded is not None else (
        entry.natural + entry.mixed > 0 or entry.cards > 0 or deal.out == side
    )
    red = 0
    if rules.red_three and entry.red3:
        red = rules.red_three_all_four if entry.red3 == 4 else rules.red_three * entry.red3
        if not melded and rules.red_three_minus_if_not_melded:
            red = -red
    bonus = (200 if deal.concealed else 100) if deal.out == side else 0
    return entry.cards + 500 * entry.natural + 300 * entry.mixed + red + bonus - entry.penalty


# -- one deal -----------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(rules_and_deal())
def test_a_legal_deal_is_never_rejected(case):
    rules, deal = case
    assert check_deal(rules, deal) == []
    state = replay(rules, [deal])
    assert state.errors == 0, state.deals[0].errors


@PROPERTY_SETTINGS
@given(rules_and_deal())
def test_deal_score_is_rule_34b(case):
    rules, deal = case
    score = score_deal(rules, deal)
    for side in ("home", "away"):
        side_score = score.side(side)
        assert side_score.score == expected_score(rules, deal, side)
        assert side_score.score == (
            side_score.cards + side_score.canastas + side_score.red_threes + side_score.going_out + side_score.penalties
        )
        assert side_score.score % 5 == 0


@PROPERTY_SETTINGS
@given(rules_and_deal())
def test_writing_the_right_score_stays_clean_and_a_wrong_one_is_caught(case):
    rules, deal = case
    score = score_deal(rules, deal)
    right = replace(deal, home=replace(deal.home, written_score=score.home.score))
    assert check_deal(rules, right) == []
    assert "score-mismatch" not in {p.code for p in deal_warnings(rules, right)}
    wrong = replace(deal, away=replace(deal.away, written_score=score.away.score + 5))
    # A warning (docs/rules.md, "Revision 3"): the deal is accepted as written.
    assert check_deal(rules, wrong) == []
    slips = [(p.code, p.side, p.field) for p in deal_warnings(rules, wrong) if p.code == "score-mismatch"]
    assert slips == [("score-mismatch", "away", "away_score")]


# -- a match ------------------------------------------------------------------------------------


@pytest.mark.slow  # whole matches replayed many times: seconds
@MATCH_SETTINGS
@given(rules_and_match())
def test_totals_are_sums_and_the_match_ends_at_the_first_deal_reaching_the_target(case):
    rules, deals = case
    state = replay(rules, deals, points=SV_SERIE)

    home = away = 0
    end_index = None
    for index, (deal, replayed) in enumerate(zip(deals, state.deals)):
        assert (replayed.home_min_before, replayed.away_min_before) == (
            rules.opening_minimum(home),
            rules.opening_minimum(away),
        )
        home += replayed.score.home.score
        away += replayed.score.away.score
        assert (replayed.home_total, replayed.away_total) == (home, away)
        if end_index is None:
            # Never before: every deal before the end leaves both sides under the target and
            # did not end by the clock.
            if home >= rules.target or away >= rules.target or deal.effective_end == "clock":
                end_index = index
            else:
                assert not [p for p in replayed.errors if p.code == "after-match-end"]

    if end_index is None:
        assert not state.finished
        assert (state.end, state.end_deal, state.winner, state.outcome) == (None, None, None, None)
        assert (state.home_total, state.away_total) == (home, away)
    else:
        end_deal = state.deals[end_index]
        assert state.finished
        assert state.end_deal == end_index + 1
        reached = end_deal.home_total >= rules.target or end_deal.away_total >= rules.target
        assert state.end == ("target" if reached else "clock")
        assert (state.home_total, state.away_total) == (end_deal.home_total, end_deal.away_total)
        assert state.home_total == sum(d.score.home.score for d in state.deals[: end_index + 1])
        if state.home_total > state.away_total:
            assert state.winner == "home"
        elif state.home_total < state.away_total:
            assert state.winner == "away"
        else:
            assert state.winner == "draw"
        assert state.outcome is not None and state.outcome.winner == state.winner

    # Legal deals carry no error but after-match-end, and that only after the end.
    for index, replayed in enumerate(state.deals):
        codes = [p.code for p in replayed.errors]
        if end_index is not None and index > end_index:
            assert codes == ["after-match-end"]
        else:
            assert codes == []
    assert state.errors == sum(len(d.errors) for d in state.deals)
    assert state.warnings == sum(len(d.warnings) for d in state.deals)


@pytest.mark.slow  # whole matches replayed many times: seconds
@MATCH_SETTINGS
@given(rules_and_match(), st.booleans())
def test_clock_expired_ends_a_timed_match_as_it_stands(case, expired):
    rules, deals = case
    state = replay(rules, deals, clock_expired=expired)
    plain = replay(rules, deals)
    if plain.finished or not expired or not rules.has_clock:
        assert (state.finished, state.end, state.end_deal) == (plain.finished, plain.end, plain.end_deal)
    else:
        assert state.finished and state.end == "clock"
        assert state.end_deal == (deals[-1].number if deals else None)
        assert (state.home_total, state.away_total) == (plain.home_total, plain.away_total)


def problem_summary(state):
    return [
        (
            replayed.number,
            replayed.score,
            replayed.home_total,
            replayed.away_total,
            replayed.home_min_before,
            replayed.away_min_before,
            [(p.code, p.side, p.field) for p in replayed.errors],
            [(p.code, p.side, p.field) for p in replayed.warnings],
        )
        for replayed in state.deals
    ], (state.home_total, state.away_total, state.finished, state.end, state.end_deal, state.winner, state.errors, state.warnings)


@pytest.mark.slow  # whole matches replayed many times: seconds
@MATCH_SETTINGS
@given(rules_and_match())
def test_csv_round_trip_changes_nothing(case):
    rules, deals = case
    state = replay(rules, deals)
    read_back = read_csv(write_csv(state))
    again = replay(rules, read_back)
    assert problem_summary(again) == problem_summary(state)
    for before, after in zip(deals, read_back):
        assert (before.number, before.out, before.concealed, before.effective_end) == (
            after.number,
            after.out,
            after.concealed,
            after.effective_end,
        )
        for side in ("home", "away"):
            b, a = before.side(side), after.side(side)
            assert (b.cards, b.natural, b.mixed, b.red3, b.penalty) == (a.cards, a.natural, a.mixed, a.red3, a.penalty)
            assert before.melded(side) == after.melded(side)


@st.composite
def rules_and_timed_match(draw):
    """A match whose deals carry times (some out of order, some after the main time) and opening
    minimums as written (some wrong): everything replay passes from one deal to the next."""
    rules, deals = draw(rules_and_match(max_deals=18))
    dressed = []
    for deal in deals:
        minute = draw(st.one_of(st.none(), st.floats(0, 70, allow_nan=False).map(lambda m: round(m, 2))))
        home_min = draw(st.one_of(st.none(), st.sampled_from([0, 15, 50, 90, 120])))
        away_min = draw(st.one_of(st.none(), st.sampled_from([0, 15, 50, 90, 120])))
        dressed.append(replace(
            deal,
            dealt_minute=minute,
            home=replace(deal.home, written_min=home_min),
            away=replace(deal.away, written_min=away_min),
        ))
    return rules, dressed


@pytest.mark.slow  # whole matches replayed many times: seconds
@MATCH_SETTINGS
@given(rules_and_timed_match(), st.booleans())
def test_the_next_deal_from_the_running_state_is_the_replayed_one(case, expired):
    """replay_next (what saving a deal uses) gives the next deal exactly as replaying the whole
    match does, as long as the match has not ended before it."""
    rules, deals = case
    for count in range(1, len(deals) + 1):
        earlier = replay(rules, deals[: count - 1], points=SV_SERIE)
        if earlier.finished:
            break
        whole = replay(rules, deals[:count], points=SV_SERIE, clock_expired=expired)
        minutes = [deal.dealt_minute for deal in deals[: count - 1] if deal.dealt_minute is not None]
        following = replay_next(
            rules, deals[count - 1], totals=(earlier.home_total, earlier.away_total), deals_before=count - 1,
            previous_minute=minutes[-1] if minutes else None, points=SV_SERIE, clock_expired=expired,
        )
        assert problem_summary(following)[0] == problem_summary(whole)[0][-1:]
        assert (following.home_total, following.away_total, following.finished, following.end,
                following.end_deal, following.winner, following.outcome) == (
            whole.home_total, whole.away_total, whole.finished, whole.end, whole.end_deal, whole.winner,
            whole.outcome)
        assert (following.home_min_next, following.away_min_next) == (whole.home_min_next, whole.away_min_next)


@pytest.mark.slow  # whole matches replayed many times: seconds
@PROPERTY_SETTINGS
@given(rules_and_match())
def test_a_replayed_deal_keeps_the_scores_of_its_breakdown(case):
    """A replay keeps each deal's two scores as numbers and makes the breakdown when asked: they
    are score_deal's, and so is the breakdown."""
    rules, deals = case
    for replayed in replay(rules, deals).deals:
        score = score_deal(rules, replayed.entry)
        assert replayed.score == score
        assert (replayed.home_score, replayed.away_score) == (score.home.score, score.away.score)


opening_tables = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(-3000, 8000)), st.integers(0, 200)), min_size=1, max_size=6
).map(tuple)


def table_minimum(table, total: int) -> int:
    """The opening-minimum table read step by step (docs/rules.md, "Rule-set presets"): the last step whose lower bound the
    total reaches before the first it does not, the first step's minimum if none."""
    minimum = table[0][1]
    for lower_bound, step_minimum in table:
        if lower_bound is not None and total < lower_bound:
            break
        minimum = step_minimum
    return minimum


@settings(max_examples=examples(300), deadline=None)
@given(opening_tables, st.integers(-10_000, 20_000), st.lists(st.integers(-10_000, 20_000), max_size=20))
def test_every_total_in_an_opening_step_reads_the_table_alike(table, total, others):
    """Replay looks the opening minimum up again only when a total leaves the range opening_step
    gives it: every total inside that range reads the table alike, for any table (ascending or
    not)."""
    rules = RULE_SETS[0].with_overrides({"opening_table": table})
    minimum, low, high = rules.opening_step(total)
    assert low <= total < high
    # The step found by bisection is the one the table read step by step gives.
    assert (minimum, low, high) == rules._read_opening_table(total)
    assert minimum == table_minimum(table, total) == rules.opening_minimum(total)
    # The range's ends where it has them (the first step has no lower end, the last no upper).
    ends = [end for end in (low, high - 1) if type(end) is int]
    for other in (*others, *ends):
        if low <= other < high:
            assert table_minimum(table, other) == minimum
