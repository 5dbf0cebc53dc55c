"""Each team signs for itself: a table link gets the away team's own code (the code it had becomes
the home team's), and a conflict at the table stays open until it is settled."""

import secrets

from django.db import migrations, models

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"


def give_away_codes(apps, schema_editor):
    TableLink = apps.get_model("scoring", "TableLink")
    taken = set(TableLink.objects.values_list("code", flat=True))
    for link in TableLink.objects.filter(away_code__isnull=True):
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(CODE_ALPHABET) for _n in range(8))
        taken.add(code)
        link.away_code = code
        link.save(update_fields=["away_code"])


def settle_decided_conflicts(apps, schema_editor):
    # Conflicts from before: open as they were, but those of a match no longer played are settled.
    TableDeal = apps.get_model("scoring", "TableDeal")
    TableDeal.objects.filter(status="conflict").exclude(
        match__status__in=["scheduled", "in_progress", "postponed", "finished"]
    ).update(settled_at=models.F("decided_at"))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0013_table_entry")]

    operations = [
        migrations.AlterField(
            model_name="tablelink",
            name="code",
            field=models.CharField(max_length=12, unique=True, verbose_name="home team's code"),
        ),
        migrations.AddField(
            model_name="tablelink",
            name="away_code",
            field=models.CharField(max_length=12, null=True, verbose_name="away team's code"),
        ),
        migrations.RunPython(give_away_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tablelink",
            name="away_code",
            field=models.CharField(max_length=12, unique=True, verbose_name="away team's code"),
        ),
        migrations.AddField(
            model_name="tabledeal",
            name="settled_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="settled"),
        ),
        migrations.RunPython(settle_decided_conflicts, migrations.RunPython.noop),
    ]
