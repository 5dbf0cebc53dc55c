"""No input a visitor can post to a table address is a server error: every field of every table
address with negative, huge, NUL, non-ASCII and malformed values answers 400, 403, 404 or 422 with a
message, and the protocol is unchanged."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal
from scoring.services import table
from tests import factories as f

pytestmark = pytest.mark.django_db

HOSTILE = ["-1", "0", "40000", "1" + "0" * 30, "a\x00b", "\x00", "ÅÄÖ", "١٢", "1e3", " ", "9" * 19, "0x10", "½", "-0"]
FIELDS = {
    "table-propose": ["number", "client_id", "side", "kind", "resend_of", "home_cards", "away_penalty", "both", "other_code", "dealt"],
    "table-answer": ["proposal", "side", "agree", "reason", "other_code"],
    "table-confirm": ["side", "other_code"],
    "table-check": ["correct_number", "home_cards", "home_natural", "dealt"],
}
BASE = {
    "table-propose": {"client_id": "abc", "side": "home", "kind": "deal", "number": "1", "home_cards": "485",
                      "home_natural": "2", "home_mixed": "1", "away_cards": "-40", "out": "home"},
    "table-answer": {"proposal": "1", "side": "home", "agree": "yes"},
    "table-confirm": {"side": "home"},
    "table-check": {"home_cards": "50", "away_cards": "0"},
}


@pytest.fixture
def link():
    setup = f.protocol_setup()
    return table.table_link_issue(match=setup["match"], user=setup["secretary"])


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_no_hostile_value_is_a_server_error(link, name):
    client = Client(raise_request_exception=False)
    address = reverse(f"scoring:{name}", args=[link.code])
    for field in FIELDS[name]:
        for value in HOSTILE:
            for accept in ("application/json", "text/html"):
                data = {**BASE[name], field: value}
                response = client.post(address, data, HTTP_ACCEPT=accept)
                assert response.status_code < 500, (name, field, repr(value), response.status_code)
    if name == "table-propose":
        # The kinds with a number that no protocol has.
        for data in ({"kind": "correction", "number": "40000"}, {"kind": "correction", "number": "-1"},
                     {"kind": "time_up", "number": "10" + "0" * 30}):  # fmt: skip
            response = client.post(address, {**BASE[name], **data, "client_id": "k" + data["kind"]}, HTTP_ACCEPT="application/json")
            assert response.status_code in (400, 403, 422), data
            assert response.json()["message"]
    assert not Deal.objects.exists()


def test_hostile_addresses_and_queries_are_no_server_error(link):
    client = Client(raise_request_exception=False)
    for code in ("\x00", "a%00b", "ÅÄÖÅÄÖ", "x" * 300, link.code + "\x00", "-1"):
        for name in ("table", "table-state"):
            response = client.get(f"/t/{code}/" if name == "table" else f"/t/{code}/state/")
            assert response.status_code < 500, (code, response.status_code)
    for query in ({"correct": "-1"}, {"correct": "1" + "0" * 30}, {"correct": "\x00"}, {"with": "\x00"}, {"with": "ÅÄÖ" * 50}):
        response = client.get(reverse("scoring:table", args=[link.code]), query)
        assert response.status_code < 500, (query, response.status_code)
