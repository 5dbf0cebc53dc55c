"""Two phones at a table (Chromium's mobile emulation, touch), each with its team's code; the home
team's phone holds the away team's code too (a phone both teams share). It loses the network,
two deals are typed and agreed on it, and it is reloaded without a network: it shows the latest
state it saw (not the page the service worker kept when it was first opened) and numbers the next
deal after the deals waiting on it. Meanwhile the secretary saves deal 2 from the paper. Back
online nothing is lost: the first queued deal, whose number was taken, comes back as a conflict
with the players' numbers (also on the secretary's page), and goes in with one tap as the next
deal once the away team's own phone agrees; the other queued deal is stored as it was sent."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from scoring.models import Deal, Match, TableDeal
from tests import factories as f
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import log_in, points
from tests.support.browser import cut_the_network, open_page, restore_the_network

pytestmark = pytest.mark.django_db(transaction=True)


def open_phone(browser, live_server, code):
    page, problems = open_page(browser, **PHONE)
    page.goto(live_server.url + reverse("scoring:table", args=[code]))
    return page, problems


def type_deal(page, home_cards, away_cards):
    page.locator("#deal-form input[name=home_cards]").fill(str(home_cards))
    page.locator("#deal-form input[name=away_cards]").fill(str(away_cards))


def title(page):
    return page.locator("#deal-form [data-role=title]")


# The latest state the service worker kept of this phone's table (sw.js), as text.
KEPT_STATE = "() => caches.match(location.pathname + 'state/').then(kept => kept ? kept.text() : '')"


def test_two_phones_a_reload_offline_and_a_deal_whose_number_was_taken(live_server, browser):
    setup = f.protocol_setup()
    match = setup["match"]
    link = services.table_link_issue(match=match, user=setup["secretary"])
    home, home_problems = open_phone(browser, live_server, link.code)
    away, away_problems = open_phone(browser, live_server, link.away_code)

    # Both teams share the home phone: the away team's code is added once.
    home.locator("#table-codes summary").tap()
    home.locator("#add-code-form input[name=with]").fill(link.away_code.lower())
    home.locator("#add-code-form button").tap()
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(2)
    # The service worker keeps the page as it was opened: no deal yet.
    home.wait_for_function("() => navigator.serviceWorker.controller !== null")
    home.wait_for_function("""() => caches.match(location.pathname, {ignoreVary: true, ignoreSearch: true})
      .then(kept => kept && kept.text()).then(text => !!text && text.includes('data-deal-count="0"'))""")

    # Deal 1, online: proposed on the home phone, agreed on the away team's own.
    type_deal(home, 120, 45)
    home.locator("#deal-form [data-role=send]").tap()
    expect(home.locator(".table-waiting")).to_be_visible()
    away.reload()
    away.locator(".table-waiting button[name=side][value=away]").tap()
    expect(away.locator("#total-home")).to_have_text(points(120))
    expect(home.locator("#total-home")).to_have_text(points(120))  # seen by the home phone's poll
    home.wait_for_function(f"() => ({KEPT_STATE})().then(text => text.includes('data-deal-count=\"1\"'))")

    # No network: deals 2 and 3 typed, and agreed on this phone by the away team.
    cut_the_network(home.context, live_server.url)
    expect(title(home)).to_have_text("Giv 2")
    queued = home.locator("#queue-list li")
    for number, (home_cards, away_cards) in ((2, (200, 50)), (3, (90, 30))):
        type_deal(home, home_cards, away_cards)
        home.locator("#deal-form [data-role=send]").tap()
        expect(queued).to_have_count(number - 1)
        queued.nth(number - 2).get_by_role("button", name="Bortalaget godkänner").tap()
        expect(title(home)).to_have_text(f"Giv {number + 1}")
    expect(home.locator("#connection")).to_be_visible()

    # Reloaded without a network: the state last seen (deal 1 on the protocol), not the page kept
    # when the phone first opened it; the next deal after the two waiting on the phone.
    home.reload()
    expect(queued).to_have_count(2)
    expect(home.locator("#total-home")).to_have_text(points(120))
    expect(home.locator("#deal-1")).to_be_visible()
    expect(title(home)).to_have_text("Giv 4")
    expect(home.locator("#deal-form input[name=home_cards]")).to_have_value("")

    # Meanwhile the secretary copies deal 2 from the paper, with other numbers.
    match.refresh_from_db()
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(2, home_cards=300, away_cards=10),
                          expected_version=match.version)  # fmt: skip

    # Back online: deal 3 goes in as sent; deal 2's number was taken: a conflict, not a loss.
    restore_the_network(home.context, live_server.url)
    expect(queued).to_have_count(0)
    conflict = home.locator("[data-role=conflict]")
    expect(conflict).to_have_count(1)
    expect(conflict).to_contain_text("200")
    expect(conflict).to_contain_text("50")
    expect(home.locator("#deal-3")).to_be_visible()
    # What was typed is back in the form too, nothing to type again.
    expect(home.locator("#deal-form input[name=home_cards]")).to_have_value("200")
    expect(home.locator("#deal-form input[name=away_cards]")).to_have_value("50")
    assert list(Deal.objects.order_by("number").values_list("number", "home_cards")) == [(1, 120), (2, 300), (3, 90)]

    # The secretary's page lists it until it is settled.
    secretary, secretary_problems = open_page(browser)
    log_in(secretary, live_server.url, "sekreterare")
    secretary.goto(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))
    expect(secretary.locator("#table-conflicts .table-conflicts__item")).to_have_count(1)
    expect(secretary.locator("#table-conflicts")).to_contain_text("200")

    # One tap sends the players' numbers again as the next deal; the away team's phone agrees.
    resend = conflict.locator("form.table-resend button")
    expect(resend).to_have_text(re.compile(r"Skicka igen som giv 4"))
    resend.tap()
    expect(home.locator("[data-role=conflict]")).to_have_count(0)
    expect(home.locator(".table-waiting")).to_be_visible()
    away.reload()
    waiting = away.locator(".table-waiting")
    expect(waiting.locator("[data-role=score-home]")).to_have_text(points(200))
    waiting.locator("button[name=side][value=away]").tap()
    expect(away.locator("#deal-4")).to_be_visible()
    expect(home.locator("#deal-4")).to_be_visible()
    expect(title(home)).to_have_text("Giv 5")
    expect(home.locator("#deal-form input[name=home_cards]")).to_have_value("")  # stored: the form is free again

    assert list(Deal.objects.order_by("number").values_list("number", "home_cards", "away_cards")) == [
        (1, 120, 45), (2, 300, 10), (3, 90, 30), (4, 200, 50)
    ]
    assert Match.objects.get().deal_count == 4
    assert TableDeal.objects.filter(status="conflict", settled_at__isnull=True).count() == 0
    secretary.reload()
    expect(secretary.locator("#table-conflicts")).to_have_count(0)
    # What the browser and htmx say of a request the lost connection cut short: expected here.
    offline = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "htmx:sendError")
    assert [p for p in home_problems if not any(text in p for text in offline)] == []
    assert away_problems == [] and secretary_problems == []


def test_an_other_code_the_server_refuses_is_forgotten_and_said(live_server, browser):
    """The other team's code kept on the phone is no longer this table's (typed into the phone's
    storage wrong, say): the server refuses it (403), the phone forgets it, says so, and goes on
    for its own team; the right one kept draws the page with both teams' buttons again."""
    setup = f.protocol_setup()
    link = services.table_link_issue(match=setup["match"], user=setup["secretary"])
    home, problems = open_phone(browser, live_server, link.code)
    kept = f"canasta-table:{link.code}:other"
    home.evaluate(f"() => localStorage.setItem('{kept}', JSON.stringify('XXXXXXXX'))")
    home.reload()
    expect(home.locator("#connection")).to_contain_text("Det andra lagets kod godtogs inte")
    expect(home.locator("#total-home")).to_have_text("0")
    assert home.evaluate(f"() => localStorage.getItem('{kept}')") is None
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(0)

    home.evaluate(f"() => localStorage.setItem('{kept}', JSON.stringify('{link.away_code}'))")
    home.reload()
    expect(home).to_have_url(re.compile(rf"\?with={link.away_code}$"))
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(2)
    assert [p for p in problems if "403" not in p] == []


