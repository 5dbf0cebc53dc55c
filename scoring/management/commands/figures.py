"""`python manage.py figures [--competition ID | --team ID | --player ID | --club ID] [--json]`: Canasta
figures and records (docs/figures.md), as the pages show them.

With `--json` it prints one JSON object:
- a player, pair or club: {"player": "Anna Berg", "club": "Canastaklubben Ess", "seasons": [
  {"season": null, "figures": {...}, "federation": {...}}, {"season": "2026/27", ...}, ...]}
  (`team` or `club` instead of `player`; the first season, null, is all seasons), and for a club
  its "records";
- a competition: {"competition": "Serien", "season": "2026/27", "figures": {...}, "rounds":
  [{"round": 1, "figures": {...}}], "pairs": [{"pair": "Anna/Bo", "figures": {...}}], "records": [...]};
- nothing named: the federation's {"records": [...]}.
Each "figures" object has every figure by its key (selectors.figures.FIGURES: "deals_per_match",
"natural_per_deal", "went_out_share", ...): shares in per cent with one decimal, ratios with two,
points and minutes with one, null where there is nothing to count. Each record is {"record":
"comeback", "value": 3850, "team": "Anna/Bo", "opponent": "Eva/Filip", "match": 12, "deal": 2,
"competition": "Serien 2026/27"}. Without `--json`, the figures as a readable table.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.formatting import figure_number, figure_text
from scoring.models import Club, Competition, Player, Team
from scoring.selectors import command_line
from scoring.selectors import figures as figures_selectors
from scoring.selectors import records as records_selectors
from scoring.selectors.figures import FIGURES, Figures


def figures_json(figures: Figures) -> dict:
    return {figure.key: figure_number(figures.value(figure.key), figure.kind) for figure in FIGURES}


def subject_json(kind: str, subject, figures) -> dict:
    data = {kind: subject.name}
    if kind != "club":
        data["club"] = subject.club.name
    data["seasons"] = [
        {"season": row.season, "figures": figures_json(row.own), "federation": figures_json(row.field)}
        for row in figures.rows
    ]
    return data


def competition_json(competition: Competition) -> dict:
    figures = figures_selectors.competition_figures(competition, teams=True)
    return {
        "competition": competition.name,
        "season": competition.season,
        "figures": figures_json(figures.total),
        "rounds": [{"round": row.number, "figures": figures_json(row.figures)} for row in figures.rounds],
        "pairs": [{"pair": row.name, "figures": figures_json(row.figures)} for row in figures.teams],
        "records": [record.as_dict() for record in records_selectors.competition_records(competition)],
    }


class Command(BaseCommand):
    help = "Print Canasta figures and records of a competition, pair, player or club, or the federation's records (add --json for JSON)."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--competition", type=int, help="The competition's id.")
        which.add_argument("--team", type=int, help="The pair's (team's) id.")
        which.add_argument("--player", type=int, help="The player's id.")
        which.add_argument("--club", type=int, help="The club's id.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        data = self.read(options)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self.write_table(data)

    def read(self, options) -> dict:
        try:
            if options["competition"] is not None:
                return competition_json(command_line.competition(options["competition"]))
            if options["team"] is not None:
                team = command_line.team(options["team"])
                return subject_json("team", team, figures_selectors.team_figures(team))
            if options["player"] is not None:
                player = command_line.player(options["player"])
                return subject_json("player", player, figures_selectors.player_figures(player))
            if options["club"] is not None:
                club = command_line.club(options["club"])
                data = subject_json("club", club, figures_selectors.club_figures(club))
                data["records"] = [record.as_dict() for record in records_selectors.club_records(club)]
                return data
        except (Competition.DoesNotExist, Team.DoesNotExist, Player.DoesNotExist, Club.DoesNotExist):
            raise CommandError(_("Nothing has that id.")) from None
        return {"records": [record.as_dict() for record in records_selectors.federation_records()]}

    def write_table(self, data: dict) -> None:
        """The figures as the site writes them (1,25 · 42 % · 1 230), one line each."""
        if "seasons" in data:
            blocks = [(row["season"] or _("All seasons"), row["figures"], row["federation"]) for row in data["seasons"]]
        elif "figures" in data:
            blocks = [(f"{data['competition']} {data['season']}", data["figures"], None)]
        else:
            blocks = []
        for title, own, field in blocks:
            self.stdout.write(title)
            for figure in FIGURES:
                line = f"  {figure.label}: {self.text(own[figure.key], figure.kind)}"
                if field is not None and figure.compared:
                    line += f" ({_('Federation average')}: {self.text(field[figure.key], figure.kind)})"
                self.stdout.write(line)
        for record in data.get("records", []):
            kind = records_selectors.KINDS[record["record"]]
            self.stdout.write(f"{kind.label}: {record['value']} – {record['team']}, {record['competition']}")

    @staticmethod
    def text(value, kind: str) -> str:
        """A figure of the JSON (per cent for a share) as the site writes it."""
        if value is None:
            return figure_text(None, kind)
        return figure_text(value / 100 if kind == "share" else value, kind)
