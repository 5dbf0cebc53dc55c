"""Scoring one deal (docs/rules.md, "Scoring one deal", rule 34 b) and the worked examples."""

from __future__ import annotations

import pytest

from scoring.engine import check_deal, score_deal

from tests.support.deals import INTERNATIONELL, SV_HEM, SV_TAVLING, card_value, clean_deal, deal

RULES = {"sv-tavling": SV_TAVLING, "internationell-1951": INTERNATIONELL, "sv-hem": SV_HEM}


@pytest.mark.parametrize(
    ("rules_key", "entry", "home", "away"),
    [
        # card points + 500 per natural canasta + going out
        ("sv-tavling", clean_deal(), 885, -40),
        # concealed going out: 200 instead of 100
        ("sv-tavling", clean_deal(concealed=True), 985, -40),
        ("sv-hem", clean_deal(concealed=True), 985, -40),
        # mixed canastas 300, penalties deducted (written as positive numbers)
        (
            "sv-tavling",
            deal({"cards": 120, "mixed": 2, "penalty": 100}, {"cards": 300, "natural": 1, "penalty": 200},
                 out="away"),
            620,
            300 + 500 + 100 - 200,
        ),
        # a stock end: nobody gets a going-out bonus
        ("sv-tavling", deal({"cards": 200, "natural": 1}, {"cards": 100, "mixed": 1}, end="stock"), 700, 400),
        # a clock end: cards in hand count minus, melds and canastas count, no bonus
        ("sv-tavling", deal({"cards": -85, "natural": 1}, {"cards": 40}, end="clock"), 415, 40),
        # negative scores are allowed
        ("sv-tavling", deal({"cards": -230}, {"cards": 150, "mixed": 1}, out="away"), -230, 550),
        # red threes count nothing in sv-tavling, even all four and without a meld
        ("sv-tavling", clean_deal(home={"cards": 285, "natural": 1, "red3": 4}), 885, -40),
        ("sv-tavling", clean_deal(away={"cards": -40, "red3": 4}), 885, -40),
        # 1-3 red threes: 100 each; 4: 800; minus the same when the side has not melded
        ("internationell-1951", clean_deal(home={"cards": 285, "natural": 1, "red3": 1}), 985, -40),
        ("internationell-1951", clean_deal(home={"cards": 285, "natural": 1, "red3": 3}), 1185, -40),
        ("internationell-1951", clean_deal(home={"cards": 285, "natural": 1, "red3": 4}), 1685, -40),
        ("internationell-1951", clean_deal(away={"cards": -40, "red3": 2}), 885, -240),
        ("internationell-1951", clean_deal(away={"cards": -40, "red3": 4}), 885, -840),
        ("sv-hem", clean_deal(home={"cards": 285, "natural": 1, "red3": 4}), 1685, -40),
        ("sv-hem", clean_deal(away={"cards": -40, "red3": 4}), 885, -840),
        ("sv-hem", clean_deal(away={"cards": -40, "red3": 1}), 885, -140),
        # melded, written explicitly, with negative card points: red threes count plus
        ("sv-hem", clean_deal(away={"cards": -40, "red3": 4, "melded": True}), 885, 760),
        # not melded written explicitly: the minus applies even to a side with zero card points
        ("internationell-1951", clean_deal(away={"cards": 0, "red3": 3, "melded": False}), 885, -300),
        # default melded: positive card points alone make a side count as melded
        ("internationell-1951", clean_deal(away={"cards": 40, "red3": 3}), 885, 340),
    ],
)
def test_deal_score(rules_key, entry, home, away):
    score = score_deal(RULES[rules_key], entry)
    assert (score.home.score, score.away.score) == (home, away)


def test_breakdown():
    entry = deal(
        {"cards": 320, "natural": 1, "mixed": 1, "red3": 2, "penalty": 100},
        {"cards": -65, "red3": 1},
        out="home",
        concealed=True,
    )
    score = score_deal(INTERNATIONELL, entry)
    assert score.home.to_dict() == {
        "cards": 320,
        "canastas": 800,
        "red_threes": 200,
        "going_out": 200,
        "penalties": -100,
        "score": 1420,
    }
    assert score.away.to_dict() == {
        "cards": -65,
        "canastas": 0,
        "red_threes": -100,
        "going_out": 0,
        "penalties": 0,
        "score": -165,
    }
    assert score.side("home") is score.home
    assert score.side("away") is score.away
    assert check_deal(INTERNATIONELL, entry) == []


@pytest.mark.parametrize("concealed, bonus", [(False, 100), (True, 200)])
@pytest.mark.parametrize("rules_key", sorted(RULES))
def test_going_out_bonus(rules_key, concealed, bonus):
    entry = deal({"cards": 100, "mixed": 1}, {"cards": -20}, out="home", concealed=concealed)
    score = score_deal(RULES[rules_key], entry)
    assert score.home.going_out == bonus
    assert score.away.going_out == 0
    assert score.home.score == 100 + 300 + bonus


def test_worked_example_natural_canasta_of_seven_jacks():
    # Seven jacks, no wild card: 70 card points plus the natural canasta's 500 = 570.
    jacks = ["J"] * 7
    assert card_value(jacks) == 70
    entry = deal({"cards": card_value(jacks), "natural": 1}, {"cards": 0}, end="stock")
    assert score_deal(SV_TAVLING, entry).home.score == 570
    assert check_deal(SV_TAVLING, entry) == []


def test_worked_example_opening_from_the_home_play_rules():
    # The worked example of the Swedish home-play rules pages: the hand 2,5,5,5,7,8,Kn,D,D,K,E with a queen on top of the pile. Taking the
    # pile with the two queens and melding QQQ2 + 555 (or QQQ + 5552) makes 65 points.
    hand = ["2", "5", "5", "5", "7", "8", "J", "Q", "Q", "K", "A"]
    assert card_value(hand) == 110
    pile_top = "Q"
    meld_a = [pile_top, "Q", "Q", "2"] + ["5", "5", "5"]
    meld_b = [pile_top, "Q", "Q"] + ["5", "5", "5", "2"]
    for meld in (meld_a, meld_b):
        used_from_hand = list(meld)
        used_from_hand.remove(pile_top)
        for card in used_from_hand:
            assert card in hand
        assert card_value(meld) == 65
    # 65 reaches the opening minimum of a side with a total from 0 to 1495 in every preset ...
    for rules in RULES.values():
        assert rules.opening_minimum(0) == 50
        assert card_value(meld_a) >= rules.opening_minimum(1495)
        # ... but not the 90 needed from 1500.
        assert card_value(meld_a) < rules.opening_minimum(1500)


def test_red_threes_card_value_is_not_in_card_values():
    # A black three is worth 5; red threes have no card value (docs/rules.md, "Card values").
    assert card_value(["3B"]) == 5
    full_pack = (
        ["JOKER"] * 4 + ["2"] * 8 + ["A"] * 8
        + [rank for rank in ("K", "Q", "J", "10", "9", "8") for _ in range(8)]
        + [rank for rank in ("7", "6", "5", "4") for _ in range(8)]
        + ["3B"] * 4
    )  # fmt: skip
    assert len(full_pack) + 4 == 108  # plus four red threes
    assert card_value(full_pack) == 1180
