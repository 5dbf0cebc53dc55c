"""services.matches_record_played, the bulk write of example data: a match stored through it has
the same result row and deal rows as the same protocol entered deal by deal (deals_record)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scoring.adapters import COMPUTED_FIELDS
from scoring.engine import replay
from scoring.models import Deal, Match
from scoring.services import matches_record_played
from tests import factories as f

pytestmark = pytest.mark.django_db

RESULT_FIELDS = ("deal_count", "home_total", "away_total", "end", "winner", "home_points", "away_points",
                 "home_for", "home_against", "away_for", "away_against")  # fmt: skip


def test_a_match_stored_in_bulk_is_stored_as_entered_deal_by_deal():
    setup = f.protocol_setup()
    entered = f.play_match(setup["match"], setup["secretary"])
    competition = entered.competition
    started = datetime(2026, 5, 1, 18, 0, tzinfo=timezone.utc)
    unsaved = Match(competition=competition, round=entered.round, table=2, home_team=entered.home_team,
                    away_team=entered.away_team, started_at=started, rules_snapshot=entered.rules_snapshot,
                    points_snapshot=entered.points_snapshot)  # fmt: skip
    state = replay(entered.rules, list(f.EXPORT_SAMPLE_DEALS), points=entered.points_rules)

    (stored,), deal_count = matches_record_played(played=[(unsaved, state)])

    stored = Match.objects.get(pk=stored.pk)
    assert stored.status == Match.Status.CONFIRMED
    assert {name: getattr(stored, name) for name in RESULT_FIELDS} == {
        name: getattr(entered, name) for name in RESULT_FIELDS
    }
    assert deal_count == len(f.EXPORT_SAMPLE_DEALS) == Deal.objects.filter(match=stored).count()
    fields = ("number", "home_cards", "away_cards", "out", *COMPUTED_FIELDS)
    assert list(Deal.objects.filter(match=stored).order_by("number").values_list(*fields)) == list(
        Deal.objects.filter(match=entered).order_by("number").values_list(*fields)
    )
    minutes = [deal.dealt_minute for deal in f.EXPORT_SAMPLE_DEALS]
    expected_times = [None if m is None else started + timedelta(minutes=m) for m in minutes]
    assert list(Deal.objects.filter(match=stored).order_by("number").values_list("dealt_at", flat=True)) == expected_times


def test_an_unfinished_protocol_is_refused_and_nothing_is_written():
    setup = f.protocol_setup()
    match = setup["match"]
    state = replay(match.rules, list(f.EXPORT_SAMPLE_DEALS[:3]), points=match.points_rules)
    unsaved = Match(competition=match.competition, round=match.round, table=2, home_team=match.home_team,
                    away_team=match.away_team)  # fmt: skip

    with pytest.raises(ValueError):
        matches_record_played(played=[(unsaved, state)])

    assert Match.objects.count() == 1
    assert not Deal.objects.exists()
