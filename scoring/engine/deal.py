"""One deal (giv): what was written for each side (lag), its score, and the checks on it.

Terms: the *home* and *away* side; *card points* (kortpoäng) are the value of a side's melded cards
minus the cards left in hand (rule 34 b 2); *natural* (ren) canastas are worth 500, *mixed* (oren)
300; *going out* (utgång) 100, *concealed* (dold) 200 instead; *penalties* (straff) are written as
positive numbers and deducted; *melded*: whether the side put down any meld in the deal (a side that
has not melded gets its red threes as a minus under rules that count them, rule 21 f).

`score_deal` computes a deal's score with a breakdown; `check_deal` returns the errors and
`deal_warnings` the warnings that can be found in the deal alone, each check stated once (DEAL_CHECKS,
DEAL_WARNINGS). Checks that need the match (opening minimum, running totals, the end of the match,
the clock) are in `match.replay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .problems import AWAY, HOME, Problem
from .rules import RuleSet

END_OUT = "out"
END_STOCK = "stock"
END_CLOCK = "clock"
DEAL_ENDS = (END_OUT, END_STOCK, END_CLOCK)

# Card values (rule 12; the same in every rule set): (kind, points, how many two packs hold). Red
# threes have no card value: they are a bonus, or nothing, as the rule set says.
CARD_VALUES = (
    ("joker", 50, 4),
    ("ace", 20, 8),
    ("two", 20, 8),
    ("king-to-eight", 10, 48),
    ("seven-to-four", 5, 32),
    ("black-three", 5, 4),
)
# Card points of the whole pack of 108 cards (docs/rules.md, "Card values"): 1180.
PACK_CARD_POINTS = sum(points * count for _kind, points, count in CARD_VALUES)
# Ranks A–4 that can form a canasta (rule 11 b), and wild cards in two packs (4 jokers, 8 twos).
CANASTA_RANKS = 11
WILD_CARDS = 12
RED_THREES = 4
# A canasta holds seven cards or more; a mixed one at least four natural cards (rule 11 b). Two
# packs hold 100 cards that are not threes, 88 of them natural cards of the ranks A–4.
CANASTA_CARDS = 7
MIXED_CANASTA_NATURAL_CARDS = 4
MELDABLE_CARDS = 100
NATURAL_CARDS = 88
# A deal score above this is unusual enough to ask the secretary to look again.
HIGH_DEAL_SCORE = 3000
# Penalties come in hundreds (the competition rules' 100 each, rule 21 h's 500).
USUAL_PENALTY_STEP = 100

# What a check returns when the deal passes it (shared, never changed).
NO_PROBLEMS: tuple[Problem, ...] = ()

# The engine's values (entries, scores, replayed deals) are never changed once made: a new one is
# made with dataclasses.replace. They are not declared frozen because a frozen dataclass sets each
# field through object.__setattr__, which made reading a protocol file a fifth slower.


# A side's columns of a deal, as the protocol has them (docs/protocol-file.md): the numbers each
# side writes, whether it melded, and what it wrote of the computed figures. Every reader and
# writer of a side's fields (forms, files, rows) takes its names from here.
SIDE_NUMBERS = ("cards", "natural", "mixed", "red3", "penalty")
SIDE_FIELDS = (*SIDE_NUMBERS, "melded")
WRITTEN_FIELDS = ("min", "score", "total")


@dataclass(slots=True)
class SideEntry:
    """What the protocol says for one side in one deal."""

    cards: int = 0
    natural: int = 0
    mixed: int = 0
    red3: int = 0
    penalty: int = 0
    # None: not written; then a side has melded when it has canastas, positive card points or went
    # out (docs/rules.md, "Scoring one deal"; docs/protocol-file.md: the default of home_melded/away_melded).
    melded: bool | None = None
    # As written on the paper protocol, optional, checked against the computed numbers.
    written_min: int | None = None
    written_score: int | None = None
    written_total: int | None = None

    @property
    def canastas(self) -> int:
        return self.natural + self.mixed


@dataclass(slots=True)
class DealEntry:
    number: int
    home: SideEntry
    away: SideEntry
    out: str | None = None  # "home", "away" or None
    concealed: bool = False
    end: str | None = None  # "out", "stock", "clock"; None: "out" when `out` is set, else "stock"
    # Minutes after the match started when the deal was dealt, if the protocol records it.
    dealt_minute: float | None = None
    # The time ran out after this deal ended: no further deal was dealt, and a timed match ended
    # by the clock (docs/rules.md, "The end of a match"; the protocol file's `time_up`).
    time_up: bool = False

    def side(self, side: str) -> SideEntry:
        return self.home if side == HOME else self.away

    @property
    def effective_end(self) -> str:
        if self.end:
            return self.end
        return END_OUT if self.out else END_STOCK

    def melded(self, side: str) -> bool:
        entry = self.home if side == HOME else self.away
        if entry.melded is not None:
            return entry.melded
        return entry.natural + entry.mixed > 0 or entry.cards > 0 or self.out == side


@dataclass(slots=True)
class SideScore:
    """The breakdown of one side's deal score (rule 34 b)."""

    cards: int
    canastas: int
    red_threes: int
    going_out: int
    penalties: int
    score: int

    def to_dict(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "canastas": self.canastas,
            "red_threes": self.red_threes,
            "going_out": self.going_out,
            "penalties": self.penalties,
            "score": self.score,
        }


