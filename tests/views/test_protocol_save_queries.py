"""Saving a deal through the protocol page costs a fixed, small number of queries, however many
deals the match has; a refused save shows the whole page with what was typed. What the save writes
is tests/services/test_deal_save_queries.py."""

from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from scoring.services.audit import deal_snapshot
from tests import factories as f

pytestmark = pytest.mark.django_db


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
    # the match's totals and new version, the competition's new edition (the public pages'
    # validators), the new deal, the audit entry. No earlier deal is read: the engine goes on from
    # the running state on the match row.
    assert len(sql) == 9, "\n".join(sql)
    assert sum(q.startswith('UPDATE "scoring_competition" SET "edition"') for q in sql) == 1
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

