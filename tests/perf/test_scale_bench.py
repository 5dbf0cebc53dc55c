"""Benchmarks at federation scale (issue 7): standings, saving a deal, public pages.

Each figure is measured through the Django test client beside a baseline measured in the same run,
so the figure is a ratio that means the same on a fast or a slow (or busy) machine. One JSON line
per figure: {"name", "value", "unit", "target", "ok", and "baseline", "ratio", "queries" where they
apply}. Nothing here asserts on time; the asserts check that what was measured is right.

The data: a federation-like data set made once per session by scoring.devdata.federation (60 clubs, 600
teams, a 20-team league played in full and a 600-team national competition over BENCH_ROUNDS
rounds), through the engine like `manage.py demo --scale federation`.

Figures:
- standings_<n>_*: the standings of the 20-team league and of the 600-team competition. `sql` is
  the baseline: the aggregate SQL statements the standings selector runs (captured from the
  selector itself, then executed directly with connection.cursor). `selector` is the selector
  uncached (queries and engine ranking), `page` the public standings page as visitors get it
  (cached under the competition's stamp), `page_after_change` the page right after a change that
  leaves the table as it is (a deal in a match still being played: the page is made anew, the
  standings' HTML comes from the cache), `page_cold` the same page with an empty cache; these two
  are printed for information (target null).
- deal_save: recording the 12th deal of a match through the protocol page (form, checks, write,
  audit, totals) against a minimal view that writes one Deal row; both through the client, signed
  in as the club's secretary, sent the same form (the minimal view requires a login, as every
  view that writes does).
- match_page, team_page: the public pages against a minimal view that renders the same template
  with stand-in objects and no data (no query); `_cold` with an empty cache (for information),
  plain = as served.
The engine's deals per second are in test_engine_bench.py, the PDF and workbook figures in
test_exports_bench.py.
"""

from __future__ import annotations

import json
import statistics
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.shortcuts import render
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import include, path, reverse
from django.views.decorators.csrf import csrf_exempt

from scoring import services
from scoring.cache import bump_competition
from scoring.engine import DealEntry, SideEntry
from scoring.devdata.federation import NATIONAL_NAME, FederationSize, build_federation
from scoring.models import Club, Competition, Deal, Match, Player, Round, Team
from scoring.selectors import competition_standings

BENCH_ROUNDS = 6  # of the 600-team competition: 1 800 matches
QUERY_LIMIT = 6
STANDINGS_RATIO = 3
SAVE_RATIO = 2
PAGE_RATIO = 3
# The figures of pages made anew (after a change, or with an empty cache) are printed for
# information: the targets are for the pages as visitors get them, which are cached and
# made anew only when a result changes (`_page` and the plain page figures).
UNCACHED = "made anew, for information: the target applies to the page as served"


# -- the baselines' views (this module is the URLconf of these tests) -----------------------------


@csrf_exempt
@login_required
def minimal_write_view(request, pk):
    """Write one row, nothing else: the floor under any view that saves something (which is
    for signed-in users only, and reads the form it was sent)."""
    number = int(request.POST["number"])
    Deal.objects.create(match_id=pk, number=number, home_cards=0, away_cards=0, end="stock")
    return HttpResponse(status=204)


def _stand_ins():
    """Unsaved objects with ids, enough for the templates' links; reading them runs no query."""
    club = Club(pk=1, name="Klubb")

    def team(pk):
        return Team(
            pk=pk, name=f"Lag {pk}", club=club,
            player_one=Player(pk=2 * pk, name="Spelare A", club=club),
            player_two=Player(pk=2 * pk + 1, name="Spelare B", club=club),
        )

    competition = Competition(pk=1, name="Serie", season="2026/27", organiser=club)
    match = Match(
        pk=1, competition=competition, round=Round(pk=1, number=1, competition=competition),
        home_team=team(1), away_team=team(2), status=Match.Status.SCHEDULED, version=1,
    )
    return club, team(1), competition, match


def minimal_render_view(request, which):
    """The public page's template with stand-ins and no data."""
    _club, team, competition, match = _stand_ins()
    if which == "match":
        context = {"match": match, "competition": competition, "rules": competition.rules, "sides": []}
        return render(request, "scoring/public/match_detail.html", {**context, "poll_seconds": 20})
    return render(request, "scoring/public/team_detail.html", {"team": team, "form": [], "competitions": [],
                                                                "poll_seconds": 20})


urlpatterns = [
    path("bench/minimal-write/<int:pk>/", minimal_write_view, name="bench-minimal-write"),
    path("bench/minimal-render/<str:which>/", minimal_render_view, name="bench-minimal-render"),
    path("", include("canastaclub.urls")),
]

pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


# -- measuring and reporting ----------------------------------------------------------------------


def emit(name, value, unit, target, ok, **extra) -> dict:
    """Print one figure as a JSON line (on a line of its own, after pytest's progress dots)."""
    line = {"name": name, "value": round(value, 3) if isinstance(value, float) else value, "unit": unit,
            "target": target, "ok": bool(ok)}
    for key, item in extra.items():
        line[key] = round(item, 3) if isinstance(item, float) else item
    print()
    print(json.dumps(line, ensure_ascii=False))
    return line


