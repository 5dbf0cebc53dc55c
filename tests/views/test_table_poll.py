"""The table's poll (`/t/<code>/state/` with its validator, every views.table.POLL_SECONDS): a 304
is one read and writes nothing; the validator moves with everything the state shows (a proposal
made, answered or settled, a confirmation, the match's version, the hall clock's signals, the
sides the device holds, the language) and is the page's own; the other phone's poll shows a
proposal made before it; every refusal of the state is as the page's (404 counted as a guess,
429 past the limit, 403 for another table's code, the headers of a code in the address)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scoring import services
from scoring.models import AuditEntry, Deal, Match, TableDeal, TableLink
from scoring.selectors import table as table_selectors
from scoring.services import table
from scoring.views import table as table_views
from tests import factories as f
from tests.services.test_table_sides import DEAL, agree, propose, setup, start_clock  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

PAGE_TAG = re.compile(r'data-tag="([0-9a-f]+)"')


@pytest.fixture(autouse=True)
def fresh_counters():
    caches["default"].clear()
    yield
    caches["default"].clear()


def state_url(code: str, language: str = "sv") -> str:
    with translation.override(language):
        return reverse("scoring:table-state", args=[code])


def ask(client, code, tag=None, *, language="sv", **query):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(state_url(code, language), query, **headers)


def rows() -> dict:
    """Every row the table's pages could touch, with every field."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in (TableLink, TableDeal, Match, Deal, AuditEntry)}


def play_to_the_end(link):
    for number in (1, 2, 3):
        propose(link, number, codes=[link.code, link.away_code], both=True)


# -- a 304 is one read, and a GET writes nothing ---------------------------------------------------------


@pytest.mark.parametrize("shared", [False, True], ids=["own phone", "shared phone"])
def test_the_states_304_is_one_read_with_the_headers_of_a_code_in_the_address(setup, shared, django_assert_num_queries):
    link = setup["link"]
    query = {"with": link.code} if shared else {}
    client = Client()
    first = ask(client, link.away_code, **query)
    assert first.status_code == 200
    with django_assert_num_queries(1):
        again = ask(client, link.away_code, first["ETag"], **query)
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert again["X-Robots-Tag"] == "noindex, nofollow" and again["Referrer-Policy"] == "no-referrer"
    assert set(again["Cache-Control"].replace(" ", "").split(",")) == {"private", "no-cache"}


def test_the_state_answers_the_pages_own_validator_with_a_304(setup):
    """The page and its poll draw the validator from the same read, by the link and by the code."""
    link = setup["link"]
    propose(link, 1)
    client = Client()
    page = client.get(reverse("scoring:table", args=[link.away_code]), {"with": link.code})
    tag = PAGE_TAG.search(page.content.decode()).group(1)
    assert ask(client, link.away_code, f'"{tag}"', **{"with": link.code}).status_code == 304
    # Without the other team's code the device sees another state.
    assert ask(client, link.away_code, f'"{tag}"').status_code == 200


def test_a_get_of_the_table_writes_nothing_and_notes_the_contact_in_the_cache(setup):
    link, match = setup["link"], setup["match"]
    agree(link, propose(link, 1))
    propose(link, 2)
    client = Client()
    before = rows()
    drawn = ask(client, link.away_code)
    page = client.get(reverse("scoring:table", args=[link.code]))
    for _n in range(3):
        assert ask(client, link.away_code, drawn["ETag"]).status_code == 304
    assert drawn.status_code == page.status_code == 200
    assert rows() == before
    # The posts keep the link's last contact; the gets note theirs in the cache, later.
    contact = table_selectors.table_contacts([link])[link.pk]
    assert TableLink.objects.get().last_contact_at < contact <= timezone.now()
    assert table_selectors.round_tables(match.round)[0].last_contact == contact


# -- the validator moves with what the state shows ---------------------------------------------------------


def answered_later(link, setup):
    return propose(link, 1)


