"""`make bench`: the engine's deals per second (see bench_engine.py). Prints one JSON line; never
fails on timing, only if the benchmark itself breaks."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path


def _load_bench():
    path = Path(__file__).with_name("bench_engine.py")
    spec = importlib.util.spec_from_file_location("bench_engine", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_engine_deals_per_second():
    figure = _load_bench().measure()
    print()
    print(json.dumps(figure))
    assert figure["value"] > 0
