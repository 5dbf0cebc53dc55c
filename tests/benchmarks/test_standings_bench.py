"""Benchmark at federation scale: the standings of a 20-team league and of a 600-team competition.

The table as it stands is read from the stored rows the services keep (TeamStanding), so the
number of queries of the selector and of the page is the same for 20 and for 600 teams, and does
not grow with the number of matches. One JSON line per figure ({"name", "value", "unit", "target",
"ok", ...}); nothing here asserts on time. `sql` is the baseline: the selector's own statements,
captured and run directly with connection.cursor; `selector` is the selector (queries and the
engine's ranking), `page` the public competition page (no page cache: every request is made anew).

The data: a federation-like data set made once per session by scoring.devdata.federation (60
clubs, 600 teams, a 20-team league played in full and a 600-team national competition over
BENCH_ROUNDS rounds). The engine's deals per second are in test_engine_bench.py, the PDF and
workbook figures in test_exports_bench.py, the round night in locustfile.py (`make load`).
"""

from __future__ import annotations

import json
import statistics
import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.devdata.federation import NATIONAL_NAME, FederationSize, build_federation
from scoring.models import Competition
from scoring.selectors import competition_standings

BENCH_ROUNDS = 6  # of the 600-team competition: 1 800 matches
QUERY_LIMIT = 4

pytestmark = pytest.mark.django_db


def emit(name, value, unit, target, ok, **extra) -> dict:
    """Print one figure as a JSON line (on a line of its own, after pytest's progress dots)."""
    line = {"name": name, "value": round(value, 3) if isinstance(value, float) else value, "unit": unit,
            "target": target, "ok": bool(ok)}
    for key, item in extra.items():
        line[key] = round(item, 3) if isinstance(item, float) else item
    print()
    print(json.dumps(line, ensure_ascii=False))
    return line


def one_ms(action) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def count_queries(action) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


@pytest.fixture(scope="session")
def federation(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        started = time.perf_counter()
        report = build_federation(size=FederationSize(clubs=60, leagues=1, national_rounds=BENCH_ROUNDS), seed=7)
        seconds = time.perf_counter() - started
        national = Competition.objects.get(name=NATIONAL_NAME)
        league = Competition.objects.filter(name__startswith="Division").order_by("pk").first()
        if not report.skipped:
            emit("bench_data_build", seconds, "s", None, True, matches=report.matches, deals=report.deals)
        yield {"league": league, "national": national}


def _selector_sql(competition) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        competition_standings(competition)
    return [query["sql"] for query in queries.captured_queries]


def _run_sql(statements) -> int:
    rows = 0
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
            rows += len(cursor.fetchall())
    return rows


@pytest.mark.parametrize("which", ["league", "national"])
def test_standings(federation, which):
    competition = federation[which]
    size = competition.teams.count()
    url = reverse("scoring:competition-detail", args=[competition.pk])
    client = Client()
    rows = competition_standings(competition)
    assert len(rows) == size and sum(row.record.played for row in rows) == 2 * competition.matches.count()
    response = client.get(url)
    assert response.status_code == 200 and rows[0].record.name in response.content.decode()

    statements = _selector_sql(competition)
    assert _run_sql(statements) > 0
    selector_queries = count_queries(lambda: competition_standings(competition))
    page_queries = count_queries(lambda: client.get(url))
    times: dict[str, list[float]] = {"sql": [], "selector": [], "page": []}
    for _ in range(5 if size > 100 else 15):  # in turn, so a busy moment falls on every figure alike
        times["sql"].append(one_ms(lambda: _run_sql(statements)))
        times["selector"].append(one_ms(lambda: competition_standings(competition)))
        times["page"].append(one_ms(lambda: client.get(url)))
    sql_ms, selector_ms, page_ms = (statistics.median(times[key]) for key in ("sql", "selector", "page"))

    name = f"standings_{size}"
    emit(f"{name}_sql", sql_ms, "ms", None, True, statements=len(statements))
    emit(f"{name}_selector", selector_ms, "ms", f"<= {QUERY_LIMIT} queries", selector_queries <= QUERY_LIMIT,
         baseline=sql_ms, ratio=selector_ms / sql_ms, queries=selector_queries)
    emit(f"{name}_page", page_ms, "ms", None, True, queries=page_queries, about="for information")
    federation.setdefault("query_counts", {})[which] = (selector_queries, page_queries)


def test_standings_queries_do_not_grow_with_size(federation):
    counts = federation.get("query_counts", {})
    if len(counts) < 2:
        pytest.skip("needs both standings figures (run the whole module)")
    small, large = counts["league"], counts["national"]
    emit("standings_queries_20_vs_600", large[0], "queries", f"same as 20 teams, <= {QUERY_LIMIT}",
         large[0] == small[0] <= QUERY_LIMIT and large[1] == small[1], baseline=small[0], page=[small[1], large[1]])
    assert large[0] == small[0], "the selector's query count grows with the competition"
    assert large[1] == small[1], "the page's query count grows with the competition"
