"""Download views: who may download what, content types, and the buttons on the pages."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.exports import PDF, XLSX
from tests import factories as f

pytestmark = pytest.mark.django_db


def public_urls(match):
    competition, number = match.competition_id, match.round.number
    return [
        (reverse("scoring:match-protocol-pdf", args=[match.pk]), PDF),
        (reverse("scoring:match-protocol-xlsx", args=[match.pk]), XLSX),
        (reverse("scoring:standings-pdf", args=[competition]), PDF),
        (reverse("scoring:standings-xlsx", args=[competition]) + "?round=1", XLSX),
        (reverse("scoring:round-results-pdf", args=[competition, number]), PDF),
        (reverse("scoring:round-results-xlsx", args=[competition, number]), XLSX),
        (reverse("scoring:competition-pdf", args=[competition]), PDF),
        (reverse("scoring:competition-xlsx", args=[competition]), XLSX),
    ]


def test_public_documents_of_a_public_competition_for_anyone(client, played):
    for url, content_type in public_urls(played["match"]):
        response = client.get(url)

        assert response.status_code == 200, url
        assert response["Content-Type"] == content_type
        disposition = response["Content-Disposition"]
        if content_type == PDF:
            assert disposition.startswith("inline;") and response.content.startswith(b"%PDF")
        else:
            assert disposition.startswith("attachment;") and ".xlsx" in disposition
            load_workbook(io.BytesIO(response.content))
        # Kept for seconds by anyone, and checked again with its validator (scoring.web.public_cache).
        assert response["Cache-Control"] == "public, max-age=5" and response["ETag"]


def test_private_competition_answers_404_to_the_public_and_serves_its_organiser(client, played):
    competition = played["competition"]
    competition.is_public = False
    competition.save()
    urls = public_urls(played["match"])

    for url, _type in urls:
        assert client.get(url).status_code == 404, url

    stranger = f.make_user()
    client.force_login(stranger)
    for url, _type in urls:
        assert client.get(url).status_code == 404, url

    client.force_login(played["secretary"])  # secretary of the organising club
    for url, content_type in urls:
        if content_type == XLSX or "standings" in url:  # (one PDF is enough: they are slow to make)
            assert client.get(url).status_code == 200, url


def test_home_clubs_secretary_gets_the_protocol_of_a_private_competitions_match(client, db):
    secretary = f.make_user()
    home = f.make_team(club=f.make_club(secretary=secretary))
    match = f.make_match(home=home, competition=f.make_competition(is_public=False))
    f.play_match(match, secretary)

    client.force_login(secretary)

    assert client.get(reverse("scoring:match-protocol-pdf", args=[match.pk])).status_code == 200
    assert client.get(reverse("scoring:standings-pdf", args=[match.competition_id])).status_code == 404


@pytest.mark.slow  # a whole round's protocols drawn three times (WeasyPrint): seconds
def test_blank_protocols_only_for_secretaries(client, full_round):
    round_ = full_round["round"]
    url = reverse("scoring:round-protocols-pdf", args=[round_.competition_id, round_.number])

    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]

    client.force_login(full_round["home_captain"])
    assert client.get(url).status_code == 403
    client.force_login(f.make_user())
    assert client.get(url).status_code == 403

    # The home club's secretary keeps a protocol of the round (can_enter_protocol).
    client.force_login(full_round["secretary"])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == PDF
    assert response.content.startswith(b"%PDF")

    # The organiser's secretary, who keeps no protocol of their own in it, manages the competition.
    organiser_secretary = f.make_user()
    full_round["competition"].organiser.secretaries.add(organiser_secretary)
    client.force_login(organiser_secretary)
    assert client.get(url).status_code == 200

    client.force_login(f.make_admin())
    assert client.get(url).status_code == 200


def test_unknown_objects_and_bad_rounds_are_404(client, played):
    competition = played["competition"]
    assert client.get(reverse("scoring:match-protocol-pdf", args=[999999])).status_code == 404
    assert client.get(reverse("scoring:round-results-pdf", args=[competition.pk, 9])).status_code == 404
    assert client.get(reverse("scoring:standings-xlsx", args=[competition.pk]) + "?round=x").status_code == 404
    assert client.get(reverse("scoring:standings-pdf", args=[999999])).status_code == 404


def test_downloads_refuse_post(client, played):
    response = client.post(reverse("scoring:standings-pdf", args=[played["competition"].pk]))
    assert response.status_code == 405


# -- the buttons on the pages -------------------------------------------------------------------


def test_match_page_offers_the_protocol_once_played(client, played):
    match = played["match"]
    page = client.get(reverse("scoring:match-detail", args=[match.pk])).content.decode()

    assert reverse("scoring:match-protocol-pdf", args=[match.pk]) in page
    assert reverse("scoring:match-protocol-xlsx", args=[match.pk]) in page

    unplayed = f.make_match(competition=match.competition, table=2)
    page = client.get(reverse("scoring:match-detail", args=[unplayed.pk])).content.decode()
    assert reverse("scoring:match-protocol-pdf", args=[unplayed.pk]) not in page


def test_round_page_offers_results_to_all_and_blank_protocols_to_secretaries(client, played):
    round_ = played["round"]
    args = [round_.competition_id, round_.number]
    url = reverse("scoring:round-detail", args=args)
    blank = reverse("scoring:round-protocols-pdf", args=args)

    page = client.get(url).content.decode()
    assert reverse("scoring:round-results-pdf", args=args) in page
    assert reverse("scoring:round-results-xlsx", args=args) in page
    assert blank not in page

    client.force_login(played["secretary"])
    assert blank in client.get(url).content.decode()


def test_standings_page_offers_the_standings_and_the_whole_competition(client, played):
    competition = played["competition"]
    url = reverse("scoring:competition-detail", args=[competition.pk])

    page = client.get(url).content.decode()
    for name in ("standings-pdf", "standings-xlsx", "competition-pdf", "competition-xlsx"):
        assert reverse(f"scoring:{name}", args=[competition.pk]) in page

    page = client.get(url + "?after=1").content.decode()
    assert reverse("scoring:standings-pdf", args=[competition.pk]) + "?round=1" in page
