"""The one home of a stored match replayed (selectors.protocols): a deal added after the stored
ones, or put in place of the last, is replayed from where the deals before it stand, and gives
exactly what the whole match replayed with it gives (the totals as written, rule 35 b; the minutes,
deals-out-of-order and dealt-after-time; the opening minimums; the end, by the target or the clock).
After the end, or for an earlier deal, the whole match is replayed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.selectors.protocols import deal_replayed, replayed, with_deal
from tests import factories as f
from tests.support.replays import counting_replays

pytestmark = pytest.mark.django_db


def timed(entry, minute):
    return replace(entry, dealt_minute=minute)


STORED = [
    timed(f.deal(1, home_cards=300, away_cards=-20, end="stock", home_total_written=300, away_total_written=-20), 5),
    f.deal(2, home_cards=60, away_cards=90, end="stock", home_total_written=370, away_total_written=70),  # a slip
    timed(f.deal(3, home_cards=45, away_cards=-10, end="stock", home_min_written=50, home_total_written=415,
                 away_total_written=60), 30),  # fmt: skip
    timed(replace(f.winning_deal(4, "away"), home=replace(f.winning_deal(4, "away").home, written_total=375)), 20),
]
# The next deal, or the last one corrected: each leans on what the deal before it passes on (the
# totals as written, the minute of the last deal with a time); the last, an earlier deal, does not.
CANDIDATES = [
    f.deal(5, home_cards=100, away_cards=-40, end="stock", home_total_written=475, away_total_written=1905),
    timed(f.deal(5, home_cards=100, away_cards=-40, end="stock", home_min_written=90, away_min_written=120), 15),
    timed(f.deal(5, home_cards=100, away_cards=-40, end="stock"), 51),  # after the main time
    timed(f.winning_deal(5, "away"), 40),
    f.deal(4, home_cards=20, away_cards=10, end="stock", home_total_written=435, away_total_written=70),
    timed(f.deal(4, home_cards=20, away_cards=10, end="clock"), 10),
    f.deal(3, home_cards=10, away_cards=10, end="stock"),
]


@pytest.fixture(params=["sv-tavling", None], ids=["timed", "default"])
def match(request):
    match = f.protocol_setup()["match"]
    if request.param:
        match.competition.rules_key = request.param
        match.competition.save()
    return match


@pytest.mark.parametrize("clock_expired", [False, True])
@pytest.mark.parametrize("candidate", CANDIDATES, ids=lambda entry: f"deal{entry.number}")
def test_a_deal_replayed_from_where_the_match_stands_is_the_whole_match_replayed(match, candidate, clock_expired):
    match.clock_expired = clock_expired
    stored = replayed(match, STORED)
    whole = replayed(match, with_deal(STORED, candidate))
    number = candidate.number
    with counting_replays() as replays:
        found = deal_replayed(match, stored, candidate)
    assert found.deal == whole.deals[number - 1]
    assert found.before == (whole.deals[number - 2] if number > 1 else None)
    assert found.later == whole.deals[number:]
    assert found.state.deals[-1] == whole.deals[-1]
    assert (found.state.home_total, found.state.away_total, found.state.end, found.state.end_deal, found.state.outcome) == (
        whole.home_total, whole.away_total, whole.end, whole.end_deal, whole.outcome
    )
    went_on = number >= len(STORED) and not (stored.end_deal is not None and stored.end_deal < number)
    assert replays.calls == ([(1, number - 1)] if went_on else [(len(with_deal(STORED, candidate)), 0)])


def test_after_the_end_a_next_deal_is_refused_as_the_whole_match_says(match):
    ended = [f.winning_deal(1), f.winning_deal(2), f.winning_deal(3)]
    stored = replayed(match, ended)
    assert stored.finished
    found = deal_replayed(match, stored, f.deal(4, home_cards=50, away_cards=50, end="stock"))
    assert [problem.code for problem in found.deal.errors] == ["after-match-end"]
