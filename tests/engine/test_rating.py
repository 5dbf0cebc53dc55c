"""The Canasta rating (scoring.engine.rating) with examples worked by hand."""

from __future__ import annotations

import pytest

from scoring.engine.rating import RatedMatch, expected_score, k_factor, rate


def test_equal_sides_winner_gains_half_of_k():
    # All four at 1500: expected 1 / (1 + 10^0) = 0.5; the winners gain 32 × (1 − 0.5) = 16 each.
    ratings = rate([RatedMatch(1, ("a", "b"), ("c", "d"), "home")])
    assert ratings.of("a") == ratings.of("b") == 1516
    assert ratings.of("c") == ratings.of("d") == 1484
    assert ratings.matches == {"a": 1, "b": 1, "c": 1, "d": 1}


def test_a_pair_is_as_strong_as_its_mean():
    # After match 1: a 1516, c 1484 (mean 1500) meet b 1516, d 1484 (mean 1500): expected 0.5.
    # A draw changes nothing; a win moves each player by 16 whatever their own rating.
    ratings = rate([
        RatedMatch(1, ("a", "b"), ("c", "d"), "home"),
        RatedMatch(2, ("a", "c"), ("b", "d"), "draw"),
        RatedMatch(3, ("a", "c"), ("b", "d"), "away"),
    ])
    assert ratings.of("a") == 1500  # 1516 − 16
    assert ratings.of("c") == 1468  # 1484 − 16
    assert ratings.of("b") == 1532  # 1516 + 16
    assert ratings.of("d") == 1500  # 1484 + 16


def test_the_expected_score_of_a_stronger_side():
    # 200 points stronger: 1 / (1 + 10^(−200/400)) = 1 / (1 + 0.316228) = 0.759747.
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert expected_score(1400, 1600) == pytest.approx(0.240253, abs=1e-6)
    assert expected_score(1500, 1500) == 0.5


def test_an_upset_and_a_draw_against_a_stronger_pair():
    # e, f beat g, h once (16 each), then the same pairs meet again.
    history = [RatedMatch(1, ("e", "f"), ("g", "h"), "home")]
    ratings = rate(history)
    # e, f at 1516 (mean 1516); g, h at 1484 (mean 1484); difference 32.
    expected = 1 / (1 + 10 ** (-32 / 400))  # 10^(−0.08) = 0.831764; 1 / 1.831764 = 0.545922
    assert expected == pytest.approx(0.545922, abs=1e-6)
    upset = rate(history + [RatedMatch(2, ("e", "f"), ("g", "h"), "away")])
    # e loses 32 × 0.545922 = 17.4695; g gains the same.
    assert upset.of("e") == pytest.approx(1516 - 17.4695, abs=1e-4)
    assert upset.of("g") == pytest.approx(1484 + 17.4695, abs=1e-4)
    draw = rate(history + [RatedMatch(2, ("e", "f"), ("g", "h"), "draw")])
    # A draw: 32 × (0.5 − 0.545922) = −1.4695 for e; +1.4695 for g.
    assert draw.of("e") == pytest.approx(1516 - 1.4695, abs=1e-4)
    assert draw.of("h") == pytest.approx(1484 + 1.4695, abs=1e-4)


def test_k_is_32_for_the_first_30_matches_then_16():
    assert k_factor(0) == 32
    assert k_factor(29) == 32  # the 30th match
    assert k_factor(30) == 16  # the 31st
    # "a" and "b" play 31 matches against fresh pairs: the 31st change has K 16.
    history = [RatedMatch(n, ("a", "b"), (f"x{n}", f"y{n}"), "draw") for n in range(1, 32)]
    changes = rate(history).history("a")
    assert [c.k for c in changes] == [32] * 30 + [16]


def test_each_player_has_own_k():
    # a has played 30 matches (K 16), the new partner z has not (K 32): the same expectation moves
    # z twice as far as a.
    history = [RatedMatch(n, ("a", "b"), (f"x{n}", f"y{n}"), "draw") for n in range(1, 31)]
    history.append(RatedMatch(31, ("a", "z"), ("p", "q"), "home"))
    changes = {c.player_id: c for c in rate(history).changes if c.match_id == 31}
    assert changes["a"].k == 16 and changes["z"].k == 32
    assert changes["z"].change == pytest.approx(2 * changes["a"].change)


def test_a_corrected_result_changes_every_later_rating():
    first = [
        RatedMatch(1, ("a", "b"), ("c", "d"), "home"),
        RatedMatch(2, ("a", "c"), ("b", "d"), "home"),
    ]
    corrected = [RatedMatch(1, ("a", "b"), ("c", "d"), "away"), first[1]]
    # Before: a 1516 then (a 1516 + c 1484 = 1500 vs b 1516 + d 1484 = 1500) wins 16: 1532.
    assert rate(first).of("a") == 1532
    # After: a 1484 then wins against the same mean again: 1500.
    assert rate(corrected).of("a") == 1500


def test_sum_of_ratings_is_kept_while_k_is_equal():
    history = [
        RatedMatch(1, ("a", "b"), ("c", "d"), "home"),
        RatedMatch(2, ("a", "c"), ("b", "d"), "away"),
        RatedMatch(3, ("a", "d"), ("b", "c"), "draw"),
    ]
    ratings = rate(history)
    assert sum(ratings.rating.values()) == pytest.approx(4 * 1500)


def test_unknown_winner_is_refused():
    with pytest.raises(ValueError):
        rate([RatedMatch(1, ("a", "b"), ("c", "d"), "")])
