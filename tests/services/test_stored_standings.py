"""The stored standings rows (TeamStanding) kept by the services equal the table worked out afresh
from the matches, after every kind of change a result can go through: a match played to the end,
a correction that changes the winner, a walk over, a void, a submission, a confirmation, a
reopening, a changed competition setting, and byes that score."""

import pytest

from scoring import services
from scoring.models import Match, TeamStanding
from scoring.selectors import competition_standings
from scoring.selectors.standings import computed_team_records, stored_team_records
from tests import factories as f

pytestmark = pytest.mark.django_db


def _assert_stored_equals_fresh(competition):
    competition.refresh_from_db()
    stored = stored_team_records(competition)
    fresh = computed_team_records(competition)
    assert stored == fresh
    assert set(TeamStanding.objects.filter(competition=competition).values_list("team_id", flat=True)) <= {
        record.team_id for record in fresh
    }


@pytest.fixture
def league():
    s = f.protocol_setup()
    competition = s["match"].competition
    third = f.make_team("Tredje laget", club=s["home"].club)
    second = f.make_match(competition=competition, home=s["home"], away=third, round_number=2)
    competition.requires_confirmation = False
    services.competition_save(user=s["secretary"], competition=competition)
    return s, competition, s["match"], second


def _play_to_the_end(match, user):
    for number in range(1, 4):
        match = services.deals_record(match=match, user=user, entry=f.winning_deal(number), expected_version=match.version)
    assert match.status == Match.Status.FINISHED
    return match


def test_every_change_of_a_result_keeps_the_stored_rows_equal_to_a_fresh_table(league):
    s, competition, match, second = league
    secretary = s["secretary"]
    _assert_stored_equals_fresh(competition)

    match = _play_to_the_end(match, secretary)
    _assert_stored_equals_fresh(competition)
    assert {row.record.name: row.record.won for row in competition_standings(competition)}["Hemmalaget"] == 1

    # A correction of the last deal: the card points, and so the table's card points, change.
    corrected = f.deal(3, out="home", home_cards=400, home_natural=2, home_mixed=1, away_cards=-10)
    before = stored_team_records(competition)
    match = services.deal_correct(match=match, user=secretary, number=3, entry=corrected,
                                  reason="Felskrivet", expected_version=match.version)
    assert stored_team_records(competition) != before
    _assert_stored_equals_fresh(competition)

    match = services.match_submit(match=match, user=secretary, expected_version=match.version)
    _assert_stored_equals_fresh(competition)

    second = services.match_forfeit(match=second, user=secretary, winner="away", reason="Kom inte",
                                    expected_version=second.version)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 4

    second = services.match_reopen(match=second, user=secretary, reason="Fel", expected_version=second.version)
    _assert_stored_equals_fresh(competition)
    second = services.match_void(match=second, user=secretary, reason="Avbruten", expected_version=second.version)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 2


def test_results_waiting_for_confirmation_count_once_confirmed(league):
    s, competition, match, _second = league
    competition.requires_confirmation = True
    services.competition_save(user=s["secretary"], competition=competition)
    match = _play_to_the_end(match, s["secretary"])
    match = services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 0
    match = services.match_confirm(match=match, user=s["away_captain"], expected_version=match.version)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 2


def test_a_deal_that_does_not_finish_the_match_writes_no_standings_row(league):
    s, competition, match, _second = league
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=match.version)
    before = list(TeamStanding.objects.filter(competition=competition).values_list("pk", "played"))
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(2), expected_version=match.version)
    assert list(TeamStanding.objects.filter(competition=competition).values_list("pk", "played")) == before


def test_scoring_byes_and_a_changed_setting_keep_the_rows_equal():
    club = f.make_club(secretary=f.make_user("sek"))
    teams = [f.make_team(club=club) for _ in range(5)]
    competition = f.make_competition(organiser=club, teams=teams, points_overrides={"bye": "win"},
                                     requires_confirmation=False)
    user = club.secretaries.get()
    services.schedule_generate_league(competition=competition, user=user)
    _assert_stored_equals_fresh(competition)
    first_round = competition.rounds.get(number=1)
    for match in first_round.matches.all():
        match = services.match_forfeit(match=match, user=user, winner="home", expected_version=match.version)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 5  # two matches and a bye
    competition.points_overrides = {"bye": "none"}
    services.competition_save(user=user, competition=competition)
    _assert_stored_equals_fresh(competition)
    assert sum(row.played for row in stored_team_records(competition)) == 4
