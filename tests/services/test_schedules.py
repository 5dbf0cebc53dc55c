"""Schedule services: league generation, Monrad rounds and fixture import, with their refusals."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from scoring import services
from scoring.services.standings import standings_refresh
from scoring.models import AuditEntry, Bye, Match, Round
from scoring.selectors.manage import round_is_complete
from scoring.services.schedules import (
    FixtureImportError,
    ScheduleError,
    fixtures_import,
    schedule_generate_league,
    schedule_pair_next_round,
)
from tests.factories import make_club, make_competition, make_team, make_user, result_fields, winning_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    secretary = make_user()
    club = make_club("Göteborgs Canastaklubb", secretary=secretary)
    teams = [make_team(name, club=club) for name in ("Älvsborg", "Bergsjön", "Centrum", "Dalen", "Örgryte")]
    competition = make_competition(organiser=club, teams=teams, requires_confirmation=False)
    return competition, secretary, teams


def _finish_round(round_):
    for match in round_.matches.all():
        for name, value in result_fields(round_.competition, 5000, 3000 + match.table * 100).items():
            setattr(match, name, value)
        match.status = Match.Status.FINISHED
        match.save()
    standings_refresh(competition=round_.competition)  # as the match services keep it


def test_generate_single_league_with_dates_tables_and_byes(league):
    competition, secretary, teams = league
    rounds = schedule_generate_league(
        competition=competition, user=secretary, start_date=date(2026, 9, 14), interval_days=14,
        start_time=time(18, 30),
    )
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    assert [r.date for r in rounds] == [date(2026, 9, 14), date(2026, 9, 28), date(2026, 10, 12),
                                        date(2026, 10, 26), date(2026, 11, 9)]
    matches = list(competition.matches.all())
    assert len(matches) == 10
    assert Counter(frozenset((m.home_team_id, m.away_team_id)) for m in matches).most_common(1)[0][1] == 1
    assert sorted(b.team.name for b in Bye.objects.filter(round__competition=competition)) == sorted(t.name for t in teams)
    first = competition.rounds.get(number=1).matches.order_by("table")
    assert [m.table for m in first] == [1, 2]
    assert timezone.localtime(first[0].scheduled_start).time() == time(18, 30)
    entry = AuditEntry.objects.get(action="schedule_generate")
    assert entry.object_id == str(competition.pk) and len(entry.after["matches"]) == 10


def test_generate_double_league_is_exactly_balanced(league):
    competition, secretary, teams = league
    schedule_generate_league(competition=competition, user=secretary, double=True, seed=3)
    home, away = Counter(), Counter()
    for match in competition.matches.all():
        home[match.home_team_id] += 1
        away[match.away_team_id] += 1
    assert all(home[t.pk] == away[t.pk] == 4 for t in teams)
    assert competition.rounds.count() == 10


def test_regenerate_replaces_an_unplayed_schedule_and_refuses_once_played(league):
    competition, secretary, _ = league
    schedule_generate_league(competition=competition, user=secretary)
    schedule_generate_league(competition=competition, user=secretary, double=True)
    assert competition.matches.count() == 20 and competition.rounds.count() == 10
    match = competition.matches.first()
    services.deals_record(match=match, user=secretary, entry=winning_deal(1), expected_version=match.version)
    with pytest.raises(ScheduleError) as error:
        schedule_generate_league(competition=competition, user=secretary)
    assert "har redan spelats" in str(error.value.message)
    assert competition.matches.count() == 20


def test_a_walk_over_also_fixes_the_schedule(league):
    competition, secretary, _ = league
    schedule_generate_league(competition=competition, user=secretary)
    match = competition.matches.first()
    services.match_forfeit(match=match, user=secretary, winner="home", expected_version=match.version)
    with pytest.raises(ScheduleError):
        schedule_generate_league(competition=competition, user=secretary)


def test_only_the_organisers_secretary_may_generate(league):
    competition, _, _ = league
    with pytest.raises(PermissionDenied):
        schedule_generate_league(competition=competition, user=make_user())
    assert not competition.matches.exists()


def test_too_few_teams():
    secretary = make_user()
    club = make_club(secretary=secretary)
    competition = make_competition(organiser=club, teams=[make_team(club=club)])
    with pytest.raises(ScheduleError):
        schedule_generate_league(competition=competition, user=secretary)


def test_swiss_rounds_paired_by_points_once_complete(league):
    competition, secretary, teams = league
    competition.kind = competition.Kind.TOURNAMENT
    competition.save()
    first = schedule_pair_next_round(competition=competition, user=secretary, on=date(2026, 10, 3), seed=1)
    assert first.number == 1 and first.matches.count() == 2 and first.byes.count() == 1
    with pytest.raises(ScheduleError) as error:
        schedule_pair_next_round(competition=competition, user=secretary)
    assert "1" in str(error.value.message)
    _finish_round(first)
    assert round_is_complete(first)
    second = schedule_pair_next_round(competition=competition, user=secretary)
    assert second.number == 2 and second.date == date(2026, 10, 3)
    met = {frozenset((m.home_team_id, m.away_team_id)) for m in first.matches.all()}
    for match in second.matches.all():
        assert frozenset((match.home_team_id, match.away_team_id)) not in met
    assert second.byes.get().team_id != first.byes.get().team_id
    # Winners of round 1 meet each other at table 1 (Monrad: by match points).
    winners = {m.home_team_id for m in first.matches.all()}
    top = second.matches.get(table=1)
    assert {top.home_team_id, top.away_team_id} <= winners | {first.byes.get().team_id}
    assert AuditEntry.objects.filter(action="schedule_pair_round").count() == 2


def test_swiss_round_waits_for_confirmation_where_required(league):
    competition, secretary, _ = league
    competition.requires_confirmation = True
    competition.save()
    first = schedule_pair_next_round(competition=competition, user=secretary)
    _finish_round(first)
    assert not round_is_complete(first)
    with pytest.raises(ScheduleError):
        schedule_pair_next_round(competition=competition, user=secretary)
    first.matches.update(status=Match.Status.CONFIRMED)
    assert schedule_pair_next_round(competition=competition, user=secretary).number == 2


FIXTURES = """round,date,table,home,away
1,2026-09-14,1,Älvsborg,Bergsjön
1,2026-09-14,2,centrum,Dalen
2,2026-09-21,,Örgryte,Älvsborg
2,2026-09-21,,Bergsjön,Centrum
"""


def test_import_fixtures(league):
    competition, secretary, teams = league
    rounds = fixtures_import(competition=competition, user=secretary, data=FIXTURES.encode())
    assert [(r.number, r.date) for r in rounds] == [(1, date(2026, 9, 14)), (2, date(2026, 9, 21))]
    rows = [(m.round.number, m.table, m.home_team.name, m.away_team.name) for m in competition.matches.all()]
    assert rows == [
        (1, 1, "Älvsborg", "Bergsjön"),
        (1, 2, "Centrum", "Dalen"),
        (2, 1, "Örgryte", "Älvsborg"),
        (2, 2, "Bergsjön", "Centrum"),
    ]
    assert [b.team.name for b in Bye.objects.filter(round__number=1, round__competition=competition)] == ["Örgryte"]
    assert AuditEntry.objects.filter(action="fixtures_import").exists()


def test_import_swedish_headers_semicolons_and_windows_encoding(league):
    competition, secretary, _ = league
    text = "Omgång;Datum;Bord;Hemma;Borta\r\n1;2026-09-14;1;Älvsborg;Örgryte\r\n"
    fixtures_import(competition=competition, user=secretary, data=text.encode("cp1252"))
    match = competition.matches.get()
    assert (match.home_team.name, match.away_team.name) == ("Älvsborg", "Örgryte")


def test_import_is_all_or_nothing_with_line_and_column(league):
    competition, secretary, _ = league
    schedule_generate_league(competition=competition, user=secretary)
    bad = (
        "round,date,table,home,away\n"
        "1,2026-09-14,1,Älvsborg,Bergsjön\n"
        "x,2026-09-14,2,Centrum,Dalen\n"
        "2,14/9,1,Centrum,Nowhere\n"
        "2,2026-09-21,1,Dalen,Dalen\n"
        "1,2026-09-15,3,Älvsborg,Örgryte\n"
    )
    with pytest.raises(FixtureImportError) as error:
        fixtures_import(competition=competition, user=secretary, data=bad.encode())
    found = {(p.line, p.column) for p in error.value.problems}
    assert {(3, "round"), (4, "date"), (4, "away"), (5, "away"), (6, "date"), (6, "home")} <= found
    messages = [str(p) for p in error.value.problems]
    assert "Rad 4, kolumn ”date”: ”14/9” är inget datum; skriv det som 2026-09-14." in messages
    assert "Rad 4, kolumn ”away”: inget lag med namnet ”Nowhere” spelar i den här tävlingen." in messages
    # Nothing changed: the generated schedule is still there.
    assert competition.matches.count() == 10


@pytest.mark.parametrize(
    "text, expected",
    [
        ("round,home\n1,Älvsborg\n", (1, None)),
        ("round,home,away,score\n", (1, "score")),
        ("", (None, None)),
        ("round,home,away\n", (None, None)),
    ],
)
def test_import_refuses_bad_headers_and_empty_files(league, text, expected):
    competition, secretary, _ = league
    with pytest.raises(FixtureImportError) as error:
        fixtures_import(competition=competition, user=secretary, data=text.encode())
    assert (error.value.problems[0].line, error.value.problems[0].column) == expected
    assert not Round.objects.filter(competition=competition).exists()


def test_import_reads_a_csv_saved_by_excel_for_mac(league):
    competition, secretary, _ = league
    text = "round,date,table,home,away\r1,2026-09-14,1,Älvsborg,Örgryte\r"
    fixtures_import(competition=competition, user=secretary, data=text.encode())
    assert competition.matches.get().home_team.name == "Älvsborg"


@pytest.mark.parametrize(
    "data",
    [b"PK\x03\x04\x14\x00\x06\x00 an Excel workbook", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"],
    ids=["xlsx", "png"],
)
def test_import_of_a_file_that_is_not_csv_says_so(league, data):
    competition, secretary, _ = league
    with pytest.raises(FixtureImportError) as error:
        fixtures_import(competition=competition, user=secretary, data=data)
    assert [str(p) for p in error.value.problems] == [
        "Filen är ingen CSV-fil (text). Spara kalkylarket som CSV, med kommatecken eller semikolon "
        "mellan värdena, och välj den filen."
    ]
    assert not Round.objects.filter(competition=competition).exists()


def test_a_round_moved_to_another_day_takes_its_matches_along(league):
    competition, secretary, _ = league
    schedule_generate_league(competition=competition, user=secretary, start_date=date(2026, 9, 14),
                             start_time=time(18, 30))
    round_ = competition.rounds.get(number=1)
    first, second = round_.matches.order_by("table")
    postponed_to = timezone.make_aware(datetime(2026, 9, 30, 19, 0))
    Match.objects.filter(pk=second.pk).update(status=Match.Status.POSTPONED, scheduled_start=postponed_to)

    round_.date = date(2026, 9, 16)
    services.round_save(user=secretary, round=round_)

    first.refresh_from_db()
    assert timezone.localtime(first.scheduled_start).replace(tzinfo=None) == datetime(2026, 9, 16, 18, 30)
    assert AuditEntry.objects.filter(match=first, action="match_update").exists()
    second.refresh_from_db()
    assert second.scheduled_start == postponed_to  # a day of its own stays
