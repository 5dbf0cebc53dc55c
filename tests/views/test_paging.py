"""Paging: every paging parameter is bounded. A negative, zero, signed, huge or non-numeric
?per_page= or ?page= is never a server error and never a page of more than MAX_PER_PAGE rows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Competition
from scoring.listings import MAX_PER_PAGE, bounded_number
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_ranking():
    """A public competition with 260 players who have each played one rated match."""
    club = f.make_club("Storklubben")
    competition = f.make_competition(organiser=club, name="Storserien", kind=Competition.Kind.LEAGUE)
    for table in range(65):
        home, away = f.make_team(club=club), f.make_team(club=club)
        f.make_result(competition, home, away, 5100, 3000, round_number=1, table=table + 1)
    return competition


def rows_shown(client, query: str) -> tuple[int, int]:
    response = client.get(reverse("scoring:rankings") + query)
    table = response.context["table"] if response.status_code == 200 else None
    return response.status_code, len(table.page.object_list) if table is not None else 0


@pytest.mark.parametrize("query, expected_rows", [
    ("", 100),
    ("?per_page=-1", 100),
    ("?per_page=0", 1),
    ("?per_page=%2B5", 100),  # "+5": a sign is not a size
    ("?per_page=100000000", 100),  # more digits than any page size: not a size
    ("?per_page=1000", MAX_PER_PAGE),
    ("?per_page=" + "9" * 5000, 100),
    ("?per_page=abc", 100),
    ("?per_page=50", 50),
    ("?page=-1", 100),
    ("?page=0", 100),
    ("?page=999999999999", 100),  # more digits than any page number: the first page
    ("?page=999", 60),  # past the end: the last page (260 players, 100 a page)
    ("?page=3", 60),
    ("?page=" + "1" * 5000, 100),
    ("?per_page=100000000&page=2", 100),
    ("?per_page=1000&page=2", 60),
])
def test_every_paging_parameter_is_bounded(client, long_ranking, query, expected_rows):
    status, rows = rows_shown(client, query)
    assert status == 200
    assert rows == expected_rows


@pytest.mark.parametrize("raw, expected", [
    (None, 7), ("", 7), (" 12 ", 12), ("-3", 7), ("0", 1), ("٣", 7), ("1e3", 7), ("12345678", 7), ("999", 50),
])
def test_bounded_number(raw, expected):
    assert bounded_number(raw, default=7, low=1, high=50) == expected
