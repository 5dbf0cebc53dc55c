"""Who goes on from a stage, and what is carried (docs/rules.md, "Championships: qualification and
carried points")."""

from decimal import Decimal

import pytest

from scoring.engine.qualification import (
    BEST_OF_REST,
    PLACE,
    REPLACEMENT,
    HeatTable,
    carried_share,
    seed_into_heats,
    who_goes_on,
    with_carried,
)
from scoring.engine.standings import TeamRecord, rank_teams

ORDER = ("points", "card_points_for", "difference", "head_to_head", "name")


def heat(heat_id, *records):
    return HeatTable(heat_id, rank_teams([TeamRecord(name, name, points=p, card_points_for=c) for name, p, c in records], ORDER))


def test_the_first_of_each_heat_then_the_best_of_the_rest_across_heats():
    heats = [heat("A", ("a1", 3, 9000), ("a2", 2, 7000), ("a3", 0, 100)),
             heat("B", ("b1", 3, 8000), ("b2", 2, 7500), ("b3", 1, 6000))]  # fmt: skip
    result = who_goes_on(heats, per_heat=1, best_of_rest=2, tiebreaks=ORDER)
    assert [(e.team_id, e.why) for e in result.going_on] == [
        ("a1", PLACE), ("b1", PLACE), ("b2", BEST_OF_REST), ("a2", BEST_OF_REST)]
    assert [(e.rest_place, e.rest_of) for e in result.going_on[2:]] == [(1, 2), (2, 2)]
    assert [e.team_id for e in result.next_in_line] == ["b3", "a3"]


def test_a_place_shared_at_the_line_is_decided_by_the_table_order_and_marked():
    heats = [heat("A", ("a1", 3, 9000), ("a2", 1, 5000), ("a3", 1, 5000))]
    result = who_goes_on(heats, per_heat=2, best_of_rest=0, tiebreaks=ORDER)
    assert [e.team_id for e in result.going_on] == ["a1", "a2"]
    assert result.going_on[1].tied_at_line and result.going_on[1].heat_tied
    assert result.next_in_line[0].team_id == "a3" and result.next_in_line[0].tied_at_line
    assert not result.going_on[0].tied_at_line


def test_a_heat_winner_who_withdrew_is_replaced_by_the_next_in_line_across_heats():
    heats = [heat("A", ("a1", 3, 9000), ("a2", 2, 7000)), heat("B", ("b1", 3, 8000), ("b2", 2, 7500))]
    result = who_goes_on(heats, per_heat=1, best_of_rest=1, tiebreaks=ORDER, withdrawn={"a1"})
    assert [(e.team_id, e.why, e.replaces) for e in result.going_on] == [
        ("b1", PLACE, None), ("b2", BEST_OF_REST, None), ("a2", REPLACEMENT, "a1")]
    assert [e.team_id for e in result.withdrawn] == ["a1"] and not result.next_in_line


def test_the_pairs_are_dealt_into_heats_to_and_fro():
    assert seed_into_heats(list("abcdef"), 2) == [["a", "d", "e"], ["b", "c", "f"]]
    assert seed_into_heats(list("abcdefg"), 3) == [["a", "f", "g"], ["b", "e"], ["c", "d"]]
    with pytest.raises(ValueError):
        seed_into_heats(["a"], 0)


def test_a_share_is_rounded_half_up_and_counts_as_no_match_played():
    record = TeamRecord("x", "X", played=3, won=1, points=1.5, card_points_for=8155, card_points_against=-45)
    carried = carried_share(record, points_percent=50, cards_percent=10)
    assert (carried.points, carried.card_points_for, carried.card_points_against) == (Decimal("0.8"), 816, -5)
    start = with_carried(TeamRecord("x", "X"), carried)
    assert (start.played, start.points, start.card_points_for, start.difference) == (0, 0.8, 816, 821)
    assert with_carried(TeamRecord("x", "X", points=2), carried_share(record, points_percent=100, cards_percent=0)).points == 3.5
    with pytest.raises(ValueError):
        carried_share(record, points_percent=101, cards_percent=0)
