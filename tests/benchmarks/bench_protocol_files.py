"""Benchmark: `protocol check`'s whole file path, in deals per second of CPU time.

A corpus of 12-deal protocol files (CSV text, every column a secretary copies from paper: minimum,
deal score and running total written), four in five legal and one in five with slips (an addition
slip, a wrong deal score, card points that are no multiple of 5, a minimum by neither total).
Each file is read, checked and scored by the engine, and its report built with every message, as
`protocol check --json` does (`read_csv`, `replay`, `check_report`).

The baseline is an independent, straightforward reader of the same text in the same run: `csv`
and arithmetic (deal scores by rule 34 b, running totals, the written numbers compared), no engine.
Targets: at least 50,000 deals/s of CPU time, and at least 1.0x the baseline's rate.
"""

from __future__ import annotations

import csv
import io
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

# Run as a script too (python tests/benchmarks/bench_protocol_files.py): the project and this folder.
for folder in (Path(__file__).resolve().parents[2], Path(__file__).resolve().parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from scoring.engine import get_points_rules, get_rules, replay
from scoring.engine.protocol_file import WRITE_COLUMNS, read_csv

NAME = "protocol_check_files"
TARGET_DEALS_PER_S = 50_000
TARGET_RATIO = 1.0
FILES = 600
# Many short rounds in pairs, ours and the baseline back to back (which goes first alternates): on
# a shared virtual machine the speed of the whole machine moves by a third within seconds, and a
# pair sees the same moment. The ratio is the median of the pairs' ratios.
ROUNDS = 31
SECONDS_PER_ROUND = 0.25


def _corpus(count: int = FILES, seed: int = 35):
    from bench_engine import make_matches  # the engine benchmark's legal, written protocols

    rng = random.Random(seed)
    files = []
    for index, (rules, deals) in enumerate(make_matches(count, seed=seed)):
        if index % 5 == 4:
            number = rng.randrange(len(deals))
            deal = deals[number]
            slip = index % 4
            if slip == 0:
                deal = replace(deal, home=replace(deal.home, written_total=deal.home.written_total + 5))
            elif slip == 1:
                deal = replace(deal, away=replace(deal.away, written_score=deal.away.written_score - 10))
            elif slip == 2:
                deal = replace(deal, home=replace(deal.home, cards=deal.home.cards + 3))
            else:
                deal = replace(deal, away=replace(deal.away, written_min=deal.away.written_min + 5))
            deals = [*deals[:number], deal, *deals[number + 1 :]]
        files.append((rules, _as_written(deals)))
    return files


def _as_written(deals) -> str:
    """The CSV text of the deals with the numbers as written on them (slips included)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(WRITE_COLUMNS)
    for deal in deals:
        values = {"deal": deal.number, "out": deal.out or "", "concealed": "yes" if deal.concealed else "",
                  "end": deal.effective_end, "time_up": "", "dealt": ""}  # fmt: skip
        for side, entry in (("home", deal.home), ("away", deal.away)):
            values.update({
                f"{side}_cards": entry.cards, f"{side}_natural": entry.natural, f"{side}_mixed": entry.mixed,
                f"{side}_red3": entry.red3, f"{side}_penalty": entry.penalty, f"{side}_melded": "",
                f"{side}_min": entry.written_min, f"{side}_score": entry.written_score,
                f"{side}_total": entry.written_total,
            })  # fmt: skip
        writer.writerow([values[name] for name in WRITE_COLUMNS])
    return buffer.getvalue()


def check_files(files, points, report) -> int:
    deals = 0
    for rules, text in files:
        state = replay(rules, read_csv(text), points=points)
        report(state, rules.key)
        deals += len(state.deals)
    return deals


def straightforward_files(files) -> int:
    """The baseline: plain csv and arithmetic over the same text."""
    deals = 0
    for rules, text in files:
        totals = {"home": 0, "away": 0}
        rows = []
        for row in csv.DictReader(io.StringIO(text)):
            record = {"deal": int(row["deal"]), "problems": []}
            for side in ("home", "away"):
                cards = int(row[f"{side}_cards"])
                natural = int(row[f"{side}_natural"] or 0)
                mixed = int(row[f"{side}_mixed"] or 0)
                red3 = int(row[f"{side}_red3"] or 0)
                penalty = int(row[f"{side}_penalty"] or 0)
                score = cards + 500 * natural + 300 * mixed - penalty
                if rules.red_three and red3:
                    score += rules.red_three_all_four if red3 == 4 else rules.red_three * red3
                if row["out"] == side:
                    score += 200 if row["concealed"] == "yes" else 100
                totals[side] += score
                if cards % 5:
                    record["problems"].append((side, "cards"))
                if row[f"{side}_score"] and int(row[f"{side}_score"]) != score:
                    record["problems"].append((side, "score"))
                if row[f"{side}_total"] and int(row[f"{side}_total"]) != totals[side]:
                    record["problems"].append((side, "total"))
                record[side] = {"score": score, "total": totals[side]}
            rows.append(record)
        deals += len(rows)
    return deals


def _rate(work, seconds: float) -> float:
    deals = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        deals += work()
        elapsed = time.process_time() - start
    return deals / elapsed


def measure(rounds: int = ROUNDS, seconds: float = SECONDS_PER_ROUND) -> list[dict]:
    from django.utils import translation

    from scoring.management.commands.protocol import check_report

    files = _corpus()
    points = get_points_rules("sv-serie")
    with translation.override("sv"):
        assert sum(replay(r, read_csv(t)).errors > 0 for r, t in files) >= FILES // 6
        ours, baseline = [], []
        for pair in range(rounds):
            ours_first = pair % 2 == 0
            if ours_first:
                ours.append(_rate(lambda: check_files(files, points, check_report), seconds))
            baseline.append(_rate(lambda: straightforward_files(files), seconds))
            if not ours_first:
                ours.append(_rate(lambda: check_files(files, points, check_report), seconds))
    value = round(statistics.median(ours))
    base = round(statistics.median(baseline))
    ratio = round(statistics.median(mine / theirs for mine, theirs in zip(ours, baseline)), 2)
    return [
        {"name": NAME, "value": value, "unit": "deals/s (CPU)", "target": TARGET_DEALS_PER_S,
         "ok": value >= TARGET_DEALS_PER_S},
        {"name": f"{NAME}_vs_straightforward_reader", "value": ratio, "unit": "x", "target": TARGET_RATIO,
         "ok": ratio >= TARGET_RATIO, "baseline_deals_per_s": base},
    ]  # fmt: skip


if __name__ == "__main__":
    import json
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")
    import django

    django.setup()
    for figure in measure():
        print(json.dumps(figure))
