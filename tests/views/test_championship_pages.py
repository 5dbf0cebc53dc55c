"""A championship's pages through the test client: the public road to the final, its documents, a
pair's road on its page, and the organiser's confirmation of a qualified list (the world of
tests/services/test_championships.py, which tests the services beside these pages)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.models import AuditEntry, Match, StageQualifier, StageWithdrawal
from scoring.services import seasons, standings_refresh
from tests.factories import result_fields
from tests.services.test_championships import CLUB_RESULTS, PLAYED, world  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def record_heat(competition, results: dict) -> None:
    """Each scheduled match of a heat given the result `results` names (as test_championships.py
    plays them: 5 655 to −120, or a walk over), stored as the services store a confirmed result."""
    for match in Match.objects.filter(competition=competition).select_related("home_team", "away_team"):
        winner_name, how = results[frozenset((match.home_team.name, match.away_team.name))]
        side = "home" if match.home_team.name == winner_name else "away"
        totals = (5655, -120) if side == "home" else (-120, 5655)
        fields = result_fields(competition, *totals, forfeit_winner=None if how == PLAYED else side)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED,
                                                 points_snapshot=competition.points_rules.to_dict(), **fields)
    standings_refresh(competition=competition)


@pytest.fixture
def played(world):  # noqa: F811
    for letter in "ABC":
        record_heat(world["heats"][letter], CLUB_RESULTS)
    return world


def test_the_road_to_the_final_is_public_and_says_why_each_pair_goes_on(client, played):
    championship = played["championship"]
    response = client.get(reverse("scoring:championship-detail", args=[championship.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Vägen till finalen" in page and "Klubbkval" in page and "Distriktsfinal" in page
    assert "Bästa tvåa, 2 av 3 (plats 2 i Kval B)" in page
    assert "Alla kvalgrupper rankade tillsammans" in page  # the heats ranked together
    assert reverse("scoring:competition-detail", args=[played["heats"]["A"].pk]) in page
    assert "förslag" in page  # proposed, not yet confirmed
    # A heat's own page leads to the road it is part of.
    heat_page = client.get(reverse("scoring:competition-detail", args=[played["heats"]["A"].pk])).content.decode()
    assert "En kvalgrupp i Klubbkval i SM i par 2026/27." in heat_page
    assert reverse("scoring:championship-detail", args=[championship.pk]) + "#stage-1" in heat_page
    english = client.get("/en" + reverse("scoring:championship-detail", args=[championship.pk])).content.decode()
    assert "The road to the final" in english and "Best runner-up, 2 of 3 (place 2 in Kval B)" in english
    listing = client.get(reverse("scoring:championship-list")).content.decode()
    assert "SM i par" in listing


def test_each_stage_s_qualified_list_is_a_pdf_and_a_workbook(client, played):
    stage = played["stages"][0]
    pdf = client.get(reverse("scoring:stage-qualified-pdf", args=[stage.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    workbook = client.get(reverse("scoring:stage-qualified-xlsx", args=[stage.pk]))
    assert workbook.status_code == 200
    sheet = load_workbook(io.BytesIO(workbook.content)).worksheets[0]
    names = [row[1] for row in sheet.iter_rows(values_only=True)]
    assert names[names.index("Par") + 1:][:6] == ["A1", "B1", "C1", "A2", "B2", "B3"]


def test_the_organiser_replaces_a_pair_and_confirms_the_list_and_a_get_writes_nothing(client, played):
    stage, teams = played["stages"][0], played["teams"]
    client.force_login(played["secretary"])
    url = reverse("scoring:manage-stage-qualified", args=[stage.pk])
    audit = AuditEntry.objects.count()
    page = client.get(url)
    assert page.status_code == 200 and AuditEntry.objects.count() == audit
    response = client.post(reverse("scoring:manage-stage-withdrawal", args=[stage.pk]),
                           {"team": teams["B2"].pk, "reason": "Flyttar"})
    assert response.status_code == 302
    assert StageWithdrawal.objects.get(stage=stage).reason == "Flyttar"
    page = client.get(url).content.decode()
    assert "Närmast på tur i stället för B2, som drog sig ur" in page
    # A list seen before the withdrawal is refused with a message; the one shown now goes through.
    stale = client.post(url, {"expected": ",".join(str(teams[n].pk) for n in ("A1", "B1", "C1", "A2", "B2", "B3"))})
    assert stale.status_code == 409 and "ändrades efter att du öppnade den" in stale.content.decode()
    expected = ",".join(str(teams[n].pk) for n in ("A1", "B1", "C1", "A2", "B3", "C2"))
    assert f'value="{expected}"' in page
    assert client.post(url, {"expected": expected}).status_code == 302
    assert StageQualifier.objects.filter(stage=stage).count() == 6
    # The pair's page shows its road.
    team_page = client.get(reverse("scoring:team-detail", args=[teams["C2"].pk])).content.decode()
    assert "Vägen till finalen" in team_page and "Gick vidare till" in team_page


def test_a_closed_season_s_championship_offers_nothing_and_refuses_a_post(client, played):
    stage = played["stages"][0]
    seasons.season_close(name="2026/27", user=played["admin"])
    client.force_login(played["secretary"])
    url = reverse("scoring:manage-stage-qualified", args=[stage.pk])
    page = client.get(url).content.decode()
    assert "är ett arkiv" in page and "Fastställ listan" not in page
    response = client.post(url, {"expected": ""})
    assert response.status_code == 409 and "är ett arkiv" in response.content.decode()
    response = client.post(reverse("scoring:manage-stage-withdrawal", args=[stage.pk]), {"team": played["teams"]["A2"].pk, "reason": "x"})
    assert response.status_code == 409
    assert not StageQualifier.objects.exists() and not StageWithdrawal.objects.exists()
    public = client.get(reverse("scoring:championship-detail", args=[played["championship"].pk])).content.decode()
    assert "arkiv" in public
