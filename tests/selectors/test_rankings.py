"""Ranking lists and the rating read from stored results. The pages of them, and the `rankings`
command's JSON held equal to the page, are tests/views/test_rankings_pages.py."""

from __future__ import annotations

import pytest
from django.db import transaction

from scoring import services
from scoring.engine.rating import rate
from scoring.models import Bye, Match, PlayerRating, TeamStanding
from scoring.selectors.rankings import PAIRS, PLAYERS, RankingFilter, rankings
from scoring.selectors.rating import rated_match_ids, rating_changes
from scoring.services.locking import lock_match
from scoring.services.rating import rated_sequence
from scoring.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def test_rating_replays_played_final_results_in_order(federation):
    m = federation["matches"]
    # Rated: o1, r1, r2, r3 (the walk over r4 and the unconfirmed match are not).
    assert set(rated_match_ids()) == {m["o1"].pk, m["r1"].pk, m["r2"].pk, m["r3"].pk}
    anna = federation["players"]["Anna"].pk
    # Without recorded times: by season, round, table: o1 (2025/26), r1, r2 (table 2), r3 (round 2).
    # o1: Anna 1500 loses to a 1500 pair: 1484. r1: AB 1484 against EF 1516 (32 apart):
    # expected 1 / (1 + 10^(32/400)) = 0.454078, win: + 32 × 0.545922 = 17.4695.
    changes = rating_changes(anna)
    assert [c.match_id for c in changes] == [m["o1"].pk, m["r1"].pk, m["r3"].pk]
    assert changes[0].after == 1484
    assert changes[1].after == pytest.approx(1484 + 17.4695, abs=1e-4)


def test_a_corrected_result_moves_the_stored_ratings(federation):
    """The services store the ratings with the change: a result of the season before turned round
    moves every later rating, each row as a replay of the whole history makes it."""
    m = federation["matches"]
    anna = federation["players"]["Anna"].pk
    before = rating_changes(anna)[-1].after
    # o1, the first rated match: EF beat AB; now AB won it. A correction in the services' way.
    match = Match.objects.get(pk=m["o1"].pk)
    with transaction.atomic():
        locked = lock_match(match)
        locked.winner, locked.home_points, locked.away_points = "away", 0, 1
        locked.save()
        services.rating_refresh(matches=[locked])
    after = rating_changes(anna)[-1].after
    assert after > before
    replayed = rate(rated_sequence())
    stored = {(row.match_id, row.player_id): (row.before, row.after) for row in PlayerRating.objects.all()}
    assert stored == {(c.match_id, c.player_id): (c.before, c.after) for c in replayed.changes}


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
    eva_changes = rating_changes(federation["players"]["Eva"].pk)
    assert by_name["Eva"].rating == pytest.approx(eva_changes[-1].after)


def test_club_and_pair_filters(federation):
    ess = federation["clubs"]["ess"]
    rows = rankings(RankingFilter(club=ess.pk))
    assert {row.name for row in rows} == {"Anna", "Bo", "Cilla", "Dan"}
    pairs = rankings(RankingFilter(season="2025/26"), PAIRS)
    assert [(row.name, row.matches, row.points) for row in pairs] == [("Eva/Filip", 1, 1), ("Anna/Bo", 1, 0)]


def test_the_match_services_keep_the_stored_ratings(league):
    """A confirmed result is rated when the services confirm it, stops being rated when the
    secretary reopens the match, and is rated again once confirmed anew."""
    played, secretary = league["played"], league["secretary"]
    sides = {played.home_team.player_one_id, played.home_team.player_two_id,
             played.away_team.player_one_id, played.away_team.player_two_id}  # fmt: skip
    assert set(PlayerRating.objects.filter(match=played).values_list("player_id", flat=True)) == sides
    assert rated_match_ids() == [played.pk]  # the match in play and the hidden competition's are not
    reopened = services.match_reopen(match=played, user=secretary, reason="Fel i giv 3", expected_version=None)
    assert not PlayerRating.objects.exists()
    submitted = services.match_submit(match=reopened, user=secretary, expected_version=None)
    services.match_confirm(match=submitted, user=league["away_captain"], expected_version=None)
    winner = PlayerRating.objects.get(match=played, player_id=played.home_team.player_one_id)
    assert (winner.before, winner.after, winner.played) == (1500, 1516, 1)


def test_a_bye_that_scores_in_the_table_is_no_match_in_the_lists(federation):
    """The lists read the competitions' stored standings rows: a bye that counts as a won match in
    its table (docs/rules.md, "Byes") is not a match of the pair's or its players' lists."""
    series, ab = federation["series"], federation["teams"]["ab"]
    before = {(kind, row.name): row for kind in (PLAYERS, PAIRS) for row in rankings(RankingFilter(season="2026/27"), kind)}
    series.points_overrides = {"bye": "win"}
    series.save()
    Bye.objects.create(round=series.rounds.get(number=2), team=ab)
    standings_refresh(competition=series)
    assert TeamStanding.objects.get(competition=series, team=ab).played == 3  # r1, r3 and the bye
    after = {(kind, row.name): row for kind in (PLAYERS, PAIRS) for row in rankings(RankingFilter(season="2026/27"), kind)}
    assert after == before
    assert (after[(PAIRS, "Anna/Bo")].matches, after[(PLAYERS, "Anna")].points) == (2, 1)
