"""Migration 0009 stores every competition's table with the historical models alone: the rows it
writes are those the services keep (services.standings_refresh), for played, drawn, walked-over,
voided and waiting results and for byes that score."""

import importlib
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import services
from scoring.models import Bye, Competition, Match, TeamStanding
from tests import factories as f

pytestmark = pytest.mark.django_db

MIGRATION = ("scoring", "0009_fill_team_standings")


def stored_rows():
    return sorted(
        TeamStanding.objects.values_list(
            "competition_id", "team_id", "played", "won", "drawn", "lost", "points", "card_points_for",
            "card_points_against",
        )
    )


def run_migration():
    # Historical models (no methods, no managers of the code) as the database is now: the state of
    # the newest migration, whose columns the test database has (a field renamed since MIGRATION
    # was written would not be found under its old name).
    loader = MigrationExecutor(connection).loader
    apps = loader.project_state(loader.graph.leaf_nodes()).apps
    importlib.import_module(f"scoring.migrations.{MIGRATION[1]}").fill_standings(apps, None)


def test_the_migration_stores_the_rows_the_services_keep():
    club = f.make_club()
    a, b, c, d, e = (f.make_team(name, club=club) for name in "ABCDE")
    league = f.make_competition(organiser=club, teams=[a, b, c, d, e], requires_confirmation=True)
    f.make_result(league, a, b, 5100, 3000)
    f.make_result(league, c, d, 4500, 4500, table=2)
    f.make_result(league, a, c, 5000, 2000, round_number=2, status=Match.Status.SUBMITTED)  # waits
    f.make_result(league, b, d, round_number=2, table=2, forfeit_winner="away")
    f.make_result(league, c, e, round_number=3, status=Match.Status.VOID)  # no result
    finnish = f.make_competition(organiser=club, teams=[a, b, c], points_key="fi-liitto",
                                 points_overrides={"bye": "win"}, requires_confirmation=False)
    f.make_result(finnish, a, b, 5200, 4100, status=Match.Status.FINISHED)
    Bye.objects.create(round=finnish.rounds.get(number=1), team=c)
    f.make_result(finnish, b, c, 3000, 5050, round_number=2, status=Match.Status.SUBMITTED)
    Bye.objects.create(round=finnish.rounds.get(number=2), team=a)
    f.make_competition(organiser=club, teams=[d, e])  # nothing played yet
    for competition in Competition.objects.all():  # as the services keep them
        services.standings_refresh(competition=competition)
    kept = stored_rows()
    assert (league.pk, a.pk, 1, 1, 0, 0, Decimal(1), 5100, 3000) in kept
    assert (finnish.pk, a.pk, 2, 2, 0, 0, Decimal(4), 5200, 4100) in kept  # a win and a bye

    TeamStanding.objects.all().delete()
    run_migration()

    assert stored_rows() == kept


def test_the_migration_does_nothing_on_an_empty_database():
    run_migration()
    assert not TeamStanding.objects.exists()
