"""Entry at the table in phone emulation (Chromium, 390 px, touch), from the match's table link and
without an account: a match entered deal by deal with the other team confirming on a second
device; two deals typed without a connection, a reload, and both stored once when the connection
returns; a deal the other team rejects; the clock's end and both teams' confirmation."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Deal, Match, TableDeal
from scoring.services import table
from tests import factories as f
from tests.support.browser import cut_the_network, open_page, restore_the_network
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import points

pytestmark = pytest.mark.django_db(transaction=True)


def table_setup(**competition):
    setup = f.protocol_setup()
    if competition:
        for name, value in competition.items():
            setattr(setup["match"].competition, name, value)
        setup["match"].competition.save()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


def open_table(browser, live_server, link, side="home", *, shared=False):
    """A phone with one team's code in its address; `shared`: it also holds the other team's."""
    page, problems = open_page(browser, **PHONE)
    address = live_server.url + reverse("scoring:table", args=[link.code_for(side)])
    if shared:
        address += "?with=" + link.code_for("away" if side == "home" else "home")
    page.goto(address)
    return page, problems


def type_deal(page, *, home_cards, away_cards, home_natural=0, home_mixed=0, out=""):
    chooser = page.locator("#deal-form input[type=radio][name=side][value=home]")
    if chooser.count():  # a phone both teams share asks which team sends it
        chooser.check()
    page.locator("input[name=home_cards]").fill(str(home_cards))
    page.locator("input[name=home_natural]").fill(str(home_natural))
    page.locator("input[name=home_mixed]").fill(str(home_mixed))
    page.locator("input[name=away_cards]").fill(str(away_cards))
    page.locator(f"input[name=out][value='{out}']").check()


def test_a_match_is_entered_at_the_table_and_the_other_team_confirms_on_its_own_phone(live_server, browser):
    setup = table_setup()
    home, home_problems = open_table(browser, live_server, setup["link"], "home")
    away, away_problems = open_table(browser, live_server, setup["link"], "away")

    for number in (1, 2, 3):
        expect(home.locator("#deal-form [data-role=title]")).to_have_text(re.compile(rf"{number}$"))
        type_deal(home, home_cards=485, home_natural=2, home_mixed=1, away_cards=-40, out="home")
        # Checked by the engine as typed: the deal score and the running total.
        expect(home.locator("#preview-home_score")).to_have_text(points(1885))
        expect(home.locator("#preview-home_total")).to_have_text(points(1885 * number))
        home.locator("#deal-form [data-role=send]").tap()
        # Not on the protocol before the other team agrees; the form waits meanwhile.
        expect(home.locator(".table-waiting")).to_be_visible()
        expect(home.locator("#deal-form")).to_be_hidden()
        assert Deal.objects.count() == number - 1

        away.reload()
        waiting = away.locator(".table-waiting")
        expect(waiting.locator("[data-role=score-home]")).to_have_text(points(1885))
        waiting.locator("button[name=side][value=away]").tap()
        expect(away.locator("#total-home")).to_have_text(points(1885 * number))
        expect(home.locator("#total-home")).to_have_text(points(1885 * number))  # the home phone looks again by itself

    # 5 655: the target is reached, the match ends by itself; both teams confirm the protocol.
    match = Match.objects.get()
    assert (match.status, match.end, match.deal_count) == ("finished", "target", 3)
    expect(home.locator(".table-end")).to_be_visible()
    home.locator(".table-confirm button[value=home]").tap()
    expect(home.locator(".table-confirmed")).to_have_count(1)
    away.reload()
    away.locator(".table-confirm button[value=away]").tap()
    expect(away.locator(".table-confirmed")).to_have_count(2)
    wide = home.evaluate("Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + e.getBoundingClientRect().right).slice(0, 8)")
    assert home.evaluate("document.documentElement.scrollWidth") <= 390, wide
    assert home_problems == [] and away_problems == []


def test_the_other_phone_sees_a_deal_being_typed_and_then_the_proposal_by_itself(live_server, browser):
    """No reload on the away phone: its own polls show that the home team is typing (and ask more
    often from then on), then the deal it sent, waiting for the away team's answer."""
    setup = table_setup()
    home, home_problems = open_table(browser, live_server, setup["link"], "home")
    away, away_problems = open_table(browser, live_server, setup["link"], "away")
    expect(away.locator("#table-state-data")).to_have_attribute("data-poll-seconds", "6")
    type_deal(home, home_cards=485, home_natural=2, home_mixed=1, away_cards=-40, out="home")
    expect(home.locator("#preview-home_score")).to_have_text(points(1885))  # the live check answered
    typing = away.locator(".table-typing")
    expect(typing).to_contain_text(f"{setup['match'].home_team.name} för in en giv")
    expect(away.locator("#table-state-data")).to_have_attribute("data-poll-seconds", "2.5")
    expect(home.locator(".table-typing")).to_have_count(0)
    home.locator("#deal-form [data-role=send]").tap()
    expect(away.locator(".table-waiting [data-role=score-home]")).to_have_text(points(1885))
    expect(typing).to_have_count(0)
    assert home_problems == [] and away_problems == []