@dataclass(slots=True)
class DealScore:
    home: SideScore
    away: SideScore

    def side(self, side: str) -> SideScore:
        return self.home if side == HOME else self.away


def side_parts(rules: RuleSet, deal: DealEntry, side: str) -> tuple[int, int, int, int, int]:
    """What one side's deal score is made of (rule 34 b): its card points, canasta bonuses, red
    threes, going out and penalties (as a minus). A deal score is the sum of its side's parts."""
    entry = deal.home if side == HOME else deal.away
    red3 = entry.red3
    # Whether a side melded matters only for red threes that count (and is the costlier part).
    red_threes = rules.red_three_points(red3, deal.melded(side)) if red3 > 0 and rules.red_three else 0
    going_out = 0
    if deal.out == side:
        going_out = rules.concealed_going_out if deal.concealed else rules.going_out
    # A count or a penalty below zero is an error (negative-count) and adds nothing to the score
    # (docs/rules.md, "Scoring one deal"): max(0, …), so that the score shown beside the error is the one
    # the deal has without the impossible number.
    canastas = rules.natural_canasta * max(entry.natural, 0) + rules.mixed_canasta * max(entry.mixed, 0)
    return (entry.cards, canastas, red_threes, going_out, -max(entry.penalty, 0))


def deal_parts(rules: RuleSet, deal: DealEntry) -> tuple[tuple[int, int, int, int, int], tuple[int, int, int, int, int]]:
    """Both sides' parts (side_parts), home then away: the definition of a deal's scores, which
    score_deal gives as the breakdown and deal_scores adds up."""
    return side_parts(rules, deal, HOME), side_parts(rules, deal, AWAY)


def score_deal(rules: RuleSet, deal: DealEntry) -> DealScore:
    home, away = deal_parts(rules, deal)
    return DealScore(SideScore(*home, sum(home)), SideScore(*away, sum(away)))


def deal_scores(rules: RuleSet, deal: DealEntry) -> tuple[int, int]:
    """The home and away deal scores of score_deal, without the breakdown (a replay keeps the
    numbers; the breakdown is made again from the entry when asked for)."""
    home, away = deal_parts(rules, deal)
    return sum(home), sum(away)


