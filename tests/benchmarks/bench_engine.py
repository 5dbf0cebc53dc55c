"""Benchmark: checking and scoring deals with `engine.replay`, on one core.

Pre-generates legal 12-deal matches (a fixed seed, so every run checks the same deals), with the
opening minimums, deal scores and running totals written on them as a secretary would copy them
from paper, then replays them all for about two seconds per round and reports the median rate of
several rounds in deals per second. Run it with `make bench` (tests/benchmarks/test_engine_bench.py) or
directly: `python tests/benchmarks/bench_engine.py`.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import replace

from scoring.engine import DealEntry, SideEntry, get_rules, replay

NAME = "engine_deals_per_s"
TARGET_DEALS_PER_S = 50_000
DEALS_PER_MATCH = 12
MATCHES = 2_000
ROUNDS = 3
SECONDS_PER_ROUND = 2.0
RULE_KEYS = ("sv-tavling", "internationell-1951", "sv-hem")


def _side(rng: random.Random, *, out: bool, melded: bool, room: int) -> SideEntry:
    natural = mixed = 0
    if melded:
        natural = rng.choice((0, 0, 0, 1))
        mixed = rng.choice((0, 0, 1))
        if out and natural + mixed == 0:
            mixed = 1
    if out:
        least = 35 * natural + 50 * mixed
        cards = rng.randrange(least, max(least, min(room, 300)) + 1, 5)
    elif melded:
        cards = rng.randrange(-150, min(room, 250) + 1, 5)
    else:
        cards = rng.randrange(-200, 1, 5)
    return SideEntry(cards=cards, natural=natural, mixed=mixed, melded=None)


def legal_deal(rng: random.Random, number: int, rules) -> DealEntry:
    out = rng.choice(("home", "away", "home", "away", None))
    first = out or "home"
    second = "away" if first == "home" else "home"
    sides = {first: _side(rng, out=out == first, melded=out == first or rng.random() < 0.8, room=1180)}
    room = 1180 - sides[first].cards
    sides[second] = _side(rng, out=False, melded=rng.random() < 0.7, room=min(room, 1180))
    red = rng.choice((0, 0, 0, 1, 1, 2))
    red_side = rng.choice(("home", "away"))
    sides[red_side] = replace(sides[red_side], red3=red)
    if rng.random() < 0.05:
        sides[second] = replace(sides[second], penalty=100)
    end = None
    if out is None:
        end = "clock" if rules.has_clock and number == DEALS_PER_MATCH and rng.random() < 0.3 else "stock"
    return DealEntry(
        number=number,
        home=sides["home"],
        away=sides["away"],
        out=out,
        concealed=bool(out) and rng.random() < 0.1,
        end=end,
    )


def with_written_numbers(rules, deals: list[DealEntry]) -> list[DealEntry]:
    """The deals as a paper protocol has them: minimum, deal score and running total written."""
    state = replay(rules, deals)
    written = []
    for replayed in state.deals:
        entry = replayed.entry
        home = replace(
            entry.home,
            written_min=replayed.home_min_before,
            written_score=replayed.score.home.score,
            written_total=replayed.home_total,
        )
        away = replace(
            entry.away,
            written_min=replayed.away_min_before,
            written_score=replayed.score.away.score,
            written_total=replayed.away_total,
        )
        written.append(replace(entry, home=home, away=away))
    return written


def make_matches(count: int = MATCHES, seed: int = 1951):
    """`count` clean 12-deal matches: every deal legal, the target reached at the last deal or not
    at all (a match that would end earlier is drawn again)."""
    rng = random.Random(seed)
    matches = []
    while len(matches) < count:
        rules = get_rules(RULE_KEYS[len(matches) % len(RULE_KEYS)])
        deals = [legal_deal(rng, number, rules) for number in range(1, DEALS_PER_MATCH + 1)]
        if replay(rules, deals).errors:
            continue
        matches.append((rules, with_written_numbers(rules, deals)))
    return matches


def one_round(matches, seconds: float = SECONDS_PER_ROUND) -> float:
    deals = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for rules, match in matches:
            replay(rules, match)
        deals += len(matches) * DEALS_PER_MATCH
        elapsed = time.perf_counter() - start
    return deals / elapsed


def measure(rounds: int = ROUNDS, seconds: float = SECONDS_PER_ROUND) -> dict:
    matches = make_matches()
    # Warm up, and make sure the benchmark measures clean protocols, written numbers included.
    assert all(replay(rules, match).errors == 0 for rules, match in matches)
    one_round(matches, 0.2)
    rates = [one_round(matches, seconds) for _ in range(rounds)]
    value = round(statistics.median(rates))
    return {
        "name": NAME,
        "value": value,
        "unit": "deals/s",
        "target": TARGET_DEALS_PER_S,
        "ok": value >= TARGET_DEALS_PER_S,
        "rounds": rounds,
    }


if __name__ == "__main__":
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")
    print(json.dumps(measure()))