def test_two_deals_typed_offline_survive_a_reload_and_are_stored_once(live_server, browser):
    setup = table_setup()
    page, problems = open_table(browser, live_server, setup["link"], shared=True)
    # The service worker keeps the page for a reload without a network.
    page.wait_for_function("() => !!navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => caches.match(location.pathname, {ignoreVary: true}).then(kept => !!kept)")

    cut_the_network(page.context, live_server.url)
    type_deal(page, home_cards=485, home_natural=2, home_mixed=1, away_cards=-40, out="home")
    page.locator("#deal-form [data-role=send]").tap()
    expect(page.locator("#connection")).to_be_visible()
    queued = page.locator("#queue-list li")
    expect(queued).to_have_count(1)
    queued.get_by_role("button").tap()  # the away team agrees on this phone
    expect(page.locator("#deal-form [data-role=title]")).to_have_text(re.compile(r"2$"))
    type_deal(page, home_cards=50, away_cards=30)
    page.locator("#deal-form [data-role=send]").tap()
    expect(queued).to_have_count(2)
    queued.nth(1).get_by_role("button").tap()
    # Half a third deal typed, then the page reloads without a network: nothing is lost.
    page.locator("input[name=home_cards]").fill("95")
    page.reload()
    expect(page.locator("#queue-list li")).to_have_count(2)
    expect(page.locator("input[name=home_cards]")).to_have_value("95")
    assert Deal.objects.count() == 0

    restore_the_network(page.context, live_server.url)
    expect(page.locator("#queue-list li")).to_have_count(0)
    expect(page.locator("#total-home")).to_have_text(points(1935))
    expect(page.locator("#total-away")).to_have_text(points(-10))
    assert list(Deal.objects.order_by("number").values_list("number", "home_cards")) == [(1, 485), (2, 50)]
    assert TableDeal.objects.filter(status="agreed").count() == 2
    # What the browser and htmx say of a request the lost connection cut short: expected here.
    offline = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "htmx:sendError")
    assert [p for p in problems if not any(text in p for text in offline)] == []


def test_a_deal_the_other_team_rejects_is_marked(live_server, browser):
    setup = table_setup()
    home, _home_problems = open_table(browser, live_server, setup["link"])
    # The engine's messages as the deal is typed, beside the field, as on the secretary's page.
    type_deal(home, home_cards=123, away_cards=-40)
    expect(home.locator("#problems-home_cards")).to_contain_text("Giv 1, hemmalaget")
    type_deal(home, home_cards=485, home_natural=2, home_mixed=1, away_cards=-40, out="home")
    expect(home.locator("#problems-home_cards")).to_be_empty()
    home.locator("#deal-form [data-role=send]").tap()
    expect(home.locator(".table-waiting")).to_be_visible()

    away, away_problems = open_table(browser, live_server, setup["link"], "away")
    reject = away.locator(".table-reject")
    reject.locator("summary").tap()
    reject.locator("input[name=reason]").fill("Vi hade två röda treor")
    reject.locator("button").tap()
    expect(away.locator(".table-settled--rejected")).to_contain_text("Vi hade två röda treor")
    expect(home.locator(".table-settled--rejected")).to_contain_text("Vi hade två röda treor")
    expect(home.locator("#deal-form")).to_be_visible()  # the deal is entered again, from what was typed
    expect(home.locator("#deal-form input[name=home_cards]")).to_have_value("485")
    expect(home.locator("#deal-form input[name=away_cards]")).to_have_value("-40")
    assert not Deal.objects.exists()
    assert TableDeal.objects.get().status == "rejected"
    assert away_problems == []


