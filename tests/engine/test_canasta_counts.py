"""Canasta points to counts (engine.deal.canasta_counts): a paper protocol that writes a side's
canasta points rather than how many natural (500) and mixed (300) canastas it had."""

from __future__ import annotations

import pytest

from scoring.engine import DealEntry, SideEntry, check_deal, get_rules
from scoring.engine.deal import canasta_counts, canasta_limit_passed

RULES = get_rules("sv-tavling")


@pytest.mark.parametrize(
    ("points", "counts"),
    [
        (0, ((0, 0),)),
        (300, ((0, 1),)),
        (500, ((1, 0),)),
        (800, ((1, 1),)),
        (1300, ((2, 1),)),
        (1400, ((1, 3),)),
        (1500, ((3, 0), (0, 5))),
        (1800, ((3, 1), (0, 6))),
        (3000, ((6, 0), (3, 5), (0, 10))),
    ],
)
def test_the_counts_that_make_the_points_most_natural_first(points, counts):
    assert canasta_counts(RULES, points) == counts


@pytest.mark.parametrize("points", [100, 200, 400, 700, 1550, -500])
def test_points_no_count_makes(points):
    assert canasta_counts(RULES, points) == ()


def test_every_count_makes_its_points_under_the_rule_sets_values():
    for rules in (RULES, get_rules("sv-hem")):
        for points in range(0, 6001, 50):
            for natural, mixed in canasta_counts(rules, points):
                assert natural * rules.natural_canasta + mixed * rules.mixed_canasta == points


def test_the_card_limits_of_two_packs_leave_counts_out():
    # 11 natural canastas is one per rank A–4: the most one side can have. 5600 would need 12.
    assert canasta_counts(RULES, 5500) == ((11, 0),)
    assert canasta_counts(RULES, 5600) == ()
    # 12 mixed canastas would be 3600; two packs hold 12 wild cards, but one side melds 11 ranks.
    assert (0, 12) not in canasta_counts(RULES, 3600)
    assert canasta_counts(RULES, 3600) == ((6, 2), (3, 7))


def test_the_other_sides_canastas_count_against_the_same_packs():
    # With 9 mixed canastas on the other side, 5 more mixed ones would need 14 of the 12 wild cards.
    assert canasta_counts(RULES, 1500, other_mixed=9) == ((3, 0),)
    # With 10 natural canastas on the other side, either would need more than the 11 ranks.
    assert canasta_counts(RULES, 1500, other_natural=10) == ()


def test_the_counts_given_are_what_the_deal_check_accepts_and_no_more():
    """The limits are the check's own (canastas-impossible): a count the function leaves out for
    a side alone is one the check refuses, and each count it gives passes the check."""
    for points in range(0, 6001, 100):
        given = set(canasta_counts(RULES, points))
        for natural in range(13):
            for mixed in range(14):
                if natural * 500 + mixed * 300 != points:
                    continue
                deal = DealEntry(1, SideEntry(natural=natural, mixed=mixed), SideEntry(), out=None, end="stock")
                refused = any(problem.code == "canastas-impossible" for problem in check_deal(RULES, deal))
                assert ((natural, mixed) in given) is (not refused), (natural, mixed)
                assert (canasta_limit_passed(natural, mixed) is None) is (not refused)
