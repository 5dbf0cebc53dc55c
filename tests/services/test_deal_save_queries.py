"""The deal save path: what deals_record writes is what the database holds, and
saving a deal through the protocol page costs a fixed, small number of queries."""

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
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


def _deal_data(match, **values):
    data = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
    data.update(home_cards="60", away_cards="-20", end="stock", version=str(match.version))
    data.update(values)
    return data


def test_saving_a_deal_through_the_protocol_page_costs_a_fixed_number_of_queries(client):
    s = f.protocol_setup()
    client.force_login(s["secretary"])
    started = timezone.make_aware(datetime.combine(timezone.localdate(), datetime.min.time().replace(hour=18, minute=30)))
    match = services.match_start(match=s["match"], user=s["secretary"], started_at=started)
    for number in range(1, 12):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.deal(number, home_cards=60,
                                      away_cards=-20, end="stock"), expected_version=match.version)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("scoring:match-protocol", args=[match.pk]), _deal_data(match, dealt="35"))
    assert response.status_code == 302
    sql = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # Session, user, match (read by the page, with whether the user is a secretary of its clubs),
    # the match again, locked by the service (SELECT ... FOR UPDATE, the version checked), the last
    # deal as written and the time of the last deal dealt (for rule 35 b and deals-out-of-order),
    # the match's totals and new version, the competition's new version (the public pages'
    # validators), the new deal, the audit entry. No earlier deal is read: the engine goes on from
    # the running state on the match row.
    assert len(sql) == 9, "\n".join(sql)
    assert sum(q.startswith('UPDATE "scoring_competition" SET "version"') for q in sql) == 1
    assert not any("scoring_club_secretaries" in q for q in sql if not q.startswith('SELECT "scoring_match"'))
    assert sum(q.startswith('SELECT "scoring_deal"') for q in sql) == 1
    assert sum(q.startswith('SELECT "scoring_match"') for q in sql) == 2
    assert not any(q.startswith('UPDATE "scoring_deal"') for q in sql)
    assert sum(q.startswith('UPDATE "scoring_match"') for q in sql) == 1
    claim = next(q for q in sql if q.startswith('UPDATE "scoring_match"'))
    assert '"version" = ' in claim and '"deal_count" = 12' in claim
    stored = Match.objects.get(pk=match.pk)
    deal = stored.deals.get(number=12)
    assert stored.deal_count == 12 and deal.dealt_at is not None
    assert AuditEntry.objects.get(match=match, action="deal_record", object_id=str(deal.pk)).after["deal"] == deal_snapshot(deal)


def test_a_deal_without_a_time_reads_no_deal_at_all(client):
    s = f.protocol_setup()
    client.force_login(s["secretary"])
    match = s["match"]
    for number in range(1, 12):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.deal(number, home_cards=60,
                                      away_cards=-20, end="stock"), expected_version=match.version)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("scoring:match-protocol", args=[match.pk]), _deal_data(match))
    assert response.status_code == 302
    sql = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(sql) == 8, "\n".join(sql)
    assert not any(q.startswith('SELECT "scoring_deal"') for q in sql)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.deal_count, stored.home_total, stored.away_total) == (12, 12 * 60, -12 * 20)
    assert stored.deals.get(number=12).home_total == 720


def test_a_refused_save_shows_the_whole_page_with_what_was_typed(client):
    """A save reads less of the match; a refusal reads the rest for the page."""
    s = f.protocol_setup()
    client.force_login(s["secretary"])
    match = s["match"]
    response = client.post(reverse("scoring:match-protocol", args=[match.pk]), _deal_data(match, home_cards="287"))
    html = response.content.decode()
    assert response.status_code == 200
    assert s["home"].player_one.name in html and s["away"].player_two.name in html
    assert 'value="287"' in html
    assert Deal.objects.count() == 0
