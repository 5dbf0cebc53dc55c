"""What a public page costs to draw, as a ratio to the minimal view in the same run: the shared part
of test_pages_demo_bench.py (the demo season, `manage.py demo`) and test_pages_federation_bench.py
(the federation, `manage.py demo --scale federation`), each run in a process of its own.

Each page type and live part is asked with Django's test client, in this process, through every
middleware, with no validator (so it is drawn, never a 304) and nobody signed in. The minimal view
(tests/benchmarks/load_urls.py: a few bytes, no query) is asked through the same middleware. The
figures are asked in turn, round after round, so that a busy moment of the machine falls on all of
them alike; a page's figure is the median of its rounds, the minimal view's the median of its
rounds of MINIMAL_BATCH requests. One JSON line per page type: `value` the ratio, `ms` the page's
median, `queries` its SQL statements. Nothing here asserts on time.

Targets (docs/speed.md, "Drawing a page"): a page of a competition of up to 20 teams, a team, a
player, a club, a round, a match and the rankings at most PAGE_TARGET times the minimal view; a
live part (what an open page asks for every 20 s) at most LIVE_TARGET; the 600-team competition's
page and live part at most LARGE_TARGET.

The floor: two views of the benchmark's own (tests/benchmarks/load_urls.py) read what a match's
live part reads, its row as the match's pages read it and then its deals too, and draw one line of
template: `page_<size>_floor_match_row` and `page_<size>_floor_match_deals`, with no target. They
say what plain Django (its ORM and its template engine) costs before a page draws anything of its
own, against the same minimal view (docs/speed.md, "Drawing a page").
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Competition, Match
from tests.benchmarks.test_standings_bench import emit

MINIMAL = "/bench/minimal/"
MINIMAL_BATCH = 20
PAGE_TARGET = 20
LIVE_TARGET = 8
LARGE_TARGET = 100


@dataclass(frozen=True)
class Page:
    kind: str
    url: str
    target: float | None  # None: a reference (the floor), not a page


def pages_of(competition: Competition, *, large: Competition | None = None) -> list[Page]:
    """Every public page type and live part, of `competition` (a team competition of up to 20
    teams) and its latest played round, match, team, player and club; the start page and the
    rankings; and `large`'s page and live part."""
    match = (
        Match.objects.filter(competition=competition, deal_count__gt=0, round__isnull=False)
        .select_related("round", "home_team")
        .order_by("-round__number", "table")
        .first()
    )
    number = match.round.number
    team = match.home_team
    pages = [
        Page("start", reverse("scoring:home"), PAGE_TARGET),
        Page("competition", reverse("scoring:competition-detail", args=[competition.pk]), PAGE_TARGET),
        Page("competition_live", reverse("scoring:competition-live", args=[competition.pk]), LIVE_TARGET),
        Page("round", reverse("scoring:round-detail", args=[competition.pk, number]), PAGE_TARGET),
        Page("round_live", reverse("scoring:round-live", args=[competition.pk, number]), LIVE_TARGET),
        Page("match", reverse("scoring:match-detail", args=[match.pk]), PAGE_TARGET),
        Page("match_live", reverse("scoring:match-live", args=[match.pk]), LIVE_TARGET),
        Page("team", reverse("scoring:team-detail", args=[team.pk]), PAGE_TARGET),
        Page("player", reverse("scoring:player-detail", args=[team.player_one_id]), PAGE_TARGET),
        Page("club", reverse("scoring:club-detail", args=[team.club_id]), PAGE_TARGET),
        Page("rankings", reverse("scoring:rankings"), PAGE_TARGET),
        Page("floor_match_row", reverse("bench-match-row", args=[match.pk]), None),
        Page("floor_match_deals", reverse("bench-match-deals", args=[match.pk]), None),
    ]
    if large is not None:
        pages += [
            Page("competition_600", reverse("scoring:competition-detail", args=[large.pk]), LARGE_TARGET),
            Page("competition_600_live", reverse("scoring:competition-live", args=[large.pk]), LARGE_TARGET),
        ]
    return pages


def ms(client: Client, url: str, times: int = 1) -> float:
    started = time.perf_counter()
    for _ in range(times):
        client.get(url)
    return (time.perf_counter() - started) * 1000 / times


def measure(size: str, pages: list[Page], rounds: int) -> list[dict]:
    """Print and return one figure per page: its median drawing time over the minimal view's."""
    client = Client()
    for page in pages:  # each drawn once before it is timed, and checked to be a page
        response = client.get(page.url)
        assert response.status_code == 200 and (page.target is None or len(response.content) > 200), page.kind
    assert client.get(MINIMAL).status_code == 200
    queries = {}
    for page in pages:
        with CaptureQueriesContext(connection) as captured:
            client.get(page.url)
        queries[page.kind] = len(captured)
    minimal: list[float] = []
    times: dict[str, list[float]] = {page.kind: [] for page in pages}
    for _ in range(rounds):
        minimal.append(ms(client, MINIMAL, MINIMAL_BATCH))
        for page in pages:
            times[page.kind].append(ms(client, page.url))
    minimal_ms = statistics.median(minimal)
    emit(f"pages_{size}_minimal_view_ms", minimal_ms, "ms", None, True, rounds=rounds, batch=MINIMAL_BATCH)
    lines = []
    for page in pages:
        page_ms = statistics.median(times[page.kind])
        ratio = page_ms / minimal_ms
        target = None if page.target is None else f"<= {page.target}"
        lines.append(emit(f"page_{size}_{page.kind}", ratio, "x minimal view", target,
                          page.target is None or ratio <= page.target, ms=page_ms, queries=queries[page.kind],
                          url=page.url))  # fmt: skip
    return lines
