"""The season's chores: matches moved by agreement (MatchMove, Match.hall), reminders (Reminder,
Competition.reminder_days), check-in before the draw (CheckIn), and the enrolment rules
(Competition.team_players_min/max, one_team_per_player; Team.reserves)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import scoring.validators


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_championship"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="moves_need_approval",
            field=models.BooleanField(
                default=False, verbose_name="a match moved by agreement needs the organiser's approval"
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="reminder_days",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="A protocol waiting for confirmation, or a match played without a protocol, gets one "
                "reminder by e-mail after this many days. Empty: no reminders.",
                null=True,
                verbose_name="days before a reminder",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="team_players_min",
            field=models.PositiveSmallIntegerField(default=2, verbose_name="fewest players in a team"),
        ),
        migrations.AddField(
            model_name="competition",
            name="team_players_max",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="The pair and its reserves. Empty: any number.", null=True,
                verbose_name="most players in a team",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="one_team_per_player",
            field=models.BooleanField(default=False, verbose_name="a player plays for one team only"),
        ),
        migrations.AddField(
            model_name="team",
            name="reserves",
            field=models.ManyToManyField(
                blank=True,
                help_text="Players of the club who may play for the team besides its pair.",
                related_name="reserve_for",
                to="scoring.player",
                verbose_name="reserves",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="hall",
            field=models.CharField(
                blank=True, max_length=150, validators=[scoring.validators.no_control_characters], verbose_name="hall"
            ),
        ),
        migrations.CreateModel(
            name="MatchMove",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("old_start", models.DateTimeField(blank=True, null=True, verbose_name="date before")),
                ("new_start", models.DateTimeField(verbose_name="new date and time")),
                (
                    "hall",
                    models.CharField(
                        blank=True, max_length=150, validators=[scoring.validators.no_control_characters],
                        verbose_name="hall",
                    ),
                ),
                (
                    "reason",
                    models.TextField(blank=True, validators=[scoring.validators.no_control_characters], verbose_name="why"),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("waiting_away", "waiting for the away team"),
                            ("waiting_organiser", "waiting for the organiser's approval"),
                            ("moved", "moved"),
                            ("declined", "declined by the away team"),
                            ("refused", "not approved by the organiser"),
                            ("withdrawn", "withdrawn"),
                        ],
                        default="waiting_away",
                        max_length=20,
                        verbose_name="status",
                    ),
                ),
                ("proposed_at", models.DateTimeField(auto_now_add=True, verbose_name="proposed")),
                ("answered_at", models.DateTimeField(blank=True, null=True, verbose_name="answered")),
                ("approved_at", models.DateTimeField(blank=True, null=True, verbose_name="decided by the organiser at")),
                (
                    "note",
                    models.TextField(
                        blank=True, validators=[scoring.validators.no_control_characters], verbose_name="note with the answer"
                    ),
                ),
                (
                    "answered_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                        to=settings.AUTH_USER_MODEL, verbose_name="answered by",
                    ),
                ),
                (
                    "approved_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                        to=settings.AUTH_USER_MODEL, verbose_name="decided by the organiser",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="moves", to="scoring.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "proposed_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                        to=settings.AUTH_USER_MODEL, verbose_name="proposed by",
                    ),
                ),
            ],
            options={
                "verbose_name": "match moved by agreement",
                "verbose_name_plural": "matches moved by agreement",
                "ordering": ["match", "-proposed_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status__in", ["waiting_away", "waiting_organiser"])),
                        fields=("match",),
                        name="match_move_one_open_per_match",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Reminder",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("confirmation", "protocol waiting for confirmation"),
                            ("protocol", "no protocol yet"),
                        ],
                        max_length=20,
                        verbose_name="kind",
                    ),
                ),
                ("sent_at", models.DateTimeField(auto_now_add=True, verbose_name="sent")),
                ("recipients", models.JSONField(blank=True, default=list, verbose_name="sent to")),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="reminders", to="scoring.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "reminder",
                "verbose_name_plural": "reminders",
                "ordering": ["match", "sent_at"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "kind"), name="reminder_once_per_kind"),
                ],
            },
        ),
        migrations.CreateModel(
            name="CheckIn",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("day", models.DateField(verbose_name="day")),
                ("at", models.DateTimeField(auto_now_add=True, verbose_name="checked in")),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="check_ins",
                        to="scoring.competition", verbose_name="competition",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+",
                        to="scoring.player", verbose_name="player",
                    ),
                ),
                (
                    "team",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+",
                        to="scoring.team", verbose_name="team",
                    ),
                ),
            ],
            options={
                "verbose_name": "check-in",
                "verbose_name_plural": "check-ins",
                "ordering": ["competition", "day", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(team__isnull=True, player__isnull=False)
                        | models.Q(team__isnull=False, player__isnull=True),
                        name="check_in_team_or_player",
                    ),
                    models.UniqueConstraint(fields=("competition", "day", "team"), name="check_in_team_once_a_day"),
                    models.UniqueConstraint(
                        fields=("competition", "day", "player"), name="check_in_player_once_a_day"
                    ),
                ],
            },
        ),
    ]
