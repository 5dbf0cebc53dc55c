"""The other phone at the table: its poll of the table's state shows a proposal made on the first
phone before it asked, and asks its team to answer it; drawing the state, 200 or 304, writes
nothing (the poll's validator: tests/views/test_table_side_pages.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.services.test_table_sides import DEAL, setup  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

READS = ("SELECT", "SAVEPOINT", "RELEASE")


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith(READS)]


def test_the_other_phones_poll_shows_a_proposal_made_before_it(setup):
    link = setup["link"]
    home_phone, away_phone = Client(), Client()
    state = reverse("scoring:table-state", args=[link.away_code])
    before = away_phone.get(state)
    assert before.status_code == 200 and "data-proposal=" not in before.content.decode()

    sent = home_phone.post(reverse("scoring:table-propose", args=[link.code]),
                           {"client_id": "h1", "side": "home", "kind": "deal", "number": "1", **DEAL},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    proposal = sent.json()["proposal"]

    # The away phone's next poll, with the validator of what it shows: the proposal, to answer.
    with CaptureQueriesContext(connection) as queries:
        poll = away_phone.get(state, HTTP_IF_NONE_MATCH=before["ETag"])
    html = poll.content.decode()
    assert poll.status_code == 200 and poll["ETag"] != before["ETag"]
    assert f'data-proposal="{proposal}"' in html and f'name="proposal" value="{proposal}"' in html
    assert writes(queries) == []
    # Asked again with the new validator: nothing changed, a 304 that writes nothing either.
    with CaptureQueriesContext(connection) as queries:
        assert away_phone.get(state, HTTP_IF_NONE_MATCH=poll["ETag"]).status_code == 304
    assert writes(queries) == []
