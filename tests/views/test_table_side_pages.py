"""Each team signs for itself, through the table's pages: a post cannot act for the other side,
a shared phone holds both codes, the posts need the CSRF token, the secretary's page lists the
table's conflicts, and a table's poll costs a 304 and writes nothing (the services' side of it:
tests/services/test_table_sides.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Deal, TableDeal
from scoring.selectors import table as table_selectors
from tests import factories as f
from tests.services.test_table_sides import DEAL, agree, propose, setup  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_posting_directly_cannot_act_for_the_other_side(setup):
    link, match = setup["link"], setup["match"]
    client = Client()
    propose_url = reverse("scoring:table-propose", args=[link.code])
    json = {"HTTP_ACCEPT": "application/json"}
    assert client.post(propose_url, {"client_id": "x1", "side": "away", "kind": "deal", "number": "1", **DEAL}, **json).status_code == 403
    assert client.post(propose_url, {"client_id": "x2", "side": "home", "kind": "deal", "number": "1", "both": "yes", **DEAL}, **json).status_code == 403
    assert not TableDeal.objects.exists()
    sent = client.post(propose_url, {"client_id": "x3", "side": "home", "kind": "deal", "number": "1", **DEAL}, **json)
    proposal = sent.json()["proposal"]
    answer_home = client.post(reverse("scoring:table-answer", args=[link.code]), {"proposal": proposal, "side": "away", "agree": "yes"}, **json)
    assert answer_home.status_code == 403 and not Deal.objects.exists()
    # The page of the home code shows no button for the away team.
    page = client.get(reverse("scoring:table", args=[link.code])).content.decode()
    assert f'name="side" value="away"' not in page
    # The away team's own code agrees.
    answer_away = client.post(reverse("scoring:table-answer", args=[link.away_code]), {"proposal": proposal, "agree": "yes"}, **json)
    assert answer_away.json()["result"] == "agreed" and Deal.objects.count() == 1


def test_a_shared_phone_with_both_codes_shows_a_button_per_side(setup):
    link = setup["link"]
    client = Client()
    page = client.get(reverse("scoring:table", args=[link.code]), {"with": link.away_code}).content.decode()
    assert 'name="side" value="home"' in page and 'name="side" value="away"' in page
    sent = client.post(reverse("scoring:table-propose", args=[link.code]),
                       {"client_id": "s1", "side": "home", "kind": "deal", "number": "1", "both": "yes",
                        "other_code": link.away_code.lower(), **DEAL}, HTTP_ACCEPT="application/json")  # fmt: skip
    assert sent.json()["result"] == "agreed"


def test_table_posts_need_the_csrf_token(setup):
    link = setup["link"]
    client = Client(enforce_csrf_checks=True)
    refused = client.post(reverse("scoring:table-propose", args=[link.code]),
                          {"client_id": "c1", "side": "home", "kind": "deal", "number": "1", **DEAL})  # fmt: skip
    assert refused.status_code == 403 and not TableDeal.objects.exists()
    page = client.get(reverse("scoring:table", args=[link.code]))
    token = page.cookies["csrftoken"].value
    sent = client.post(reverse("scoring:table-propose", args=[link.code]),
                       {"client_id": "c1", "side": "home", "kind": "deal", "number": "1", **DEAL}, HTTP_X_CSRFTOKEN=token)  # fmt: skip
    assert sent.status_code == 303 and TableDeal.objects.count() == 1


def test_after_a_conflict_the_secretarys_page_lists_it(setup):
    link, match = setup["link"], setup["match"]
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    conflict = propose(link, 1, entry=f.deal(1, home_cards=120, away_cards=45, end="stock"))
    client = Client()
    client.force_login(setup["secretary"])
    page = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    assert "table-conflicts" in page and "120" in page
    client.post(reverse("scoring:table-conflict-set-aside", args=[match.pk, conflict.pk]))
    page = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    assert "table-conflicts" not in page


def test_the_tables_poll_is_a_304_while_nothing_changed_and_writes_nothing(setup):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    link = setup["link"]
    client = Client()
    address = reverse("scoring:table-state", args=[link.code])
    first = client.get(address)
    tag = first["ETag"]
    assert first.status_code == 200 and tag and "no-store" not in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert not [q for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))]
    # The other team's proposal moves it; so does the other phone's view of its own side.
    proposal = propose(link, 1)
    moved = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    away = client.get(reverse("scoring:table-state", args=[link.away_code]), HTTP_IF_NONE_MATCH=moved["ETag"])
    assert away.status_code == 200 and away["ETag"] != moved["ETag"]
    agree(link, proposal)
    assert client.get(address, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 200


def test_the_round_at_a_glance_shows_a_tables_last_poll(setup):
    link, match = setup["link"], setup["match"]
    client = Client()
    client.get(reverse("scoring:table-state", args=[link.code]))
    link.refresh_from_db()
    assert link.last_contact_at is None  # no row written by the poll
    rows = table_selectors.round_tables(match.round)
    assert rows[0].last_contact is not None


def test_a_conflicts_numbers_are_sent_again_as_typed_zeros_included():
    from scoring.adapters import entry_to_fields
    from scoring.views.table import form_fields_of

    fields = dict(form_fields_of(entry_to_fields(f.deal(2, home_cards=0, away_cards=45, end="stock", home_melded=False))))
    assert (fields["home_cards"], fields["away_cards"], fields["home_melded"]) == ("0", "45", "no")
    assert "concealed" not in fields and "out" not in fields
