"""Benchmark: `protocol check`'s whole file path, in deals per second of CPU time.

A corpus of 12-deal protocol files (CSV text, every column a secretary copies from paper: minimum,
deal score and running total written), four in five legal and one in five with slips (an addition
slip, a wrong deal score, card points that are no multiple of 5, a minimum by neither total).
Each file is read, checked and scored by the engine, and its report built with every message, as
`protocol check --json` does (`read_csv`, `replay`, `check_report`).

Target: at least 20,000 deals per CPU second, a federation's season of protocols checked in
seconds. The engine states each check once; how it compares with a reader that checks less is not
a target.
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

from scoring.engine import get_points_rules, replay
from scoring.files.protocol_file import WRITE_COLUMNS, read_csv

NAME = "protocol_check_files"
TARGET_DEALS_PER_S = 20_000
FILES = 600
# Many short rounds, their median: on a shared virtual machine the speed of the whole machine moves
# by a third within seconds.
ROUNDS = 15
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
        assert sum(replay(r, read_csv(t)).errors > 0 for r, t in files) >= FILES // 12
        ours = [_rate(lambda: check_files(files, points, check_report), seconds) for _round in range(rounds)]
    value = round(statistics.median(ours))
    return [
        {"name": NAME, "value": value, "unit": "deals/s (CPU)", "target": TARGET_DEALS_PER_S,
         "ok": value >= TARGET_DEALS_PER_S},
    ]  # fmt: skip


if __name__ == "__main__":
    import json
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canastaclub.settings")
    import django

    django.setup()
    for figure in measure():
        print(json.dumps(figure))
