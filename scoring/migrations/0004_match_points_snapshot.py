"""Matches keep the points rules they were counted under, as they keep their rule set: changing a
competition's points rules never rescores a match already started (docs/rules.md, "Rule-set presets"). Matches started
before this migration take their competition's points rules of today, the best record there is."""

from django.db import migrations, models

from scoring.engine.rules import get_points_rules


def snapshot_started_matches(apps, schema_editor):
    Competition = apps.get_model("scoring", "Competition")
    Match = apps.get_model("scoring", "Match")
    for competition in Competition.objects.only("pk", "points_key", "points_overrides"):
        snapshot = get_points_rules(competition.points_key, competition.points_overrides).to_dict()
        Match.objects.filter(competition=competition, rules_snapshot__isnull=False).update(points_snapshot=snapshot)
        Match.objects.filter(competition=competition, home_points__isnull=False).update(points_snapshot=snapshot)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_match_cache_stamp_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="points_snapshot",
            field=models.JSONField(blank=True, null=True, verbose_name="points rules played under"),
        ),
        migrations.RunPython(snapshot_started_matches, migrations.RunPython.noop),
    ]
