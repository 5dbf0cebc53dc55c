"""Every text of the pages a round night is run from passes axe-core's colour-contrast rule (the
axe-core copy that axe-playwright-python carries, run in Debian's Chromium): the table page with a
deal waiting and a conflict, on a phone and on a wide screen; the round at a glance with the hall
clock running; the hall clock; the table cards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from scoring.services import table
from tests import factories as f
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import log_in
from tests.support.browser import open_page

pytestmark = pytest.mark.django_db(transaction=True)


def contrast_failures(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": ["color-contrast"], "resultTypes": ["violations"]})
    return [
        f"{node['target']}: {node.get('failureSummary', '')[:160]}"
        for violation in results.response["violations"]
        for node in violation["nodes"]
    ]


@pytest.fixture
def round_night():
    setup = f.protocol_setup()
    match = setup["match"]
    match.competition.rules_key = "sv-tavling"
    match.competition.save()
    match.round.clock_started_at = timezone.now() - timedelta(minutes=20)
    match.round.save()
    link = table.table_link_issue(match=match, user=setup["secretary"])
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    table.table_deal_propose(link=link, codes=[link.code], client_id="late", side="home", number=1, entry=f.winning_deal(1))
    table.table_deal_propose(link=link, codes=[link.code], client_id="next", side="home", number=2, entry=f.winning_deal(2))
    setup["link"] = link
    return setup


def test_the_table_page_passes_the_contrast_rule(live_server, browser, round_night):
    link = round_night["link"]
    for options in (PHONE, {"width": 1280, "height": 900}):
        page, problems = open_page(browser, **options)
        page.goto(live_server.url + reverse("scoring:table", args=[link.away_code]))
        expect(page.locator(".table-waiting")).to_be_visible()
        assert contrast_failures(page) == []
        page.goto(live_server.url + reverse("scoring:table", args=[link.code]))
        expect(page.locator("[data-role=conflict]")).to_be_visible()
        assert contrast_failures(page) == []
        assert problems == []


def test_the_round_night_pages_pass_the_contrast_rule(live_server, browser, round_night):
    match = round_night["match"]
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    addresses = [
        reverse("scoring:round-tables", args=[match.competition.pk, match.round.number]),
        reverse("scoring:round-clock", args=[match.competition.pk, match.round.number]),
        reverse("scoring:round-table-cards", args=[match.competition.pk, match.round.number]),
        reverse("scoring:match-protocol", args=[match.pk]),
    ]
    for address in addresses:
        page.goto(live_server.url + address)
        expect(page.locator("main")).to_be_visible()
        assert contrast_failures(page) == [], address
    assert problems == []
