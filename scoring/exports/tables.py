"""The column sets of the exported standings (tabell) and round results, as django-tables2 tables.

One table serves both kinds of document: a cell's *rendered* value (render_*) is the printed text of
the PDF, with thin spaces and a true minus (5 120, −40); its *value* (value_*, what `as_values()`
returns) is the raw number a spreadsheet stores. The xlsx writer reads `as_values()`, so every sheet
goes through one writer. Rows are plain dicts built from the selectors (scoring.selectors) and the
match totals the services stored from the engine; nothing here computes a score.
`competition_facts` is the competition header that both kinds of document print.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.encoding import force_str
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from scoring.engine.standings import StandingRow
from scoring.formatting import format_number, plain_number, signed_number
from scoring.models import Competition, Match
from scoring.selectors.protocols import has_score
from scoring.web.site_address import absolute_reverse
from scoring.selectors.standings import standing_values


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


class ExportTable(tables.Table):
    class Meta:
        orderable = False
        # Rows are dicts; no model, no pagination: the whole table is the document.
        template_name = "django_tables2/table.html"

    def as_values(self, exclude_columns=None):
        """What django-tables2's Table.as_values returns (the header, then per row each column's
        value_* or cell value, None for an empty cell) without its introspection of every cell: a
        competition's workbook has a row for every match of every round."""
        exclude = set(exclude_columns or ())
        columns = [
            column for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in exclude)
        ]  # fmt: skip
        getters = [self._value_getter(column) for column in columns]
        if None in getters:  # a kind of column this does not know: django-tables2's own way
            yield from super().as_values(exclude_columns)
            return
        yield [force_str(column.header, strings_only=True) for column in columns]
        for record in self.data:
            yield [get(record) for get in getters]

    def _value_getter(self, bound_column):
        custom = getattr(self, f"value_{bound_column.name}", None)
        if custom is not None:
            return lambda record: custom(record=record)
        column, accessor = bound_column.column, bound_column.accessor
        if isinstance(column, NumberColumn):
            convert = plain_number
        elif type(column) is tables.Column:
            convert = None  # a plain column's value is the cell's own
        else:
            return None

        def value(record):
            raw = accessor.resolve(record, quiet=True)
            if raw in column.empty_values:
                return None
            return force_str(convert(raw) if convert else raw, strings_only=True)

        return value


class StandingsExportTable(ExportTable):
    rank = tables.Column(verbose_name=pgettext_lazy("standings", "Rank"), attrs=NUM)
    team = tables.Column(verbose_name=_("Team"), attrs={"th": {"class": "listing-team"}, "td": {"class": "listing-team strong"}})
    played = NumberColumn(verbose_name=pgettext_lazy("standings, matches", "Played"))
    won = NumberColumn(verbose_name=pgettext_lazy("standings, matches", "Won"))
    drawn = NumberColumn(verbose_name=pgettext_lazy("standings, matches", "Drawn"))
    lost = NumberColumn(verbose_name=pgettext_lazy("standings, matches", "Lost"))
    points = NumberColumn(verbose_name=_("Match points"), strong=True)
    card_points_for = NumberColumn(verbose_name=_("Card points for"))
    card_points_against = NumberColumn(verbose_name=_("Card points against"))
    difference = NumberColumn(verbose_name=_("Difference"))

    def render_difference(self, value):
        # Signed, as the web table prints it: +10 780, −40.
        return signed_number(value)

    def value_difference(self, record):
        return plain_number(record["difference"])

    def render_rank(self, record):
        # Ties print as "3="; a spreadsheet gets the number, so equal ranks sort together.
        return record["rank_label"]

    def value_rank(self, record):
        return record["rank"]


def standings_table(competition, rows: list[StandingRow]) -> StandingsExportTable:
    """The table as the competition shows it: a competition that ranks by the card-point difference
    alone (fi-liitto) shows the difference, not the points for and against (as the site does)."""
    exclude = ()
    if competition.points_rules.card_points == "difference":
        exclude = ("card_points_for", "card_points_against")
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