def test_the_clock_ends_the_match_after_the_final_signal(live_server, browser):
    setup = table_setup(rules_key="sv-tavling", table_confirmation=True)
    match = setup["match"]
    match.round.clock_started_at = timezone.now() - timedelta(minutes=45)
    match.round.save()
    link = setup["link"]
    table.table_deal_propose(link=link, codes=[link.code, link.away_code], client_id="d1", side="home", number=1,
                             entry=f.winning_deal(1), agreed_by_both=True)  # fmt: skip
    page, problems = open_table(browser, live_server, link, shared=True)
    # Before the main signal the clock's end is not offered.
    expect(page.locator("[data-role=clock]")).to_contain_text(":")
    expect(page.locator(".table-time-up")).to_have_count(0)
    expect(page.locator("[data-role=clock-choice]")).to_be_hidden()
    # After it no new deal may be dealt: the time running out between deals is offered; a deal
    # ended by the final signal not yet.
    match.round.clock_started_at = timezone.now() - timedelta(minutes=55)
    match.round.save()
    page.reload()
    expect(page.locator(".table-time-up")).to_be_visible()
    expect(page.locator("[data-role=clock-choice]")).to_be_hidden()

    match.round.clock_started_at = timezone.now() - timedelta(minutes=61)
    match.round.save()
    page.reload()
    expect(page.locator("[data-role=clock-choice]")).to_be_visible()  # "ended by the final signal"
    time_up = page.locator(".table-time-up")
    time_up.locator("input[name=side][value=home]").check()
    time_up.locator("button").tap()
    page.locator(".table-waiting button[name=side][value=away]").tap()
    expect(page.locator(".table-end")).to_be_visible()
    page.locator(".table-confirm button[value=home]").tap()
    expect(page.locator(".table-confirmed")).to_have_count(1)
    page.locator(".table-confirm button[value=away]").tap()
    # Both teams confirmed and the competition lets that stand for the captain's: the match is
    # confirmed, and the link opens nothing more.
    # Once the last confirmation is stored the link has closed, and the page says so when it next
    # asks for the table's state (before that, #connection may show "Sending…"): only then read the match.
    gone = page.locator("[data-text-gone]").get_attribute("data-text-gone")
    expect(page.locator("#connection")).to_have_text(gone)
    match.refresh_from_db()
    assert (match.status, match.end, match.winner) == ("confirmed", "clock", "home")
    page.reload()
    assert page.locator("#deal-form").count() == 0
    assert [p for p in problems if "404" not in p] == []


def test_the_secretary_sees_every_table_of_the_round_live(live_server, browser):
    from tests.browser.test_protocol_entry import log_in

    setup = table_setup(rules_key="sv-tavling")
    match = setup["match"]
    match.round.clock_started_at = timezone.now() - timedelta(minutes=5)
    match.round.save()
    second = f.make_match(competition=match.competition, table=2)
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:round-tables", args=[match.competition.pk, 1]))
    row = page.locator(f"#round-table-{match.pk}")
    expect(row.locator("[data-role=deals]")).to_have_text("0")
    expect(page.locator(f"#round-table-{second.pk}")).to_be_visible()
    expect(page.locator("#hall-clock [data-role=final-left]")).to_have_text(re.compile(r"^\d\d:\d\d$"))

    # A deal agreed at the table, another waiting: the page shows them by itself.
    link = setup["link"]
    table.table_deal_propose(link=link, codes=[link.code, link.away_code], client_id="1", side="home", number=1,
                             entry=f.winning_deal(1), agreed_by_both=True)  # fmt: skip
    table.table_deal_propose(link=link, codes=[link.away_code], client_id="2", side="away", number=2, entry=f.winning_deal(2))
    expect(row.locator("[data-role=deals]")).to_have_text("1")
    expect(row.locator("[data-role=waiting]")).to_have_text("1")
    expect(row.locator("[data-role=totals]")).to_contain_text("1\u202f885")
    expect(row.locator("[data-role=contact]")).not_to_contain_text("inte än")
    assert problems == []
