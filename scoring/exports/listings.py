"""The column sets of the exported standings (tabell) and round results, as django-tables2 tables.

One table serves both kinds of document: a cell's *rendered* value (render_*) is the printed text of
the PDF, with thin spaces and a true minus (5 120, −40); its *value* (value_*, what django-tables2's
`as_values()` returns) is the raw number a spreadsheet stores. The xlsx writer reads `as_values()`,
so every sheet goes through one writer. The standings' columns and their names are the selectors'
(selectors.standings.standings_columns), as on the page and in the `standings` command. Rows are plain dicts built from the selectors (scoring.selectors) and the
match totals the services stored from the engine; nothing here computes a score.
`competition_facts` is the competition header that both kinds of document print.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from scoring.engine.standings import StandingRow
from scoring.formatting import format_number, plain_number, signed_number
from scoring.models import Competition, Match
from scoring.selectors.protocols import has_score
from scoring.selectors.standings import standing_values, standings_column, standings_columns
from scoring.site_address import absolute_reverse


NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
STRONG_NUM = {"th": {"class": "num"}, "td": {"class": "num strong"}}
# "listing-team", not "team": the protocol header's framed team block is ".team" in pdf.css.
TEAM = {"th": {"class": "listing-team"}, "td": {"class": "listing-team"}}


class NumberColumn(tables.Column):
    """A number: printed with thin spaces and a minus sign, exported as a number."""

    def __init__(self, *args, strong: bool = False, **kwargs):
        kwargs.setdefault("attrs", STRONG_NUM if strong else NUM)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_number(value)

    def value(self, value):
        return plain_number(value)


class SignedNumberColumn(NumberColumn):
    """A difference: printed signed, as the page prints it (+10 780, −40), exported as a number."""

    def render(self, value):
        return signed_number(value)


def full_name(key: str):
    """The heading of the standings column `key` in the documents: its whole name."""
    return standings_column(key).full


class ExportTable(tables.Table):
    class Meta:
        orderable = False
        # Rows are dicts; no model, no pagination: the whole table is the document.
        template_name = "django_tables2/table.html"


class StandingsExportTable(ExportTable):
    """One column for each of the standings' columns (selectors.standings.STANDINGS_COLUMNS), by its key."""

    rank = tables.Column(verbose_name=full_name("rank"), attrs=NUM)
    team = tables.Column(verbose_name=full_name("team"), attrs={"th": {"class": "listing-team"}, "td": {"class": "listing-team strong"}})
    played = NumberColumn(verbose_name=full_name("played"))
    won = NumberColumn(verbose_name=full_name("won"))
    drawn = NumberColumn(verbose_name=full_name("drawn"))
    lost = NumberColumn(verbose_name=full_name("lost"))
    points = NumberColumn(verbose_name=full_name("points"), strong=True)
    card_points_for = NumberColumn(verbose_name=full_name("card_points_for"))
    card_points_against = NumberColumn(verbose_name=full_name("card_points_against"))
    difference = SignedNumberColumn(verbose_name=full_name("difference"))

    def render_rank(self, record):
        # Ties print as "3="; a spreadsheet gets the number, so equal ranks sort together.
        return record["rank_label"]

    def value_rank(self, record):
        return record["rank"]


def standings_table(competition, rows: list[StandingRow]) -> StandingsExportTable:
    """The table with the columns the competition's points preset shows, as the page does
    (selectors.standings.standings_columns)."""
    shown = {column.key for column in standings_columns(competition.points_rules)}
    exclude = tuple(name for name in StandingsExportTable.base_columns if name not in shown)
    return StandingsExportTable(standings_rows(rows), exclude=exclude)


def standings_rows(rows: list[StandingRow]) -> list[dict[str, Any]]:
    return [standing_values(row) for row in rows]


class RoundResultsExportTable(ExportTable):
    table = NumberColumn(verbose_name=pgettext_lazy("playing table", "Table"))
    home = tables.Column(verbose_name=pgettext_lazy("side", "Home team"), attrs=TEAM)
    away = tables.Column(verbose_name=pgettext_lazy("side", "Away team"), attrs=TEAM)
    home_total = NumberColumn(verbose_name=_("Home total"), strong=True)
    away_total = NumberColumn(verbose_name=_("Away total"), strong=True)
    home_points = NumberColumn(verbose_name=_("Home match points"))
    away_points = NumberColumn(verbose_name=_("Away match points"))
    status = tables.Column(verbose_name=_("Status"), default="")


class StatusTexts:
    """A match's status in words: "Bekräftad", "Walk over", "Avslutad, klockan, preliminärt".
    The words are looked up once per table, not once per match (a workbook has thousands)."""

    def __init__(self):
        self.status = {value: str(label) for value, label in Match.Status.choices}
        self.end = {value: str(label) for value, label in Match.End.choices}
        self.clock = gettext("the clock")
        self.preliminary = gettext("preliminary")

    def __call__(self, match: Match, preliminary: bool = False) -> str:
        parts = [self.status.get(match.status, match.status)]
        if match.end in (Match.End.FORFEIT, Match.End.WARNINGS, Match.End.ABANDONED):
            parts = [self.end[match.end]]
        elif match.end == Match.End.CLOCK:
            parts.append(self.clock)
        if preliminary:
            parts.append(self.preliminary)
        return ", ".join(parts)


def round_result_rows(matches) -> list[dict[str, Any]]:
    status = StatusTexts()
    rows = []
    for match in matches:
        played = has_score(match)
        rows.append(
            {
                "match_id": match.pk,
                "table": match.table,
                "home": match.home_team.name,
                "away": match.away_team.name,
                "home_total": match.home_total if played else None,
                "away_total": match.away_total if played else None,
                "home_points": match.home_points,
                "away_points": match.away_points,
                "status": status(match, getattr(match, "preliminary", False)),
            }
        )
    return rows


# -- the competition header ---------------------------------------------------------------------


def _tiebreak_labels() -> dict[str, str]:
    return {
        "points": gettext("match points"),
        "card_points_for": gettext("card points for"),
        "difference": gettext("difference"),
        "ratio": gettext("card-point ratio"),
        "wins": gettext("wins"),
        "head_to_head": gettext("head-to-head"),
        "buchholz": gettext("Buchholz"),
        "name": gettext("name"),
    }


def tiebreak_order_text(points) -> str:
    """The tie-break order of a competition preset (PointsRules.tiebreaks) in words."""
    labels = _tiebreak_labels()
    return ", ".join(labels.get(key, key) for key in points.tiebreaks)


def competition_facts(competition: Competition) -> dict:
    points = competition.points_rules
    return {
        "competition": competition,
        "organiser": competition.organiser.name,
        "rules_name": competition.rules.name,
        "rules_url": absolute_reverse("scoring:rules", competition.rules.key),
        "points_name": points.name,
        "win_draw_loss": " / ".join(format_number(value) for value in (points.win, points.draw, points.loss)),
        "order": tiebreak_order_text(points),
    }
