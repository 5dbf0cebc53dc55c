"""What the table's state and the secretary's save cost the engine: the table's page replays the
match once to draw it, and a waiting proposal's preview goes on from there (its deal replayed after
the stored ones, not the match again); saving a deal through the protocol page replays the new deal
only. The services' side: tests/services/test_one_replay_per_change.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.services import table
from tests import factories as f
from tests.support.replays import STORED, counting_replays, match_with_stored_deals, stock_deal

pytestmark = pytest.mark.django_db

@pytest.fixture
def played():
    """A match with STORED deals and a table link."""
    return match_with_stored_deals()


def previewed(html: str) -> list[str]:
    """The waiting proposal's deal scores, then its totals, as the page shows them."""
    found = re.search(r'data-role="score-home">([^<]*)</td><td data-role="score-away">([^<]*)</td></tr>\s*'
                      r'<tr><th scope="row">[^<]*</th><td>([^<]*)</td><td>([^<]*)</td>', html)  # fmt: skip
    return [value.strip().replace("\N{MINUS SIGN}", "-").replace("\N{NO-BREAK SPACE}", "") for value in found.groups()]


@pytest.mark.parametrize("kind", ["deal", "correction"])
def test_the_tables_state_replays_the_match_once_with_a_waiting_proposal(played, kind):
    link = played["link"]
    number = STORED + 1 if kind == "deal" else STORED
    table.table_deal_propose(link=link, codes=[link.code], client_id="p", side="home", kind=kind, number=number,
                             entry=stock_deal(number, home_cards=90))  # fmt: skip
    with counting_replays() as replays:
        response = Client().get(reverse("scoring:table-state", args=[link.away_code]))
    assert response.status_code == 200
    # The protocol from its first deal, then the proposal's deal from where the deals before it stand.
    assert replays.calls == [(STORED, 0), (1, number - 1)]
    # As the whole match replayed with the proposal gives them: its deal score, then the totals.
    totals = (number - 1) * 60 + 90, -20 * number
    assert previewed(response.content.decode()) == ["90", "-20", str(totals[0]), str(totals[1])]


def test_after_the_match_ended_a_waiting_deals_preview_replays_the_match(played):
    """The engine goes on from where a match stands only while it is not over: a deal after the end
    is refused (after-match-end), which only the whole match replayed says."""
    link, match = played["link"], played["match"]
    table.table_deal_propose(link=link, codes=[link.code], client_id="p", side="home", number=STORED + 1,
                             entry=stock_deal(STORED + 1))  # fmt: skip
    for number in range(STORED + 1, STORED + 4):
        match = services.deals_record(match=match, user=played["secretary"], entry=f.winning_deal(number),
                                      expected_version=None)  # fmt: skip
    assert match.status == "finished"
    with counting_replays() as replays:
        response = Client().get(reverse("scoring:table-state", args=[link.away_code]))
    assert response.status_code == 200
    assert replays.whole == 2


def test_saving_a_deal_through_the_protocol_page_replays_the_new_deal_only(played, client):
    match = played["match"]
    client.force_login(played["secretary"])
    data = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
    data.update(home_cards="60", away_cards="-20", end="stock", version=str(match.version))
    with counting_replays() as replays:
        response = client.post(reverse("scoring:match-protocol", args=[match.pk]), data)
    assert response.status_code == 302
    assert replays.calls == [(1, STORED)]
