"""The club table (klubbtabell) of an inter-club series and the players' table (spelartabell) of an
individual competition in the competition's documents: a table for the PDF and a sheet for the
workbook. The club table has the standings' columns (scoring.exports.listings) and the club's number
of pairs; rows come from scoring.selectors.club_standings and scoring.selectors.individual."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext as _, gettext_lazy

from scoring.models import Competition
from scoring.selectors.club_standings import club_standings
from scoring.selectors.individual import individual_standings

from .listings import NUM, ExportTable, NumberColumn, StandingsExportTable, full_name, standings_rows


class ClubStandingsExportTable(StandingsExportTable):
    team = tables.Column(verbose_name=gettext_lazy("Club"), attrs={"th": {"class": "team"}, "td": {"class": "team strong"}})
    pairs = NumberColumn(verbose_name=gettext_lazy("Pairs"))

    class Meta(StandingsExportTable.Meta):
        sequence = ("rank", "team", "pairs", "...")


def club_standings_listing(competition: Competition) -> ClubStandingsExportTable | None:
    """The club table of a competition that has one, else None."""
    if not competition.has_club_standings:
        return None
    rows = club_standings(competition)
    values: list[dict[str, Any]] = standings_rows(rows)
    for value, row in zip(values, rows):
        value["pairs"] = row.extra["teams"]
    return ClubStandingsExportTable(values)


def club_standings_note(competition: Competition) -> str:
    return _("Clubs ranked on the sum of their pairs' results: %(order)s.") % {
        "order": competition.get_club_standings_order_display()
    }


class IndividualExportTable(ExportTable):
    """The players' table of an individual competition (selectors.individual)."""

    rank = tables.Column(verbose_name=full_name("rank"), attrs=NUM)
    player = tables.Column(verbose_name=gettext_lazy("Player"), attrs={"th": {"class": "team"}, "td": {"class": "team strong"}})
    club = tables.Column(verbose_name=gettext_lazy("Club"), attrs={"th": {"class": "team"}, "td": {"class": "team"}})
    played = NumberColumn(verbose_name=full_name("played"))
    won = NumberColumn(verbose_name=full_name("won"))
    points = NumberColumn(verbose_name=full_name("points"), strong=True)
    card_points_for = NumberColumn(verbose_name=full_name("card_points_for"))
    buchholz = NumberColumn(verbose_name=gettext_lazy("Buchholz"))

    def render_rank(self, record):
        return record["rank_label"]

    def value_rank(self, record):
        return record["rank"]


def individual_table(competition: Competition) -> IndividualExportTable | None:
    """The players' table of an individual competition, else None."""
    if competition.kind != Competition.Kind.INDIVIDUAL:
        return None
    return IndividualExportTable([
        {
            "rank": row.rank, "rank_label": row.rank_label, "player": row.record.name, "club": row.club,
            "played": row.record.played, "won": row.record.won, "points": row.record.points,
            "card_points_for": row.record.card_points_for, "buchholz": row.record.buchholz,
        }
        for row in individual_standings(competition)
    ])
