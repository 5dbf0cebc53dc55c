"""Club consent: a club night (an individual competition) signs up another club's player only when
that club accepts, as a league enters another club's team (services.invitations); until then
nothing about it is public. A club night's rotating partnership plays only in its club night."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.forms.manage import CompetitionForm
from scoring.models import Competition, Invitation, SignupInvitation, Team
from scoring.services import manage as manage_services
from scoring.services.errors import DomainError
from scoring.services.individual import individual_pair_round, individual_signup
from tests import factories as f

pytestmark = pytest.mark.django_db

I = Invitation.Status  # noqa: E741


@pytest.fixture
def nights():
    organiser_secretary = f.make_user("arrangor")
    other_secretary = f.make_user("grannsekreterare")
    club = f.make_club("Arrangörsklubben", secretary=organiser_secretary)
    other = f.make_club("Grannklubben", secretary=other_secretary)
    own = [f.make_player(name, club=club) for name in ("Alma", "Berit", "Carl", "Doris")]
    guest = f.make_player("Gästen", club=other)
    night = f.make_competition(name="Klubbkväll", organiser=club, kind=Competition.Kind.INDIVIDUAL,
                               requires_confirmation=False)
    return {"secretary": organiser_secretary, "other_secretary": other_secretary, "club": club, "other": other,
            "own": own, "guest": guest, "night": night}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_another_clubs_player_is_asked_for_not_signed_up(nights):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])

    assert set(night.entrants.all()) == set(nights["own"])
    invitation = SignupInvitation.objects.get(competition=night, player=guest)
    assert invitation.status == I.PENDING
    # Not signed up, so in no draw: the four own players make one table, nobody sits out.
    round_ = individual_pair_round(competition=night, user=nights["secretary"], seed=1)
    assert round_.matches.count() == 1 and not round_.sitting_out.exists()
    players_in_play = {p for m in round_.matches.all() for p in (m.home_team.player_one, m.home_team.player_two,
                                                                 m.away_team.player_one, m.away_team.player_two)}
    assert guest not in players_in_play


def test_nothing_about_a_waiting_sign_up_is_public(nights, client):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    for url in (reverse("scoring:player-detail", args=[guest.pk]),
                reverse("scoring:competition-detail", args=[night.pk]),
                reverse("scoring:competition-players", args=[night.pk])):
        response = client.get(url)
        assert response.status_code in (200, 404)
        html = response.content.decode()
        if url.endswith(f"/players/{guest.pk}/"):
            assert "Klubbkväll" not in html
        else:
            assert "Gästen" not in html


def test_the_players_club_accepts_on_its_invitations_page(nights):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    invitation = SignupInvitation.objects.get(competition=night, player=guest)

    # The organiser cannot answer for the other club.
    organiser = client_for(nights["secretary"])
    organiser.raise_request_exception = False
    refused = organiser.post(reverse("scoring:manage-invitations"),
                             {"kind": "player", "invitation": invitation.pk, "answer": "accept"})
    assert refused.status_code == 403
    assert guest not in night.entrants.all()

    other = client_for(nights["other_secretary"])
    page = other.get(reverse("scoring:manage-invitations")).content.decode()
    assert "Gästen" in page and "Klubbkväll" in page
    response = other.post(reverse("scoring:manage-invitations"),
                          {"kind": "player", "invitation": invitation.pk, "answer": "accept"})
    assert response.status_code == 302
    assert guest in night.entrants.all()
    again = other.post(reverse("scoring:manage-invitations"),
                       {"kind": "player", "invitation": invitation.pk, "answer": "decline"})
    assert again.status_code == 409  # answered already


def test_a_declined_player_stays_out_until_asked_again(nights):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    invitation = SignupInvitation.objects.get(competition=night, player=guest)
    services.signup_invitation_answer(user=nights["other_secretary"], invitation=invitation, accept=False)
    assert guest not in night.entrants.all()
    individual_signup(competition=night, players=[*nights["own"], guest], user=nights["secretary"])
    assert SignupInvitation.objects.get(pk=invitation.pk).status == I.PENDING
    assert guest not in night.entrants.all()
    # Left out, the waiting request is withdrawn.
    individual_signup(competition=night, players=nights["own"], user=nights["secretary"])
    assert not SignupInvitation.objects.filter(competition=night, player=guest).exists()


def test_saving_the_sign_up_page_again_keeps_a_waiting_request(nights):
    night, guest = nights["night"], nights["guest"]
    client = client_for(nights["secretary"])
    url = reverse("scoring:manage-individual", args=[night.pk])
    chosen = [p.pk for p in nights["own"]] + [guest.pk]
    assert client.post(url, {"action": "signup", "players": chosen}).status_code == 302
    page = client.get(url)
    assert guest.pk in page.context["signup"].fields["players"].initial
    assert "Gästen" in page.content.decode()  # listed as waiting for the club's answer
    assert SignupInvitation.objects.filter(competition=night, player=guest, status=I.PENDING).exists()


def test_a_site_admin_signs_up_anyone_directly(nights):
    night, guest = nights["night"], nights["guest"]
    individual_signup(competition=night, players=[*nights["own"], guest], user=f.make_admin())
    assert guest in night.entrants.all()


# -- a rotating partnership plays only in its club night --------------------------------------------


@pytest.fixture
def partnership(nights):
    individual_signup(competition=nights["night"], players=nights["own"], user=nights["secretary"])
    round_ = individual_pair_round(competition=nights["night"], user=nights["secretary"], seed=1)
    team = round_.matches.get().home_team
    assert team.rotating
    return team


def test_a_rotating_partnership_enters_no_league(nights, partnership):
    league = f.make_competition(name="Ligan", organiser=nights["club"])
    with pytest.raises(DomainError, match="klubbkväll"):
        manage_services.competition_save(user=nights["secretary"], competition=league, teams=[partnership])
    assert partnership not in league.teams.all()
    # Nor is it offered on the competition form.
    assert partnership not in CompetitionForm(instance=league).fields["teams"].queryset


def test_another_club_cannot_invite_a_rotating_partnership(nights, partnership):
    other_league = f.make_competition(name="Grannligan", organiser=nights["other"])
    with pytest.raises(DomainError):
        manage_services.competition_save(user=nights["other_secretary"], competition=other_league, teams=[partnership])
    assert not Invitation.objects.filter(team=partnership).exists()


def test_the_admin_refuses_a_rotating_partnership_in_a_league(nights, partnership):
    league = f.make_competition(name="Ligan", organiser=nights["club"])
    client = client_for(f.make_admin())
    response = client.post(reverse("admin:scoring_competition_change", args=[league.pk]), {
        "name": league.name, "season": league.season, "kind": league.kind, "organiser": league.organiser_id,
        "rules_key": league.rules_key, "points_key": league.points_key, "teams": [partnership.pk],
        "club_table_order": league.club_table_order, "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
    })
    assert response.status_code == 200  # the form again, with the reason
    assert "klubbkväll" in response.content.decode()
    assert not Team.objects.filter(pk=partnership.pk, competitions=league).exists()
