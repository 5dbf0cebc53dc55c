"""How many examples the property and fuzz tests try: one knob, the environment variable TEST_DEPTH.

Unset (`make test`, `make test-fast`): a tenth of the examples each test is written with, but never
fewer than 50 (all of them when it is written with fewer), so that a gross break is caught on every
run and no property or fuzz test takes more than a few seconds. Hypothesis draws new examples on
every run (not derandomized), so the runs add up to the full search over time.

TEST_DEPTH=deep (`make test-deep`): the full counts, as written in the tests (about 10 000 hostile
inputs to the protocol pages and files, 1 500 arbitrary deals against docs/rules.md's checks, ...): run it
before a release, after a change to the engine, the protocol form or the file readers, and when a
short run has found something.

A test writes its full count through `examples(n)`: `@settings(max_examples=examples(1500), ...)`.
A test without a count of its own gets the profile's (Hypothesis's 100 under deep, 50 otherwise).
"""

from __future__ import annotations

import os

from hypothesis import settings

# The share of the written count each depth runs, and the least count a short run tries.
DEPTHS = {"default": 0.1, "deep": 1.0}
LEAST = 50


def _depth() -> str:
    value = os.environ.get("TEST_DEPTH", "").strip().lower() or "default"
    if value not in DEPTHS:
        # A typo must not quietly run the short suite where the full one was asked for.
        raise RuntimeError(f"TEST_DEPTH={value!r}: leave it unset, or set it to 'deep' for the full example counts")
    return value


DEPTH = _depth()
SHARE = DEPTHS[DEPTH]


def examples(full: float) -> int:
    """How many examples a test written with `full` examples tries at this depth: all of them under
    deep, otherwise a tenth but at least LEAST (or all when there are fewer than LEAST)."""
    full = max(1, round(full))
    if DEPTH == "deep":
        return full
    return max(min(full, LEAST), round(full * SHARE))


def load_hypothesis_profile() -> None:
    """The Hypothesis profile of this depth, for the tests that set no max_examples of their own
    (a test's own @settings(max_examples=...) overrides the profile: hence `examples`)."""
    settings.register_profile("deep", max_examples=100)
    settings.register_profile("default", max_examples=examples(100))
    settings.load_profile(DEPTH)


def describe() -> str:
    if DEPTH == "deep":
        return "test depth: deep (the property and fuzz tests' full example counts)"
    return (
        f"test depth: default ({SHARE:.0%} of the property and fuzz tests' examples, at least {LEAST}; "
        "TEST_DEPTH=deep or make test-deep for all)"
    )