def median_ms(action, rounds, before=None) -> float:
    times = []
    for _ in range(rounds):
        if before is not None:
            before()
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def count_queries(action) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


# -- the data -------------------------------------------------------------------------------------


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


# -- standings ------------------------------------------------------------------------------------


def _aggregate_sql(competition) -> list[str]:
    """The GROUP BY statements the standings selector runs, as it sent them to the database."""
    with CaptureQueriesContext(connection) as queries:
        competition_standings.uncached(competition)
    return [query["sql"] for query in queries.captured_queries if "GROUP BY" in query["sql"]]


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
    rounds = 3 if size > 100 else 9

    statements = _aggregate_sql(competition)
    assert len(statements) >= 2 and _run_sql(statements) > 0
    rows = competition_standings.uncached(competition)
    assert len(rows) == size and sum(row.record.played for row in rows) == 2 * competition.matches.count()
    response = client.get(url)
    assert response.status_code == 200 and rows[0].record.name in response.content.decode()

    bump = lambda: bump_competition(competition.pk)  # noqa: E731
    selector_queries = count_queries(lambda: competition_standings.uncached(competition))
    page_queries = count_queries(lambda: client.get(url))
    changed_queries = count_queries(lambda: (bump(), client.get(url)))
    cold_queries = count_queries(lambda: (cache.clear(), client.get(url)))

    # Round robin, so that a busy moment of the machine falls on every figure alike.
    times: dict[str, list[float]] = {"sql": [], "selector": [], "page": [], "changed": [], "cold": []}
    for index in range(rounds * 3):
        times["sql"].append(median_ms(lambda: _run_sql(statements), 1))
        times["selector"].append(median_ms(lambda: competition_standings.uncached(competition), 1))
        times["page"].append(median_ms(lambda: client.get(url), 1))
        times["changed"].append(median_ms(lambda: client.get(url), 1, before=bump))
        if index % 3 == 0:
            times["cold"].append(median_ms(lambda: client.get(url), 1, before=cache.clear))
    sql_ms, selector_ms, page_ms, changed_ms, cold_ms = (
        statistics.median(times[key]) for key in ("sql", "selector", "page", "changed", "cold")
    )

    name = f"standings_{size}"
    emit(f"{name}_sql", sql_ms, "ms", None, True, statements=len(statements))
    emit(f"{name}_selector", selector_ms, "ms", f"<= {STANDINGS_RATIO}x sql, <= {QUERY_LIMIT} queries",
         selector_ms <= STANDINGS_RATIO * sql_ms and selector_queries <= QUERY_LIMIT,
         baseline=sql_ms, ratio=selector_ms / sql_ms, queries=selector_queries)
    emit(f"{name}_page", page_ms, "ms", f"<= {STANDINGS_RATIO}x sql, <= {QUERY_LIMIT} queries",
         page_ms <= STANDINGS_RATIO * sql_ms and page_queries <= QUERY_LIMIT,
         baseline=sql_ms, ratio=page_ms / sql_ms, queries=page_queries)
    emit(f"{name}_page_after_change", changed_ms, "ms", None, True, about=UNCACHED,
         baseline=sql_ms, ratio=changed_ms / sql_ms, queries=changed_queries)
    emit(f"{name}_page_cold", cold_ms, "ms", None, True, about=UNCACHED,
         baseline=sql_ms, ratio=cold_ms / sql_ms, queries=cold_queries)
    federation.setdefault("query_counts", {})[which] = (selector_queries, page_queries, cold_queries)


def test_standings_queries_do_not_grow_with_size(federation):
    counts = federation.get("query_counts", {})
    if len(counts) < 2:
        pytest.skip("needs both standings figures (run the whole module)")
    small, large = counts["league"], counts["national"]
    emit("standings_queries_20_vs_600", large[0], "queries", f"same as 20 teams, <= {QUERY_LIMIT}",
         large[0] == small[0] <= QUERY_LIMIT, baseline=small[0], page=[small[1], large[1]],
         page_cold=[small[2], large[2]])
    assert large[0] == small[0], "the selector's query count grows with the competition"


# -- saving a deal --------------------------------------------------------------------------------


def _small_deal(number: int) -> DealEntry:
    """A legal deal that moves nobody near 5000 (the stock ran out)."""
    return DealEntry(number=number, home=SideEntry(cards=60), away=SideEntry(cards=-20), end="stock")


