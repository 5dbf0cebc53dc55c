"""`make bench`: `protocol check`'s file path in deals per second of CPU time (see
bench_protocol_files.py), and the CPU time of starting the command. Prints one JSON line per
figure; never fails on timing, only if the benchmark itself breaks."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path


def test_protocol_check_files():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_protocol_files

    figures = bench_protocol_files.measure()
    print()
    for figure in figures:
        print(json.dumps(figure))
    assert all(figure["value"] > 0 for figure in figures)


def test_protocol_check_start(tmp_path):
    """`manage.py protocol check` of one small file, in a process of its own: its CPU time is the
    start (Django, the command), which a script checking files one by one pays for each
    (docs/speed.md, "Today's figures"). The median of 7 runs; target 0.5 s."""
    path = tmp_path / "protokoll.csv"
    path.write_text("deal,home_cards,home_natural,away_cards,out\n1,185,1,-40,home\n", encoding="utf-8")
    manage = Path(__file__).resolve().parents[2] / "manage.py"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "canastaclub.settings"}
    seconds = []
    for _run in range(7):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, str(manage), "protocol", "check", str(path)], env=env, check=True,
                       capture_output=True, cwd=manage.parent)  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    value = round(statistics.median(seconds), 2)
    print()
    figure = {"name": "protocol_check_start", "value": value, "unit": "s (CPU)", "target": 0.5, "ok": value <= 0.5}
    print(json.dumps(figure))
    assert value > 0
