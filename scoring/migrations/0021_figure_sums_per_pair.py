"""The stored sums of the Canasta figures are kept per pair too (FigureSums.team), so that a player's,
pair's or club's figures add up its pairs' stored rows instead of their deals; the final results
stored so far are added up again, both sides and each pair's."""

from datetime import timedelta

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone

# As they were when this migration was written: the statuses whose result is final whatever the
# competition asks (docs/rules.md, "Which results count"), and those final where no confirmation
# is asked; the deal scores' bands (their lower bounds, None: below 0).
ALWAYS_FINAL = ("confirmed", "void")
FINAL_UNCONFIRMED = ("finished", "submitted")
SCORE_BANDS = (None, 0, 500, 1000, 1500, 2000, 2500, 3000)
SIDES = ("home", "away")
COUNTS = (
    "matches", "deals", "natural", "mixed", "went_out", "concealed", "red_threes", "red_three_deals", "score",
    "score_squares", "clock_ends", "target_ends", "timed_targets",
)  # fmt: skip


def band(score: int) -> int:
    index = 0
    for position, low in enumerate(SCORE_BANDS):
        if low is not None and score >= low:
            index = position
    return index


def fill_sums(apps, schema_editor):
    """Both sides of every deal of every final result, added up by competition, round and month,
    and each side by its pair too, as selectors.figures.competition_sums adds them (the rows of
    0020_figure_sums made again with the pairs'). The historical models only."""
    Match = apps.get_model("scoring", "Match")
    Deal = apps.get_model("scoring", "Deal")
    FigureSums = apps.get_model("scoring", "FigureSums")
    final = (Q(status__in=ALWAYS_FINAL) | Q(status__in=FINAL_UNCONFIRMED, competition__requires_confirmation=False)) & Q(
        home_points__isnull=False
    )
    matches = {}
    rows = Match.objects.filter(final).values_list(
        "pk", "competition_id", "round_id", "round__date", "started_at", "end", "deal_count", "rules_snapshot",
        "home_team_id", "away_team_id",
    )
    for pk, competition_id, round_id, round_date, started_at, end, deal_count, rules, home, away in rows:
        day = round_date or (timezone.localtime(started_at).date() if started_at else None)
        red_three = (rules or {}).get("red_three")
        counted_red = isinstance(red_three, (int, float)) and not isinstance(red_three, bool) and red_three > 0
        month = day.replace(day=1) if day else None
        matches[pk] = (competition_id, round_id, month, started_at, end, deal_count, counted_red, (home, away))
    sums = {}
    seen = set()
    columns = [f"{side}_{name}" for side in SIDES for name in ("natural", "mixed", "red3", "score")]
    deals = Deal.objects.filter(match__in=Match.objects.filter(final)).order_by()
    for row in deals.values_list("match_id", "number", "dealt_at", "out", "concealed", *columns).iterator():
        match_id, number, dealt_at, out, concealed = row[:5]
        competition_id, round_id, month, started_at, end, deal_count, counted_red, teams = matches[match_id]
        first = match_id not in seen
        seen.add(match_id)
        for index, side in enumerate(SIDES):
            natural, mixed, red3, score = row[5 + 4 * index : 9 + 4 * index]
            for team in (None, teams[index]):
                total = sums.setdefault(
                    (competition_id, round_id, month, team),
                    {**dict.fromkeys(COUNTS, 0), "target_minutes": timedelta(), "bands": [0] * len(SCORE_BANDS)},
                )
                total["matches"] += first
                total["deals"] += 1
                total["natural"] += natural
                total["mixed"] += mixed
                total["went_out"] += out == side
                total["concealed"] += out == side and concealed
                total["red_threes"] += red3 if counted_red else 0
                total["red_three_deals"] += counted_red
                total["score"] += score
                total["score_squares"] += score * score
                total["clock_ends"] += first and end == "clock"
                total["target_ends"] += first and end == "target"
                if end == "target" and number == deal_count and started_at and dealt_at:
                    total["timed_targets"] += 1
                    total["target_minutes"] += dealt_at - started_at
                total["bands"][band(score)] += 1
    FigureSums.objects.all().delete()
    FigureSums.objects.bulk_create(
        [
            FigureSums(
                competition_id=competition_id, round_id=round_id, month=month, team_id=team,
                **{name: total[name] for name in COUNTS},
                target_minutes=total["target_minutes"].total_seconds() / 60,
                **{f"band{index}": count for index, count in enumerate(total["bands"])},
            )
            for (competition_id, round_id, month, team), total in sums.items()
        ],
        batch_size=2000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0020_figure_sums"),
    ]

    operations = [
        migrations.AddField(
            model_name="figuresums",
            name="team",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="scoring.team"
            ),
        ),
        migrations.RunPython(fill_sums, migrations.RunPython.noop),
    ]
