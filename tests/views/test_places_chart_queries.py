"""The competition page's places chart reads the places the services keep (RoundPlace): its
queries do not grow with the number of rounds played."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.selectors.history import places_by_round
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db


def test_the_competition_page_reads_as_many_queries_after_two_rounds_as_after_seven(client):
    club = make_club()
    teams = [make_team(club=club) for _ in range(8)]
    competition = make_competition(organiser=club, teams=teams, is_public=True)
    url = reverse("scoring:competition-detail", args=[competition.pk])

    def play_round(number):
        # A round robin's rounds (the circle method): every team meets another once a round.
        order = teams[:1] + teams[1:][-(number - 1):] + teams[1:][: -(number - 1) or None]
        for table, (home, away) in enumerate(zip(order[:4], reversed(order[4:])), start=1):
            make_result(competition, home, away, 5100 - 300 * table, 3000, round_number=number, table=table)

    def page_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200 and 'class="data-table places-table"' in response.content.decode()
        return len(queries)

    for number in (1, 2):
        play_round(number)
    after_two = page_queries()
    for number in range(3, 8):
        play_round(number)
    assert places_by_round(competition).rounds == list(range(1, 8))
    assert page_queries() == after_two
