"""`python manage.py standings --competition ID [--json] [--round N]`: a competition's table.

With `--json` it prints one JSON array of rows in rank order, each
{"rank": 3, "tied": true, "team": "Ölandslaget", "played": 7, "won": 4, "drawn": 1, "lost": 2,
 "points": 4.5, "card_points_for": 35120, "card_points_against": 30115, "difference": 5005}
(points as numbers: 1, 0.5, 2; an int when whole). Without it, a readable table in the site's
language (Swedish): the competition's columns with their short headers, as the site's page has them
(selectors.standings.standings_columns), its numbers as the site prints them (scoring.formatting:
5 120, −40, 0,5). `--round N`: the table after round N. Only counted results enter (see
scoring.selectors); the number of results still waiting for confirmation is said below the table.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.engine.standings import StandingRow
from scoring.formatting import format_number, signed_number
from scoring.models import Competition
from scoring.selectors import command_line
from scoring.selectors import competition_standings, standing_values, standings_columns, standings_preliminary_count


def standings_json_rows(rows: list[StandingRow]) -> list[dict[str, Any]]:
    # The JSON rows keep their published shape (above): the rank and `tied`, not the printed label.
    return [{key: value for key, value in standing_values(row).items() if key != "rank_label"} for row in rows]


def cell_text(key: str, values: dict[str, Any]) -> str:
    """One cell of the readable table: the rank as printed (3=), the name, the difference signed."""
    if key == "rank":
        return values["rank_label"]
    if key == "team":
        return values["team"]
    if key == "difference":
        return signed_number(values["difference"])
    return format_number(values[key])


class Command(BaseCommand):
    help = "Print a competition's standings table (add --json for a JSON array of rows)."

    def add_arguments(self, parser):
        parser.add_argument("--competition", type=int, required=True, help="The competition's id.")
        parser.add_argument("--round", type=int, default=None, help="The table after this round.")
        parser.add_argument("--json", action="store_true", help="Print one JSON array of rows.")

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        try:
            competition = command_line.competition(options["competition"])
        except Competition.DoesNotExist:
            raise CommandError(_("There is no competition with id %(id)s.") % {"id": options["competition"]}) from None
        up_to_round = options["round"]
        if up_to_round is not None and up_to_round < 1:
            raise CommandError(_("The round must be 1 or more."))
        rows = competition_standings(competition, up_to_round=up_to_round)
        if options["json"]:
            self.stdout.write(json.dumps(standings_json_rows(rows), ensure_ascii=False))
            return
        self.stdout.write(self.render_text(competition, rows, up_to_round))

    def render_text(self, competition: Competition, rows: list[StandingRow], up_to_round: int | None) -> str:
        title = str(competition)
        if up_to_round is not None:
            title += " – " + _("after round %(number)s") % {"number": up_to_round}
        columns = standings_columns(competition.points_rules)
        headers = [str(column.short) for column in columns]
        body = [[cell_text(column.key, values) for column in columns] for values in map(standing_values, rows)]
        widths = [max(len(line[i]) for line in [headers, *body]) for i in range(len(headers))]
        # Names read from the left, figures line up on the right.
        left = [column.key == "team" for column in columns]

        def format_line(cells: list[str]) -> str:
            return "  ".join(
                cell.ljust(widths[i]) if left[i] else cell.rjust(widths[i]) for i, cell in enumerate(cells)
            ).rstrip()

        lines = [title, "", format_line(headers), "─" * len(format_line(headers))]
        lines.extend(format_line(cells) for cells in body)
        if not rows:
            lines.append(_("The competition has no teams yet."))
        preliminary = standings_preliminary_count(competition, up_to_round)
        if preliminary:
            lines.append("")
            lines.append(
                translation.ngettext(
                    "%(count)s result is waiting for confirmation and does not count yet.",
                    "%(count)s results are waiting for confirmation and do not count yet.",
                    preliminary,
                )
                % {"count": preliminary}
            )
        return "\n".join(lines)
