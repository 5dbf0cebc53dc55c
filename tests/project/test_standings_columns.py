"""A standings table has one set of columns (selectors.standings.STANDINGS_COLUMNS), with one short and
one full name each: the page's table, the documents' table and the `standings` command draw the
columns the competition's points preset shows (docs/rules.md, "Competition presets") from it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from scoring.engine.rules import POINTS_PRESETS
from scoring.exports.listings import StandingsExportTable, standings_table
from scoring.selectors.standings import STANDINGS_COLUMNS, standings_columns
from scoring.listings import StandingsTable
from tests.factories import make_club, make_competition, make_team

KEYS = [column.key for column in STANDINGS_COLUMNS]


def test_the_page_and_the_documents_have_a_column_for_each_and_no_other():
    assert list(StandingsTable.base_columns) == KEYS
    assert list(StandingsExportTable.base_columns) == KEYS


@pytest.mark.parametrize("key", sorted(POINTS_PRESETS))
def test_each_table_shows_the_columns_of_the_preset(key):
    shown = [column.key for column in standings_columns(POINTS_PRESETS[key])]

    assert [column.name for column in StandingsTable([], points_rules=POINTS_PRESETS[key]).columns] == shown


def test_a_difference_preset_shows_the_difference_only():
    shown = [column.key for column in standings_columns(POINTS_PRESETS["fi-liitto"])]

    assert "difference" in shown
    assert "card_points_for" not in shown and "card_points_against" not in shown
    assert standings_columns(POINTS_PRESETS["sv-serie"]) == STANDINGS_COLUMNS


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["sv-serie", "fi-liitto"])
def test_the_command_and_the_documents_name_the_columns_as_the_page(key):
    club = make_club()
    competition = make_competition(organiser=club, teams=[make_team("Alfa", club=club)], points_key=key)
    columns = standings_columns(competition.points_rules)
    out = StringIO()
    call_command("standings", "--competition", str(competition.pk), stdout=out)

    with translation.override("sv"):
        page = StandingsTable([], points_rules=competition.points_rules)
        headers = next(standings_table(competition, []).as_values())
        assert [str(column.column.short) for column in page.columns if hasattr(column.column, "short")] == [
            str(column.short) for column in columns if column.key not in ("rank", "team")
        ]
        assert headers == [str(column.full) for column in columns]
        assert out.getvalue().splitlines()[2].split() == [str(column.short) for column in columns]
