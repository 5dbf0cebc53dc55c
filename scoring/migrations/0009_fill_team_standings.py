from decimal import Decimal

from django.db import migrations

# Match statuses as they were when this migration was written.
CONFIRMED, VOID = "confirmed", "void"
PLAYED = ("finished", "submitted", "confirmed")


# What a bye scores and a win is worth in each competition preset (engine.rules.POINTS_PRESETS)
# when this migration was written: a migration keeps the rules of its day.
PRESET_BYE_AND_WIN = {"sv-serie": ("none", 1), "fi-liitto": ("none", 2)}


def _bye_scores_a_win(competition):
    """Whether a bye scores as a won match (docs/rules.md, "Byes": default nothing), and
    the points for a win: the competition's overrides over its preset."""
    bye, win = PRESET_BYE_AND_WIN.get(competition.points_key, ("none", 1))
    overrides = competition.points_overrides or {}
    return overrides.get("bye", bye) == "win", overrides.get("win", win)


def _empty():
    return {"played": 0, "won": 0, "drawn": 0, "lost": 0, "points": Decimal(0), "card_points_for": 0,
            "card_points_against": 0}  # fmt: skip


def fill_standings(apps, schema_editor):
    """Store the table of every competition that has one already: each team's played, won,
    drawn, lost, match points and card points for and against, from the results the services
    stored on its matches (the results that count: confirmed, or also finished and submitted
    where the competition does not ask for confirmation, and a void match that was given a
    result), and from its byes where a bye scores as a win once its round has a result that
    counts. The historical models only: on a new database there is nothing to do."""
    Competition = apps.get_model("scoring", "Competition")
    Match = apps.get_model("scoring", "Match")
    Bye = apps.get_model("scoring", "Bye")
    TeamStanding = apps.get_model("scoring", "TeamStanding")

    for competition in Competition.objects.all():
        statuses = (CONFIRMED,) if competition.requires_confirmation else PLAYED
        counted = Match.objects.filter(
            competition=competition, status__in=statuses + (VOID,), home_points__isnull=False
        )
        rows = {team_id: _empty() for team_id in competition.teams.values_list("id", flat=True)}
        fields = ("round_id", "winner", "home_team_id", "away_team_id", "home_points", "away_points",
                  "home_for", "home_against", "away_for", "away_against")  # fmt: skip
        counted_rounds = set()
        for match in counted.values(*fields):
            counted_rounds.add(match["round_id"])
            for side in ("home", "away"):
                row = rows.setdefault(match[f"{side}_team_id"], _empty())
                row["played"] += 1
                if match["winner"] == side:
                    row["won"] += 1
                elif match["winner"] == "draw":
                    row["drawn"] += 1
                else:
                    row["lost"] += 1
                row["points"] += match[f"{side}_points"] or 0
                row["card_points_for"] += match[f"{side}_for"] or 0
                row["card_points_against"] += match[f"{side}_against"] or 0
        scores, win = _bye_scores_a_win(competition)
        if scores:
            byes = Bye.objects.filter(round__competition=competition, round_id__in=counted_rounds)
            for team_id in byes.values_list("team_id", flat=True):
                row = rows.setdefault(team_id, _empty())
                row["played"] += 1
                row["won"] += 1
                row["points"] += Decimal(str(win))
        TeamStanding.objects.filter(competition=competition).delete()
        TeamStanding.objects.bulk_create(
            TeamStanding(competition=competition, team_id=team_id, **values) for team_id, values in rows.items()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_federation"),
    ]

    operations = [
        migrations.RunPython(fill_standings, migrations.RunPython.noop),
    ]
