"""HTTP keeps the public pages (scoring.web.public_cache): an anonymous answer carries nothing per
visitor, sends a validator and `public, max-age`, a conditional GET with that validator is a 304,
and a deal saved makes the next GET a 200 with the new total."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Competition, Match
from scoring.services.individual import individual_pair_round, individual_signup
from tests.factories import make_club, make_competition, make_player, make_user, winning_deal

pytestmark = pytest.mark.django_db


def public_pages(league) -> dict[str, str]:
    competition, live = league["competition"], league["live"]
    team = league["teams"]["dam"]
    return {
        "start": reverse("scoring:home"),
        "competitions": reverse("scoring:competition-list"),
        "competition": reverse("scoring:competition-detail", args=[competition.pk]),
        "competition live": reverse("scoring:competition-live", args=[competition.pk]),
        "round": reverse("scoring:round-detail", args=[competition.pk, 1]),
        "round live": reverse("scoring:round-live", args=[competition.pk, 1]),
        "match": reverse("scoring:match-detail", args=[live.pk]),
        "match live": reverse("scoring:match-live", args=[live.pk]),
        "team": reverse("scoring:team-detail", args=[team.pk]),
        "player": reverse("scoring:player-detail", args=[team.player_one_id]),
        "club": reverse("scoring:club-detail", args=[league["organiser"].pk]),
        "rankings": reverse("scoring:rankings"),
        "club table": reverse("scoring:competition-clubs", args=[competition.pk]),
        "feed": reverse("scoring:competition-feed", args=[competition.pk]),
        "calendar": reverse("scoring:team-calendar", args=[team.pk]),
        "embed": reverse("scoring:competition-embed", args=[competition.pk]),
        "in English": "/en" + reverse("scoring:match-detail", args=[live.pk]),
    }


# The pages that show the live match's running total.
SHOWING_THE_LIVE_MATCH = {
    "competition", "competition live", "round", "round live", "match", "match live", "feed", "embed", "calendar",
    "in English",
}  # fmt: skip


def shows_total(body: str, total: int) -> bool:
    return str(total) in body or f"{total:,}".replace(",", "\u202f") in body


def test_every_public_page_type_is_kept_the_webs_way(client, league):
    Competition.objects.filter(pk=league["competition"].pk).update(has_club_standings=True)
    pages = public_pages(league)
    answers = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        body = response.content.decode()
        assert not response.cookies, name
        assert "csrfmiddlewaretoken" not in body and "X-CSRFToken" not in body, name
        assert response["ETag"].startswith('"'), name
        assert response["Cache-Control"] == "public, max-age=5", name
        assert "cookie" not in response.get("Vary", "").lower(), name
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304, name
        answers[name] = response["ETag"]

    live = league["live"]
    live = services.deals_record(match=live, user=league["secretary"], entry=winning_deal(2, "home"),
                                 expected_version=live.version)
    total = Match.objects.get(pk=live.pk).home_total
    for name, url in pages.items():
        response = client.get(url, HTTP_IF_NONE_MATCH=answers[name])
        assert response.status_code == 200, name
        assert response["ETag"] != answers[name], name
        if name in SHOWING_THE_LIVE_MATCH:
            assert shows_total(response.content.decode(), total), name


def test_the_validator_holds_the_language_and_who_looks(client, league):
    url = reverse("scoring:match-detail", args=[league["live"].pk])
    swedish = client.get(url)["ETag"]
    english = client.get("/en" + url)["ETag"]
    assert swedish != english
    # An English validator is no good for the Swedish page.
    assert client.get(url, HTTP_IF_NONE_MATCH=english).status_code == 200

    client.force_login(league["secretary"])
    signed_in = client.get(url)
    assert signed_in["ETag"] != swedish
    assert signed_in["Cache-Control"] == "private, no-store"
    # A signed-in person's pages keep their token (htmx's posts).
    assert "X-CSRFToken" in signed_in.content.decode()


def test_a_page_that_is_not_there_sends_no_validator(client, league):
    response = client.get(reverse("scoring:competition-detail", args=[league["hidden"].pk]))
    assert response.status_code == 404
    assert "ETag" not in response


def pages_of_a_private_competition(league) -> dict[str, str]:
    hidden, match = league["hidden"], league["hidden_match"]
    return {
        "competition": reverse("scoring:competition-detail", args=[hidden.pk]),
        "competition live": reverse("scoring:competition-live", args=[hidden.pk]),
        "rounds": reverse("scoring:competition-rounds", args=[hidden.pk]),
        "round": reverse("scoring:round-detail", args=[hidden.pk, 1]),
        "round live": reverse("scoring:round-live", args=[hidden.pk, 1]),
        "embed": reverse("scoring:competition-embed", args=[hidden.pk]),
        "feed": reverse("scoring:competition-feed", args=[hidden.pk]),
        "standings pdf": reverse("scoring:standings-pdf", args=[hidden.pk]),
        "match": reverse("scoring:match-detail", args=[match.pk]),
        "match live": reverse("scoring:match-live", args=[match.pk]),
        "match pdf": reverse("scoring:match-protocol-pdf", args=[match.pk]),
        "missing competition": reverse("scoring:competition-detail", args=[999_999]),
        "missing match": reverse("scoring:match-detail", args=[999_999]),
    }


def test_a_private_competition_is_checked_before_any_validator(client, league):
    """Who may see a page is asked before a validator is: `If-None-Match: *` (any validator) or
    one a visitor learnt elsewhere gets a private competition's pages, or pages that are not
    there, no 304, but the 404 they get without it."""
    pages = pages_of_a_private_competition(league)
    # Validators a visitor kept while the competition was public (made private without a service,
    # so no version moved).
    Competition.objects.filter(pk=league["hidden"].pk).update(is_public=True)
    held = {name: client.get(url).get("ETag") for name, url in pages.items()}
    Competition.objects.filter(pk=league["hidden"].pk).update(is_public=False)
    for name, url in pages.items():
        without = client.get(url).status_code
        assert without == 404, name
        assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == without, name
        if held[name]:
            assert client.get(url, HTTP_IF_NONE_MATCH=held[name]).status_code == without, name


def test_the_organiser_still_gets_a_304_for_a_private_competitions_page(league):
    organiser = Client()
    organiser.force_login(league["secretary"])
    url = reverse("scoring:match-live", args=[league["hidden_match"].pk])
    page = organiser.get(url)

    assert page.status_code == 200
    assert organiser.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    assert organiser.get(url, HTTP_IF_NONE_MATCH="*").status_code == 304


def test_any_validator_is_answered_for_a_public_page_that_is_there(client, league):
    url = reverse("scoring:competition-detail", args=[league["competition"].pk])
    assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == 304
    assert client.get(reverse("scoring:round-detail", args=[league["competition"].pk, 9]), HTTP_IF_NONE_MATCH="*").status_code == 404



def test_the_players_table_of_a_club_night_is_kept_the_same_way(client):
    secretary = make_user("klubbsekreterare")
    club = make_club("Canastaklubben Ruter", secretary=secretary)
    night = make_competition(name="Klubbkväll", organiser=club, kind=Competition.Kind.INDIVIDUAL)
    individual_signup(competition=night, players=[make_player(n, club=club) for n in "ABCD"], user=secretary)
    match = individual_pair_round(competition=night, user=secretary).matches.get()
    url = reverse("scoring:competition-players", args=[night.pk])
    first = client.get(url)
    assert first.status_code == 200 and not first.cookies
    assert first["Cache-Control"] == "public, max-age=5"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    services.deals_record(match=match, user=secretary, entry=winning_deal(1, "home"), expected_version=match.version)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