def test_deal_save(federation):
    competition = federation["national"]
    home, away = list(competition.teams.order_by("pk")[:2])
    secretary = get_user_model().objects.create_user("bench-secretary", password="x")
    home.club.secretaries.add(secretary)
    round_ = Round.objects.create(competition=competition, number=99)
    rounds = 31
    matches = []
    for table in range(1, 2 * rounds + 1):
        match = Match.objects.create(competition=competition, round=round_, table=table, home_team=home, away_team=away)
        match = services.match_import_deals(
            match=match, user=secretary, entries=[_small_deal(n) for n in range(1, 12)],
            expected_version=match.version,
        )
        assert match.deal_count == 11 and match.status == Match.Status.IN_PROGRESS
        matches.append(match)
    client = Client()
    client.force_login(secretary)
    protocol, minimal = iter(matches[:rounds]), iter(matches[rounds:])

    def deal_form(match):
        data = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
        data.update(home_cards="60", away_cards="-20", end="stock", version=str(match.version))
        return data

    def save_through_the_protocol_page():
        match = next(protocol)
        response = client.post(reverse("scoring:match-protocol", args=[match.pk]), deal_form(match))
        assert response.status_code == 302, response.content[:2000]
        # The browser follows the redirect, whose page shows (and so removes) "Deal 12 saved".
        client.cookies.pop("messages", None)

    def write_one_row():
        match = next(minimal)
        response = client.post(reverse("bench-minimal-write", args=[match.pk]), {**deal_form(match), "number": "12"})
        assert response.status_code == 204

    # Alternate so that both see the same state of the machine.
    save_times, minimal_times = [], []
    for _ in range(rounds):
        save_times.append(median_ms(save_through_the_protocol_page, 1))
        minimal_times.append(median_ms(write_one_row, 1))
    save_ms, minimal_ms = statistics.median(save_times), statistics.median(minimal_times)
    for match in matches[:rounds]:
        match.refresh_from_db()
        assert match.deal_count == 12 and match.home_total == 12 * 60 and match.away_total == -12 * 20
        assert match.audit_entries.filter(action="deal_record").count() == 1
    emit("deal_save_12th", save_ms, "ms", f"<= {SAVE_RATIO}x minimal write", save_ms <= SAVE_RATIO * minimal_ms,
         baseline=minimal_ms, ratio=save_ms / minimal_ms)


def test_deal_save_queries(federation):
    """How many queries the save takes (a figure, and its count does not depend on the match's size)."""
    competition = federation["national"]
    home, away = list(competition.teams.order_by("pk")[2:4])
    secretary = get_user_model().objects.create_user("bench-secretary-2", password="x")
    home.club.secretaries.add(secretary)
    round_ = Round.objects.create(competition=competition, number=98)
    client = Client()
    client.force_login(secretary)
    counts = []
    for table, existing in enumerate((1, 11), start=1):
        match = Match.objects.create(competition=competition, round=round_, table=table, home_team=home, away_team=away)
        match = services.match_import_deals(match=match, user=secretary, entries=[_small_deal(n) for n in range(1, existing + 1)],
                                            expected_version=match.version)
        data = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
        data.update(home_cards="60", away_cards="-20", end="stock", version=str(match.version))
        with CaptureQueriesContext(connection) as queries:
            response = client.post(reverse("scoring:match-protocol", args=[match.pk]), data)
        assert response.status_code == 302
        counts.append(len(queries))
    emit("deal_save_queries", counts[1], "queries", "same for the 2nd and the 12th deal", counts[0] == counts[1],
         baseline=counts[0])


# -- public pages ---------------------------------------------------------------------------------


def _page_figures(name, url, minimal_url, rounds=15):
    client = Client()
    response = client.get(url)
    assert response.status_code == 200
    assert client.get(minimal_url).status_code == 200
    assert count_queries(lambda: client.get(minimal_url)) == 0
    cold_times, warm_times, minimal_times = [], [], []
    for _ in range(rounds):
        cold_times.append(median_ms(lambda: client.get(url), 1, before=cache.clear))
        warm_times.append(median_ms(lambda: client.get(url), 1))
        minimal_times.append(median_ms(lambda: client.get(minimal_url), 1))
    cold, warm, minimal = map(statistics.median, (cold_times, warm_times, minimal_times))
    cold_queries = count_queries(lambda: (cache.clear(), client.get(url)))
    warm_queries = count_queries(lambda: client.get(url))
    emit(f"{name}_cold", cold, "ms", None, True, about=UNCACHED,
         baseline=minimal, ratio=cold / minimal, queries=cold_queries)
    emit(name, warm, "ms", f"<= {PAGE_RATIO}x minimal render", warm <= PAGE_RATIO * minimal,
         baseline=minimal, ratio=warm / minimal, queries=warm_queries)
    return response


def test_match_page(federation):
    match = federation["national"].matches.filter(status=Match.Status.CONFIRMED).order_by("pk").first()
    response = _page_figures("match_page", reverse("scoring:match-detail", args=[match.pk]),
                             reverse("bench-minimal-render", args=["match"]))
    assert match.home_team.name in response.content.decode() and match.deal_count >= 5


def test_team_page(federation):
    team = federation["national"].teams.order_by("pk").first()
    response = _page_figures("team_page", reverse("scoring:team-detail", args=[team.pk]),
                             reverse("bench-minimal-render", args=["team"]))
    assert team.name in response.content.decode()
