"""Copying a paper protocol on a phone (Chromium's mobile emulation: 390 px, touch): card points
below zero come from the keyboard (the fields do not ask for the digits-only keypad, which has no
minus key), the written minimum, deal score and total stand in each side's fields in the paper's
order, and the check with the save button stays in sight beside the fields being typed, folded to
at most a quarter of the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import log_in, points


SELECTED = "() => { const e = document.activeElement; return !!e && e.selectionStart === 0 && e.selectionEnd === e.value.length; }"


def in_view(locator) -> bool:
    return locator.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")


@pytest.mark.django_db(transaction=True)
def test_a_paper_protocol_is_copied_on_a_phone_with_negative_numbers(live_server, browser):
    setup = f.protocol_setup()
    page, problems = open_page(browser, **PHONE)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))

    for name in ("home_cards", "away_cards", "home_score", "away_total"):
        assert page.locator(f"input[name={name}]").get_attribute("inputmode") not in ("numeric", "decimal")
    # The paper's columns, nothing folded away: minimum, the entries, deal score, total; canasta
    # points, for a paper that has them rather than counts, beside the counts.
    names = page.locator("fieldset.deal-side--home input:not([type=hidden])").evaluate_all("inputs => inputs.map(i => i.name)")
    assert names == ["home_min", "home_cards", "home_natural", "home_mixed", "home_canasta_points", "home_red3",
                     "home_penalty", "home_score", "home_total"]
    expect(page.locator("details.deal-written")).to_have_count(0)

    page.locator("input[name=home_cards]").tap()
    page.wait_for_function(SELECTED)  # the page selects the 0 there, so typing replaces it
    page.keyboard.type("485")
    page.locator("input[name=home_natural]").fill("2")
    page.locator("input[name=home_mixed]").fill("1")
    page.locator("input[name=out][value=home]").check()
    away = page.locator("input[name=away_cards]")
    away.tap()
    page.wait_for_function(SELECTED)
    page.keyboard.type("-65")
    page.locator("input[name=away_total]").fill("−65")
    expect(page.locator("#preview-away-score")).to_have_text(points(-65))
    expect(page.locator("#preview-home-total")).to_have_text(points(1885))
    # The check and the save button are on the screen beside the field being typed.
    total = page.locator("input[name=away_total]")
    total.evaluate("e => e.scrollIntoView({block: 'nearest'})")
    assert in_view(total)
    assert total.evaluate("e => e.getBoundingClientRect().bottom <= document.querySelector('.deal-layout__result').getBoundingClientRect().top")
    # Folded, the check shows the new totals and whether the deal can be saved.
    glance = page.locator("#live-glance")
    expect(glance).to_contain_text("Inga problem")
    expect(glance).to_contain_text("Summa 1\u202f885 – −65")
    assert in_view(glance) and in_view(page.get_by_role("button", name="Spara giv 1"))

    page.get_by_role("button", name="Spara giv 1").tap()
    expect(page.locator("#total-away")).to_have_text(points(-65))
    deal = Deal.objects.get()
    assert (deal.away_cards, deal.home_cards) == (-65, 485)
    assert problems == []


PANEL = """() => { const r = document.querySelector('.deal-layout__result').getBoundingClientRect();
  return {top: r.top, height: r.height, screen: innerHeight}; }"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width,height", [(320, 597), (320, 450), (390, 844), (390, 450)])
def test_the_check_panel_takes_at_most_a_quarter_of_a_phone_screen_and_folds(live_server, browser, width, height):
    """450 px high is a phone with its keyboard open. Folded (as it opens), the check at the foot
    of the screen is one row: whether the deal can be saved, the new totals and the save button.
    Its summary unfolds it to the whole check and folds it again."""
    setup = f.protocol_setup()
    page, problems = open_page(browser, **{**PHONE, "width": width, "height": height})
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))
    page.locator("input[name=home_cards]").fill("120")
    page.locator("input[name=home_red3]").fill("1")  # counts nothing here: a note
    away = page.locator("input[name=away_cards]")
    away.tap()
    glance = page.locator("#live-glance")
    expect(glance).to_contain_text("1 anmärkning")
    expect(glance).to_contain_text("Summa 120 – 0")

    panel = page.evaluate(PANEL)
    assert panel["height"] <= panel["screen"] / 4, panel
    assert panel["top"] + panel["height"] <= panel["screen"] + 1, panel
    assert in_view(glance) and in_view(page.get_by_role("button", name="Spara giv 1"))
    assert in_view(away)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    details = page.locator("details.live-check")
    expect(page.locator("#preview-home-score")).to_be_hidden()
    page.locator(".live-check__summary").tap()
    expect(details).to_have_attribute("open", "")
    expect(page.locator("#preview-home-score")).to_be_visible()
    expect(page.locator(".preview__warnings")).to_contain_text("inte behöver skrivas")
    assert in_view(page.get_by_role("button", name="Spara giv 1"))
    page.locator(".live-check__summary").tap()
    expect(page.locator("#preview-home-score")).to_be_hidden()
    assert page.evaluate(PANEL)["height"] <= height / 4
    assert problems == []
