"""Drawing the public pages at federation size (`manage.py demo --scale federation`: 600 teams, 29
leagues of 20 teams and a 600-team national competition, 10 010 matches), each as a ratio to the
minimal view in the same run (tests/benchmarks/pages.py says how and the targets): a 20-team
league's pages, the rankings and the rating pages over the whole federation, and the 600-team
competition's page and live part.

The data is made as `demo --scale federation` makes it, with SQLite's wait for the disk after each
write turned off while it is made (a benchmark's scratch database need not survive a power cut).
"""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test import override_settings

from scoring.devdata.federation import NATIONAL_NAME, build_federation
from scoring.models import Competition
from tests.benchmarks.pages import measure, pages_of
from tests.benchmarks.test_standings_bench import emit

pytestmark = pytest.mark.django_db(transaction=True)  # no transaction around it: SQLite sets its disk wait outside one
ROUNDS = 5


@override_settings(ROOT_URLCONF="tests.benchmarks.load_urls")
def test_pages_at_federation_size():
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")
    started = time.perf_counter()
    report = build_federation()
    emit("pages_federation_data_build", time.perf_counter() - started, "s", None, True, matches=report.matches,
         deals=report.deals)  # fmt: skip
    league = Competition.objects.filter(name__startswith="Division").order_by("pk").first()
    national = Competition.objects.get(name=NATIONAL_NAME)
    measure("federation", pages_of(league, large=national), ROUNDS)
