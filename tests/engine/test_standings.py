"""Standings (docs/rules.md, "Match points and standings"): each metric, head-to-head among the tied teams
only, three-way ties, shared ranks ("3="), Swedish name order."""

from __future__ import annotations

import pytest

from scoring.engine.standings import METRICS, HeadToHeadResult, TeamRecord, rank_teams, swedish_sort_key

SV_SERIE_ORDER = ("points", "card_points_for", "difference", "head_to_head", "name")
FI_LIITTO_ORDER = ("points", "difference", "head_to_head", "name")


def team(name, points=0, cp_for=0, cp_against=0, won=0, played=0, team_id=None):
    return TeamRecord(
        team_id=team_id or name,
        name=name,
        played=played,
        won=won,
        points=points,
        card_points_for=cp_for,
        card_points_against=cp_against,
    )


def result(home, away, home_points, away_points, home_for, away_for):
    return HeadToHeadResult(home, away, home_points, away_points, home_for, away_for)


def names(rows):
    return [row.record.name for row in rows]


def labels(rows):
    return [row.rank_label for row in rows]


@pytest.mark.parametrize(
    ("metric", "records", "expected"),
    [
        ("points", [team("A", points=1), team("B", points=2.5), team("C", points=2)], ["B", "C", "A"]),
        ("card_points_for", [team("A", cp_for=9000), team("B", cp_for=12000), team("C", cp_for=-500)], ["B", "A", "C"]),
        (
            "difference",
            [team("A", cp_for=9000, cp_against=8000), team("B", cp_for=12000, cp_against=12500), team("C", cp_for=100, cp_against=-400)],
            ["A", "C", "B"],
        ),
        (
            "ratio",
            [team("A", cp_for=9000, cp_against=6000), team("B", cp_for=5000, cp_against=2000), team("C", cp_for=100, cp_against=0)],
            ["C", "B", "A"],
        ),
        ("wins", [team("A", won=1), team("B", won=3), team("C", won=2)], ["B", "C", "A"]),
    ],
)
def test_each_metric(metric, records, expected):
    rows = rank_teams(records, [metric])
    assert names(rows) == expected
    assert [row.rank for row in rows] == [1, 2, 3]
    assert not any(row.tied for row in rows)


def test_metric_registry():
    assert {"points", "card_points_for", "difference", "ratio", "wins", "head_to_head", "name"} <= set(METRICS)
    with pytest.raises(ValueError):
        rank_teams([team("A")], ["points", "no-such-metric"])


def test_default_sv_serie_order():
    records = [
        team("Lag 1", points=3, cp_for=14000, cp_against=12000),
        team("Lag 2", points=3, cp_for=15000, cp_against=16000),  # more card points for wins
        team("Lag 3", points=4, cp_for=9000, cp_against=15000),
        team("Lag 4", points=3, cp_for=14000, cp_against=11000),  # same for as Lag 1, better difference
    ]
    rows = rank_teams(records, SV_SERIE_ORDER)
    assert names(rows) == ["Lag 3", "Lag 2", "Lag 4", "Lag 1"]
    assert labels(rows) == ["1", "2", "3", "4"]


def test_fi_liitto_order_ignores_card_points_for():
    records = [
        team("A", points=4, cp_for=20000, cp_against=19000),  # +1000
        team("B", points=4, cp_for=8000, cp_against=5000),  # +3000
    ]
    assert names(rank_teams(records, FI_LIITTO_ORDER)) == ["B", "A"]
    assert names(rank_teams(records, SV_SERIE_ORDER)) == ["A", "B"]


def test_head_to_head_only_between_the_tied_teams():
    records = [
        team("Alfa", points=2, cp_for=10000, cp_against=10000),
        team("Beta", points=2, cp_for=10000, cp_against=10000),
        team("Gamma", points=1, cp_for=9000, cp_against=9000),
    ]
    results = [
        # Beta beat Alfa: that is the only match that counts between the tied teams.
        result("Alfa", "Beta", 0, 1, 4000, 5000),
        # Alfa's big win against Gamma, and Gamma's against Beta, must not count.
        result("Alfa", "Gamma", 1, 0, 5000, 1000),
        result("Gamma", "Beta", 1, 0, 5000, 1000),
    ]
    rows = rank_teams(records, SV_SERIE_ORDER, results)
    assert names(rows) == ["Beta", "Alfa", "Gamma"]
    assert labels(rows) == ["1", "2", "3"]