def test_a_queued_deal_the_server_refuses_is_put_right_in_its_place(live_server, browser):
    """Two deals typed without a network on a phone both teams share, both agreed on it; the first
    has card points no deal can have, which the live check could not say offline. Back online the
    server refuses it: it comes back into the form with the server's problem beside the field, and
    the deal after it waits. Put right and sent, it keeps its number and both are stored in order."""
    setup = f.protocol_setup()
    link = services.table_link_issue(match=setup["match"], user=setup["secretary"])
    page, problems = open_page(browser, **PHONE)
    page.goto(live_server.url + reverse("scoring:table", args=[link.code]) + f"?with={link.away_code}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    cut_the_network(page.context, live_server.url)
    queued = page.locator("#queue-list li")
    for number, home_cards in ((1, 123), (2, 90)):
        type_deal(page, home_cards, 30)
        page.locator("#deal-form [data-role=send]").tap()
        expect(queued).to_have_count(number)
        queued.nth(number - 1).get_by_role("button", name="Bortalaget godkänner").tap()

    restore_the_network(page.context, live_server.url)
    expect(queued.first).to_have_attribute("data-refused", "1")
    cards = page.locator("#deal-form input[name=home_cards]")
    expect(cards).to_have_value("123")
    expect(cards).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#problems-home_cards")).to_contain_text("Giv 1, hemmalaget")
    expect(title(page)).to_have_text("Giv 1")
    expect(queued).to_have_count(2)
    assert not Deal.objects.exists()

    cards.fill("120")
    page.locator("#deal-form [data-role=send]").tap()
    expect(queued).to_have_count(0)
    expect(page.locator("#deal-2")).to_be_visible()
    expect(title(page)).to_have_text("Giv 3")
    assert list(Deal.objects.order_by("number").values_list("number", "home_cards")) == [(1, 120), (2, 90)]
    # What the browser says of a request the lost connection cut short, and of the refusal: expected.
    expected = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "htmx:sendError", "422")
    assert [p for p in problems if not any(text in p for text in expected)] == []


