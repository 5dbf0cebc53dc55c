"""Merging a player or team entered twice (services.merge): every reference moves to the one kept,
the duplicate goes, the audit log says so; refused when the result would not be valid. And names
unique in a club in any letter case (services.player_save, team_save)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import AuditEntry, Bye, Match, Player, Team, TeamStanding
from scoring.selectors import player_statistics
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    secretary = f.make_user("sekreterare")
    club = f.make_club("Hemmaklubben", secretary=secretary)
    return {"secretary": secretary, "club": club}


def refused(duplicate, kept) -> str:
    plan = services.merge_plan(duplicate, kept)
    assert not plan.allowed
    return " ".join(plan.refusals)


# -- players ------------------------------------------------------------------------------------


def test_a_player_entered_twice_is_merged_with_teams_matches_and_statistics(club):
    anna = f.make_player("Anna Berg", club=club["club"])
    twice = f.make_player("anna berg", club=club["club"], member_number="1234")
    partner, other_partner = f.make_player("Bo", club=club["club"]), f.make_player("Cia", club=club["club"])
    team = f.make_team("Essen", club=club["club"], players=(twice, partner))
    own = f.make_team("Kungarna", club=club["club"], players=(anna, other_partner))
    competition = f.make_competition(organiser=club["club"])
    played = f.make_result(competition, team, f.make_team(), round_number=1)
    substitute_in = f.make_match(competition=competition, home=f.make_team(), away=f.make_team(), round_number=2,
                                 home_substitute=twice)
    versions = {m.pk: m.version for m in (played, substitute_in)}
    plan = services.merge_plan(twice, anna)
    assert plan.allowed
    assert "laget Essen: Anna Berg spelar i det i stället för anna berg" in plan.moves
    assert any(move.startswith("1 spelad match") for move in plan.moves)
    assert any(move.startswith("reserv i ") for move in plan.moves)
    assert "medlemsnummer 1234" in plan.moves

    services.merge(user=club["secretary"], duplicate=twice, kept=anna)

    assert not Player.objects.filter(pk=twice.pk).exists()
    team.refresh_from_db()
    assert {team.player_one_id, team.player_two_id} == {anna.pk, partner.pk}
    assert Team.objects.get(pk=own.pk).player_one_id == anna.pk
    assert Match.objects.get(pk=substitute_in.pk).home_substitute_id == anna.pk
    anna.refresh_from_db()
    assert anna.member_number == "1234"
    assert player_statistics(anna).matches == 1
    # The matches that now name her are made anew wherever they are shown or cached.
    assert all(Match.objects.get(pk=pk).version == version + 1 for pk, version in versions.items())
    entry = AuditEntry.objects.get(action="player_merge")
    assert entry.before["name"] == "anna berg" and entry.before["into"] == "Anna Berg"


def test_a_players_account_sign_ups_and_rounds_sat_out_move(club):
    account = f.make_user("anna")
    anna = f.make_player("Anna Berg", club=club["club"])
    twice = f.make_player("Anna B.", club=club["club"], user=account)
    competition = f.make_competition(organiser=club["club"], kind="individual")
    competition.entrants.add(twice)
    round_ = f.make_round(competition, 1)
    round_.sitting_out.add(twice)

    services.merge(user=club["secretary"], duplicate=twice, kept=anna)

    anna.refresh_from_db()
    assert anna.user == account
    assert list(competition.entrants.all()) == [anna]
    assert list(round_.sitting_out.all()) == [anna]


def test_two_players_of_one_team_are_not_merged(club):
    one, two = f.make_player("Anna", club=club["club"]), f.make_player("anna", club=club["club"])
    f.make_team("Essen", club=club["club"], players=(one, two))

    assert "samma spelare två gånger" in refused(two, one)
    with pytest.raises(services.DomainError):
        services.merge(user=club["secretary"], duplicate=two, kept=one)
    assert Player.objects.filter(pk=two.pk).exists()


def test_players_who_met_each_other_or_share_a_round_are_not_merged(club):
    one, two = f.make_player("Anna", club=club["club"]), f.make_player("Anna B", club=club["club"])
    home = f.make_team("Essen", club=club["club"], players=(one, f.make_player(club=club["club"])))
    away = f.make_team("Kungarna", club=club["club"], players=(two, f.make_player(club=club["club"])))
    competition = f.make_competition(organiser=club["club"])
    f.make_match(competition=competition, home=home, away=away)

    assert "möta sig själv" in refused(two, one)

    elsewhere = f.make_player("Bo", club=club["club"])
    third = f.make_team("Damerna", club=club["club"], players=(elsewhere, f.make_player(club=club["club"])))
    f.make_match(competition=competition, home=third, away=f.make_team(), round_number=2, table=1)
    fourth = f.make_team("Knektarna", club=club["club"], players=(f.make_player("Bo B", club=club["club"]), f.make_player(club=club["club"])))
    f.make_match(competition=competition, home=fourth, away=f.make_team(), round_number=2, table=2)
    assert "två matcher i omgången" in refused(fourth.player_one, elsewhere)


def test_two_accounts_are_two_people_and_two_member_numbers_a_question(club):
    one = f.make_player("Anna", club=club["club"], user=f.make_user())
    two = f.make_player("anna", club=club["club"], user=f.make_user())
    assert "en person har ett konto" in refused(two, one)

    # One person entered twice gets two numbers (the same-name rule asks for them): the merge asks
    # which one the player kept keeps, and keeps it.
    three = f.make_player("Bo", club=club["club"], member_number="1")
    four = f.make_player("bo", club=club["club"], member_number="2")
    plan = services.merge_plan(four, three)
    assert not plan.allowed and plan.refusals == [] and plan.member_numbers == ("1", "2")
    with pytest.raises(services.DomainError, match="Välj vilket medlemsnummer Bo behåller: 1 eller 2"):
        services.merge(user=club["secretary"], duplicate=four, kept=three)
    with pytest.raises(services.DomainError, match="Välj vilket medlemsnummer"):
        services.merge(user=club["secretary"], duplicate=four, kept=three, member_number="3")
    plan = services.merge(user=club["secretary"], duplicate=four, kept=three, member_number="2")
    assert "medlemsnummer 2 (1 lämnas)" in plan.moves
    three.refresh_from_db()
    assert three.member_number == "2" and not Player.objects.filter(pk=four.pk).exists()


def test_a_player_of_another_club_is_not_merged_and_no_stranger_merges(club):
    one = f.make_player("Anna", club=club["club"])
    two = f.make_player("Anna", club=f.make_club())
    assert "samma klubb" in refused(two, one)

    three = f.make_player("anna", club=club["club"])
    with pytest.raises(PermissionDenied):
        services.merge(user=f.make_user(), duplicate=three, kept=one)


# -- teams --------------------------------------------------------------------------------------


def test_a_team_without_results_is_merged_into_the_other(club):
    competition = f.make_competition(organiser=club["club"])
    kept = f.make_team("Essen", club=club["club"])
    twice = f.make_team("Essen 2", club=club["club"], captain=f.make_user("kapten"))
    opponent, other = f.make_team("Kungarna"), f.make_team("Damerna")
    f.make_result(competition, kept, opponent, round_number=1)
    later = f.make_match(competition=competition, home=other, away=twice, round_number=2)
    round_three = f.make_round(competition, 3)
    Bye.objects.create(round=round_three, team=twice)
    competition.teams.add(twice)
    second = f.make_competition(organiser=club["club"], teams=[twice, kept])
    third = f.make_competition(organiser=club["club"], teams=[twice])
    plan = services.merge_plan(twice, kept)
    assert plan.allowed, plan.refusals
    assert any(move.startswith("matchen Damerna – Essen 2") for move in plan.moves)
    assert any(move.startswith("platsen i ") for move in plan.moves)
    assert "lagkaptenen, kapten" in plan.moves

    services.merge(user=club["secretary"], duplicate=twice, kept=kept)

    assert not Team.objects.filter(pk=twice.pk).exists()
    assert Match.objects.get(pk=later.pk).away_team_id == kept.pk
    assert Bye.objects.get(round=round_three).team_id == kept.pk
    assert kept in third.teams.all() and kept in second.teams.all()
    kept.refresh_from_db()
    assert kept.captain.username == "kapten"
    assert not TeamStanding.objects.filter(team_id=twice.pk).exists()
    assert TeamStanding.objects.filter(competition=competition, team=kept).exists()
    assert AuditEntry.objects.filter(action="team_merge", object_id=str(kept.pk)).exists()


def test_a_team_would_meet_itself_or_play_twice_in_a_round(club):
    competition = f.make_competition(organiser=club["club"])
    kept = f.make_team("Essen", club=club["club"])
    twice = f.make_team("Essen B", club=club["club"])
    f.make_match(competition=competition, home=kept, away=twice)
    assert "möta sig självt" in refused(twice, kept)

    other = f.make_team("Damerna", club=club["club"])
    competition.teams.add(other)
    f.make_match(competition=competition, home=other, away=f.make_team(), round_number=2)
    f.make_match(competition=competition, home=kept, away=f.make_team(), round_number=2, table=2)
    assert "en gång per omgång" in refused(other, kept)


def test_a_team_with_results_is_kept_and_teams_apart_are_not_merged(club):
    competition = f.make_competition(organiser=club["club"])
    kept = f.make_team("Essen", club=club["club"])
    twice = f.make_team("Essen B", club=club["club"])
    f.make_result(competition, twice, f.make_team(), round_number=1)
    competition.teams.add(kept)
    assert "slå i stället ihop Essen med Essen B" in refused(twice, kept)
    assert services.merge_plan(kept, twice).allowed

    lonely = f.make_team("Ensam", club=club["club"])
    assert "inte i någon tävling tillsammans" in refused(lonely, kept)


# -- names in any letter case ---------------------------------------------------------------------


def test_player_and_team_names_are_unique_in_a_club_in_any_case(club):
    anna = f.make_player("Anna Berg", club=club["club"])
    with pytest.raises(services.DomainError, match="har redan en spelare som heter anna berg"):
        services.player_save(user=club["secretary"], player=Player(club=club["club"], name="anna berg"))
    # Two members who share a name are told apart by their member numbers.
    anna.member_number = "1"
    services.player_save(user=club["secretary"], player=anna)
    services.player_save(user=club["secretary"], player=Player(club=club["club"], name="anna berg", member_number="2"))
    # Another club may have its own Anna Berg.
    other_secretary = f.make_user()
    other = f.make_club(secretary=other_secretary)
    services.player_save(user=other_secretary, player=Player(club=other, name="Anna Berg"))

    one, two = f.make_player(club=club["club"]), f.make_player(club=club["club"])
    f.make_team("Essen", club=club["club"])
    with pytest.raises(services.DomainError, match="har redan ett lag som heter ESSEN"):
        services.team_save(user=club["secretary"], team=Team(club=club["club"], name="ESSEN", player_one=one, player_two=two))
