"""One change, one replay, one lock: a deal saved by the secretary, proposed at the table and
agreed on the other phone each lock the match row once (services.locking) and run the engine once
for the change, through the one home of a stored match replayed (selectors.protocols). A next deal
goes on from where the match row stands: the deals before it are not replayed. What the table's
page costs when it shows a waiting proposal is tests/views/test_table_side_pages.py."""

from __future__ import annotations

from unittest import mock

import pytest

from scoring import services
from scoring.models import Deal, Match
from scoring.services import locking, table
from tests import factories as f
from tests.support.replays import STORED, counting_replays, match_with_stored_deals, stock_deal

pytestmark = pytest.mark.django_db

@pytest.fixture
def played():
    """A match with STORED deals and a table link."""
    return match_with_stored_deals()


class Locks:
    """The match rows locked (services.locking.lock_matches, which every match lock goes through)."""

    def __init__(self):
        self.spy = mock.patch.object(locking, "lock_matches", wraps=locking.lock_matches)

    def __enter__(self):
        self.calls = self.spy.__enter__()
        return self

    def __exit__(self, *exc):
        return self.spy.__exit__(*exc)

    @property
    def count(self) -> int:
        return self.calls.call_count


def propose(link, number, *, kind="deal", entry=None, client_id=None):
    return table.table_deal_propose(link=link, codes=[link.code], client_id=client_id or f"{kind}-{number}", side="home",
                                    kind=kind, number=number, entry=entry or stock_deal(number))  # fmt: skip


def agree(link, proposal):
    return table.table_deal_answer(link=link, codes=[link.away_code], proposal_id=proposal.pk, side="away", agree=True)


def test_the_secretarys_deal_is_replayed_once_from_where_the_match_stands(played):
    match = played["match"]
    with counting_replays() as replays, Locks() as locks:
        services.deals_record(match=match, user=played["secretary"], entry=stock_deal(STORED + 1), expected_version=match.version)
    assert replays.calls == [(1, STORED)]
    assert locks.count == 1


def test_a_deal_proposed_at_the_table_is_checked_once_from_where_the_match_stands(played):
    with counting_replays() as replays, Locks() as locks:
        proposal = propose(played["link"], STORED + 1)
    assert proposal.status == "waiting"
    assert replays.calls == [(1, STORED)]
    assert locks.count == 1


def test_the_agreement_locks_the_match_once_and_scores_the_deal_once(played):
    link = played["link"]
    proposal = propose(link, STORED + 1)
    version = Match.objects.get(pk=link.match_id).version
    with counting_replays() as replays, Locks() as locks:
        agreed = agree(link, proposal)
    assert agreed.status == "agreed"
    assert replays.calls == [(1, STORED)]
    assert locks.count == 1
    # The one lock still moves the match's version once, as the deal is on its public pages now.
    stored = Match.objects.get(pk=link.match_id)
    assert stored.version == version + 1 and stored.deal_count == STORED + 1
    assert Deal.objects.get(match=stored, number=STORED + 1).home_total == (STORED + 1) * 60


def test_a_correction_at_the_table_replays_the_match_once_when_proposed_and_once_when_agreed(played):
    link = played["link"]
    with counting_replays() as replays, Locks() as locks:
        proposal = propose(link, STORED, kind="correction", entry=f.deal(STORED, home_cards=90, away_cards=-20, end="stock"))
    assert proposal.status == "waiting"
    assert (replays.calls, locks.count) == ([(STORED, 0)], 1)
    with counting_replays() as replays, Locks() as locks:
        agree(link, proposal)
    assert (replays.calls, locks.count) == ([(STORED, 0)], 1)
    assert Match.objects.get(pk=link.match_id).home_total == STORED * 60 + 30


def test_the_time_running_out_and_both_sides_confirming_lock_the_match_once_each(played):
    link, match = played["link"], played["match"]
    match.competition.rules_key = "sv-tavling"
    match.competition.table_confirmation = True
    match.competition.save()
    with counting_replays() as replays, Locks() as locks:
        table.table_deal_propose(link=link, codes=[link.code, link.away_code], client_id="time", side="home",
                                 kind="time_up", number=STORED, agreed_by_both=True)  # fmt: skip
    assert (replays.calls, locks.count) == ([(STORED, 0)], 1)
    assert Match.objects.get(pk=match.pk).end == "clock"
    for side in ("home", "away"):
        with counting_replays() as replays, Locks() as locks:
            table.table_protocol_confirm(link=link, codes=[link.code_for(side)], side=side)
        assert (replays.calls, locks.count) == ([], 1)
    assert Match.objects.get(pk=match.pk).status == "confirmed"
