"""Each team's place after each round is kept (RoundPlace), as the standings rows are, for the
competitions whose page draws the places chart; the places of the competitions played so far are
filled in from their results."""

import django.db.models.deletion
from django.db import migrations, models

from scoring.engine.places import RoundResult, tables_after_each_round
from scoring.engine.rules import get_points_rules

# As they were when this migration was written: the statuses whose result counts (docs/rules.md,
# "Which results count"), and the competitions whose page draws the chart (team competitions of
# up to 16 teams).
FINAL = ("confirmed", "void")
ENDED = ("finished", "submitted", "confirmed", "void")
INDIVIDUAL = "individual"
PLACES_MAX_TEAMS = 16


def _plain(value):
    """Match points as the engine takes them (a Decimal field's value as a float)."""
    return float(value or 0)


def fill_places(apps, schema_editor):
    """Store the places after each round with a counted result of every competition with a chart,
    ranked by the engine as the services rank them. The historical models only: on a new database
    there is nothing to do."""
    Competition = apps.get_model("scoring", "Competition")
    Match = apps.get_model("scoring", "Match")
    Bye = apps.get_model("scoring", "Bye")
    Round = apps.get_model("scoring", "Round")
    RoundPlace = apps.get_model("scoring", "RoundPlace")

    for competition in Competition.objects.exclude(kind=INDIVIDUAL):
        names = dict(competition.teams.values_list("id", "name"))
        if len(names) > PLACES_MAX_TEAMS:
            continue
        entered = list(names)
        statuses = FINAL if competition.requires_confirmation else ENDED
        rows = Match.objects.filter(
            competition=competition, status__in=statuses, home_points__isnull=False, round__isnull=False
        ).values_list(
            "round__number", "home_team_id", "home_team__name", "away_team_id", "away_team__name", "winner",
            "home_points", "away_points", "home_for", "home_against", "away_for", "away_against",
        )
        results = []
        for number, home_id, home_name, away_id, away_name, winner, *figures in rows:
            names.setdefault(home_id, home_name)
            names.setdefault(away_id, away_name)
            home_points, away_points, home_for, home_against, away_for, away_against = figures
            results.append(RoundResult(
                round_number=number, home_id=home_id, away_id=away_id, winner=winner,
                home_points=_plain(home_points), away_points=_plain(away_points), home_for=home_for or 0,
                home_against=home_against or 0, away_for=away_for or 0, away_against=away_against or 0,
            ))  # fmt: skip
        if not results:
            continue
        byes = []
        for number, team_id, name in Bye.objects.filter(round__competition=competition).values_list(
            "round__number", "team_id", "team__name"
        ):
            names.setdefault(team_id, name)
            byes.append((number, team_id))
        points_rules = get_points_rules(competition.points_key, competition.points_overrides)
        tables = tables_after_each_round(names, entered, results, points_rules, byes)
        rounds = dict(Round.objects.filter(competition=competition).values_list("number", "id"))
        RoundPlace.objects.filter(round__competition=competition).delete()
        RoundPlace.objects.bulk_create(
            RoundPlace(round_id=rounds[number], team_id=row.record.team_id, place=row.rank)
            for number, table in tables.items()
            for row in table
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_table_side_codes"),
    ]

    operations = [
        migrations.CreateModel(
            name="RoundPlace",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("place", models.PositiveSmallIntegerField(verbose_name="place")),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="places", to="scoring.round",
                        verbose_name="round",
                    ),
                ),
                (
                    "team",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="scoring.team",
                        verbose_name="team",
                    ),
                ),
            ],
            options={
                "verbose_name": "place after a round",
                "verbose_name_plural": "places after a round",
                "constraints": [models.UniqueConstraint(fields=("round", "team"), name="round_place_one_per_team")],
            },
        ),
        migrations.RunPython(fill_places, migrations.RunPython.noop),
    ]
