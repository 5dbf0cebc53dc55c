"""The schedule tools pages: who may use them, and what they do."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import services
from scoring.models import Competition, Match
from tests.factories import make_club, make_competition, make_team, make_user, winning_deal

pytestmark = pytest.mark.django_db

TOOLS = ("manage-schedule-generate", "manage-schedule-pair", "manage-fixtures-import")


@pytest.fixture
def setup():
    secretary = make_user("sekreterare-test")
    club = make_club("Örebro Canastasällskap", secretary=secretary)
    teams = [make_team(name, club=club) for name in ("Älgarna", "Björnarna", "Ugglorna", "Örnarna")]
    competition = make_competition(organiser=club, teams=teams, name="Höstserien")
    return {"secretary": secretary, "club": club, "teams": teams, "competition": competition}


@pytest.mark.parametrize("name", TOOLS)
def test_anonymous_users_are_sent_to_login(client, setup, name):
    response = client.get(reverse(f"scoring:{name}", args=[setup["competition"].pk]))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("name", TOOLS)
def test_other_users_are_refused(client, setup, name):
    client.force_login(make_user())
    assert client.get(reverse(f"scoring:{name}", args=[setup["competition"].pk])).status_code == 403
    assert client.post(reverse(f"scoring:{name}", args=[setup["competition"].pk])).status_code == 403
    other_secretary = make_user()
    make_club("Annan klubb", secretary=other_secretary)
    client.force_login(other_secretary)
    assert client.get(reverse(f"scoring:{name}", args=[setup["competition"].pk])).status_code == 403


@pytest.mark.parametrize("name", TOOLS)
def test_the_organisers_secretary_sees_the_form(client, setup, name):
    client.force_login(setup["secretary"])
    response = client.get(reverse(f"scoring:{name}", args=[setup["competition"].pk]))
    assert response.status_code == 200
    assert b'name="csrfmiddlewaretoken"' in response.content


def test_generate_a_league_schedule(client, setup):
    client.force_login(setup["secretary"])
    competition = setup["competition"]
    url = reverse("scoring:manage-schedule-generate", args=[competition.pk])
    response = client.post(url, {"series": "double", "start_date": "2026-09-14", "interval_days": "7",
                                 "start_time": "18:30", "draw": "on"})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:manage-competition", args=[competition.pk])
    assert competition.rounds.count() == 6 and competition.matches.count() == 12
    # Invalid input is kept and explained.
    response = client.post(url, {"series": "single", "start_date": "14 sept", "interval_days": "0"})
    assert response.status_code == 200
    content = response.content.decode()
    assert "error-summary" in content and 'value="14 sept"' in content
    # Once a match has a deal the schedule is fixed: 409 and a clear message.
    match = competition.matches.first()
    services.deals_record(match=match, user=setup["secretary"], entry=winning_deal(1), expected_version=match.version)
    response = client.post(url, {"series": "single", "start_date": "2026-09-14", "interval_days": "7"})
    assert response.status_code == 409
    assert "har redan spelats" in response.content.decode()
    assert competition.matches.count() == 12


def test_pair_tournament_rounds(client, setup):
    client.force_login(setup["secretary"])
    competition = setup["competition"]
    competition.kind = Competition.Kind.TOURNAMENT
    competition.requires_confirmation = False
    competition.save()
    url = reverse("scoring:manage-schedule-pair", args=[competition.pk])
    assert client.post(url, {"date": "2026-10-03"}).status_code == 302
    assert competition.rounds.get().matches.count() == 2
    response = client.post(url, {"date": "2026-10-03"})
    assert response.status_code == 409
    assert "inte klar" in response.content.decode()


def test_import_fixture_list(client, setup):
    client.force_login(setup["secretary"])
    competition = setup["competition"]
    url = reverse("scoring:manage-fixtures-import", args=[competition.pk])
    bad = SimpleUploadedFile("program.csv", "round,home,away\n1,Älgarna,Okänt lag\n".encode(), "text/csv")
    response = client.post(url, {"file": bad})
    assert response.status_code == 200
    content = response.content.decode()
    assert "Rad 2, kolumn ”away”" in content and "Okänt lag" in content
    assert not competition.matches.exists()
    good = SimpleUploadedFile(
        "program.csv", "omgång;datum;hemma;borta\n1;2026-09-14;Älgarna;Örnarna\n1;2026-09-14;Björnarna;Ugglorna\n".encode(),
        "text/csv",
    )
    assert client.post(url, {"file": good}).status_code == 302
    assert list(competition.matches.values_list("table", "home_team__name")) == [(1, "Älgarna"), (2, "Björnarna")]


def test_manage_page_offers_the_tools(client, setup):
    client.force_login(setup["secretary"])
    competition = setup["competition"]
    page = client.get(reverse("scoring:manage-competition", args=[competition.pk])).content.decode()
    assert reverse("scoring:manage-schedule-generate", args=[competition.pk]) in page
    assert reverse("scoring:manage-fixtures-import", args=[competition.pk]) in page
    competition.kind = Competition.Kind.TOURNAMENT
    competition.save()
    page = client.get(reverse("scoring:manage-competition", args=[competition.pk])).content.decode()
    assert reverse("scoring:manage-schedule-pair", args=[competition.pk]) in page
    assert Match.objects.count() == 0


def test_the_size_of_a_schedule_is_said_with_each_number_s_own_plural():
    from django.utils import translation

    from scoring.views.schedules import rounds_and_matches

    with translation.override("sv"):
        assert rounds_and_matches(1, 1) == "1 omgång med 1 match"
        assert rounds_and_matches(1, 3) == "1 omgång med 3 matcher"
        assert rounds_and_matches(5, 10) == "5 omgångar med 10 matcher"
    with translation.override("en"):
        assert rounds_and_matches(1, 3) == "1 round with 3 matches"
