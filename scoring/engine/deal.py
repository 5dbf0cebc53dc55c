"""One deal (giv): what was written for each side (lag), its score, and the checks on it.

Terms: the *home* and *away* side; *card points* (kortpoäng) are the value of a side's melded cards
minus the cards left in hand (rule 34 b 2); *natural* (ren) canastas are worth 500, *mixed* (oren)
300; *going out* (utgång) 100, *concealed* (dold) 200 instead; *penalties* (straff) are written as
positive numbers and deducted; *melded*: whether the side put down any meld in the deal (a side that
has not melded gets its red threes as a minus under rules that count them, rule 21 f).

`score_deal` computes a deal's score with a breakdown; `check_deal` returns the problems that can be
found in the deal alone. Checks that need the match (opening minimum, running totals, the end of the
match, the clock) are in `match.replay`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import AWAY, HOME, SIDES, Problem
from .rules import RuleSet

END_OUT = "out"
END_STOCK = "stock"
END_CLOCK = "clock"
DEAL_ENDS = (END_OUT, END_STOCK, END_CLOCK)

# Card points of the whole pack of 108 cards (RULES.md, card values).
PACK_CARD_POINTS = 1180
# Ranks A–4 that can form a canasta (rule 11 b), and wild cards in two packs (4 jokers, 8 twos).
CANASTA_RANKS = 11
WILD_CARDS = 12
# The least card value a canasta can hold: seven natural fours; six fives and a two.
LEAST_NATURAL_CANASTA_VALUE = 35
LEAST_MIXED_CANASTA_VALUE = 50
# A deal score above this is unusual enough to ask the secretary to look again.
HIGH_DEAL_SCORE = 3000


@dataclass(frozen=True, slots=True)
class SideEntry:
    """What the protocol says for one side in one deal."""

    cards: int = 0
    natural: int = 0
    mixed: int = 0
    red3: int = 0
    penalty: int = 0
    # None: not written; then a side has melded when it has canastas, positive card points or went
    # out (RULES.md, protocol file: the default of home_melded/away_melded).
    melded: bool | None = None
    # As written on the paper protocol, optional, checked against the computed numbers.
    written_min: int | None = None
    written_score: int | None = None
    written_total: int | None = None

    @property
    def canastas(self) -> int:
        return self.natural + self.mixed


@dataclass(frozen=True, slots=True)
class DealEntry:
    number: int
    home: SideEntry
    away: SideEntry
    out: str | None = None  # "home", "away" or None
    concealed: bool = False
    end: str | None = None  # "out", "stock", "clock"; None: "out" when `out` is set, else "stock"
    # Minutes after the match started when the deal was dealt, if the protocol records it.
    dealt_minute: float | None = None

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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class DealScore:
    home: SideScore
    away: SideScore

    def side(self, side: str) -> SideScore:
        return self.home if side == HOME else self.away


def score_side(rules: RuleSet, deal: DealEntry, side: str) -> SideScore:
    entry = deal.home if side == HOME else deal.away
    canastas = rules.natural_canasta * entry.natural + rules.mixed_canasta * entry.mixed
    # Whether the side melded matters only for red threes that count (and is the costlier part).
    red3 = entry.red3
    red_threes = rules.red_three_points(red3, deal.melded(side)) if red3 > 0 and rules.red_three else 0
    if deal.out == side:
        going_out = rules.concealed_going_out if deal.concealed else rules.going_out
    else:
        going_out = 0
    penalties = -entry.penalty
    score = entry.cards + canastas + red_threes + going_out + penalties
    return SideScore(entry.cards, canastas, red_threes, going_out, penalties, score)


def score_deal(rules: RuleSet, deal: DealEntry) -> DealScore:
    return DealScore(score_side(rules, deal, HOME), score_side(rules, deal, AWAY))


def _passes_every_check(rules: RuleSet, deal: DealEntry, score: DealScore) -> bool:
    """True when `check_deal` finds nothing: the same checks as plain comparisons, no Problem built.

    Nearly every deal of a real protocol is clean, so this is the path a replay takes; a deal that
    fails any comparison goes through the full checks below, which name each problem. The two must
    agree (the engine's tests check legal deals, every trigger and its near miss).
    """
    home, away = deal.home, deal.away
    home_cards, away_cards = home.cards, away.cards
    home_natural, home_mixed, away_natural, away_mixed = home.natural, home.mixed, away.natural, away.mixed
    home_red3, away_red3 = home.red3, away.red3
    if home_cards % 5 or away_cards % 5 or home.penalty % 5 or away.penalty % 5:
        return False
    if (
        home_natural < 0 or home_mixed < 0 or home_red3 < 0 or home.penalty < 0
        or away_natural < 0 or away_mixed < 0 or away_red3 < 0 or away.penalty < 0
    ):  # fmt: skip
        return False
    out = deal.out
    end = deal.end or (END_OUT if out else END_STOCK)
    if end == END_OUT:
        if out != HOME and out != AWAY:
            return False
    elif (end != END_STOCK and end != END_CLOCK) or out is not None:
        return False
    if out is None:
        if deal.concealed:
            return False
    else:
        natural, mixed, cards = (
            (home_natural, home_mixed, home_cards) if out == HOME else (away_natural, away_mixed, away_cards)
        )
        if natural + mixed < rules.canastas_to_go_out:
            return False
        if cards < LEAST_NATURAL_CANASTA_VALUE * natural + LEAST_MIXED_CANASTA_VALUE * mixed:
            return False
    if home.melded is False and (home_natural + home_mixed > 0 or home_cards > 0 or out == HOME):
        return False
    if away.melded is False and (away_natural + away_mixed > 0 or away_cards > 0 or out == AWAY):
        return False
    # Counts are not negative here, so one side above 4 is also both sides above 4.
    if home_red3 + away_red3 > 4:
        return False
    if home_natural + home_mixed > CANASTA_RANKS or away_natural + away_mixed > CANASTA_RANKS:
        return False
    mixed_canastas = home_mixed + away_mixed
    if home_natural + away_natural + (mixed_canastas + 1) // 2 > CANASTA_RANKS or mixed_canastas > WILD_CARDS:
        return False
    if not (-PACK_CARD_POINTS <= home_cards <= PACK_CARD_POINTS and -PACK_CARD_POINTS <= away_cards <= PACK_CARD_POINTS):
        return False
    if home_cards + away_cards > PACK_CARD_POINTS:
        return False
    if home.written_score is not None and home.written_score != score.home.score:
        return False
    if away.written_score is not None and away.written_score != score.away.score:
        return False
    if end == END_CLOCK and not rules.has_clock:
        return False
    return True


def check_deal(rules: RuleSet, deal: DealEntry, score: DealScore | None = None) -> list[Problem]:
    """The problems found in the deal alone, in a stable order (by check, then home before away)."""
    if score is None:
        score = score_deal(rules, deal)
    if _passes_every_check(rules, deal, score):
        return []
    problems: list[Problem] = []
    add = problems.append
    home, away = deal.home, deal.away

    for side, entry in ((HOME, home), (AWAY, away)):
        if entry.cards % 5:
            add(Problem("not-multiple-of-5", side, f"{side}_cards", {"value": entry.cards}))
        if entry.penalty % 5:
            add(Problem("not-multiple-of-5", side, f"{side}_penalty", {"value": entry.penalty}))

    for side, entry in ((HOME, home), (AWAY, away)):
        for name, value in (
            ("natural", entry.natural),
            ("mixed", entry.mixed),
            ("red3", entry.red3),
            ("penalty", entry.penalty),
        ):
            if value < 0:
                add(Problem("negative-count", side, f"{side}_{name}", {"value": value}))

    end = deal.effective_end
    if end not in DEAL_ENDS:
        # The file reader refuses other values; a caller building entries by hand gets this.
        add(Problem("going-out-count", None, "end", {"end": end}))
    elif end == END_OUT and deal.out not in SIDES:
        add(Problem("going-out-count", None, "out", {"end": end}))
    elif end != END_OUT and deal.out is not None:
        add(Problem("going-out-count", deal.out, "out", {"end": end}))

    out_side = deal.out if deal.out in SIDES else None
    if out_side is not None:
        entry = deal.side(out_side)
        if entry.natural + entry.mixed < rules.canastas_to_go_out:
            add(
                Problem(
                    "out-without-canasta",
                    out_side,
                    f"{out_side}_natural",
                    {"required": rules.canastas_to_go_out, "canastas": entry.natural + entry.mixed},
                )
            )
        least = (
            LEAST_NATURAL_CANASTA_VALUE * max(entry.natural, 0)
            + LEAST_MIXED_CANASTA_VALUE * max(entry.mixed, 0)
        )
        if entry.cards < least:
            add(
                Problem(
                    "out-with-hand-value",
                    out_side,
                    f"{out_side}_cards",
                    {"value": entry.cards, "least": least},
                )
            )

    if deal.concealed and out_side is None:
        add(Problem("concealed-without-out", None, "concealed"))

    for side, entry in ((HOME, home), (AWAY, away)):
        if entry.melded is False and (
            entry.natural + entry.mixed > 0 or entry.cards > 0 or deal.out == side
        ):
            add(Problem("canasta-without-meld", side, f"{side}_melded"))

    for side, entry in ((HOME, home), (AWAY, away)):
        if entry.red3 > 4:
            add(Problem("red-threes", side, f"{side}_red3", {"value": entry.red3, "limit": 4}))
    if home.red3 <= 4 and away.red3 <= 4 and home.red3 + away.red3 > 4:
        add(Problem("red-threes", None, None, {"value": home.red3 + away.red3, "limit": 4}))

    for side, entry in ((HOME, home), (AWAY, away)):
        if entry.natural + entry.mixed > CANASTA_RANKS:
            add(
                Problem(
                    "canastas-impossible",
                    side,
                    f"{side}_natural",
                    {"value": entry.natural + entry.mixed, "limit": CANASTA_RANKS},
                )
            )
    naturals = home.natural + away.natural
    mixed = home.mixed + away.mixed
    if naturals + (mixed + 1) // 2 > CANASTA_RANKS:
        add(
            Problem(
                "canastas-impossible",
                None,
                None,
                {"natural": naturals, "mixed": mixed, "limit": CANASTA_RANKS},
            )
        )
    elif mixed > WILD_CARDS:
        add(Problem("canastas-impossible", None, None, {"mixed": mixed, "limit": WILD_CARDS}))

    in_range = True
    for side, entry in ((HOME, home), (AWAY, away)):
        if not -PACK_CARD_POINTS <= entry.cards <= PACK_CARD_POINTS:
            in_range = False
            add(
                Problem(
                    "card-points-range",
                    side,
                    f"{side}_cards",
                    {"value": entry.cards, "limit": PACK_CARD_POINTS},
                )
            )
    if in_range and home.cards + away.cards > PACK_CARD_POINTS:
        add(
            Problem(
                "card-points-range",
                None,
                None,
                {"value": home.cards + away.cards, "limit": PACK_CARD_POINTS},
            )
        )

    for side, entry in ((HOME, home), (AWAY, away)):
        computed = score.home.score if side == HOME else score.away.score
        if entry.written_score is not None and entry.written_score != computed:
            add(
                Problem(
                    "score-mismatch",
                    side,
                    f"{side}_score",
                    {"written": entry.written_score, "computed": computed},
                )
            )

    if end == END_CLOCK and not rules.has_clock:
        add(Problem("clock-not-allowed", None, "end"))

    return problems


def deal_warnings(score: DealScore) -> list[Problem]:
    """Warnings that need the deal alone: an unusually high deal score."""
    if score.home.score <= HIGH_DEAL_SCORE and score.away.score <= HIGH_DEAL_SCORE:
        return []
    warnings = []
    for side, side_score in ((HOME, score.home), (AWAY, score.away)):
        if side_score.score > HIGH_DEAL_SCORE:
            warnings.append(
                Problem(
                    "deal-score-high",
                    side,
                    f"{side}_score",
                    {"value": side_score.score, "limit": HIGH_DEAL_SCORE},
                )
            )
    return warnings
