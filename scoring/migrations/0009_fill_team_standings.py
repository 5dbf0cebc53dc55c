from django.db import migrations


def fill_standings(apps, schema_editor):
    """Store the table of every competition that has one already.

    The rows are worked out by the services' own function (the selectors' aggregates over the
    results, the rules in the engine), which a historical model cannot run, so this uses the
    current models. It therefore comes after every migration that adds a column those models
    read; a later migration that adds one must come after this, not before. On a new database
    there is nothing to do."""
    Competition = apps.get_model("scoring", "Competition")
    if not Competition.objects.exists():
        return
    from scoring.models import Competition as CurrentCompetition
    from scoring.services.standings import standings_refresh

    for competition in CurrentCompetition.objects.all():
        standings_refresh(competition=competition)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_federation"),
    ]

    operations = [
        migrations.RunPython(fill_standings, migrations.RunPython.noop),
    ]
