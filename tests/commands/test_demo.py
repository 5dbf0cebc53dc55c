"""The legal-deal generator and the demo season: every number re-checks clean with the engine."""

from __future__ import annotations

import random
from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from scoring.adapters import deal_to_entry
from scoring.devdata.demo import LEAGUE_NAME, TOURNAMENT_NAME, build_demo
from scoring.engine import check_deal, get_points_rules, get_rules, replay
from scoring.devdata.generate import generate_match, match_deals, random_deal
from scoring.models import Bye, Club, Competition, Deal, Match, Player, Team
from scoring.selectors import competition_standings, standings_preliminary_count

S = Match.Status


@pytest.mark.parametrize("rules_key", ["sv-tavling", "internationell-1951", "sv-hem"])
def test_generated_deals_pass_every_check(rules_key):
    rules = get_rules(rules_key)
    rng = random.Random(rules_key)
    for number in range(1, 2001):
        deal = random_deal(rng, rules, number, home_out_chance=rng.random())
        assert check_deal(rules, deal) == [], deal
    for number in range(1, 201):
        deal = random_deal(rng, rules, number, end="clock") if rules.has_clock else None
        if deal is not None:
            assert check_deal(rules, deal) == [] and deal.out is None


@pytest.mark.parametrize("rules_key", ["sv-tavling", "internationell-1951"])
def test_generated_matches_end_by_the_rules(rules_key):
    rules = get_rules(rules_key)
    points = get_points_rules("sv-serie")
    rng = random.Random(7)
    ends = Counter()
    for _ in range(300):
        generated = generate_match(rng, rules, home_strength=rng.random())
        state = replay(rules, list(generated.deals), points=points, clock_expired=generated.clock_expired)
        assert state.errors == 0 and state.finished
        # The match ends with its last deal: no deal after the end.
        assert state.end_deal == generated.deals[-1].number
        ends[state.end] += 1
        alone = match_deals(rng, rules)
        assert replay(rules, list(alone), points=points).finished
    assert ends["target"] > 0
    assert (ends["clock"] > 0) == rules.has_clock


@pytest.fixture
def demo(db):
    return build_demo()


@pytest.mark.slow  # the whole demo season is built and played: seconds
def test_demo_is_a_realistic_season_and_every_number_is_the_engines(demo):
    assert Club.objects.count() == 4
    assert 38 <= Player.objects.count() <= 45
    assert any(ch in name for name in Club.objects.values_list("name", flat=True) for ch in "ÅÄÖ")
    league = Competition.objects.get(name=LEAGUE_NAME, archived=False)  # the season before is closed
    assert league.teams.count() >= 8 and league.rules_key == "sv-tavling"
    statuses = Counter(league.matches.values_list("status", flat=True))
    assert statuses[S.CONFIRMED] >= 20
    assert statuses[S.IN_PROGRESS] >= 1 and statuses[S.SCHEDULED] >= 20 and statuses[S.SUBMITTED] >= 1
    assert league.matches.filter(end=Match.End.FORFEIT).count() == 1
    assert league.matches.filter(end=Match.End.CLOCK).exists()
    assert league.matches.filter(end=Match.End.TARGET).exists()
    rows = competition_standings(league)
    assert len(rows) == 8 and rows[0].record.played >= 6
    assert standings_preliminary_count(league) >= 1
    tournament = Competition.objects.get(name=TOURNAMENT_NAME)
    assert tournament.kind == Competition.Kind.TOURNAMENT
    assert tournament.rounds.count() == 4
    assert Bye.objects.filter(round__competition=tournament).count() == 4
    met = Counter(
        frozenset(pair) for pair in tournament.matches.values_list("home_team_id", "away_team_id")
    )
    assert max(met.values()) == 1  # no rematch in a Monrad tournament of seven pairs and four rounds
    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.get(username="sekreterare-orebro").check_password("canasta")
    assert league.organiser.secretaries.filter(username="sekreterare-orebro").exists()


    _every_match_rechecks_clean_with_the_engine()


def _every_match_rechecks_clean_with_the_engine():
    points = get_points_rules("sv-serie")
    deals = Deal.objects.order_by("match_id", "number")
    by_match: dict[int, list] = {}
    for deal in deals:
        by_match.setdefault(deal.match_id, []).append(deal)
    assert len(by_match) >= 35
    for match in Match.objects.filter(pk__in=by_match):
        rows = by_match[match.pk]
        entries = [deal_to_entry(deal) for deal in rows]
        state = replay(match.rules, entries, points=points, clock_expired=match.clock_expired)
        assert state.errors == 0
        for row, replayed in zip(rows, state.deals):
            assert (row.home_score, row.away_score) == (replayed.score.home.score, replayed.score.away.score)
            assert (row.home_total, row.away_total) == (replayed.home_total, replayed.away_total)
        if match.status in (S.FINISHED, S.SUBMITTED, S.CONFIRMED):
            assert state.finished and match.end in (Match.End.TARGET, Match.End.CLOCK)
            assert (match.home_total, match.away_total) == (state.home_total, state.away_total)
            if match.end == Match.End.TARGET:
                assert max(match.home_total, match.away_total) >= 5000
        else:
            assert match.status == S.IN_PROGRESS and not state.finished


@pytest.mark.slow  # the whole demo season is built and played: seconds
def test_demo_runs_twice_without_duplicates(demo):
    def counts():
        return (Club.objects.count(), Player.objects.count(), Team.objects.count(),
                Competition.objects.count(), Match.objects.count(), Deal.objects.count(),
                get_user_model().objects.count())

    before = counts()
    out = StringIO()
    call_command("demo", "--public-passwords", stdout=out)
    assert counts() == before
    assert "sekreterare-alvsjo" in out.getvalue() and "admin" in out.getvalue()
    # --reset plays the competitions again, still without duplicating people.
    call_command("demo", "--reset", "--public-passwords", stdout=StringIO())
    assert counts()[:4] == before[:4] and counts()[4] == before[4]


def test_with_debug_off_the_demo_wants_a_deliberate_yes(settings, db):
    """Its logins' passwords are public (admin/admin): not on a production site by mistake."""
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--public-passwords"):
        call_command("demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username="admin").exists()


@pytest.mark.slow  # the whole demo season is built and played: seconds
def test_with_debug_on_the_demo_just_runs(settings, db):
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    assert get_user_model().objects.filter(username="admin", is_superuser=True).exists()


@pytest.mark.django_db
def test_the_demo_prints_a_table_link_to_try_with_each_teams_code():
    from io import StringIO

    from django.core.management import call_command

    from scoring.models import TableLink

    out = StringIO()
    call_command("demo", "--public-passwords", stdout=out)
    link = TableLink.objects.get(withdrawn_at__isnull=True)
    assert f"/t/{link.code}/" in out.getvalue() and f"/t/{link.away_code}/" in out.getvalue()
    assert link.match.status == "scheduled"
