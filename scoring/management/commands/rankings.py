"""`python manage.py rankings [--season S] [--club ID] [--kind K] [--pairs] [--json]`: a ranking list.

With `--json` it prints one JSON array of rows in rank order, each
{"rank": 1, "tied": false, "player": "Anna Berg", "club": "Canastaklubben Ess", "matches": 12,
 "won": 8, "points": 8.5, "card_points": 61240, "rating": 1562}
(`pair` instead of `player` with `--pairs`; points as numbers, an int when whole; the rating a
whole number, null when the player has no rated match in the list). The rows are those of the page
`/rankings/` with the same filters (scoring.selectors.rankings).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _, pgettext

from scoring.models import Competition
from scoring.selectors.rankings import PAIRS, PLAYERS, RankingFilter, club_name, rankings, seasons


def ranking_json_rows(rows, list_kind: str) -> list[dict]:
    name_key = "pair" if list_kind == PAIRS else "player"
    return [
        {
            "rank": row.rank,
            "tied": row.tied,
            name_key: row.name,
            "club": row.club,
            "matches": row.matches,
            "won": row.won,
            "points": row.points,
            "card_points": row.card_points,
            "rating": None if row.rating is None else round(row.rating),
        }
        for row in rows
    ]


class Command(BaseCommand):
    help = "Print a ranking list of players (or pairs) over a season (add --json for a JSON array)."

    def add_arguments(self, parser):
        parser.add_argument("--season", default=None, help="The season, for example 2026/27.")
        parser.add_argument("--club", type=int, default=None, help="Only this club's players (its id).")
        parser.add_argument("--kind", default=None, choices=Competition.Kind.values, help="Only this kind of competition.")
        parser.add_argument("--pairs", action="store_true", help="Rank the fixed pairs instead of the players.")
        parser.add_argument("--json", action="store_true", help="Print one JSON array of rows.")

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        season, club = options["season"], options["club"]
        if season is not None and season not in seasons():
            raise CommandError(_("There is no season %(season)s.") % {"season": season})
        if club is not None and club_name(club) is None:
            raise CommandError(_("There is no club with id %(id)s.") % {"id": club})
        list_kind = PAIRS if options["pairs"] else PLAYERS
        rows = ranking_json_rows(rankings(RankingFilter(season=season, club=club, kind=options["kind"]), list_kind), list_kind)
        if options["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False))
            return
        name_key = "pair" if list_kind == PAIRS else "player"
        header = [pgettext("standings", "Rank"), _("Pair") if list_kind == PAIRS else _("Player"), _("Club"), _("Matches"), _("Won"),
                  _("Match points"), _("Card points for"), _("Rating")]
        self.stdout.write(" | ".join(header))
        for row in rows:
            rank = f"{row['rank']}=" if row["tied"] else str(row["rank"])
            values = [rank, row[name_key], row["club"], row["matches"], row["won"], row["points"], row["card_points"],
                      "–" if row["rating"] is None else row["rating"]]
            self.stdout.write(" | ".join(str(v) for v in values))
