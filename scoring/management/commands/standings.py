"""`python manage.py standings --competition ID [--json] [--round N]`: a competition's table.

With `--json` it prints one JSON array of rows in rank order, each
{"rank": 3, "tied": true, "team": "Ölandslaget", "played": 7, "won": 4, "drawn": 1, "lost": 2,
 "points": 4.5, "card_points_for": 35120, "card_points_against": 30115, "difference": 5005}
(points as numbers: 1, 0.5, 2; an int when whole). Without it, a readable table in the site's
language (Swedish), its numbers as the site prints them (scoring.formatting: 5 120, −40, 0,5). `--round N`: the table after round N. Only counted results enter (see
scoring.selectors); the number of results still waiting for confirmation is said below the table.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _, pgettext

from scoring.engine.standings import StandingRow
from scoring.formatting import format_match_points, format_number, signed_number
from scoring.models import Competition
from scoring.selectors import competition_standings, standing_values, standings_preliminary_count


def standings_json_rows(rows: list[StandingRow]) -> list[dict[str, Any]]:
    # The JSON rows keep their published shape (above): the rank and `tied`, not the printed label.
    return [{key: value for key, value in standing_values(row).items() if key != "rank_label"} for row in rows]


class Command(BaseCommand):
    help = "Print a competition's standings table (add --json for a JSON array of rows)."

    def add_arguments(self, parser):
        parser.add_argument("--competition", type=int, required=True, help="The competition's id.")
        parser.add_argument("--round", type=int, default=None, help="The table after this round.")
        parser.add_argument("--json", action="store_true", help="Print one JSON array of rows.")

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        try:
            competition = Competition.objects.select_related("organiser").get(pk=options["competition"])
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
        # As on the site: a table ranked by the card-point difference (fi-liitto) shows only that.
        shows_for_and_against = competition.points_rules.card_points != "difference"
        columns = [
            (pgettext("standings column", "Pos"), lambda row: row.rank_label),
            (pgettext("standings column", "Team"), lambda row: row.record.name),
            (pgettext("standings column", "P"), lambda row: str(row.record.played)),
            (pgettext("standings column", "W"), lambda row: str(row.record.won)),
            (pgettext("standings column", "D"), lambda row: str(row.record.drawn)),
            (pgettext("standings column", "L"), lambda row: str(row.record.lost)),
            (pgettext("standings column", "Pts"), lambda row: format_match_points(row.record.points)),
        ]
        if shows_for_and_against:
            columns += [
                (pgettext("standings column", "For"), lambda row: format_number(row.record.card_points_for)),
                (pgettext("standings column", "Against"), lambda row: format_number(row.record.card_points_against)),
            ]
        columns.append((pgettext("standings column", "Diff"), lambda row: signed_number(row.record.difference)))
        headers = [header for header, _cell in columns]
        body = [[cell(row) for _header, cell in columns] for row in rows]
        widths = [max(len(line[i]) for line in [headers, *body]) for i in range(len(headers))]

        def format_line(cells: list[str]) -> str:
            return "  ".join(
                cell.ljust(widths[i]) if i == 1 else cell.rjust(widths[i]) for i, cell in enumerate(cells)
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
