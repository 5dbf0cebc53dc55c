"""Drawing the public pages of the demo season (`manage.py demo`: eight teams a competition), each
as a ratio to the minimal view in the same run (tests/benchmarks/pages.py says how and the targets).
"""

from __future__ import annotations

import pytest
from django.test import override_settings

from scoring.devdata.demo import build_demo
from scoring.models import Competition
from tests.benchmarks.pages import measure, pages_of

pytestmark = pytest.mark.django_db
ROUNDS = 9


@override_settings(ROOT_URLCONF="tests.benchmarks.load_urls")
def test_pages_of_the_demo_season():
    build_demo()
    league = (
        Competition.objects.filter(is_public=True, kind=Competition.Kind.LEAGUE, matches__deal_count__gt=0)
        .distinct().order_by("pk").first()
    )  # fmt: skip
    measure("demo", pages_of(league), ROUNDS)
