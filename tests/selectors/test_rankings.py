"""Ranking lists and the rating read from stored results. The pages of them, and the `rankings`
command's JSON held equal to the page, are tests/views/test_rankings_pages.py."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.models import Match
from scoring.selectors.rankings import PAIRS, RankingFilter, rankings
from scoring.selectors.rating import rating_history

pytestmark = pytest.mark.django_db


def test_rating_replays_played_final_results_in_order(federation):
    m = federation["matches"]
    history = rating_history()
    # Rated: o1, r1, r2, r3 (the walk over r4 and the unconfirmed match are not).
    assert set(history.order) == {m["o1"].pk, m["r1"].pk, m["r2"].pk, m["r3"].pk}
    anna = federation["players"]["Anna"].pk
    # Without recorded times: by season, round, table: o1 (2025/26), r1, r2 (table 2), r3 (round 2).
    # o1: Anna 1500 loses to a 1500 pair: 1484. r1: AB 1484 against EF 1516 (32 apart):
    # expected 1 / (1 + 10^(32/400)) = 0.454078, win: + 32 × 0.545922 = 17.4695.
    changes = [c for c in history.ratings.changes if c.player_id == anna]
    assert [c.match_id for c in changes] == [m["o1"].pk, m["r1"].pk, m["r3"].pk]
    assert changes[0].after == 1484
    assert changes[1].after == pytest.approx(1484 + 17.4695, abs=1e-4)


def test_a_corrected_result_is_rated_again(federation):
    m = federation["matches"]
    anna = federation["players"]["Anna"].pk
    before = rating_history().ratings.of(anna)
    match = m["o1"]
    # A correction through the services claims a new version and saves the row (updated_at moves).
    Match.objects.filter(pk=match.pk).update(
        winner="away", home_points=0, away_points=1, version=match.version + 1, updated_at=timezone.now()
    )
    after = rating_history().ratings.of(anna)
    assert after > before


def test_player_ranking_of_a_season(federation):
    rows = rankings(RankingFilter(season="2026/27"))
    by_name = {row.name: row for row in rows}
    # Eva: r1 lost (0, 3 000), r4 walk over won (1, 5 000): 2 matches, 1 point, 8 000.
    assert (by_name["Eva"].matches, by_name["Eva"].won, by_name["Eva"].points, by_name["Eva"].card_points) == (2, 1, 1, 8000)
    # Anna: r1 won 5 100, r3 lost 4 100; the submitted match does not count.
    assert (by_name["Anna"].matches, by_name["Anna"].points, by_name["Anna"].card_points) == (2, 1, 9200)
    # Greta: draw 0.5 + win 1 = 1.5 → first; Anna/Bo (1, 9 200) before Eva/Filip (1, 8 000).
    assert [row.name for row in rows[:2]] == ["Greta", "Hugo"]
    assert rows[0].rank == 1 and rows[0].tied and rows[1].rank_label == "1="
    assert by_name["Anna"].rank == 3 and by_name["Eva"].rank == 5
    # The walk-over match point is in the list but not in the rating; Eva's rating is after r1.
    eva_changes = [c for c in rating_history().ratings.changes if c.player_id == federation["players"]["Eva"].pk]
    assert by_name["Eva"].rating == pytest.approx(eva_changes[-1].after)


def test_club_and_pair_filters(federation):
    ess = federation["clubs"]["ess"]
    rows = rankings(RankingFilter(club=ess.pk))
    assert {row.name for row in rows} == {"Anna", "Bo", "Cilla", "Dan"}
    pairs = rankings(RankingFilter(season="2025/26"), PAIRS)
    assert [(row.name, row.matches, row.points) for row in pairs] == [("Eva/Filip", 1, 1), ("Anna/Bo", 1, 0)]
