"""Club consent: a club night (an individual competition) signs up another club's player only when
that club accepts, as a league enters another club's team (services.invitations). A club night's
rotating partnership plays only in its club night. The pages of it (nothing public while a sign-up
waits, the invitations page, the admin's refusal) are tests/views/test_club_consent_pages.py."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.forms.manage import CompetitionForm
from scoring.models import Competition, Invitation, SignupInvitation
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
