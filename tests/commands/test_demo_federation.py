"""The federation-scale data (scoring/devdata/federation.py, `manage.py demo --scale federation`): every
stored number is what the engine computes from the stored protocol, with no check error."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from scoring.adapters import computed_fields, deal_to_entry
from scoring.engine import replay
from scoring.devdata.federation import FEDERATION_MARKER, federation_size, league_rounds
from scoring.models import Club, Competition, Deal, Match, Team
from scoring.selectors import competition_standings

pytestmark = pytest.mark.django_db


def _decimal(value):
    return None if value is None else Decimal(str(value))


def test_a_league_of_the_federation_meets_every_pair_once():
    rounds = league_rounds(list(range(1, 21)))
    pairs = [frozenset(pair) for round_ in rounds for pair in round_]
    assert len(rounds) == 19 and all(len(round_) == 10 for round_ in rounds)
    assert len(set(pairs)) == len(pairs) == 190
    assert all(len({team for pair in round_ for team in pair}) == 20 for round_ in rounds)


def test_the_full_size_is_a_federation_of_600_teams_and_10_000_matches():
    size = federation_size(1.0)
    assert (size.clubs, size.teams, size.leagues + 1) == (60, 600, 30)
    matches = size.leagues * (size.league_size // 2) * (size.league_size - 1) + size.national_rounds * size.teams // 2
    assert 9_500 <= matches <= 10_500


def test_a_small_federation_replays_to_its_stored_numbers():
    out = StringIO()
    call_command("demo", "--scale", "federation", "--fraction", "0.01", "--public-passwords", stdout=out)
    assert "deals in" in out.getvalue()
    assert Club.objects.filter(name=FEDERATION_MARKER).exists()
    matches = list(Match.objects.select_related("competition").order_by("pk"))
    assert len(matches) == 200 and Team.objects.count() == 20 and Competition.objects.count() == 2
    deals_by_match: dict[int, list[Deal]] = {}
    for deal in Deal.objects.order_by("match_id", "number"):
        deals_by_match.setdefault(deal.match_id, []).append(deal)
    assert sum(map(len, deals_by_match.values())) > 200 * 8  # about twelve a match

    for match in matches:
        deals = deals_by_match[match.pk]
        assert [deal.number for deal in deals] == list(range(1, len(deals) + 1))
        state = replay(
            match.rules,
            [deal_to_entry(deal, match.started_at) for deal in deals],
            points=match.competition.points_rules,
            clock_expired=match.clock_expired,
        )
        assert state.errors == 0, (match.pk, [(d.number, p.code) for d in state.deals for p in d.errors])
        assert state.finished and match.status == Match.Status.CONFIRMED
        assert (match.deal_count, match.home_total, match.away_total) == (
            len(state.deals), state.home_total, state.away_total
        )
        outcome = state.outcome
        assert (match.end, match.winner) == (state.end, state.winner)
        assert (match.home_points, match.away_points) == (_decimal(outcome.home_points), _decimal(outcome.away_points))
        assert (match.home_for, match.home_against, match.away_for, match.away_against) == (
            outcome.home_for, outcome.home_against, outcome.away_for, outcome.away_against
        )
        for deal, replayed in zip(deals, state.deals):
            stored = {name: getattr(deal, name) for name in computed_fields(replayed)}
            assert stored == computed_fields(replayed), (match.pk, deal.number)

    for competition in Competition.objects.all():
        rows = competition_standings(competition)
        played = Match.objects.filter(competition=competition).count()
        assert sum(row.record.played for row in rows) == 2 * played
        assert sum(row.record.points for row in rows) == played  # 1 + 0, or ½ + ½ for a draw

    again = StringIO()
    call_command("demo", "--scale", "federation", "--fraction", "0.01", "--public-passwords", stdout=again)
    assert "nothing was added" in again.getvalue()
    assert Match.objects.count() == 200


def test_head_to_head_reads_only_the_tied_teams_matches_and_ranks_the_same(monkeypatch):
    from scoring import selectors
    from tests.factories import make_competition, make_result, make_team

    teams = [make_team(name) for name in ("Alfa", "Beta", "Gamma", "Delta")]
    competition = make_competition(teams=teams)
    a, b, c, d = teams
    # Alfa and Beta tie on points, card points and difference; Beta won their match.
    make_result(competition, b, a, 5000, 4000, round_number=1)
    make_result(competition, a, c, 5000, 4000, round_number=2)
    make_result(competition, c, b, 5000, 4000, round_number=3)
    make_result(competition, d, c, 5100, 3000, round_number=4)
    lean = selectors.competition_standings(competition)
    everyone = {team.pk for team in teams}
    monkeypatch.setattr(selectors.standings, "_tied_before_head_to_head", lambda records, tiebreaks: everyone)
    full = selectors.competition_standings(competition)
    assert [(row.rank_label, row.record.name) for row in lean] == [(row.rank_label, row.record.name) for row in full]
    order = {row.record.name: row for row in lean}
    assert order["Beta"].rank < order["Alfa"].rank and not order["Alfa"].tied  # head-to-head decided


def test_on_postgresql_the_federation_leaves_the_planner_its_statistics():
    """A bulk load is analysed at once: without statistics PostgreSQL takes each table for a
    handful of rows (the rating's order of 10 000 matches took 0.6 s instead of 0.07 s)."""
    from django.db import connection

    from scoring.devdata.federation import FederationSize, build_federation

    if connection.vendor != "postgresql":
        pytest.skip("the planner's statistics are PostgreSQL's")
    build_federation(size=FederationSize(clubs=2, teams_per_club=4, leagues=1, league_size=8, national_rounds=2), seed=3)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'scoring_match'")
        (estimate,) = cursor.fetchone()
    assert estimate == Match.objects.count() > 0
