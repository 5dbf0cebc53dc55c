"""The deal save path: what deals_record writes is what the database holds, and its audit entry
holds the deal and the match as stored. What saving a deal through the protocol page costs in
queries is tests/views/test_protocol_save_queries.py."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from scoring.services.audit import deal_snapshot, match_snapshot
from tests import factories as f

pytestmark = pytest.mark.django_db


def _row(match: Match) -> dict:
    return {field.attname: getattr(match, field.attname) for field in Match._meta.concrete_fields}


def test_the_match_returned_by_a_save_is_the_row_stored():
    """Only changed fields are saved: every change of the first, a middle and the last deal is stored."""
    s = f.protocol_setup()
    match = s["match"]
    assert match.status == Match.Status.SCHEDULED and match.entered_by_id is None
    for number, entry in enumerate((f.winning_deal(1), f.deal(2, home_cards=60, away_cards=-20, end="stock"),
                                    f.winning_deal(3), f.winning_deal(4)), start=1):
        before = Match.objects.get(pk=match.pk).updated_at
        match = services.deals_record(match=match, user=s["secretary"], entry=entry, expected_version=match.version)
        stored = Match.objects.get(pk=match.pk)
        assert _row(match) == _row(stored), number
        assert stored.updated_at > before
        assert stored.deal_count == number
    assert stored.status == Match.Status.FINISHED and stored.winner == "home" and stored.home_points == 1
    assert stored.entered_by_id == s["secretary"].pk and stored.started_at is not None
    assert stored.rules_snapshot


def test_the_audit_entry_holds_the_deal_and_the_match_as_stored():
    s = f.protocol_setup()
    started = timezone.make_aware(datetime(2026, 10, 14, 18, 30))
    match = services.match_start(match=s["match"], user=s["secretary"], started_at=started)
    dealt = started + timedelta(minutes=12, seconds=30)
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1),
                                  expected_version=match.version, dealt_at=dealt)
    match = services.deals_record(match=match, user=s["secretary"], entry=f.deal(2, home_cards=60, away_cards=-20,
                                  end="stock"), expected_version=match.version)
    first, second = Deal.objects.filter(match=match).order_by("number")
    assert first.dealt_at == dealt and second.dealt_at is None
    entries = AuditEntry.objects.filter(match=match, action="deal_record").order_by("pk")
    assert [entry.object_id for entry in entries] == [str(first.pk), str(second.pk)]
    assert entries[0].after["deal"] == deal_snapshot(first)
    assert entries[1].after["deal"] == deal_snapshot(second)
    assert entries[1].after["match"] == match_snapshot(Match.objects.get(pk=match.pk))