def conflict(link, setup):
    services.deals_record(match=setup["match"], user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    return propose(link, 1, entry=f.deal(1, home_cards=120, away_cards=45, end="stock"))


def clock_before_the_main_signal(link, setup):
    start_clock(setup["match"], 49)


def the_clock_moves_on(monkeypatch, minutes):
    later = timezone.now() + timedelta(minutes=minutes)
    monkeypatch.setattr(timezone, "now", lambda: later)


# name: (what stands before, what changes); each change is made with `link`, `setup`, what stood
# before, and pytest's monkeypatch.
CHANGES = {
    "a proposal made": (None, lambda link, setup, before, mp: propose(link, 1)),
    "a proposal agreed": (answered_later, lambda link, setup, before, mp: agree(link, before)),
    "a proposal rejected": (answered_later, lambda link, setup, before, mp: table.table_deal_answer(
        link=link, codes=[link.away_code], proposal_id=before.pk, side="away", agree=False, reason="Fel")),
    "a conflict settled": (conflict, lambda link, setup, before, mp: table.table_conflict_set_aside(
        match=setup["match"], user=setup["secretary"], proposal_id=before.pk)),
    "a side confirms": (lambda link, setup: play_to_the_end(link), lambda link, setup, before, mp: table.table_protocol_confirm(
        link=link, codes=[link.code], side="home")),
    "the match's version": (None, lambda link, setup, before, mp: services.deals_record(
        match=setup["match"], user=setup["secretary"], entry=f.winning_deal(1), expected_version=None)),
    "the hall clock started": (None, lambda link, setup, before, mp: start_clock(setup["match"], 0)),
    "the main signal": (clock_before_the_main_signal, lambda link, setup, before, mp: the_clock_moves_on(mp, 2)),
    "the final signal": (lambda link, setup: start_clock(setup["match"], 59), lambda link, setup, before, mp: the_clock_moves_on(mp, 2)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CHANGES))
def test_the_validator_moves_with_what_the_state_shows(setup, monkeypatch, name):
    link = setup["link"]
    prepare, change = CHANGES[name]
    before = prepare(link, setup) if prepare else None
    client = Client()
    first = ask(client, link.away_code)
    assert first.status_code == 200
    assert ask(client, link.away_code, first["ETag"]).status_code == 304
    change(link, setup, before, monkeypatch)
    moved = ask(client, link.away_code, first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert ask(client, link.away_code, moved["ETag"]).status_code == 304


@pytest.mark.parametrize("other", ["sides held", "language"])
def test_the_validator_differs_with_the_sides_held_and_the_language(setup, other):
    link = setup["link"]
    client = Client()
    first = ask(client, link.away_code)
    assert ask(client, link.away_code, first["ETag"]).status_code == 304
    if other == "sides held":
        seen = ask(client, link.away_code, first["ETag"], **{"with": link.code})
    else:
        seen = ask(client, link.away_code, first["ETag"], language="en")
    assert seen.status_code == 200 and seen["ETag"] != first["ETag"]


def test_the_other_phones_poll_shows_a_proposal_made_before_it(setup, django_assert_num_queries):
    link = setup["link"]
    home_phone, away_phone = Client(), Client()
    shown = ask(away_phone, link.away_code)
    with django_assert_num_queries(1):
        assert ask(away_phone, link.away_code, shown["ETag"]).status_code == 304
    sent = home_phone.post(reverse("scoring:table-propose", args=[link.code]),
                           {"client_id": "h1", "side": "home", "kind": "deal", "number": "1", **DEAL},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    proposal = sent.json()["proposal"]
    poll = away_phone.get(state_url(link.away_code), HTTP_IF_NONE_MATCH=shown["ETag"])
    html = poll.content.decode()
    assert poll.status_code == 200
    assert f'data-proposal="{proposal}"' in html and f'name="proposal" value="{proposal}"' in html
    # What it shows carries the validator it was sent with: the next poll is a 304 again.
    assert f'"{PAGE_TAG.search(html).group(1)}"' == poll["ETag"]
    assert ask(away_phone, link.away_code, poll["ETag"]).status_code == 304


# -- the refusals, as the page's ------------------------------------------------------------------------------


def test_the_polls_guesses_are_counted_and_a_wrong_other_code_is_one(setup):
    link = setup["link"]
    client = Client()
    working = ask(client, link.code)
    for attempt in range(table_views.GUESS_LIMIT - 1):
        assert ask(client, f"GUESS{attempt:02d}").status_code == 404
    refused = ask(client, link.code, **{"with": "WRONG999"})
    assert refused.status_code == 403
    assert refused["X-Robots-Tag"] == "noindex, nofollow" and refused["Referrer-Policy"] == "no-referrer"
    assert "no-store" in refused["Cache-Control"]
    held_up = ask(client, "ANOTHER9")
    assert held_up.status_code == 429 and "Retry-After" in held_up and "no-store" in held_up["Cache-Control"]
    # The table's own code keeps working on the same address.
    assert ask(client, link.code, working["ETag"]).status_code == 304


@pytest.mark.parametrize("how", ["postponed, its start past", "postponed, its round's day past", "archived", "withdrawn"])
def test_a_code_that_no_longer_works_is_a_404_to_the_poll(setup, how):
    link, match = setup["link"], setup["match"]
    client = Client()
    first = ask(client, link.code)
    assert ask(client, link.code, first["ETag"]).status_code == 304
    yesterday = timezone.now() - timedelta(days=1)
    if how == "postponed, its start past":
        Match.objects.filter(pk=match.pk).update(status=Match.Status.POSTPONED, scheduled_start=yesterday)
    elif how == "postponed, its round's day past":
        Match.objects.filter(pk=match.pk).update(status=Match.Status.POSTPONED, scheduled_start=None)
        type(match.round).objects.filter(pk=match.round_id).update(date=timezone.localdate() - timedelta(days=1))
    elif how == "archived":
        type(match.competition).objects.filter(pk=match.competition_id).update(archived=True)
    else:
        table.table_link_withdraw(match=match, user=setup["secretary"])
    assert ask(client, link.code, first["ETag"]).status_code == 404


@pytest.mark.parametrize("start", ["scheduled_start", "round"])
def test_a_postponed_match_on_its_day_or_later_keeps_its_poll(setup, start):
    link, match = setup["link"], setup["match"]
    tomorrow = timezone.now() + timedelta(days=1)
    if start == "round":
        Match.objects.filter(pk=match.pk).update(status=Match.Status.POSTPONED, scheduled_start=None)
        type(match.round).objects.filter(pk=match.round_id).update(date=timezone.localdate(tomorrow))
    else:
        Match.objects.filter(pk=match.pk).update(status=Match.Status.POSTPONED, scheduled_start=tomorrow)
    client = Client()
    first = ask(client, link.code)
    assert first.status_code == 200
    assert ask(client, link.code, first["ETag"]).status_code == 304


# -- the interval ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_page_asks_at_the_views_interval_written_with_a_decimal_point(setup, language):
    """htmx reads "every 2.5s"; a decimal comma (Swedish) would be two triggers."""
    link = setup["link"]
    with translation.override(language):
        address = reverse("scoring:table", args=[link.code])
    html = Client().get(address).content.decode()
    seconds = f"{table_views.POLL_SECONDS}"
    assert f'hx-trigger="every {seconds}s, refresh"' in html and f'data-poll-seconds="{seconds}"' in html
