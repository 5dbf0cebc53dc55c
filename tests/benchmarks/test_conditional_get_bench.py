"""Benchmark: what a 304 costs the server. A spectator's open page asks for its live part every 20 s
with its validator (scoring.web.public_cache); while nothing changed the answer is a 304, made before
the view runs from the editions of what the page shows (one or two small queries). Its time is set
against the minimal view's (tests/benchmarks/load_urls.py: a few bytes, no query) through the same
middleware, in the same run: `conditional_get_vs_minimal_view`, target <= 3x. One JSON line per
figure; nothing here asserts on time.
"""

from __future__ import annotations

import statistics
import time

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scoring import services
from tests import factories as f
from tests.benchmarks.test_standings_bench import emit

pytestmark = pytest.mark.django_db

REQUESTS = 400
RATIO = 3


def server_ms(client: Client, url: str, **headers) -> list[float]:
    """The time of each of REQUESTS answers to `url`, in milliseconds (the Django handler through
    every middleware, in this process: no network, no load generator)."""
    times = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        response = client.get(url, **headers)
        times.append((time.perf_counter() - started) * 1000)
    assert response.status_code in (200, 304)
    return times


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


@override_settings(ROOT_URLCONF="tests.benchmarks.load_urls")
def test_conditional_get_vs_minimal_view():
    setup = f.protocol_setup()
    match = services.deals_record(match=setup["match"], user=setup["secretary"], entry=f.winning_deal(1),
                                  expected_version=None)  # fmt: skip
    client = Client()
    parts = {
        "match live": reverse("scoring:match-live", args=[match.pk]),
        "standings live": reverse("scoring:competition-live", args=[match.competition_id]),
        "round live": reverse("scoring:round-live", args=[match.competition_id, match.round.number]),
    }
    minimal = server_ms(client, "/bench/minimal/")
    results = {}
    for name, url in parts.items():
        etag = client.get(url)["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        results[name] = server_ms(client, url, HTTP_IF_NONE_MATCH=etag)
    minimal_ms = statistics.median(minimal)
    emit("minimal_view_ms", minimal_ms, "ms", None, True, p95=p95(minimal), requests=REQUESTS)
    worst = 0.0
    for name, times in results.items():
        ratio = statistics.median(times) / minimal_ms
        worst = max(worst, ratio)
        emit(f"conditional_get_{name.replace(' ', '_')}_ms", statistics.median(times), "ms", None, True,
             p95=p95(times), ratio=ratio, requests=REQUESTS)  # fmt: skip
    emit("conditional_get_vs_minimal_view", worst, "x minimal view (median)", f"<= {RATIO}", worst <= RATIO,
         parts=list(results))  # fmt: skip
