"""Over arbitrary integers, not only legal deals: the engine accepts a deal exactly when every
check of docs/rules.md, "Checks on a deal", written out again here from the text, passes.

The engine states each check once (deal.DEAL_CHECKS, deal.DEAL_WARNINGS), and replay runs them
for every deal; these properties are what would catch a check, or the score, drifting from the
specification."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import DealEntry, SideEntry, check_deal, get_rules, replay, score_deal
from scoring.engine.deal import deal_scores, deal_warnings
from scoring.engine.problems import ERROR_CODES, WARNING_CODES
from scoring.files.protocol_file import COLUMNS
from tests.support.depth import examples

RULE_SETS = [get_rules(key) for key in ("sv-tavling", "internationell-1951", "sv-hem")]
RULE_SETS.append(RULE_SETS[0].with_overrides({"canastas_to_go_out": 2}))


def accepted_by_rules_md(rules, deal: DealEntry) -> bool:
    home, away = deal.home, deal.away
    sides = {"home": home, "away": away}
    end = deal.end or ("out" if deal.out else "stock")
    checks = [
        all(e.cards % 5 == 0 and e.penalty % 5 == 0 for e in sides.values()),
        all(min(e.natural, e.mixed, e.red3, e.penalty) >= 0 for e in sides.values()),
        (end == "out" and deal.out in sides) or (end in ("stock", "clock") and deal.out is None),
        deal.out not in sides or sides[deal.out].natural + sides[deal.out].mixed >= rules.canastas_to_go_out,
        not deal.concealed or deal.out in sides,
        all(
            not (e.melded is False and (e.natural + e.mixed > 0 or e.cards > 0 or deal.out == name))
            for name, e in sides.items()
        ),
        home.red3 <= 4 and away.red3 <= 4 and home.red3 + away.red3 <= 4,
        all(e.natural + e.mixed <= 11 for e in sides.values()),
        home.natural + away.natural + -(-(home.mixed + away.mixed) // 2) <= 11,
        home.mixed + away.mixed <= 12,
        7 * (home.natural + away.natural + home.mixed + away.mixed) <= 100,
        7 * (home.natural + away.natural) + 4 * (home.mixed + away.mixed) <= 88,
        all(-1180 <= e.cards <= 1180 for e in sides.values()) and home.cards + away.cards <= 1180,
        rules.has_clock or (end != "clock" and not deal.time_up),
    ]
    return all(checks)


small = st.integers(-2, 13)
cards = st.one_of(st.integers(-1300, 1300), st.sampled_from([-1185, -1180, 0, 5, 590, 595, 1180, 1185]))
sides = st.builds(
    SideEntry,
    cards=cards,
    natural=small,
    mixed=small,
    red3=st.integers(-1, 6),
    penalty=st.one_of(st.integers(-10, 600), st.just(0)),
    melded=st.sampled_from([None, True, False]),
)
deals = st.builds(
    DealEntry,
    number=st.just(1),
    home=sides,
    away=sides,
    out=st.sampled_from([None, "home", "away"]),
    concealed=st.booleans(),
    end=st.sampled_from([None, "out", "stock", "clock"]),
    time_up=st.booleans(),
)


@pytest.mark.slow  # 1 500 examples under TEST_DEPTH=deep: seconds
@settings(max_examples=examples(1500), deadline=None)
@given(rules=st.sampled_from(RULE_SETS), deal=deals)
def test_the_engine_accepts_exactly_what_rules_md_accepts(rules, deal):
    problems = check_deal(rules, deal)
    assert (problems == []) is accepted_by_rules_md(rules, deal), problems
    assert all(p.code in ERROR_CODES and (p.field is None or p.field in COLUMNS or p.field == "deal") for p in problems)
    assert check_deal(rules, deal) == problems  # the same answer every time




def score_by_rules_md(rules, deal: DealEntry, side: str) -> int:
    """docs/rules.md, "Scoring one deal", written out again: a count or a penalty below zero adds nothing."""
    entry = getattr(deal, side)
    natural, mixed, red3, penalty = (max(value, 0) for value in (entry.natural, entry.mixed, entry.red3, entry.penalty))
    score = entry.cards + 500 * natural + 300 * mixed - penalty
    if deal.out == side:
        score += 200 if deal.concealed else 100
    if rules.red_three and red3:
        amount = 800 if red3 == 4 else 100 * red3
        melded = entry.melded
        if melded is None:
            melded = entry.natural + entry.mixed > 0 or entry.cards > 0 or deal.out == side
        score += amount if melded or not rules.red_three_minus_if_not_melded else -amount
    return score


@pytest.mark.slow  # 1 000 examples under TEST_DEPTH=deep: seconds
@settings(max_examples=examples(1000), deadline=None)
@given(rules=st.sampled_from(RULE_SETS), deal=deals)
def test_every_deal_scores_as_rules_md_says_and_replay_runs_every_check(rules, deal):
    """The score of any deal, legal or not, is the one of docs/rules.md, "Scoring one deal" (a negative count adds nothing), and a
    replay reports exactly what the deal's checks and warnings find, errors and warnings apart."""
    expected = (score_by_rules_md(rules, deal, "home"), score_by_rules_md(rules, deal, "away"))
    assert deal_scores(rules, deal) == expected
    score = score_deal(rules, deal)
    assert (score.home.score, score.away.score) == expected
    replayed = replay(rules, [deal]).deals[0]
    assert (replayed.home_score, replayed.away_score) == expected
    assert list(replayed.errors) == check_deal(rules, deal)
    assert list(replayed.warnings) == deal_warnings(rules, deal)
    assert all(p.code in WARNING_CODES for p in replayed.warnings)
