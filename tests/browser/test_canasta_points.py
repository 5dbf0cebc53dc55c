"""Canasta points on the paper rather than counts, in real headless Chromium with the live check:
1500 could be 3 natural or 5 mixed canastas, so the page asks; the choice fills the counts, the
engine's score follows, and the deal is saved with the chosen counts. Screenshots of the question
at 390 px go to $PROTOCOL_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations


import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_protocol_entry import log_in, points

# A real browser: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow


@pytest.mark.django_db(transaction=True)
def test_points_that_could_be_either_ask_and_the_choice_fills_the_counts(live_server, browser, shots):
    setup = f.protocol_setup()
    match = setup["match"]
    page, problems = open_page(browser, width=390, height=844)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))

    page.locator("input[name=home_cards]").fill("300")
    page.locator("input[name=away_cards]").fill("50")
    page.locator("input[name=out][value=home]").check()
    page.get_by_label("Canastapoäng, hemmalaget").fill("1500")

    question = page.get_by_role("group", name="3 naturliga eller 5 blandade?")
    expect(question).to_be_visible()
    expect(page.locator("#problems-home_canasta_points")).to_contain_text(
        "Giv 1, hemmalaget, canastapoäng: 1\u202f500 kan vara 3 naturliga eller 5 blandade"
    )
    expect(page.locator("input[name=home_canasta_points]")).to_have_attribute("aria-invalid", "true")
    page.screenshot(path=str(shots / "canasta-points-question-390.png"), full_page=True)

    question.get_by_label("5 blandade").check()

    expect(page.locator("input[name=home_mixed]")).to_have_value("5")
    expect(page.locator("input[name=home_natural]")).to_have_value("0")
    expect(page.get_by_text("Ifyllt från poängen: 5 blandade.")).to_be_visible()
    expect(question).to_have_count(0)
    expect(page.locator("#problems-home_canasta_points")).to_be_empty()
    # 300 card points, 5 mixed canastas (1500), going out (100): the server's engine.
    expect(page.locator("#preview-home-score")).to_have_text(points(1900))

    page.get_by_role("button", name="Spara giv 1").click()
    expect(page.locator("#total-home")).to_have_text(points(1900))
    saved = Deal.objects.get(match=match)
    assert (saved.home_natural, saved.home_mixed) == (0, 5)
    assert problems == []
