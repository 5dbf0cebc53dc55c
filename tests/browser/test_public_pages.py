"""The public pages in real headless Chromium at a phone's size (390 × 844): a player finds the
league, the standings, a match protocol and a player's figures; a round's results arrive live
while the page is open; the hall clock gives its signal. Screenshots go to $PUBLIC_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from tests.support.browser import open_page
from tests.factories import winning_deal

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser):
    page, problems = open_page(browser, **PHONE, device_scale_factor=1)
    yield page, problems
    page.context.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PUBLIC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fits_the_phone(page) -> bool:
    """Nothing makes the whole page scroll sideways (wide tables scroll inside their own box)."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_a_player_follows_the_league_on_a_phone(live_server, league, phone, shots):
    page, problems = phone

    page.goto(live_server.url + reverse("scoring:home"))
    page.get_by_role("navigation", name="Huvudmeny").get_by_role("link", name="Tävlingar").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tävlingar")
    assert fits_the_phone(page)
    page.screenshot(path=shots / "1-competitions.png", full_page=True)

    page.get_by_role("link", name="Mellansvenska serien 2026/27").click()
    standings = page.locator("table.standings")
    expect(standings.locator("tbody tr").first).to_contain_text("Essen")
    expect(standings.locator("tbody tr").nth(2).locator("td").first).to_contain_text("3=")
    assert fits_the_phone(page)
    page.screenshot(path=shots / "2-standings.png", full_page=True)

    page.locator("table.results").get_by_role("link", name="5 500 – 3 720").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Essen")
    deal_two = page.locator("#deal-2")
    deal_two.locator("summary").click()
    expect(deal_two.locator("table.breakdown")).to_be_visible()
    expect(deal_two.locator("table.breakdown")).to_contain_text("Givpoäng")
    expect(page.locator("#deal-8 .protocol__total").first).to_have_text("5 500")
    expect(page.locator(".match-end__text")).to_contain_text("5\u202f000 uppnåddes")
    assert fits_the_phone(page)
    page.screenshot(path=shots / "3-protocol.png", full_page=True)

    player = league["teams"]["ess"].player_one
    page.locator(".scoreboard").get_by_role("link", name=player.name).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(player.name)
    expect(page.locator('dd[data-figure="deals"]')).to_have_text("8")
    assert fits_the_phone(page)
    page.screenshot(path=shots / "4-player.png", full_page=True)

    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_a_new_deal_appears_on_the_open_round_page(live_server, league, phone, shots, settings):
    settings.SCORING_LIVE_POLL_SECONDS = 1
    page, problems = phone
    competition, live = league["competition"], league["live"]
    page.goto(live_server.url + reverse("scoring:round-detail", args=[competition.pk, 1]))
    row = page.locator(f'tr[data-match-id="{live.pk}"]')
    expect(row).to_contain_text("1 885")
    expect(page.locator("#round-live")).to_have_attribute("hx-trigger", "every 1s")

    services.deals_record(match=live, user=league["secretary"], entry=winning_deal(2, "home"),
                          expected_version=live.version)

    # No reload: htmx fetches the results again and swaps in the new total.
    expect(row).to_contain_text("3 770", timeout=15_000)
    expect(row).to_contain_text("Pågår, giv 3")
    page.screenshot(path=shots / "5-live-round.png", full_page=True)
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_hall_clock_counts_down_and_gives_the_main_signal(live_server, league, phone, shots):
    page, problems = phone
    competition = league["competition"]
    # Started 50 minutes ago less two seconds: the main signal comes while the page is open.
    services.round_clock_start(
        round=competition.rounds.get(number=1),
        user=league["secretary"],
        at=timezone.now() - timedelta(minutes=50) + timedelta(seconds=2),
    )
    page.goto(live_server.url + reverse("scoring:round-clock", args=[competition.pk, 1]))
    sound = page.get_by_role("button", name="Slå på ljudet")
    sound.click()
    expect(page.get_by_role("button", name="Ljudet är på")).to_have_attribute("aria-pressed", "true")

    status = page.locator("[data-role=status]")
    expect(status).to_contain_text("ingen ny giv får ges", timeout=10_000)
    expect(page.locator("body")).to_have_class(re.compile(r"\bhall--signal-main\b"))
    expect(page.locator("[data-role=main-left]")).to_have_text("00:00")
    expect(page.locator("[data-role=final-left]")).to_contain_text("09:")
    page.screenshot(path=shots / "6-hall-clock-signal.png", full_page=True)
    assert problems == []
