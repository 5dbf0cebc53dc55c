"""`make bench`: `protocol check`'s file path in deals per second of CPU time (see
bench_protocol_files.py). Prints one JSON line; never fails on timing, only if the benchmark itself
breaks."""

from __future__ import annotations

import json
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
