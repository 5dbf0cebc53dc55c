"""Each player's rating before and after each rated match is kept (PlayerRating) by the services,
as the standings rows are, instead of a replay kept in each server process; the history of the
results stored so far is replayed into it."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F, Q
from django.db.models.functions import Coalesce

from scoring.engine.rating import RatedMatch, rate

# As they were when this migration was written: the statuses whose result is final whatever the
# competition asks (docs/rules.md, "Which results count"), those final where no confirmation is
# asked, and the ends of a match not played at the table (not rated).
ALWAYS_FINAL = ("confirmed", "void")
FINAL_UNCONFIRMED = ("finished", "submitted")
NOT_PLAYED_AT_TABLE = ("forfeit", "warnings")


def fill_ratings(apps, schema_editor):
    """Replay every rated match in the order they were played, as selectors.rating.rated_matches
    orders them, and store each player's rating rows. The historical models only: on a new
    database there is nothing to do."""
    Match = apps.get_model("scoring", "Match")
    PlayerRating = apps.get_model("scoring", "PlayerRating")
    final = (Q(status__in=ALWAYS_FINAL) | Q(status__in=FINAL_UNCONFIRMED, competition__requires_confirmation=False)) & Q(
        home_points__isnull=False
    )
    rows = (
        Match.objects.filter(final, competition__is_public=True, winner__in=("home", "away", "draw"))
        .exclude(status="void")
        .exclude(end__in=NOT_PLAYED_AT_TABLE)
        .annotate(played_at=Coalesce("started_at", "scheduled_start", "submitted_at", "confirmed_at"))
        .order_by(
            F("played_at").asc(nulls_last=True), F("round__date").asc(nulls_last=True),
            "competition__season", "round__number", "table", "id",
        )
        .values_list(
            "id", "home_team__player_one_id", "home_team__player_two_id", "away_team__player_one_id",
            "away_team__player_two_id", "winner",
        )
    )  # fmt: skip
    sequence = [RatedMatch(pk, (h1, h2), (a1, a2), winner) for pk, h1, h2, a1, a2, winner in rows]
    seq_of = {rated.match_id: index for index, rated in enumerate(sequence)}
    played = {}
    ratings = []
    for change in rate(sequence).changes:
        played[change.player_id] = played.get(change.player_id, 0) + 1
        ratings.append(PlayerRating(
            match_id=change.match_id, player_id=change.player_id, seq=seq_of[change.match_id],
            before=change.before, after=change.after, played=played[change.player_id],
        ))  # fmt: skip
    PlayerRating.objects.bulk_create(ratings, batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0018_member_details"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerRating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField(verbose_name="place in the rating's order")),
                ("before", models.FloatField(verbose_name="rating before")),
                ("after", models.FloatField(verbose_name="rating after")),
                ("played", models.PositiveIntegerField(verbose_name="rated matches")),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="scoring.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="scoring.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating after a match",
                "verbose_name_plural": "ratings after a match",
                "constraints": [
                    models.UniqueConstraint(fields=("match", "player"), name="rating_one_row_per_player_and_match")
                ],
                "indexes": [
                    models.Index(fields=["player", "seq"], name="rating_player_seq"),
                    models.Index(fields=["seq"], name="rating_seq"),
                ],
            },
        ),
        migrations.RunPython(fill_ratings, migrations.RunPython.noop),
    ]
