import pytest
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import AuditEntry, Match, Team
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_a_match_played_to_5000_is_finished_submitted_and_confirmed():
    s = f.protocol_setup()
    match = s["match"]
    for number in range(1, 4):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    assert match.status == Match.Status.FINISHED
    assert match.end == "target"
    assert (match.home_total, match.away_total) == (5655, -120)
    assert match.winner == "home" and match.home_points == 1 and match.away_points == 0
    assert list(match.deals.values_list("home_total", flat=True)) == [1885, 3770, 5655]
    assert match.deals.get(number=3).home_min_before == 120
    match = services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    assert match.status == Match.Status.SUBMITTED
    with pytest.raises(PermissionDenied):
        services.match_confirm(match=match, user=s["home_captain"], expected_version=match.version)
    match.refresh_from_db()
    match = services.match_confirm(match=match, user=s["away_captain"], expected_version=match.version)
    assert match.status == Match.Status.CONFIRMED
    assert AuditEntry.objects.filter(match=match).count() == 5


def test_a_deal_with_errors_is_refused_and_nothing_is_written():
    s = f.protocol_setup()
    match = s["match"]
    bad = f.deal(1, home_cards=287, away_cards=0)
    with pytest.raises(services.DealProblemsError) as excinfo:
        services.deals_record(match=match, user=s["secretary"], entry=bad, expected_version=match.version)
    assert [p.code for _, p in excinfo.value.problems] == ["not-multiple-of-5"]
    match.refresh_from_db()
    assert match.deal_count == 0 and match.deals.count() == 0 and match.version == 1


def test_a_stale_version_is_refused():
    s = f.protocol_setup()
    match = s["match"]
    services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    with pytest.raises(services.StaleMatchError):
        services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(2), expected_version=1)
    assert match.deals.count() == 1


def test_a_correction_recomputes_later_totals_and_is_logged():
    s = f.protocol_setup()
    match = s["match"]
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=match.version)
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(2, "away"), expected_version=match.version)
    match = services.deal_correct(match=match, user=s["secretary"], number=1, entry=f.deal(1, home_cards=100, away_cards=50, end="stock"),
                                  reason="skrivfel", expected_version=match.version)
    assert list(match.deals.values_list("home_total", "away_total")) == [(100, 50), (60, 1935)]
    entry = AuditEntry.objects.get(action="deal_correct")
    assert entry.reason == "skrivfel" and entry.before["deal"]["home_cards"] == 485


def test_a_forfeit_scores_the_award_and_only_the_home_secretary_enters():
    s = f.protocol_setup()
    match = s["match"]
    with pytest.raises(PermissionDenied):
        services.match_forfeit(match=match, user=s["away_captain"], winner="away", expected_version=match.version)
    match.refresh_from_db()
    match = services.match_forfeit(match=match, user=s["secretary"], winner="away", expected_version=match.version)
    assert (match.home_points, match.away_points) == (0, 1)
    assert (match.away_for, match.away_against, match.home_for) == (5000, 2500, 2500)


def test_the_clock_between_deals_ends_a_timed_match():
    s = f.protocol_setup()
    match = s["match"]
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1, "away"), expected_version=match.version)
    match = services.match_declare_clock(match=match, user=s["secretary"], expected_version=match.version)
    assert match.status == Match.Status.FINISHED and match.end == "clock" and match.winner == "away"


# -- a match is counted by the points rules it was played under (docs/rules.md, "Rule-set presets") -----------------------


def _change_points(competition, key, **overrides):
    competition.points_key = key
    competition.points_overrides = overrides
    competition.save()


def test_reopening_a_match_after_the_competition_changed_its_points_rules_keeps_its_points():
    s = f.protocol_setup()
    match = s["match"]
    for number in range(1, 4):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    assert (match.home_points, match.away_points) == (1, 0)  # sv-serie
    _change_points(match.competition, "fi-liitto")

    match = services.match_reopen(match=Match.objects.get(pk=match.pk), user=s["secretary"], reason="rättelse", expected_version=match.version)
    assert match.status == Match.Status.FINISHED and (match.home_points, match.away_points) == (1, 0)
    match = services.deal_correct(match=match, user=s["secretary"], number=1, entry=f.winning_deal(1), reason="skrivfel",
                                  expected_version=match.version)
    assert (match.home_points, match.away_points) == (1, 0)
    assert Match.objects.get(pk=match.pk).points_rules.key == "sv-serie"


def test_a_match_started_before_a_change_of_points_rules_is_counted_by_the_old_ones():
    s = f.protocol_setup()
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    _change_points(match.competition, "sv-serie", win=3)
    for number in (2, 3):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    assert match.status == Match.Status.FINISHED and match.home_points == 1


def test_a_walk_over_keeps_the_award_of_its_day():
    s = f.protocol_setup()
    match = services.match_forfeit(match=s["match"], user=s["secretary"], winner="away", expected_version=1)
    _change_points(match.competition, "fi-liitto")
    match = services.match_reopen(match=Match.objects.get(pk=match.pk), user=s["secretary"], reason="fel", expected_version=match.version)
    match = services.match_forfeit(match=match, user=s["secretary"], winner="away", expected_version=match.version)
    assert (match.away_points, match.away_for, match.home_for) == (1, 5000, 2500)


def test_an_abandoned_match_counts_as_the_rules_said_when_it_was_voided():
    from scoring.selectors import competition_standings

    s = f.protocol_setup()
    competition = s["match"].competition
    _change_points(competition, "sv-serie", abandoned="as-played")
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    services.match_void(match=match, user=s["secretary"], reason="brandlarm", expected_version=match.version)
    _change_points(competition, "sv-serie")  # abandoned matches no longer count ...
    played = {row.record.name: row.record.played for row in competition_standings(competition)}
    assert played == {"Hemmalaget": 1, "Bortalaget": 1}  # ... but this one was voided under the old rule


# -- a team that has played keeps its players ------------------------------------------------------


def test_a_team_that_has_played_keeps_its_players_and_may_swap_their_order():
    s = f.protocol_setup()
    home = s["home"]
    newcomer = f.make_player("Nils Åström", club=home.club)
    team = Team.objects.get(pk=home.pk)
    team.player_two = newcomer
    services.team_save(user=s["secretary"], team=team)  # nothing played yet: allowed

    services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    team = Team.objects.get(pk=home.pk)
    original = (team.player_one_id, team.player_two_id)
    team.player_two = f.make_player("Olle Ny", club=home.club)
    with pytest.raises(services.DomainError) as refusal:
        services.team_save(user=s["secretary"], team=team)
    assert "Bilda ett nytt lag" in refusal.value.message
    assert Team.objects.filter(pk=home.pk).values_list("player_one_id", "player_two_id").get() == original

    team = Team.objects.get(pk=home.pk)
    team.player_one, team.player_two = team.player_two, team.player_one  # the same pair: allowed
    team.name = "Hemmalaget II"
    services.team_save(user=s["secretary"], team=team)
    assert Team.objects.get(pk=home.pk).name == "Hemmalaget II"