def _multiples_of_5(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Every card value is a multiple of 5 (rule 12), and so is every penalty."""
    home, away = deal.home, deal.away
    if not (home.cards % 5 or home.penalty % 5 or away.cards % 5 or away.penalty % 5):
        return NO_PROBLEMS
    return [
        Problem("not-multiple-of-5", side, f"{side}_{name}", {"value": value})
        for side, entry in ((HOME, home), (AWAY, away))
        for name, value in (("cards", entry.cards), ("penalty", entry.penalty))
        if value % 5
    ]


def _negative_counts(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    home, away = deal.home, deal.away
    if min(home.natural, home.mixed, home.red3, home.penalty, away.natural, away.mixed, away.red3, away.penalty) >= 0:
        return NO_PROBLEMS
    return [
        Problem("negative-count", side, f"{side}_{name}", {"value": value})
        for side, entry in ((HOME, home), (AWAY, away))
        for name, value in (
            ("natural", entry.natural),
            ("mixed", entry.mixed),
            ("red3", entry.red3),
            ("penalty", entry.penalty),
        )
        if value < 0
    ]


def _going_out_count(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Exactly one side goes out when the deal ends by going out, none otherwise (docs/rules.md, "How a
    deal ends")."""
    out = deal.out
    end = deal.end or (END_OUT if out else END_STOCK)
    if end == END_OUT:
        if out == HOME or out == AWAY:
            return NO_PROBLEMS
        return [Problem("going-out-count", None, "out", {"end": end})]
    if end != END_STOCK and end != END_CLOCK:
        # The file reader refuses other values; a caller building entries by hand gets this.
        return [Problem("going-out-count", None, "end", {"end": end})]
    if out is None:
        return NO_PROBLEMS
    return [Problem("going-out-count", out, "out", {"end": end})]


def _out_without_canasta(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Going out needs the rule set's number of canastas (rule 18 b). The card points of the side
    that went out may be anything: the partner's hand counts minus (rule 12, rule 34 b 2)."""
    out = deal.out
    if out != HOME and out != AWAY:
        return NO_PROBLEMS
    entry = deal.home if out == HOME else deal.away
    canastas = entry.natural + entry.mixed
    if canastas >= rules.canastas_to_go_out:
        return NO_PROBLEMS
    return [
        Problem(
            "out-without-canasta",
            out,
            f"{out}_natural",
            {"required": rules.canastas_to_go_out, "canastas": canastas},
        )
    ]


def _concealed_without_out(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    if not deal.concealed or deal.out == HOME or deal.out == AWAY:
        return NO_PROBLEMS
    return [Problem("concealed-without-out", None, "concealed")]


def _canasta_without_meld(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    home, away = deal.home, deal.away
    if home.melded is not False and away.melded is not False:
        return NO_PROBLEMS
    return [
        Problem("canasta-without-meld", side, f"{side}_melded")
        for side, entry in ((HOME, home), (AWAY, away))
        if entry.melded is False and (entry.natural + entry.mixed > 0 or entry.cards > 0 or deal.out == side)
    ]


def _red_threes(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Two packs hold four red threes."""
    home_red3, away_red3 = deal.home.red3, deal.away.red3
    if home_red3 + away_red3 <= RED_THREES and home_red3 <= RED_THREES and away_red3 <= RED_THREES:
        return NO_PROBLEMS
    problems = [
        Problem("red-threes", side, f"{side}_red3", {"value": value, "limit": RED_THREES})
        for side, value in ((HOME, home_red3), (AWAY, away_red3))
        if value > RED_THREES
    ]
    if not problems:
        problems.append(Problem("red-threes", None, None, {"value": home_red3 + away_red3, "limit": RED_THREES}))
    return problems


def canasta_limit_passed(
    home_natural: int, home_mixed: int, away_natural: int = 0, away_mixed: int = 0
) -> tuple[str | None, dict] | None:
    """The first limit of two packs that the canastas of both sides pass (docs/rules.md, "Checks on a deal",
    canastas-impossible), as (the side it concerns or None for both, the limit's parameters), or
    None within every limit: per side one meld per rank A–4 (rule 11 b); for both sides the ranks,
    the wild cards, and the cards themselves. The limits are stated here only, for the check and
    for the counts that make a side's canasta points (`canasta_counts`)."""
    for side, canastas in ((HOME, home_natural + home_mixed), (AWAY, away_natural + away_mixed)):
        if canastas > CANASTA_RANKS:
            return side, {"reason": "ranks-side", "value": canastas, "limit": CANASTA_RANKS}
    naturals = home_natural + away_natural
    mixed = home_mixed + away_mixed
    # A rank with a natural canasta leaves one natural card of it: two mixed canastas per rank.
    ranks_used = naturals + (mixed + 1) // 2
    cards_needed = CANASTA_CARDS * (naturals + mixed)
    natural_cards_needed = CANASTA_CARDS * naturals + MIXED_CANASTA_NATURAL_CARDS * mixed
    params = {"natural": naturals, "mixed": mixed}
    if ranks_used > CANASTA_RANKS:
        return None, {**params, "reason": "ranks", "limit": CANASTA_RANKS}
    if mixed > WILD_CARDS:
        return None, {**params, "reason": "wild-cards", "limit": WILD_CARDS}
    if cards_needed > MELDABLE_CARDS:
        return None, {**params, "reason": "cards", "needed": cards_needed, "limit": MELDABLE_CARDS}
    if natural_cards_needed > NATURAL_CARDS:
        return None, {**params, "reason": "natural-cards", "needed": natural_cards_needed, "limit": NATURAL_CARDS}
    return None


def _canastas_impossible(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """More canastas than two packs allow (canasta_limit_passed)."""
    home, away = deal.home, deal.away
    passed = canasta_limit_passed(home.natural, home.mixed, away.natural, away.mixed)
    if passed is None:
        return NO_PROBLEMS
    side, params = passed
    if side is None:
        return [Problem("canastas-impossible", None, None, params)]
    # Both sides may pass their own limit: each is named beside its own field.
    return [
        Problem("canastas-impossible", name, f"{name}_natural", {"reason": "ranks-side", "value": canastas, "limit": CANASTA_RANKS})
        for name, canastas in ((HOME, home.natural + home.mixed), (AWAY, away.natural + away.mixed))
        if canastas > CANASTA_RANKS
    ]


def canasta_counts(rules: RuleSet, points: int, *, other_natural: int = 0, other_mixed: int = 0) -> tuple[tuple[int, int], ...]:
    """Every (natural, mixed) count of one side's canastas whose bonuses under `rules` (500 and 300)
    make `points`, within the limits of two packs (canasta_limit_passed) beside the other side's
    canastas: most natural canastas first. 1500 under the Swedish rules is (3, 0) or (0, 5); none
    when no count makes the points. A paper protocol that writes canasta points rather than counts
    is copied through this."""
    if points < 0:
        return ()
    return tuple(
        (natural, mixed)
        for natural in range(CANASTA_RANKS, -1, -1)
        for mixed in range(CANASTA_RANKS - natural + 1)
        if natural * rules.natural_canasta + mixed * rules.mixed_canasta == points
        and canasta_limit_passed(natural, mixed, other_natural, other_mixed) is None
    )


def _card_points_range(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Card points of a side lie within ± the pack's 1180; both sides' together at most 1180."""
    home_cards, away_cards = deal.home.cards, deal.away.cards
    home_in_range = -PACK_CARD_POINTS <= home_cards <= PACK_CARD_POINTS
    away_in_range = -PACK_CARD_POINTS <= away_cards <= PACK_CARD_POINTS
    if home_in_range and away_in_range:
        if home_cards + away_cards <= PACK_CARD_POINTS:
            return NO_PROBLEMS
        return [
            Problem("card-points-range", None, None, {"value": home_cards + away_cards, "limit": PACK_CARD_POINTS})
        ]
    return [
        Problem("card-points-range", side, f"{side}_cards", {"value": value, "limit": PACK_CARD_POINTS})
        for side, value, in_range in ((HOME, home_cards, home_in_range), (AWAY, away_cards, away_in_range))
        if not in_range
    ]


def _score_mismatch(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    home_written, away_written = deal.home.written_score, deal.away.written_score
    home_score, away_score = scores
    if (home_written is None or home_written == home_score) and (away_written is None or away_written == away_score):
        return NO_PROBLEMS
    return [
        Problem("score-mismatch", side, f"{side}_score", {"written": written, "computed": computed})
        for side, written, computed in ((HOME, home_written, home_score), (AWAY, away_written, away_score))
        if written is not None and written != computed
    ]


def _clock_not_allowed(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Only a timed match can end a deal by the clock or run out of time (docs/rules.md, "The end of a
    match")."""
    if rules.clock_main_minutes is not None:
        return NO_PROBLEMS
    if deal.end == END_CLOCK:
        return [Problem("clock-not-allowed", None, "end")]
    if deal.time_up:
        return [Problem("clock-not-allowed", None, "time_up")]
    return NO_PROBLEMS


# Every check on a deal alone, once, in the order problems are reported (docs/rules.md, "Checks on a
# deal"). Each returns NO_PROBLEMS after plain comparisons when the deal passes it, which is the
# common case, so a clean deal costs a few comparisons per check and builds nothing.
DEAL_CHECKS = (
    _multiples_of_5,
    _negative_counts,
    _going_out_count,
    _out_without_canasta,
    _concealed_without_out,
    _canasta_without_meld,
    _red_threes,
    _canastas_impossible,
    _card_points_range,
    _clock_not_allowed,
)


def check_deal(rules: RuleSet, deal: DealEntry, score: DealScore | None = None) -> list[Problem]:
    """The problems found in the deal alone, in a stable order (by check, then home before away)."""
    return run_checks(DEAL_CHECKS, rules, deal, _scores(rules, deal, score))


def _scores(rules: RuleSet, deal: DealEntry, score: DealScore | None) -> tuple[int, int]:
    return deal_scores(rules, deal) if score is None else (score.home.score, score.away.score)


def run_checks(checks, rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> list[Problem]:
    """What the checks (DEAL_CHECKS or DEAL_WARNINGS) find in a deal whose home and away deal
    scores are `scores`, in their order."""
    found: list[Problem] = []
    for check in checks:
        problems = check(rules, deal, scores)
        if problems:
            found.extend(problems)
    return found


def _deal_score_high(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    home_score, away_score = scores
    if home_score <= HIGH_DEAL_SCORE and away_score <= HIGH_DEAL_SCORE:
        return NO_PROBLEMS
    return [
        Problem("deal-score-high", side, f"{side}_score", {"value": value, "limit": HIGH_DEAL_SCORE})
        for side, value in ((HOME, home_score), (AWAY, away_score))
        if value > HIGH_DEAL_SCORE
    ]


def _penalty_unusual(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """The competition rules' penalties are 100 each, rule 21 h's is 500: anything else is worth a
    second look."""
    home_penalty, away_penalty = deal.home.penalty, deal.away.penalty
    if not (home_penalty % USUAL_PENALTY_STEP or away_penalty % USUAL_PENALTY_STEP):
        return NO_PROBLEMS
    return [
        Problem("penalty-unusual", side, f"{side}_penalty", {"value": value, "step": USUAL_PENALTY_STEP})
        for side, value in ((HOME, home_penalty), (AWAY, away_penalty))
        if value % USUAL_PENALTY_STEP
    ]


def _red_threes_not_counted(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Under rules where red threes count nothing, red threes on the protocol suggest it was kept by
    home rules."""
    home_red3, away_red3 = deal.home.red3, deal.away.red3
    if rules.red_three or (home_red3 <= 0 and away_red3 <= 0):
        return NO_PROBLEMS
    # Side by side, home first: a protocol's red threes are most often on one side only.
    problems = []
    if home_red3 > 0:
        problems.append(Problem("red-threes-not-counted", HOME, "home_red3", {"value": home_red3}))
    if away_red3 > 0:
        problems.append(Problem("red-threes-not-counted", AWAY, "away_red3", {"value": away_red3}))
    return problems


def _melded_assumed(rules: RuleSet, deal: DealEntry, scores: tuple[int, int]) -> Sequence[Problem]:
    """Red threes were subtracted because the side was taken as not having melded (rule 21 f), a
    default the protocol did not state."""
    home, away = deal.home, deal.away
    if not rules.red_three or (home.red3 <= 0 and away.red3 <= 0):
        return NO_PROBLEMS
    # Side by side, home first, as _red_threes_not_counted.
    problems = []
    if home.red3 > 0 and home.melded is None and not deal.melded(HOME):
        problems.append(Problem("melded-assumed", HOME, "home_melded", {"red3": home.red3}))
    if away.red3 > 0 and away.melded is None and not deal.melded(AWAY):
        problems.append(Problem("melded-assumed", AWAY, "away_melded", {"red3": away.red3}))
    return problems


# Warnings on a deal alone (docs/rules.md, "Warnings"): the deal is accepted. A written deal score that
# is not the computed one is a slip of arithmetic, which rule 35 b lets be corrected at any time:
# the protocol goes in as written and the computed score counts.
DEAL_WARNINGS = (_deal_score_high, _score_mismatch, _penalty_unusual, _red_threes_not_counted, _melded_assumed)


def deal_warnings(rules: RuleSet, deal: DealEntry, score: DealScore | None = None) -> list[Problem]:
    """The warnings found in the deal alone, in a stable order."""
    return run_checks(DEAL_WARNINGS, rules, deal, _scores(rules, deal, score))