def test_head_to_head_card_points_after_match_points():
    records = [team("A", points=2), team("B", points=2)]
    results = [result("A", "B", 1, 0, 5100, 4000), result("B", "A", 1, 0, 5000, 4800)]
    # One win each: the card-point difference of those matches decides (A +1100-200, B -1100+200).
    assert names(rank_teams(records, ["points", "head_to_head", "name"], results)) == ["A", "B"]


def test_three_way_tie_broken_by_head_to_head():
    records = [team("A", points=2), team("B", points=2), team("C", points=2), team("D", points=0)]
    results = [
        result("A", "B", 1, 0, 5000, 4000),  # A +1000
        result("B", "C", 1, 0, 5000, 4500),  # B +500
        result("C", "A", 1, 0, 5000, 4800),  # C +200
        result("A", "D", 1, 0, 5000, 0),
    ]
    rows = rank_teams(records, ["points", "head_to_head", "name"], results)
    # A: 1 point, +800; C: 1 point, -300; B: 1 point, -500.
    assert names(rows) == ["A", "C", "B", "D"]
    assert labels(rows) == ["1", "2", "3", "4"]


def test_three_way_tie_that_head_to_head_cannot_break():
    records = [team("Cecilia"), team("Bertil"), team("Adam"), team("Zeta", points=1)]
    results = [
        result("Adam", "Bertil", 1, 0, 5000, 4000),
        result("Bertil", "Cecilia", 1, 0, 5000, 4000),
        result("Cecilia", "Adam", 1, 0, 5000, 4000),
    ]
    rows = rank_teams(records, ["points", "head_to_head", "name"], results)
    assert names(rows) == ["Zeta", "Adam", "Bertil", "Cecilia"]
    assert labels(rows) == ["1", "2=", "2=", "2="]
    assert [row.tied for row in rows] == [False, True, True, True]


def test_shared_rank_labels():
    records = [
        team("E", points=5),
        team("D", points=4),
        team("C", points=3, cp_for=100),
        team("B", points=3, cp_for=100),
        team("A", points=1),
    ]
    rows = rank_teams(records, SV_SERIE_ORDER)
    assert [row.rank for row in rows] == [1, 2, 3, 3, 5]
    assert labels(rows) == ["1", "2", "3=", "3=", "5"]
    # The tied teams are listed by name.
    assert names(rows) == ["E", "D", "B", "C", "A"]


def test_all_tied():
    rows = rank_teams([team("B"), team("A")], SV_SERIE_ORDER)
    assert labels(rows) == ["1=", "1="]


def test_single_team_and_empty():
    assert labels(rank_teams([team("A")], SV_SERIE_ORDER)) == ["1"]
    assert rank_teams([], SV_SERIE_ORDER) == []


def test_swedish_name_order():
    teams = ["Örebro", "Åmål", "Ängelholm", "Zinkgruvan", "Arboga", "Östersund", "ärla", "Eskilstuna"]
    rows = rank_teams([team(name) for name in teams], SV_SERIE_ORDER)
    assert names(rows) == ["Arboga", "Eskilstuna", "Zinkgruvan", "Åmål", "Ängelholm", "ärla", "Örebro", "Östersund"]
    assert all(row.rank == 1 and row.tied for row in rows)


@pytest.mark.parametrize(
    ("before", "after"),
    [("Zorn", "Åsa"), ("Åsa", "Äng"), ("Äng", "Öst"), ("zeta", "Åsa"), ("Édith", "Eva"), ("Ebba", "Édith"), ("Adam", "Axel")],
)
def test_swedish_sort_key(before, after):
    assert swedish_sort_key(before) < swedish_sort_key(after)


def test_name_does_not_break_a_tie_but_orders_it():
    rows = rank_teams([team("Öst", points=1), team("Ale", points=1)], ["points", "name"])
    assert names(rows) == ["Ale", "Öst"]
    assert labels(rows) == ["1=", "1="]


def test_rank_rows_keep_records():
    record = team("A", points=2, cp_for=5000, cp_against=2500, won=1, played=1)
    (row,) = rank_teams([record], SV_SERIE_ORDER)
    assert row.record is record
    assert record.difference == 2500
