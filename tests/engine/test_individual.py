"""Individual club nights: the pairing of rotating partners and the Buchholz tie-break, with
examples worked by hand."""

from __future__ import annotations

from scoring.engine.individual import BuchholzRecord, PairingHistory, PlayerStanding, buchholz, pair_round
from scoring.engine.standings import rank_teams


def test_buchholz_sums_the_points_of_every_opponent_met():
    # Round 1: A+B beat C+D. Round 2: A+C beat B+D. Points: A 2, B 1, C 1, D 0.
    points = {"A": 2, "B": 1, "C": 1, "D": 0}
    opponents = {"A": ["C", "D", "B", "D"], "B": ["C", "D", "A", "C"], "C": ["A", "B", "B", "D"], "D": ["A", "B", "A", "C"]}
    # A met C (1), D (0), B (1), D (0) = 2; B met C, D, A, C = 1 + 0 + 2 + 1 = 4;
    # C met A, B, B, D = 2 + 1 + 1 + 0 = 4; D met A, B, A, C = 2 + 1 + 2 + 1 = 6.
    assert buchholz(points, opponents) == {"A": 2, "B": 4, "C": 4, "D": 6}


def test_buchholz_breaks_a_tie_in_the_table():
    rows = [
        BuchholzRecord(team_id="B", name="Bo", points=1, card_points_for=9000, buchholz=4),
        BuchholzRecord(team_id="C", name="Cilla", points=1, card_points_for=9000, buchholz=5),
        BuchholzRecord(team_id="A", name="Anna", points=2, card_points_for=8000, buchholz=2),
    ]
    ranked = rank_teams(rows, ("points", "card_points_for", "buchholz", "name"))
    assert [(r.record.team_id, r.rank_label) for r in ranked] == [("A", "1"), ("C", "2"), ("B", "3")]
    # Without Buchholz in the order, Bo and Cilla share second place.
    ranked = rank_teams(rows, ("points", "card_points_for", "name"))
    assert [r.rank_label for r in ranked] == ["1", "2=", "2="]


def test_round_one_is_drawn_from_its_seed():
    players = [PlayerStanding(n) for n in range(1, 9)]
    first = pair_round(players, seed=42)
    assert first.tables == pair_round(players, seed=42).tables
    assert first.tables != pair_round(players, seed=43).tables
    seated = [p for table in first.tables for side in table for p in side]
    assert sorted(seated) == list(range(1, 9)) and first.sitting_out == []


def test_later_rounds_seat_the_leaders_together_first_with_fourth():
    # After round 1 (1+2 v 3+4, 5+6 v 7+8; 1, 2, 5, 6 won) the table is 1, 2, 5, 6, 3, 4, 7, 8
    # (points, then card points). Monrad: the top four at table 1, the first with the fourth
    # (1+6) against the second and third (2+5): no one partners or meets anyone again there.
    history = PairingHistory()
    history.add_table((1, 2), (3, 4))
    history.add_table((5, 6), (7, 8))
    cards = {1: 5200, 2: 5200, 5: 5100, 6: 5100, 3: 3000, 4: 3000, 7: 2900, 8: 2900}
    players = [PlayerStanding(n, points=1 if n in (1, 2, 5, 6) else 0, card_points=cards[n]) for n in range(1, 9)]
    pairing = pair_round(players, history)
    assert pairing.tables[0] == ((1, 6), (2, 5))
    assert pairing.tables[1] == ((3, 8), (4, 7))
    assert pairing.repeats == 0


def test_nobody_partners_or_meets_anyone_twice_while_avoidable():
    # Twelve players: each has 11 others, and a round brings 3 of them (1 partner, 2 opponents),
    # so three rounds (9) can be played without any repeat; a fourth (12) must repeat a meeting,
    # but not a partnership.
    history = PairingHistory()
    players = [PlayerStanding(n, points=n % 3, card_points=100 * n) for n in range(12)]
    for number in range(3):
        pairing = pair_round(players, history, seed=7)
        assert pairing.repeats == 0, number
        for home, away in pairing.tables:
            history.add_table(home, away)
    assert len(history.partners) == 3 * 6  # 6 partnerships a round, none repeated
    fourth = pair_round(players, history)
    assert 0 < fourth.repeats < 100
    assert not any(history.partnered(*side) for table in fourth.tables for side in table)


def test_the_rating_orders_players_level_on_points():
    # Two new players at 0 points: the higher rated is placed first.
    history = PairingHistory()
    history.add_table(("a", "b"), ("c", "d"))
    players = [PlayerStanding("a", rating=1400), PlayerStanding("b", rating=1600),
               PlayerStanding("c", rating=1500), PlayerStanding("d", rating=1550)]
    pairing = pair_round(players, history)
    # Order b, d, c, a; every split repeats a partnership or a meeting; the one with the fewest
    # repeats is chosen: b+a v d+c repeats both partnerships (200); b+c v d+a and b+d v c+a
    # repeat two meetings each (20): the first of them in Monrad order is b+c v d+a.
    assert pairing.tables == [(("b", "c"), ("d", "a"))]
    assert pairing.repeats == 20


def test_players_beyond_a_multiple_of_four_sit_out_the_lowest_first():
    history = PairingHistory()
    history.add_table((1, 2), (3, 4))
    players = [PlayerStanding(n, points=10 - n) for n in range(1, 7)]
    pairing = pair_round(players, history)
    assert sorted(pairing.sitting_out) == [5, 6]
    history.sat_out = {5: 1, 6: 1}
    assert sorted(pair_round(players, history).sitting_out) == [3, 4]
