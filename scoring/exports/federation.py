"""The club table (klubbtabell) of an inter-club series in the competition's documents: a table for
the PDF and a sheet for the workbook, with the same columns as the standings (scoring.exports.tables)
and the club's number of pairs. Rows come from scoring.selectors.club_tables."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext as _, gettext_lazy

from scoring.models import Competition
from scoring.selectors.club_tables import club_standings

from .tables import NumberColumn, StandingsExportTable, standings_rows


class ClubStandingsExportTable(StandingsExportTable):
    team = tables.Column(verbose_name=gettext_lazy("Club"), attrs={"th": {"class": "team"}, "td": {"class": "team strong"}})
    pairs = NumberColumn(verbose_name=gettext_lazy("Pairs"))

    class Meta(StandingsExportTable.Meta):
        sequence = ("rank", "team", "pairs", "...")


def club_table(competition: Competition) -> ClubStandingsExportTable | None:
    """The club table of a competition that has one, else None."""
    if not competition.has_club_table:
        return None
    rows = club_standings(competition)
    values: list[dict[str, Any]] = standings_rows(rows)
    for value, row in zip(values, rows):
        value["pairs"] = row.extra["teams"]
    return ClubStandingsExportTable(values)


def club_table_note(competition: Competition) -> str:
    return _("Clubs ranked on the sum of their pairs' results: %(order)s.") % {
        "order": competition.get_club_table_order_display()
    }
