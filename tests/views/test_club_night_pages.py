"""An individual club night's pages: the players' table, the organiser's page that signs players up
and draws a round, and how round one was drawn, said in plain words. The services behind them are
tests/services/test_individual.py, whose club night (`night`) these pages show."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services.individual import individual_pair_round, individual_signup
from tests.factories import make_user
from tests.services.test_individual import night, play_round  # noqa: F401 (night is a fixture)

pytestmark = pytest.mark.django_db


def test_individual_table_page(client, night):
    user, competition = night["secretary"], night["competition"]
    individual_signup(competition=competition, players=night["players"][:8], user=user)
    play_round(individual_pair_round(competition=competition, user=user, seed=1), user)
    html = client.get(reverse("scoring:competition-players", args=[competition.pk])).content.decode()
    assert html.count('data-player-id="') == 8
    assert "Buchholz" in html
    detail = client.get(reverse("scoring:competition-detail", args=[competition.pk])).content.decode()
    assert reverse("scoring:competition-players", args=[competition.pk]) in detail


def test_the_organiser_signs_players_up_and_draws_a_round(client, night):
    competition = night["competition"]
    url = reverse("scoring:manage-individual", args=[competition.pk])
    client.force_login(make_user("annan"))
    assert client.get(url).status_code == 403
    client.force_login(night["secretary"])
    assert client.get(url).status_code == 200
    chosen = [str(p.pk) for p in night["players"][:8]]
    response = client.post(url, {"action": "signup", "players": chosen})
    assert response.status_code == 302 and competition.entrants.count() == 8
    response = client.post(url, {"action": "pair", "date": "2026-12-03", "start_time": "18:30", "seed": "77"})
    assert response.status_code == 302
    round_ = competition.rounds.get()
    assert round_.pairing_seed == 77 and round_.matches.count() == 2
    # The next round waits for results: a plain refusal, what was typed kept.
    response = client.post(url, {"action": "pair", "date": "2026-12-03"})
    assert response.status_code == 409
    assert "Omgång 1 är inte klar" in response.content.decode()
    # Each table is an ordinary match whose protocol the club's secretary enters.
    match = round_.matches.first()
    assert client.get(reverse("scoring:match-protocol", args=[match.pk])).status_code == 200


def test_the_players_page_says_in_plain_words_how_round_one_was_drawn(client, night):
    user, competition = night["secretary"], night["competition"]
    individual_signup(competition=competition, players=night["players"], user=user)
    individual_pair_round(competition=competition, user=user, seed=2026)
    html = client.get(reverse("scoring:competition-players", args=[competition.pk])).content.decode()
    assert "Omgång 1 lottades med lottningsnummer 2026: lottas det om med samma nummer blir paren desamma." in html
    assert "frö" not in html

