"""The season's chores through the services: a match moved by agreement (proposed by the home side,
answered by the away side, approved by the organiser where the competition asks for it), reminders
about overdue protocols (sent once, by the command), check-in before the draw, and the
competitions' enrolment rules."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.utils import timezone, translation

from scoring import services
from scoring.models import AuditEntry, CheckIn, Competition, Match, MatchMove, Reminder, Team
from scoring.services import individual, seasons
from tests.factories import (
    make_admin,
    make_club,
    make_competition,
    make_match,
    make_player,
    make_team,
    make_user,
    play_match,
)

pytestmark = pytest.mark.django_db


# -- a match moved by agreement --------------------------------------------------------------------


@pytest.fixture
def fixture_world():
    home_secretary, away_secretary, organiser_secretary = (
        make_user("hemma", email="hemma@example.org"), make_user("borta", email="borta@example.org"),
        make_user("arrangor", email="arrangor@example.org"))  # fmt: skip
    away_captain = make_user("bortakapten", email="kapten@example.org")
    home_club = make_club("Hemmaklubben", secretary=home_secretary)
    away_club = make_club("Bortaklubben", secretary=away_secretary)
    organiser = make_club("Förbundet", secretary=organiser_secretary)
    home = make_team("Essen", club=home_club)
    away = make_team("Kungarna", club=away_club, captain=away_captain)
    competition = make_competition(organiser=organiser, name="Serien", teams=[home, away])
    start = timezone.now().replace(microsecond=0) + timedelta(days=3)
    match = make_match(competition=competition, home=home, away=away, scheduled_start=start)
    return {"home_secretary": home_secretary, "away_secretary": away_secretary, "organiser": organiser_secretary,
            "away_captain": away_captain, "admin": make_admin(), "competition": competition, "match": match,
            "start": start, "new_start": start + timedelta(days=10, hours=1)}  # fmt: skip


def _propose(w, **extra):
    return services.match_move_propose(match=w["match"], user=w["home_secretary"], new_start=w["new_start"],
                                       hall=extra.pop("hall", "Folkets hus"), reason="Hallen är upptagen", **extra)  # fmt: skip


def _actions(match):
    return list(AuditEntry.objects.filter(match=match).order_by("at", "id").values_list("action", flat=True))


def test_a_match_moves_once_the_away_captain_accepts(fixture_world, django_capture_on_commit_callbacks):
    w = fixture_world
    with django_capture_on_commit_callbacks(execute=True):
        move = _propose(w)
    match = Match.objects.get(pk=w["match"].pk)
    assert match.scheduled_start == w["start"], "a proposal moves nothing yet"
    assert move.status == MatchMove.Status.WAITING_AWAY
    assert [m.to for m in mail.outbox] == [["kapten@example.org"]]
    assert "Kungarna" in mail.outbox[0].subject and "/matches/%d/move/" % match.pk in mail.outbox[0].body

    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_answer(move=move, user=w["away_captain"], accept=True)

    match.refresh_from_db()
    move.refresh_from_db()
    assert (match.scheduled_start, match.hall, move.status) == (w["new_start"], "Folkets hus", MatchMove.Status.MOVED)
    assert move.answered_by == w["away_captain"] and move.old_start == w["start"]
    assert _actions(match)[-3:] == ["match_move_propose", "match_move_accept", "match_move"]
    assert "Folkets hus" in mail.outbox[-1].body


def test_declined_the_match_stays(fixture_world):
    w = fixture_world
    move = services.match_move_answer(move=_propose(w), user=w["away_captain"], accept=False, note="Vi kan inte då")
    assert move.status == MatchMove.Status.DECLINED and move.note == "Vi kan inte då"
    assert Match.objects.get(pk=w["match"].pk).scheduled_start == w["start"]
    assert _actions(w["match"])[-2:] == ["match_move_propose", "match_move_decline"]


def test_where_the_competition_asks_the_organiser_approves(fixture_world):
    w = fixture_world
    Competition.objects.filter(pk=w["competition"].pk).update(moves_need_approval=True)
    move = services.match_move_answer(move=_propose(w), user=w["away_captain"], accept=True)
    assert move.status == MatchMove.Status.WAITING_ORGANISER
    assert Match.objects.get(pk=w["match"].pk).scheduled_start == w["start"]
    for nobody in (w["away_captain"], w["home_secretary"], w["away_secretary"]):
        with pytest.raises(PermissionDenied):
            services.match_move_approve(move=move, user=nobody, approve=True)
    services.match_move_approve(move=move, user=w["organiser"], approve=True)
    assert Match.objects.get(pk=w["match"].pk).scheduled_start == w["new_start"]
    assert _actions(w["match"])[-4:] == ["match_move_propose", "match_move_accept", "match_move_approve", "match_move"]


def test_the_organiser_may_refuse(fixture_world):
    w = fixture_world
    Competition.objects.filter(pk=w["competition"].pk).update(moves_need_approval=True)
    move = services.match_move_answer(move=_propose(w), user=w["away_captain"], accept=True)
    move = services.match_move_approve(move=move, user=w["organiser"], approve=False, note="Sista omgången")
    assert move.status == MatchMove.Status.REFUSED
    assert Match.objects.get(pk=w["match"].pk).scheduled_start == w["start"]


def test_each_party_acts_for_itself(fixture_world):
    w = fixture_world
    # Only the home side proposes: not the away captain, the away club, or the organiser's secretary.
    for nobody in (w["away_captain"], w["away_secretary"], w["organiser"]):
        with pytest.raises(PermissionDenied):
            services.match_move_propose(match=w["match"], user=nobody, new_start=w["new_start"])
    move = _propose(w)
    # Only the away side answers: the away team has a captain, so its club's secretary does not.
    for nobody in (w["home_secretary"], w["away_secretary"], w["organiser"]):
        with pytest.raises(PermissionDenied):
            services.match_move_answer(move=move, user=nobody, accept=True)
    # The competition asks no approval: there is nothing for the organiser to approve.
    with pytest.raises(services.MatchStateError):
        services.match_move_approve(move=move, user=w["organiser"], approve=True)
    services.match_move_answer(move=move, user=w["away_captain"], accept=True)
    with pytest.raises(services.MatchStateError):
        services.match_move_answer(move=move, user=w["away_captain"], accept=False)


def test_a_new_proposal_withdraws_the_waiting_one_and_a_past_date_is_refused(fixture_world):
    w = fixture_world
    first = _propose(w)
    w["new_start"] += timedelta(days=1)
    second = _propose(w)
    first.refresh_from_db()
    assert (first.status, second.status) == (MatchMove.Status.WITHDRAWN, MatchMove.Status.WAITING_AWAY)
    with pytest.raises(services.DomainError):
        services.match_move_propose(match=w["match"], user=w["home_secretary"], new_start=timezone.now() - timedelta(hours=1))


def test_a_match_begun_or_of_a_closed_season_cannot_move(fixture_world):
    w = fixture_world
    move = _propose(w)
    seasons.season_close(name="2026/27", user=w["admin"])
    with pytest.raises(seasons.SeasonClosedError):
        services.match_move_answer(move=move, user=w["away_captain"], accept=True)
    with pytest.raises(seasons.SeasonClosedError):
        _propose(w)
    seasons.season_reopen(name="2026/27", user=w["admin"], reason="för tidigt")
    services.match_start(match=w["match"], user=w["home_secretary"])
    with pytest.raises(services.MatchStateError):
        services.match_move_answer(move=move, user=w["away_captain"], accept=True)


# -- reminders -------------------------------------------------------------------------------------


@pytest.fixture
def overdue_world():
    """A match played four days ago without a protocol, and a protocol submitted four days ago and
    not confirmed; the competition reminds after three days."""
    admin = make_admin()
    home_secretary = make_user("sekreterare", email="sekreterare@example.org")
    captain = make_user("kapten", email="kapten@example.org")
    home_club = make_club("Ess", secretary=home_secretary)
    teams = [make_team(f"Lag {n}", club=home_club, captain=captain if n == 1 else None) for n in range(4)]
    competition = make_competition(organiser=home_club, name="Serien", teams=teams, reminder_days=3)
    long_ago = timezone.now() - timedelta(days=4)
    unplayed = make_match(competition=competition, home=teams[0], away=teams[1], scheduled_start=long_ago)
    played = play_match(make_match(competition=competition, home=teams[2], away=teams[1], table=2), admin)
    played = services.match_submit(match=played, user=admin, expected_version=played.version)
    Match.objects.filter(pk=played.pk).update(submitted_at=long_ago)
    recent = make_match(competition=competition, home=teams[2], away=teams[3], table=3,
                        scheduled_start=timezone.now() - timedelta(days=1))  # fmt: skip
    return {"unplayed": unplayed, "played": played, "recent": recent, "competition": competition}


def test_each_overdue_match_is_reminded_once_by_the_command(overdue_world, django_capture_on_commit_callbacks):
    w = overdue_world
    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_reminders", stdout=open("/dev/null", "w"))
    assert sorted((r.match_id, r.kind) for r in Reminder.objects.all()) == sorted(
        [(w["unplayed"].pk, "protocol"), (w["played"].pk, "confirmation")])
    assert sorted(m.to[0] for m in mail.outbox) == ["kapten@example.org", "sekreterare@example.org"]
    # Swedish, as the site's other mails.
    assert any(m.subject.startswith("Påminnelse") for m in mail.outbox)

    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_reminders", stdout=open("/dev/null", "w"))
    assert len(mail.outbox) == 2, "a reminder is sent once"


def test_no_reminders_without_days_set_or_in_an_archive(overdue_world, django_capture_on_commit_callbacks):
    Competition.objects.filter(pk=overdue_world["competition"].pk).update(reminder_days=None)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.reminders_send() == []
    Competition.objects.filter(pk=overdue_world["competition"].pk).update(reminder_days=3, archived=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.reminders_send() == []
    assert mail.outbox == []


# -- check-in before the draw ----------------------------------------------------------------------


def test_the_monrad_draw_pairs_only_the_teams_checked_in():
    admin = make_admin()
    club = make_club("Ess")
    teams = [make_team(f"Lag {n}", club=club) for n in range(6)]
    cup = make_competition(organiser=club, kind=Competition.Kind.TOURNAMENT, teams=teams, requires_confirmation=False)
    day = date(2026, 10, 3)
    services.check_in_save(competition=cup, user=admin, day=day, present=[t.pk for t in teams[:3]])
    round_one = services.schedule_pair_next_round(competition=cup, user=admin, on=day, seed=1)
    playing = {team for match in round_one.matches.all() for team in (match.home_team_id, match.away_team_id)}
    playing |= set(round_one.byes.values_list("team_id", flat=True))
    assert playing == {t.pk for t in teams[:3]}
    # A late arrival is checked in before the next round is drawn.
    for match in round_one.matches.all():
        play_match(match, admin)
    services.check_in_save(competition=cup, user=admin, day=day, present=[t.pk for t in teams[:4]])
    round_two = services.schedule_pair_next_round(competition=cup, user=admin, on=day)
    playing = {team for match in round_two.matches.all() for team in (match.home_team_id, match.away_team_id)}
    assert playing == {t.pk for t in teams[:4]} and not round_two.byes.exists()


def test_a_club_nights_draw_pairs_only_the_players_checked_in():
    admin = make_admin()
    club = make_club("Ess")
    players = [make_player(f"Spelare {n}", club=club) for n in range(9)]
    night = make_competition(organiser=club, kind=Competition.Kind.INDIVIDUAL)
    individual.individual_signup(competition=night, players=players, user=admin)
    day = date(2026, 10, 3)
    services.check_in_save(competition=night, user=admin, day=day, present=[p.pk for p in players[:8]])
    round_one = individual.individual_pair_round(competition=night, user=admin, on=day, seed=4)
    seated = {pid for match in round_one.matches.all() for team in (match.home_team, match.away_team)
              for pid in (team.player_one_id, team.player_two_id)}  # fmt: skip
    assert seated == {p.pk for p in players[:8]} and not round_one.sitting_out.exists()
    assert CheckIn.objects.filter(competition=night, day=day).count() == 8


def test_check_in_is_the_organisers_and_only_of_the_competitions_own():
    club = make_club("Ess", secretary=make_user("s"))
    teams = [make_team(club=club) for _ in range(2)]
    cup = make_competition(organiser=club, kind=Competition.Kind.TOURNAMENT, teams=teams)
    with pytest.raises(PermissionDenied):
        services.check_in_save(competition=cup, user=make_user("x"), day=date(2026, 10, 3), present=[teams[0].pk])
    with pytest.raises(services.DomainError):
        services.check_in_save(competition=cup, user=make_admin(), day=date(2026, 10, 3), present=[make_team().pk])


# -- enrolment rules -------------------------------------------------------------------------------


@pytest.fixture
def enrolment_world():
    secretary = make_user("sekreterare")
    club = make_club("Ess", secretary=secretary)
    anna, bo, cia, dan, eva = (make_player(name, club=club) for name in ("Anna", "Bo", "Cia", "Dan", "Eva"))
    essen = make_team("Essen", club=club, players=(anna, bo))
    damerna = make_team("Damerna", club=club, players=(cia, dan))
    series = make_competition(organiser=club, name="Serien", team_players_min=2, team_players_max=3,
                              one_team_per_player=True)  # fmt: skip
    return {"secretary": secretary, "club": club, "essen": essen, "damerna": damerna, "series": series,
            "anna": anna, "bo": bo, "cia": cia, "dan": dan, "eva": eva}  # fmt: skip


def test_a_team_with_too_many_players_is_refused_with_its_name(enrolment_world):
    w = enrolment_world
    services.competition_save(user=w["secretary"], competition=w["series"], teams=[w["essen"], w["damerna"]])
    # Two reserves would make four players: the series has teams of 2 to 3.
    with translation.override("sv"), pytest.raises(services.EnrolmentError) as refused:
        services.team_save(user=w["secretary"], team=Team.objects.get(pk=w["essen"].pk),
                           reserves=[w["eva"], make_player("Fia", club=w["club"])])  # fmt: skip
    assert str(refused.value.message) == "Essen har 4 spelare: ett lag i Serien har 2 till 3 spelare."
    assert not w["essen"].reserves.exists()
    services.team_save(user=w["secretary"], team=Team.objects.get(pk=w["essen"].pk), reserves=[w["eva"]])
    assert list(w["essen"].reserves.all()) == [w["eva"]]


def test_a_player_in_two_teams_is_refused_where_the_competition_says_so(enrolment_world):
    w = enrolment_world
    w["damerna"].reserves.add(w["anna"])
    with translation.override("en"), pytest.raises(services.EnrolmentError) as refused:
        services.competition_save(user=w["secretary"], competition=w["series"], teams=[w["essen"], w["damerna"]])
    assert str(refused.value.message) == (
        "Anna plays for both Damerna and Essen: in Serien a player plays for one team only.")
    assert not w["series"].teams.exists()
    Competition.objects.filter(pk=w["series"].pk).update(one_team_per_player=False)
    services.competition_save(user=w["secretary"], competition=Competition.objects.get(pk=w["series"].pk),
                              teams=[w["essen"], w["damerna"]])  # fmt: skip
    assert w["series"].teams.count() == 2


def test_exactly_two_players_and_an_invited_team(enrolment_world):
    w = enrolment_world
    other_secretary = make_user("annan")
    other = make_club("Kung", secretary=other_secretary)
    guests = make_team("Gästerna", club=other)
    guests.reserves.add(make_player("Reserv", club=other))
    Competition.objects.filter(pk=w["series"].pk).update(team_players_max=2)
    series = Competition.objects.get(pk=w["series"].pk)
    with translation.override("en"), pytest.raises(services.EnrolmentError) as refused:
        services.competition_save(user=w["secretary"], competition=series, teams=[w["essen"], guests])
    assert str(refused.value.message) == "Gästerna has 3 players: a team in Serien has exactly 2 players."
