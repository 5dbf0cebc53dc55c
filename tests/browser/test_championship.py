"""A championship in a real Chromium: the organiser confirms a stage's qualified list, and the public
road to the final fits a phone (320 and 390 px) and a wide screen (1280 px) without the page
scrolling sideways and passes axe-core (WCAG 2 A and AA). The world is
tests/services/test_championships.py's, its club heats played."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import StageQualifier
from tests.browser.test_nothing_cut_off import PAGE_SCROLLS
from tests.browser.test_protocol_entry import log_in
from tests.services.test_championships import CLUB_RESULTS, world  # noqa: F401 (a fixture)
from tests.support.browser import open_page
from tests.views.test_championship_pages import record_heat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def axe_violations(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]})
    return [f"{v['id']}: {node['target']}" for v in results.response["violations"] for node in v["nodes"]]


@pytest.fixture
def played(world):  # noqa: F811
    for letter in "ABC":
        record_heat(world["heats"][letter], CLUB_RESULTS)
    return world


def test_the_organiser_confirms_a_qualified_list(live_server, browser, played, shots):
    page, problems = open_page(browser, width=390, height=844)
    log_in(page, live_server.url, "forbundet")
    page.goto(live_server.url + reverse("scoring:manage-home"))
    page.get_by_role("link", name="SM i par 2026/27").click()
    page.get_by_role("link", name="Listan över vidaregående: avhopp och fastställande").first.click()

    going_on = page.locator("table.qualified").first
    expect(going_on.locator("tbody tr")).to_have_count(6)
    expect(going_on).to_contain_text("Bästa tvåa, 2 av 3 (plats 2 i Kval B)")
    assert page.evaluate(PAGE_SCROLLS) == []
    assert axe_violations(page) == []
    page.screenshot(path=str(shots / "championship-confirm-390.png"), full_page=True)

    page.get_by_role("button", name="Fastställ listan över vidaregående").click()
    expect(page.locator(".messages")).to_contain_text("Listan över vidaregående är fastställd")
    assert StageQualifier.objects.filter(stage=played["stages"][0]).count() == 6
    assert sorted(played["heats"]["Distrikt norr"].teams.values_list("name", flat=True)) == ["A1", "A2", "B2"]
    assert problems == []


def test_the_road_to_the_final_fits_every_screen_and_passes_axe(live_server, browser, played, shots):
    page, problems = open_page(browser, width=1280, height=900)
    page.goto(live_server.url + reverse("scoring:championship-detail", args=[played["championship"].pk]))
    expect(page.get_by_role("heading", name="Vägen till finalen")).to_be_visible()
    expect(page.locator("table.standings").first).to_contain_text("Kval B")
    for width in (320, 390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate(PAGE_SCROLLS) == [], width
        assert axe_violations(page) == [], width
        page.screenshot(path=str(shots / f"championship-{width}.png"), full_page=True)
    assert problems == []
