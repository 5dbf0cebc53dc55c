# The club's member list (docs/member-file.md): a player's birth year and e-mail, and the list read
# from a file that waits to be saved.

import django.db.models.deletion
import scoring.validators
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0017_season_chores"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="birth_year",
            field=models.PositiveSmallIntegerField(blank=True, null=True, validators=[scoring.validators.birth_year_in_the_past], verbose_name="birth year"),
        ),
        migrations.AddField(
            model_name="player",
            name="email",
            field=models.EmailField(blank=True, max_length=254, verbose_name="e-mail"),
        ),
        migrations.CreateModel(
            name="MemberListDraft",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("file_name", models.CharField(blank=True, max_length=200, verbose_name="file name")),
                ("columns", models.JSONField(verbose_name="columns")),
                ("rows", models.JSONField(verbose_name="rows")),
                ("read_at", models.DateTimeField(auto_now_add=True, verbose_name="read")),
                ("club", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="member_list_draft", to="scoring.club", verbose_name="club")),
                ("read_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="read by")),
            ],
            options={
                "verbose_name": "member list waiting to be saved",
                "verbose_name_plural": "member lists waiting to be saved",
            },
        ),
    ]
