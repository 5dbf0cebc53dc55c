"""A club cannot publish results for another club's team: entering a team of another club into a
competition needs that club to accept an invitation, and until then nothing about it is public and
no match (so no walk over) can be made for it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Competition, Invitation
from tests import factories as f

pytestmark = pytest.mark.django_db

FORM = {"season": "2027", "kind": "league", "rules_key": "sv-tavling", "points_key": "sv-serie", "is_public": "on"}


@pytest.fixture
def clubs():
    organiser = f.make_user("arrangor")
    other = f.make_user("annan-sekreterare")
    third = f.make_user("tredje-sekreterare")
    home_club = f.make_club("Arrangörsklubben", secretary=organiser)
    other_club = f.make_club("Andra klubben", secretary=other)
    f.make_club("Tredje klubben", secretary=third)
    return {
        "organiser": organiser, "other": other, "third": third, "club": home_club,
        "own": [f.make_team("Egna ess", club=home_club), f.make_team("Egna kungar", club=home_club)],
        "foreign": f.make_team("Främlingarna", club=other_club),
    }  # fmt: skip


def create_competition(client, clubs) -> Competition:
    client.force_login(clubs["organiser"])
    teams = [team.pk for team in (*clubs["own"], clubs["foreign"])]
    response = client.post(
        reverse("scoring:manage-competition-create", args=[clubs["club"].pk]), {"name": "Vårserien", **FORM, "teams": teams}
    )
    assert response.status_code == 302
    client.logout()
    return Competition.objects.get(name="Vårserien")


def public_texts(client, competition) -> str:
    urls = [
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:competition-feed", args=[competition.pk]),
        reverse("scoring:competition-embed", args=[competition.pk]),
        reverse("scoring:standings-xlsx", args=[competition.pk]),
    ]
    texts = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        texts.append(response.content.decode("utf-8", "replace"))
    import io

    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(client.get(urls[-1]).content)).active
    texts.append(" ".join(str(cell) for row in sheet.iter_rows(values_only=True) for cell in row))
    return "\n".join(texts)


def test_another_clubs_team_is_invited_not_entered_and_nothing_about_it_is_public(client, clubs):
    competition = create_competition(client, clubs)
    assert set(competition.teams.all()) == set(clubs["own"])
    invitation = Invitation.objects.get(competition=competition)
    assert (invitation.team, invitation.status) == (clubs["foreign"], Invitation.Status.PENDING)
    text = public_texts(client, competition)
    assert "Egna ess" in text
    assert "Främlingarna" not in text


def test_no_match_and_so_no_walk_over_for_a_team_not_yet_accepted(client, clubs):
    competition = create_competition(client, clubs)
    f.make_round(competition)
    with pytest.raises(services.DomainError):
        services.match_create(
            user=clubs["organiser"], competition=competition, round=competition.rounds.get(),
            home_team=clubs["own"][0], away_team=clubs["foreign"], table=1,
        )  # fmt: skip


def test_the_teams_club_accepts_and_the_team_takes_part(client, clubs):
    competition = create_competition(client, clubs)
    client.force_login(clubs["other"])
    page = client.get(reverse("scoring:manage-invitations")).content.decode()
    assert "Främlingarna" in page and "Vårserien" in page
    home = client.get(reverse("scoring:manage-home")).content.decode()
    assert reverse("scoring:manage-invitations") in home
    invitation = Invitation.objects.get()
    response = client.post(reverse("scoring:manage-invitations"), {"invitation": invitation.pk, "answer": "accept"})
    assert response.status_code == 302
    assert clubs["foreign"] in competition.teams.all()
    client.logout()
    assert "Främlingarna" in public_texts(client, competition)


def test_the_teams_club_declines_and_only_it_may_answer(client, clubs):
    competition = create_competition(client, clubs)
    invitation = Invitation.objects.get()
    for outsider in (clubs["organiser"], clubs["third"]):
        client.force_login(outsider)
        response = client.post(reverse("scoring:manage-invitations"), {"invitation": invitation.pk, "answer": "accept"})
        assert response.status_code == 403
    client.force_login(clubs["other"])
    client.post(reverse("scoring:manage-invitations"), {"invitation": invitation.pk, "answer": "decline"})
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert clubs["foreign"] not in competition.teams.all()
    # Answered once: a second answer is refused, the first stands.
    response = client.post(reverse("scoring:manage-invitations"), {"invitation": invitation.pk, "answer": "accept"})
    assert response.status_code == 409
    assert clubs["foreign"] not in competition.teams.all()
