from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("scoring", "0010_match_status_updated_index")]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="version",
            field=models.PositiveBigIntegerField(default=1, editable=False, verbose_name="version"),
        ),
        migrations.AddField(
            model_name="club",
            name="version",
            field=models.PositiveBigIntegerField(default=1, editable=False, verbose_name="version"),
        ),
    ]
