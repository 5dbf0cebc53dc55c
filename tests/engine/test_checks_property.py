"""Over arbitrary integers, not only legal deals: the engine accepts a deal exactly when every
check of RULES.md ("Checks on a deal"), written out again here from the text, passes.

The engine states each check once (deal.DEAL_CHECKS, deal.DEAL_WARNINGS); this property is what would
catch a check that drifted from the specification. The one faster form of them, the fast path that replay
asks first (passes_deal_checks, passes_deal_warnings), is held to them by the second property below."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import DealEntry, SideEntry, check_deal, get_rules, score_deal
from scoring.engine.deal import (
    DEAL_CHECKS,
    DEAL_WARNINGS,
    FAST_PATH_COVERS,
    deal_parts,
    deal_scores,
    deal_warnings,
    deal_warnings_to_run,
    passes_deal_checks,
    passes_deal_warnings,
)
from scoring.engine.problems import ERROR_CODES
from scoring.engine.protocol_file import COLUMNS

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


@pytest.mark.slow  # 1 000 or more examples: seconds
@settings(max_examples=1500, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), deal=deals)
def test_the_engine_accepts_exactly_what_rules_md_accepts(rules, deal):
    problems = check_deal(rules, deal)
    assert (problems == []) is accepted_by_rules_md(rules, deal), problems
    assert all(p.code in ERROR_CODES and (p.field is None or p.field in COLUMNS or p.field == "deal") for p in problems)
    assert check_deal(rules, deal) == problems  # the same answer every time


# -- the fast path of replay ------------------------------------------------------------------
# passes_deal_checks says a deal passes exactly when no check of the deal finds anything, and
# passes_deal_warnings when no warning does. Held over arbitrary integers and words (most such
# deals break several checks), over plain deals with one or two numbers moved to the edge of a
# limit or anywhere (where one check alone decides), under rule sets with other canasta counts,
# red three values and no clock; and, one by one, over every single change of a few plain deals.

EDGES = {
    "cards": [-1185, -1181, -1180, -1175, -5, -1, 0, 1, 3, 5, 590, 595, 600, 1175, 1180, 1181, 1185, 3000],
    "natural": [-1, 0, 1, 4, 5, 6, 7, 10, 11, 12, 13],
    "mixed": [-1, 0, 1, 2, 6, 7, 8, 11, 12, 13, 14],
    "red3": [-1, 0, 1, 2, 3, 4, 5],
    "penalty": [-100, -5, 0, 3, 5, 50, 95, 100, 105, 200, 500],
}
SIDE_FIELDS = sorted(EDGES)
WORDS = [None, "", "home", "away", "out", "stock", "clock", "both"]

arbitrary_sides = st.builds(
    SideEntry,
    cards=st.integers(),
    natural=st.integers(),
    mixed=st.integers(),
    red3=st.integers(),
    penalty=st.integers(),
    melded=st.sampled_from([None, True, False]),
)
arbitrary_deals = st.builds(
    DealEntry,
    number=st.just(1),
    home=arbitrary_sides,
    away=arbitrary_sides,
    out=st.sampled_from(WORDS),
    concealed=st.booleans(),
    end=st.sampled_from(WORDS),
    time_up=st.booleans(),
)
plain_sides = st.builds(
    SideEntry,
    cards=st.integers(-40, 80).map(lambda n: 5 * n),
    natural=st.sampled_from([0, 0, 0, 1, 2]),
    mixed=st.sampled_from([0, 0, 0, 1, 2]),
    red3=st.integers(0, 2),
    penalty=st.sampled_from([0, 0, 100]),
    melded=st.sampled_from([None, True, False]),
)
rarely = st.sampled_from([False, False, False, True])


@st.composite
def deals_at_the_edges(draw):
    deal = draw(
        st.builds(
            DealEntry,
            number=st.just(1),
            home=plain_sides,
            away=plain_sides,
            out=st.sampled_from([None, "home", "away"]),
            concealed=rarely,
            end=st.one_of(st.none(), st.none(), st.none(), st.sampled_from(WORDS)),
            time_up=rarely,
        )
    )
    for _ in range(draw(st.integers(0, 2))):
        side = draw(st.sampled_from(["home", "away"]))
        name = draw(st.sampled_from(SIDE_FIELDS))
        value = draw(st.one_of(st.sampled_from(EDGES[name]), st.integers()))
        deal = replace(deal, **{side: replace(getattr(deal, side), **{name: value})})
    return deal


rule_sets = st.one_of(
    st.sampled_from(RULE_SETS),
    st.builds(
        lambda rules, canastas, red_three, clock: rules.with_overrides(
            {"canastas_to_go_out": canastas, "red_three": red_three, "clock_main_minutes": clock}
        ),
        st.sampled_from(RULE_SETS),
        st.integers(-1, 3),
        st.sampled_from([0, 100, 50]),
        st.sampled_from([None, 50]),
    ),
)


def written(score: int):
    """A written deal score: none, the computed one, one near it, or any."""
    return st.one_of(st.none(), st.just(score), st.integers(score - 10, score + 10), st.integers())


@pytest.mark.slow  # 1 000 or more examples: seconds
@settings(max_examples=1000, deadline=None)
@given(rules=rule_sets, deal=st.one_of(arbitrary_deals, deals_at_the_edges()), data=st.data())
def test_the_fast_path_agrees_with_every_check(rules, deal, data):
    score = score_deal(rules, deal)
    deal = replace(
        deal,
        home=replace(deal.home, written_score=data.draw(written(score.home.score))),
        away=replace(deal.away, written_score=data.draw(written(score.away.score))),
    )
    errors = check_deal(rules, deal, score)
    assert passes_deal_checks(rules, deal) is (errors == []), errors
    warnings = deal_warnings(rules, deal, score)
    assert passes_deal_warnings(rules, deal) is (warnings == []), warnings
    assert_warnings_to_run_are_those_that_warn(rules, deal, score)


def assert_warnings_to_run_are_those_that_warn(rules, deal, score):
    """deal_warnings_to_run names exactly the warnings that find something, in their order."""
    scores = (score.home.score, score.away.score)
    to_run = deal_warnings_to_run(rules, deal)
    assert list(to_run) == [check for check in DEAL_WARNINGS if check(rules, deal, scores)], deal


@pytest.mark.slow  # 1 000 or more examples: seconds
@settings(max_examples=1000, deadline=None)
@given(rules=rule_sets, deal=st.one_of(arbitrary_deals, deals_at_the_edges()))
def test_the_deal_scores_of_replay_are_the_sums_of_the_parts(rules, deal):
    """deal_scores (the first two values of the fast path) adds up each side's score in one
    expression; deal_parts (rule 34 b) is the definition, and the breakdown of score_deal."""
    home, away = deal_parts(rules, deal)
    assert deal_scores(rules, deal) == (sum(home), sum(away))
    score = score_deal(rules, deal)
    assert (score.home.score, score.away.score) == (sum(home), sum(away))


def one_change(rules, base: DealEntry):
    """The deal with one thing changed: a number of one side to the edge of a limit, a side's
    melding, its written deal score, or how the deal ended."""
    score = score_deal(rules, base)
    for side in ("home", "away"):
        entry = getattr(base, side)
        for name, values in EDGES.items():
            for value in values:
                yield replace(base, **{side: replace(entry, **{name: value})})
        for melded in (None, True, False):
            for cards in (-5, 0, 5):
                for natural, mixed in ((0, 0), (1, 0), (0, 1)):
                    yield replace(base, **{side: replace(entry, melded=melded, cards=cards, natural=natural, mixed=mixed)})
        computed = score.side(side).score
        for written in (computed, computed + 5, computed - 5):
            yield replace(base, **{side: replace(entry, written_score=written)})
    for out in WORDS:
        for end in WORDS:
            for concealed in (False, True):
                for time_up in (False, True):
                    yield replace(base, out=out, end=end, concealed=concealed, time_up=time_up)


@pytest.mark.parametrize("rules", RULE_SETS + [RULE_SETS[1].with_overrides({"red_three": 0})], ids=lambda r: r.key)
def test_the_fast_path_agrees_at_every_edge(rules):
    """Every single change of a few plain deals, each check alone at its limit: the same
    verdict as the checks."""
    plain = [
        DealEntry(1, SideEntry(285, 1), SideEntry(-40), out="home"),
        DealEntry(1, SideEntry(-40, red3=1), SideEntry(285, 0, 1, red3=1), out="away", concealed=True),
        DealEntry(1, SideEntry(120, red3=2), SideEntry(-15, penalty=100), end="stock"),
        DealEntry(1, SideEntry(0, melded=False), SideEntry(0, 1, melded=True), end="clock"),
    ]
    for base in plain:
        for deal in one_change(rules, base):
            score = score_deal(rules, deal)
            assert passes_deal_checks(rules, deal) is (check_deal(rules, deal, score) == []), deal
            assert passes_deal_warnings(rules, deal) is (deal_warnings(rules, deal, score) == []), deal
            assert_warnings_to_run_are_those_that_warn(rules, deal, score)


def test_the_fast_path_stands_for_every_check_and_warning():
    assert FAST_PATH_COVERS == frozenset(DEAL_CHECKS + DEAL_WARNINGS)