def test_a_phone_both_teams_share_keeps_the_other_code(live_server, browser):
    """The other team's code added once is kept on the phone: the table's page opened again from
    its plain address (the table card's QR code, a bookmark) is drawn with both teams' buttons."""
    setup = f.protocol_setup()
    link = services.table_link_issue(match=setup["match"], user=setup["secretary"])
    home, problems = open_phone(browser, live_server, link.code)
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(0)
    home.goto(live_server.url + reverse("scoring:table", args=[link.code]) + f"?with={link.away_code}")
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(2)

    home.goto(live_server.url + reverse("scoring:table", args=[link.code]))
    expect(home).to_have_url(re.compile(rf"\?with={link.away_code}$"))
    expect(home.locator("#deal-form input[type=radio][name=side]")).to_have_count(2)
    expect(home.locator(".table-queue__item")).to_have_count(0)
    assert problems == []


def test_a_new_service_worker_keeps_only_the_pages_and_its_own_files(live_server, browser, client):
    """What an earlier version of the service worker kept on the phone goes when this one takes
    over: an earlier worker's cache, and in this worker's own cache a file of an earlier version
    (stored names change with their content). The table's page stays, for a reload offline."""
    setup = f.protocol_setup()
    link = services.table_link_issue(match=setup["match"], user=setup["secretary"])
    worker = client.get(reverse("scoring:table-sw")).content.decode()
    own_cache = re.search(r'var CACHE = "([^"]+)"', worker).group(1)
    page, problems = open_page(browser, **PHONE)
    # Left by an earlier version before this page registers its worker (registering waits for it).
    page.add_init_script(f"""(() => {{
      const left = Promise.all([
        caches.open("canasta-table-v0").then((cache) => cache.put("/t/EARLIER/", new Response("an earlier page"))),
        caches.open("{own_cache}").then((cache) => cache.put("/static/scoring/js/table.0ld.js", new Response("old"))),
      ]);
      const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
      navigator.serviceWorker.register = (...args) => left.then(() => register(...args));
    }})()""")
    page.goto(live_server.url + reverse("scoring:table", args=[link.code]))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => caches.match(location.pathname, {ignoreVary: true}).then((kept) => !!kept)")

    assert page.evaluate("() => caches.keys()") == [own_cache]
    kept = page.evaluate(
        f"() => caches.open('{own_cache}').then((cache) => cache.keys()).then((all) => all.map((r) => new URL(r.url).pathname))"
    )
    assert "/static/scoring/js/table.0ld.js" not in kept
    assert reverse("scoring:table", args=[link.code]) in kept
    assert any(path.startswith("/static/scoring/js/table.") for path in kept)
    assert problems == []


# The page this phone's service worker kept, as if kept `ms` earlier than it was, and no state kept
# after it (sw.js keeps both with the phone's time they came at, X-Kept-At).
AGE_THE_KEPT_PAGE = """async (ms) => {
  const name = (await caches.keys()).find(key => key.startsWith('canasta-table-'));
  const cache = await caches.open(name);
  const kept = await cache.match(location.pathname);
  const headers = new Headers(kept.headers);
  headers.set('X-Kept-At', String(Number(headers.get('X-Kept-At')) - ms));
  await cache.put(location.pathname, new Response(await kept.text(), {headers}));
  await cache.delete(location.pathname + 'state/');
}"""


def test_a_page_reloaded_without_a_network_counts_the_hall_clock_from_the_time_now(live_server, browser):
    """The page the service worker kept was drawn ten minutes before a reload without a network:
    the hall clock counts down from the server's time then plus the ten minutes this phone's clock
    counted since, not from the time the page was drawn."""
    setup = f.protocol_setup()
    match = setup["match"]
    match.round.clock_started_at = timezone.now() - timedelta(minutes=5)
    match.round.save()
    link = services.table_link_issue(match=match, user=setup["secretary"])
    phone, problems = open_phone(browser, live_server, link.code)
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.wait_for_function("""() => caches.match(location.pathname, {ignoreVary: true, ignoreSearch: true})
      .then(kept => kept && kept.text()).then(text => !!text && text.includes('data-server-now'))""")
    expect(phone.locator("[data-role=next-left]")).to_have_text(re.compile(r"^4[45]:"))  # 45 minutes to the main signal
    phone.evaluate(AGE_THE_KEPT_PAGE, 10 * 60 * 1000)
    kept = phone.evaluate("() => caches.match(location.pathname).then(kept => kept.text())")
    drawn = int(re.search(r'data-rendered-ms="(\d+)"', kept).group(1))

    cut_the_network(phone.context, live_server.url)
    phone.reload()
    server_now = int(phone.locator("#hall-clock").get_attribute("data-server-now"))
    assert 10 * 60 * 1000 <= server_now - drawn < 12 * 60 * 1000
    expect(phone.locator("[data-role=next-left]")).to_have_text(re.compile(r"^3[45]:"))
    offline = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "htmx:sendError")
    assert [p for p in problems if not any(text in p for text in offline)] == []
