"""The team page reads a fixed number of queries: its results and fixtures, its seasons' figures
and its competitions are each read at once, so another season or another competition of the pair
adds rows, not queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db


def test_the_team_page_reads_as_many_queries_after_three_seasons_as_after_one(client):
    club = make_club()
    pair, other, third = (make_team(club=club) for _ in range(3))
    url = reverse("scoring:team-detail", args=[pair.pk])

    def season(name: str, competitions: int) -> None:
        for _ in range(competitions):
            competition = make_competition(organiser=club, teams=[pair, other, third], season=name, is_public=True)
            make_result(competition, pair, other, 5100, 3000, round_number=1)
            make_result(competition, third, pair, 4000, 4500, round_number=2)

    def page_queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        return len(queries), response.content.decode()

    season("2024/25", 1)
    after_one, body = page_queries()
    assert "2024/25" in body and "2025/26" not in body
    season("2025/26", 2)
    season("2026/27", 3)
    after_three, body = page_queries()
    assert all(name in body for name in ("2024/25", "2025/26", "2026/27"))
    assert after_three == after_one
