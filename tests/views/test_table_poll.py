"""The table's poll (`/t/<code>/state/` with its validator, at the interval the state names): a 304
is one read and writes nothing; the validator moves with everything the state shows (a proposal
made, answered or settled, a confirmation, the match's version, the hall clock's signals, the other
team typing a deal, the sides the device holds, the language) and is the page's own; the other
phone's poll shows a proposal made before it, and asks more often while a deal is typed and waits;
every refusal of the state is as the page's (404 counted as a guess, 429 past the limit, 403 for
another table's code, the headers of a code in the address)."""

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


POLL_AGAIN = re.compile(r'data-poll-seconds="([^"]+)"')
TYPING = "för in en giv i sin telefon"


def check(client, code, **fields):
    """The live check as the page posts it while a deal is typed."""
    return client.post(reverse("scoring:table-check", args=[code]), {**DEAL, "checking": "1", **fields}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_state_names_its_interval_with_a_decimal_point_and_the_page_follows_it(setup, language):
    """table.js asks again after the seconds the state shows; a decimal comma (Swedish) is no number."""
    link = setup["link"]
    with translation.override(language):
        address = reverse("scoring:table", args=[link.code])
    html = Client().get(address).content.decode()
    assert POLL_AGAIN.findall(html) == [f"{table_views.REST_POLL_SECONDS}"]
    assert 'hx-trigger="refresh"' in html and "every" not in re.search(r'<section id="table-state"[^>]*>', html).group(0)


def test_the_other_phone_asks_more_often_while_a_deal_is_typed_and_proposed_and_rests_after(setup):
    """At rest a page asks every REST_POLL_SECONDS; the other team's live check makes the state say
    so and ask every POLL_SECONDS, before its proposal arrives; the proposal waits (still often);
    once it is agreed the table rests again. The phone that types is not asked to look again."""
    link = setup["link"]
    home_phone, away_phone = Client(), Client()
    home_seen, away_seen = ask(home_phone, link.code), ask(away_phone, link.away_code)
    for seen in (home_seen, away_seen):
        assert POLL_AGAIN.findall(seen.content.decode()) == [f"{table_views.REST_POLL_SECONDS}"]
        assert TYPING not in seen.content.decode()

    assert check(home_phone, link.code, side="home", number="1").status_code == 200
    typing = ask(away_phone, link.away_code, away_seen["ETag"])
    assert typing.status_code == 200
    html = typing.content.decode()
    assert f"{link.match.home_team.name} {TYPING}" in html
    assert POLL_AGAIN.findall(html) == [f"{table_views.POLL_SECONDS}"]
    assert ask(home_phone, link.code, home_seen["ETag"]).status_code == 304  # its own typing: nothing new

    sent = home_phone.post(reverse("scoring:table-propose", args=[link.code]),
                           {"client_id": "h1", "side": "home", "kind": "deal", "number": "1", **DEAL},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    waiting = ask(away_phone, link.away_code, typing["ETag"]).content.decode()
    assert f'data-proposal="{sent.json()["proposal"]}"' in waiting and TYPING not in waiting
    assert POLL_AGAIN.findall(waiting) == [f"{table_views.POLL_SECONDS}"]

    away_phone.post(reverse("scoring:table-answer", args=[link.away_code]),
                    {"proposal": sent.json()["proposal"], "agree": "yes", "side": "away"}, HTTP_ACCEPT="application/json")  # fmt: skip
    assert Match.objects.get(pk=link.match_id).deal_count == 1
    for phone, code in ((home_phone, link.code), (away_phone, link.away_code)):
        assert POLL_AGAIN.findall(ask(phone, code).content.decode()) == [f"{table_views.REST_POLL_SECONDS}"]


def test_after_the_main_signal_the_page_asks_often(setup):
    """The time running out between deals is proposed with one tap: nothing typed announces it."""
    link = setup["link"]
    assert POLL_AGAIN.findall(ask(Client(), link.away_code).content.decode()) == [f"{table_views.REST_POLL_SECONDS}"]
    start_clock(link.match, 52)
    assert POLL_AGAIN.findall(ask(Client(), link.away_code).content.decode()) == [f"{table_views.POLL_SECONDS}"]


def test_a_phone_both_teams_share_is_never_told_it_is_typing(setup):
    link = setup["link"]
    shared = Client()
    seen = ask(shared, link.code, **{"with": link.away_code})
    check(shared, link.code, side="home", number="1", other_code=link.away_code)
    again = ask(shared, link.code, seen["ETag"], **{"with": link.away_code})
    assert again.status_code == 304


def test_the_live_check_writes_nothing_but_its_typing_note_and_that_seldom(setup):
    """At most one write per side every TYPING_NOTE_EVERY_SECONDS, and nothing of the protocol."""
    link = setup["link"]
    before = rows()
    phone = Client()
    assert check(phone, link.code, side="home", number="1").status_code == 200
    noted = TableLink.objects.get(pk=link.pk).home_typing_at
    assert noted is not None
    after = rows()
    assert after["TableLink"][0].pop("home_typing_at") == noted and before["TableLink"][0].pop("home_typing_at") is None
    assert after == before
    check(phone, link.code, side="home", number="1")
    assert TableLink.objects.get(pk=link.pk).home_typing_at == noted
