"""The pure schedule generators: Berger round robins and Monrad pairings (no database)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date

import pytest

from scoring.engine.pairing import round_dates, round_robin, swiss_pairings


def _check_rounds(rounds, teams):
    """Each team once per round (or the bye), tables 1..k."""
    for item in rounds:
        seen = [team for p in item.pairings for team in (p.home, p.away)]
        if item.bye is not None:
            seen.append(item.bye)
        assert sorted(seen) == sorted(teams)
        assert [p.table for p in item.pairings] == list(range(1, len(item.pairings) + 1))


@pytest.mark.parametrize("count", range(2, 21))
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_pairs_meet_the_right_number_of_times(count, double):
    teams = [f"T{i}" for i in range(count)]
    rounds = round_robin(teams, double=double)
    times = 2 if double else 1
    players = count + count % 2
    assert len(rounds) == (players - 1) * times
    assert [item.number for item in rounds] == list(range(1, len(rounds) + 1))
    _check_rounds(rounds, teams)
    meetings = Counter(frozenset((p.home, p.away)) for item in rounds for p in item.pairings)
    assert len(meetings) == count * (count - 1) // 2
    assert set(meetings.values()) == {times}
    byes = Counter(item.bye for item in rounds if item.bye is not None)
    if count % 2:
        assert byes == Counter({team: times for team in teams})
    else:
        assert not byes


@pytest.mark.parametrize("count", range(2, 21))
def test_home_and_away_balanced(count):
    teams = list(range(count))
    for double in (False, True):
        home, away = Counter(), Counter()
        for item in round_robin(teams, double=double):
            for p in item.pairings:
                home[p.home] += 1
                away[p.away] += 1
        for team in teams:
            if double:
                assert home[team] == away[team]
            else:
                assert abs(home[team] - away[team]) <= 1


def test_double_round_robin_mirrors_the_first_half():
    rounds = round_robin(list("ABCDEF"), double=True)
    half = len(rounds) // 2
    for first, second in zip(rounds[:half], rounds[half:]):
        assert [(p.away, p.home) for p in first.pairings] == [(p.home, p.away) for p in second.pairings]
        assert first.bye == second.bye


def test_bye_with_an_odd_count_and_no_schedule_for_one_team():
    rounds = round_robin(["A", "B", "C"])
    assert len(rounds) == 3 and all(len(item.pairings) == 1 for item in rounds)
    assert sorted(item.bye for item in rounds) == ["A", "B", "C"]
    assert round_robin(["A"]) == []
    with pytest.raises(ValueError):
        round_robin(["A", "A"])


def test_round_dates():
    assert round_dates(date(2026, 9, 14), 3, 7) == [date(2026, 9, 14), date(2026, 9, 21), date(2026, 9, 28)]
    assert round_dates(None, 2) == [None, None]


def test_swiss_first_round_pairs_neighbours():
    plan = swiss_pairings(list("ABCDEF"))
    assert [(p.home, p.away, p.table) for p in plan.pairings] == [("A", "B", 1), ("C", "D", 2), ("E", "F", 3)]
    assert plan.bye is None and plan.rematches == 0


def test_swiss_avoids_rematches_by_going_further_down():
    plan = swiss_pairings(list("ABCD"), previous=[("A", "B"), ("C", "D")])
    assert {frozenset((p.home, p.away)) for p in plan.pairings} == {frozenset("AC"), frozenset("BD")}
    # A has met B and C: it takes D, and B–C is what is left.
    plan = swiss_pairings(list("ABCD"), previous=[("A", "B"), ("C", "D"), ("A", "C"), ("B", "D")])
    assert {frozenset((p.home, p.away)) for p in plan.pairings} == {frozenset("AD"), frozenset("BC")}


def test_swiss_backtracks_when_the_greedy_choice_leaves_a_rematch():
    # Greedy: A–B, then C must meet D again. Backtracking finds A–C, B–D.
    plan = swiss_pairings(list("ABCD"), previous=[("C", "D"), ("B", "C")])
    pairs = {frozenset((p.home, p.away)) for p in plan.pairings}
    assert pairs.isdisjoint({frozenset("CD"), frozenset("BC")})
    assert plan.rematches == 0


def test_swiss_rematch_only_when_unavoidable():
    # Three rounds of four teams: everyone has met everyone; a fourth round must repeat.
    previous = [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C")]
    plan = swiss_pairings(list("ABCD"), previous=previous)
    assert plan.rematches == 2
    assert len(plan.pairings) == 2


def test_swiss_bye_goes_to_the_lowest_team_without_one():
    plan = swiss_pairings(list("ABCDE"))
    assert plan.bye == "E"
    plan = swiss_pairings(list("ABCDE"), byes={"E": 1})
    assert plan.bye == "D"
    # The bye moves up when the lowest teams' pairing would otherwise force a rematch.
    plan = swiss_pairings(list("ABC"), previous=[("A", "B")], byes={})
    assert plan.bye == "B" and plan.rematches == 0
    assert {frozenset((p.home, p.away)) for p in plan.pairings} == {frozenset("AC")}


def test_swiss_home_goes_to_the_team_with_fewer_home_games():
    plan = swiss_pairings(["A", "B"], home_balance={"A": 1, "B": -1})
    assert (plan.pairings[0].home, plan.pairings[0].away) == ("B", "A")
    plan = swiss_pairings(["A", "B"], home_balance={"A": 0, "B": 0})
    assert plan.pairings[0].home == "A"


@pytest.mark.parametrize("count", [6, 7, 8, 9, 12, 15])
def test_swiss_simulated_tournament_has_no_rematch_while_one_is_avoidable(count):
    rng = random.Random(count)
    teams = list(range(count))
    points = Counter()
    previous, byes = [], Counter()
    # With n teams and fewer than n/2 rounds, a rematch-free round always exists.
    for _ in range(max(1, count // 2 - 1)):
        order = sorted(teams, key=lambda team: (-points[team], team))
        plan = swiss_pairings(order, previous=previous, byes=byes)
        assert plan.rematches == 0
        met = {frozenset(pair) for pair in previous}
        for p in plan.pairings:
            assert frozenset((p.home, p.away)) not in met
            previous.append((p.home, p.away))
            points[rng.choice([p.home, p.away])] += 1
        if plan.bye is not None:
            assert byes[plan.bye] == 0
            byes[plan.bye] += 1
