"""What a user manages is one rule (permissions.can_manage_club, as a query: permissions.managed_by):
the management pages' clubs, competitions and invitations and the public lists' competitions that
are not public agree with it, for a secretary, another user, a site admin and a visitor."""

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring import permissions
from scoring.models import Invitation, SignupInvitation
from scoring.selectors import manage, public
from tests.factories import make_admin, make_club, make_competition, make_player, make_team, make_user

pytestmark = pytest.mark.django_db


def test_the_clubs_competitions_and_invitations_a_user_manages_are_one_rule():
    secretary = make_user("sekreterare")
    own, other = make_club("Egna", secretary=secretary), make_club("Andra")
    own_hidden = make_competition(organiser=own, is_public=False, name="Egen dold")
    other_hidden = make_competition(organiser=other, is_public=False, name="Annan dold")
    shown = make_competition(organiser=other, is_public=True, name="Öppen")
    invited = Invitation.objects.create(competition=other_hidden, team=make_team(club=own))
    Invitation.objects.create(competition=own_hidden, team=make_team(club=other))
    asked = SignupInvitation.objects.create(competition=other_hidden, player=make_player(club=own))
    SignupInvitation.objects.create(competition=own_hidden, player=make_player(club=other))

    cases = {
        "secretary": (secretary, {own}, {own_hidden}, {invited}, {asked}),
        "another user": (make_user(), set(), set(), set(), set()),
        "admin": (make_admin(), {own, other}, {own_hidden, other_hidden, shown},
                  set(Invitation.objects.all()), set(SignupInvitation.objects.all())),
        "visitor": (AnonymousUser(), set(), set(), set(), set()),
    }
    for who, (user, clubs, competitions, invitations, signups) in cases.items():
        assert set(manage.managed_clubs(user)) == clubs, who
        assert set(manage.managed_competitions_with_counts(user)) == competitions, who
        assert set(public.visible_competitions(user)) == competitions | {shown}, who
        assert {c for c in public.visible_competitions(user) if permissions.can_manage_competition(user, c)} == competitions, who
        if user.is_authenticated:
            assert set(manage.club_invitations(user)) == invitations, who
            assert set(manage.club_signup_invitations(user)) == signups, who
