"""The federation pages in real headless Chromium, on a phone (390 px) and at 1280 px: a visitor
filters the ranking list, follows a figure to the matches behind it, reads how the rating works,
the club table, a player's seasons and rating chart, and a competition's place-by-round charts.
Nothing makes a page scroll sideways; the charts and their tables are inside the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.services.seasons import season_close
from tests.browser import open_page
from tests.factories import make_admin


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def inside(locator, width: int) -> None:
    box = locator.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_federation_pages_on_a_phone_and_a_desk(live_server, federation, browser, width):
    season_close(name="2025/26", user=make_admin())
    page, problems = open_page(browser, width=width, height=844)

    page.goto(live_server.url + reverse("scoring:home"))
    page.get_by_role("navigation", name="Huvudmeny").get_by_role("link", name="Rankning").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rankning")
    page.get_by_label("Säsong").select_option("2026/27")
    page.get_by_label("Klubb").select_option(label="Canastaklubben Ess")
    page.get_by_role("button", name="Visa").click()
    rows = page.locator("table.rankings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Anna")
    assert page_width(page) <= width

    # A figure leads to the matches behind it.
    rows.first.get_by_role("link", name="Anna: 2 matcher, matcherna bakom siffrorna").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna")
    expect(page.locator("table.ranking-matches tbody tr")).to_have_count(2)
    assert page_width(page) <= width

    page.get_by_role("link", name="Så fungerar ratingen").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Så fungerar ratingen")
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:player-detail", args=[federation["players"]["Anna"].pk]))
    chart = page.get_by_role("img", name="Rating för Anna, match för match")
    expect(chart).to_be_visible()
    inside(chart, width)
    expect(page.locator("[data-season]")).to_have_count(2)
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:competition-detail", args=[federation["series"].pk]))
    page.get_by_role("link", name="Klubbtabell").click()
    expect(page.locator("table.club-table tbody tr")).to_have_count(2)
    assert page_width(page) <= width
    page.get_by_role("link", name="Tabell", exact=True).click()
    page.get_by_text("Placering omgång för omgång").click()
    chart = page.get_by_role("img", name="Greta/Hugo: placering efter varje omgång")
    expect(chart).to_be_visible()
    inside(chart, width)
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:club-detail", args=[federation["clubs"]["kung"].pk]))
    inside(page.get_by_role("img", name="Matchpoäng för Kungarna CK per säsong"), width)
    assert page_width(page) <= width
    assert problems == []
    page.context.close()
