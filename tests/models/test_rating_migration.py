"""Migration 0019 stores the rating with the historical models alone: the rows it writes are those
the services keep (services.rating.rating_refresh), for played, drawn, walked-over, voided and
waiting results, in public and hidden competitions, over two seasons."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Match, PlayerRating
from tests import factories as f

pytestmark = pytest.mark.django_db

MIGRATION = ("scoring", "0019_player_ratings")


def stored_rows():
    return sorted(PlayerRating.objects.values_list("match_id", "player_id", "seq", "before", "after", "played"))


def run_migration():
    # Historical models (no methods, no managers of the code) as the database is now: the state of
    # the newest migration, whose columns the test database has (a field renamed since MIGRATION
    # was written would not be found under its old name).
    loader = MigrationExecutor(connection).loader
    apps = loader.project_state(loader.graph.leaf_nodes()).apps
    importlib.import_module(f"scoring.migrations.{MIGRATION[1]}").fill_ratings(apps, None)


def test_the_migration_stores_the_rows_the_services_keep(federation):
    club = federation["clubs"]["ess"]
    t = federation["teams"]
    hidden = f.make_competition(organiser=club, name="Klubbkväll", is_public=False)
    f.make_result(hidden, t["ab"], t["gh"], 5100, 2000)  # not public: not rated
    open_league = f.make_competition(organiser=club, name="Öppen serie", requires_confirmation=False)
    f.make_result(open_league, t["cd"], t["ef"], 5000, 4000, status=Match.Status.FINISHED)  # final here
    f.make_result(open_league, t["ab"], t["ef"], round_number=2, status=Match.Status.VOID)
    kept = stored_rows()  # as make_result's services call kept them
    assert len(kept) == 4 * 5  # o1, r1, r2, r3 and the open league's finished match

    PlayerRating.objects.all().delete()
    run_migration()

    assert stored_rows() == kept


def test_the_migration_does_nothing_on_an_empty_database():
    run_migration()
    assert not PlayerRating.objects.exists()
