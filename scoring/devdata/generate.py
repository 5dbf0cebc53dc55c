"""Legal example protocols: deals (givar) built from card counts, matches played to their end.

Pure Python (no Django), for the demo data and the federation-scale benchmarks. Nothing here
scores a deal by itself: the engine does (`score_deal`, `check_deal`, `replay`); this module only
invents what a score sheet would say, the way a deal can really go:

- a side's *card points* are the value of the cards it melded (each canasta holds at least its
  least value: seven fours 35, a mixed canasta 50) plus other melds, minus the cards left in its
  hand; the side that went out has no hand. Every card value is a multiple of 5, and both sides
  together never hold more than the 1 180 card points of the pack;
- the side that went out has the canastas the rule set requires; sometimes it goes out concealed;
  rarely the stock runs out; now and then a side has not melded at all and pays its whole hand;
- a timed match (the rule set has a clock) deals a new deal only before the main time (50
  minutes); a deal still in progress at the final signal (60) ends by the clock; when the main
  time runs out between deals the match ends by the clock too (`clock_expired`).

`generate_match(rng, rules)` returns the deals of one whole match and whether the clock ran out
between deals; `match_deals(rng, rules)` returns only deals, and ends a timed match with a deal
that the clock ended instead, so the deals alone finish the match (what bulk loaders need).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.engine.deal import PACK_CARD_POINTS, DealEntry, SideEntry, score_deal
from scoring.engine.rules import RuleSet

__all__ = ["DEFAULT_STYLE", "DealStyle", "GeneratedMatch", "generate_match", "match_deals", "random_deal"]

# Card values of a natural canasta: seven or eight cards of one rank (fours 5, kings 10, aces 20).
NATURAL_CANASTA_VALUES = (35, 40, 70, 70, 80, 80, 90, 140, 160)
MAX_DEALS_UNTIMED = 60
HIGH_DEAL_SCORE = 3000


@dataclass(frozen=True)
class DealStyle:
    """How many canastas a side makes in a deal: weights by count, for the side that went out and
    for the other side. Fewer canastas make lower deal scores and longer matches (the federation
    data, scoring.devdata.federation, plays about twelve deals to 5000)."""

    out_canastas: tuple[tuple[int, int], ...] = ((1, 45), (2, 36), (3, 14), (4, 5))
    other_canastas: tuple[tuple[int, int], ...] = ((0, 35), (1, 40), (2, 20), (3, 5))


DEFAULT_STYLE = DealStyle()


@dataclass(frozen=True)
class GeneratedMatch:
    deals: tuple[DealEntry, ...]
    clock_expired: bool = False


def _weighted(rng: random.Random, weights: dict[int, int]) -> int:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _mixed_canasta_value(rng: random.Random) -> int:
    """4–6 natural cards and 1–3 wild cards (twos 20, jokers 50): at least 50."""
    naturals = rng.choice((4, 5, 6))
    value = naturals * rng.choice((5, 10, 10, 20))
    for _ in range(7 - naturals):
        value += 50 if rng.random() < 0.3 else 20
    return max(value, 50)


def _melded_side(rng: random.Random, canastas: int, *, went_out: bool) -> tuple[int, int, int]:
    """(card points, natural, mixed) of a side that melded `canastas` canastas."""
    natural = sum(1 for _ in range(canastas) if rng.random() < 0.45)
    mixed = canastas - natural
    value = sum(rng.choice(NATURAL_CANASTA_VALUES) for _ in range(natural))
    value += sum(_mixed_canasta_value(rng) for _ in range(mixed))
    value += 5 * rng.randrange(0, 31)  # other melds on the table
    if not went_out:
        value -= 5 * rng.randrange(0, 41)  # the hand counts minus
        if rng.random() < 0.1:
            value -= 50  # a joker left in hand
    return value, natural, mixed


def _hand_only(rng: random.Random) -> int:
    """A side that has not melded: its whole hand counts minus."""
    return -5 * rng.randrange(6, 61)


def random_deal(
    rng: random.Random,
    rules: RuleSet,
    number: int,
    *,
    home_out_chance: float = 0.5,
    end: str | None = None,
    dealt_minute: float | None = None,
    style: DealStyle = DEFAULT_STYLE,
) -> DealEntry:
    """One legal deal. `end`: "clock" for a deal the final signal ended; otherwise it ends by going
    out (mostly) or the stock running out (rarely)."""
    for _ in range(100):
        if end is None:
            deal_end = "stock" if rng.random() < 0.015 else "out"
        else:
            deal_end = end
        out = None
        if deal_end == "out":
            out = "home" if rng.random() < home_out_chance else "away"
        sides = {}
        for side in ("home", "away"):
            if side == out:
                canastas = max(rules.canastas_to_go_out, _weighted(rng, dict(style.out_canastas)))
                sides[side] = _melded_side(rng, canastas, went_out=True)
            elif rng.random() < (0.06 if out else 0.02):
                sides[side] = (_hand_only(rng), 0, 0)
            else:
                canastas = _weighted(rng, dict(style.other_canastas))
                sides[side] = _melded_side(rng, canastas, went_out=False)
        if sides["home"][0] + sides["away"][0] > PACK_CARD_POINTS:
            continue
        concealed = out is not None and rng.random() < 0.03
        red3 = {"home": 0, "away": 0}
        if rules.red_three:
            # Where red threes count, the four of them lie somewhere: drawn or still in the stock.
            for _ in range(4):
                holder = rng.choice(("home", "away", None, None))
                if holder:
                    red3[holder] += 1
        entry = DealEntry(
            number=number,
            home=SideEntry(cards=sides["home"][0], natural=sides["home"][1], mixed=sides["home"][2],
                           red3=red3["home"]),
            away=SideEntry(cards=sides["away"][0], natural=sides["away"][1], mixed=sides["away"][2],
                           red3=red3["away"]),
            out=out,
            concealed=concealed,
            end=deal_end,
            dealt_minute=dealt_minute,
        )
        score = score_deal(rules, entry)
        if score.home.score <= HIGH_DEAL_SCORE and score.away.score <= HIGH_DEAL_SCORE:
            return entry
    raise RuntimeError("no legal deal found")  # pragma: no cover - the ranges make this impossible


def generate_match(
    rng: random.Random,
    rules: RuleSet,
    *,
    home_strength: float = 0.5,
    clock_between_deals: bool = True,
    minutes_per_deal: tuple[float, float] = (5.5, 11.0),
    style: DealStyle = DEFAULT_STYLE,
) -> GeneratedMatch:
    """The deals of one whole match, to the target or the clock.

    `home_strength` (0–1) is the chance that the home side goes out in a deal (kept within 0.2–0.8).
    `clock_between_deals`: whether a timed match may end because the main time ran out between
    deals (the caller then declares the clock); if not, that last deal is one the clock ended.
    """
    chance = min(0.8, max(0.2, home_strength))
    deals: list[DealEntry] = []
    home_total = away_total = 0
    timed = rules.has_clock
    main = rules.clock_main_minutes or 0
    final = rules.clock_final_minutes or 0
    minute = 0.0
    while True:
        number = len(deals) + 1
        if not timed and number > MAX_DEALS_UNTIMED:  # pragma: no cover - totals grow every deal
            raise RuntimeError("the match does not end")
        duration = rng.uniform(*minutes_per_deal)
        dealt = float(int(minute)) if timed else None
        if timed and minute + duration >= final:
            deals.append(random_deal(rng, rules, number, end="clock", dealt_minute=dealt, style=style))
            return GeneratedMatch(tuple(deals))
        deal = random_deal(rng, rules, number, home_out_chance=chance, dealt_minute=dealt, style=style)
        score = score_deal(rules, deal)
        home_total += score.home.score
        away_total += score.away.score
        deals.append(deal)
        if home_total >= rules.target or away_total >= rules.target:
            return GeneratedMatch(tuple(deals))
        minute += duration
        if timed and minute >= main:
            if clock_between_deals:
                return GeneratedMatch(tuple(deals), clock_expired=True)
            # The last deal lasted until the final signal instead.
            deals[-1] = random_deal(rng, rules, number, end="clock", dealt_minute=deal.dealt_minute, style=style)
            return GeneratedMatch(tuple(deals))


def match_deals(rng: random.Random, rules: RuleSet, style: DealStyle = DEFAULT_STYLE) -> tuple[DealEntry, ...]:
    """The deals of one whole match, finished by the deals alone (target, or a deal the clock ended)."""
    return generate_match(rng, rules, clock_between_deals=False, style=style).deals
