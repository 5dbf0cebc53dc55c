"""A club's, competition's and championship's page counter is an edition, not a version: the word
"version" is left to a match's form concurrency number (scoring.selectors.editions)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0021_figure_sums_per_pair")]

    operations = [
        migrations.RenameField(model_name=model, old_name="version", new_name="edition")
        for model in ("club", "competition", "championship")
    ] + [
        migrations.AlterField(
            model_name=model,
            name="edition",
            field=models.PositiveBigIntegerField(default=1, editable=False, verbose_name="edition"),
        )
        for model in ("club", "competition", "championship")
    ]
