"""Rule-set and competition presets (docs/rules.md, "Rule-set presets", "Competition presets")."""

from __future__ import annotations

import json

import pytest

from scoring.engine import POINTS_PRESETS, PRESETS, PointsRules, RuleSet, get_points_rules, get_rules
from scoring.engine.rules import UnknownPresetError

OFFICIAL_BOUNDARIES = [
    (-5000, 15),
    (-5, 15),
    (0, 50),
    (5, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (4995, 120),
]
SV_HEM_BOUNDARIES = [
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1499, 50),
    (1500, 90),
    (2495, 90),
    (2499, 90),
    (2500, 120),
    (2995, 120),
    (3000, 120),
]


@pytest.mark.parametrize(
    ("key", "total", "minimum"),
    [("sv-tavling", t, m) for t, m in OFFICIAL_BOUNDARIES]
    + [("internationell-1951", t, m) for t, m in OFFICIAL_BOUNDARIES]
    + [("sv-hem", t, m) for t, m in SV_HEM_BOUNDARIES],
)
def test_opening_table(key, total, minimum):
    assert get_rules(key).opening_minimum(total) == minimum


@pytest.mark.parametrize(
    ("key", "clock_main", "clock_extra", "counts_red_threes"),
    [
        ("sv-tavling", 50, 10, False),
        ("internationell-1951", None, 0, True),
        ("sv-hem", None, 0, True),
    ],
)
def test_presets(key, clock_main, clock_extra, counts_red_threes):
    rules = PRESETS[key]
    assert rules.key == key
    assert rules.target == 5000
    assert rules.natural_canasta == 500
    assert rules.mixed_canasta == 300
    assert rules.going_out == 100
    assert rules.concealed_going_out == 200
    assert rules.canastas_to_go_out == 1
    assert rules.clock_main_minutes == clock_main
    assert rules.has_clock is (clock_main is not None)
    if clock_main is not None:
        assert rules.clock_final_minutes == clock_main + clock_extra
    else:
        assert rules.clock_final_minutes is None
    assert (rules.red_three_points(1, True) != 0) is counts_red_threes


def test_preset_names():
    assert PRESETS["sv-tavling"].name == "Svensk tävlingscanasta"
    assert PRESETS["internationell-1951"].name == "Officiella internationella regler (1951)"
    assert PRESETS["sv-hem"].name == "Svenska hemmaregler"
    assert set(PRESETS) == {"sv-tavling", "internationell-1951", "sv-hem"}
    assert set(POINTS_PRESETS) == {"sv-serie", "fi-liitto"}


@pytest.mark.parametrize(
    ("key", "count", "melded", "points"),
    [
        ("internationell-1951", 0, True, 0),
        ("internationell-1951", 1, True, 100),
        ("internationell-1951", 2, True, 200),
        ("internationell-1951", 3, True, 300),
        ("internationell-1951", 4, True, 800),
        ("internationell-1951", 1, False, -100),
        ("internationell-1951", 3, False, -300),
        ("internationell-1951", 4, False, -800),
        ("internationell-1951", 0, False, 0),
        ("sv-hem", 1, True, 100),
        ("sv-hem", 2, True, 200),
        ("sv-hem", 3, True, 300),
        ("sv-hem", 4, True, 800),
        ("sv-hem", 2, False, -200),
        ("sv-hem", 4, False, -800),
        ("sv-tavling", 1, True, 0),
        ("sv-tavling", 3, True, 0),
        ("sv-tavling", 4, True, 0),
        ("sv-tavling", 4, False, 0),
    ],
)
def test_red_three_points(key, count, melded, points):
    assert get_rules(key).red_three_points(count, melded) == points


@pytest.mark.parametrize(
    ("key", "points"),
    [
        ("sv-serie", {"win": 1, "draw": 0.5, "loss": 0}),
        ("fi-liitto", {"win": 2, "draw": 1, "loss": 0}),
    ],
)
def test_match_points(key, points):
    rules = get_points_rules(key)
    for outcome, value in points.items():
        assert rules.match_points(outcome) == value


def test_points_presets_tiebreaks_and_awards():
    serie = POINTS_PRESETS["sv-serie"]
    assert serie.tiebreaks == ("points", "card_points_for", "difference", "head_to_head", "name")
    assert (serie.forfeit_winner_points, serie.forfeit_winner_for, serie.forfeit_winner_against) == (1, 5000, 2500)
    assert (serie.forfeit_loser_points, serie.forfeit_loser_for, serie.forfeit_loser_against) == (0, 2500, 5000)
    liitto = POINTS_PRESETS["fi-liitto"]
    assert liitto.tiebreaks == ("points", "difference", "head_to_head", "name")
    assert liitto.forfeit_winner_points == 2
    assert liitto.forfeit_winner_for - liitto.forfeit_winner_against == 2000
    assert liitto.forfeit_loser_points == 0
    assert liitto.forfeit_loser_for - liitto.forfeit_loser_against == -2000


# -- snapshots ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=lambda r: r.key)
def test_ruleset_round_trip(rules):
    data = rules.to_dict()
    assert RuleSet.from_dict(data) == rules
    # Through JSON as a match's snapshot is stored: lists instead of tuples, still equal.
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == rules
    assert isinstance(data["opening_table"], list)


@pytest.mark.parametrize("points", list(POINTS_PRESETS.values()), ids=lambda p: p.key)
def test_points_rules_round_trip(points):
    data = points.to_dict()
    assert PointsRules.from_dict(data) == points
    assert PointsRules.from_dict(json.loads(json.dumps(data))) == points


def test_from_dict_ignores_unknown_keys():
    data = {**PRESETS["sv-hem"].to_dict(), "some_future_setting": 7}
    assert RuleSet.from_dict(data) == PRESETS["sv-hem"]
    points = {**POINTS_PRESETS["sv-serie"].to_dict(), "unknown": 1}
    assert PointsRules.from_dict(points) == POINTS_PRESETS["sv-serie"]


def test_ruleset_with_overrides():
    base = get_rules("sv-tavling")
    changed = base.with_overrides({"canastas_to_go_out": 2, "clock_main_minutes": 60, "clock_extra_minutes": 0})
    assert changed.canastas_to_go_out == 2
    assert changed.clock_final_minutes == 60
    assert changed.opening_table == base.opening_table
    assert changed.key == base.key
    # The preset itself is untouched (frozen data).
    assert base.canastas_to_go_out == 1
    assert base.with_overrides(None) is base
    assert base.with_overrides({}) is base


def test_ruleset_override_opening_table_from_json_lists():
    rules = get_rules("sv-tavling", {"opening_table": [[None, 15], [0, 50], [1500, 90], [2500, 120]]})
    assert rules.opening_table == PRESETS["sv-hem"].opening_table
    assert rules.opening_minimum(2500) == 120


def test_get_rules_overrides_equal_with_overrides():
    assert get_rules("sv-hem", {"target": 3000}) == PRESETS["sv-hem"].with_overrides({"target": 3000})
    assert get_rules("sv-hem", {"target": 3000}).target == 3000


def test_points_rules_with_overrides():
    points = get_points_rules("sv-serie", {"win": 2, "tiebreaks": ["points", "name"]})
    assert points.win == 2
    assert points.draw == 0.5
    assert points.tiebreaks == ("points", "name")
    assert POINTS_PRESETS["sv-serie"].win == 1


@pytest.mark.parametrize("getter", [get_rules, get_points_rules])
def test_unknown_preset(getter):
    with pytest.raises(UnknownPresetError):
        getter("no-such-preset")
    with pytest.raises(KeyError):
        getter("no-such-preset")
