"""docs/rules.md, "Revision 3", in the browser: a paper protocol with a running total written 5 too high at
deal 2 (1 500 for 1 495), typed deal by deal on a phone (390 px) with the paper's later totals and
minimums, which carry the slip on. The live check notes the slip while it is typed and refuses
nothing; every deal saves; the sheet then shows one note, at deal 2 (rule 35 b)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import log_in, points
from tests.views.test_paper_as_written import SLIP_PAPER

THIN = "\u202f"
FIELDS = ("home_min", "home_cards", "home_natural", "home_mixed", "home_score", "home_total",
          "away_min", "away_cards", "away_natural", "away_mixed", "away_score", "away_total")  # fmt: skip
NOTE = f"Giv 2, hemmalaget, summa: 885 och givpoängen 610 blir 1{THIN}495, inte 1{THIN}500 som det står."


@pytest.mark.django_db(transaction=True)
def test_a_paper_with_an_addition_slip_is_typed_on_a_phone_and_every_deal_saves(live_server, browser):
    setup = f.protocol_setup()
    page, problems = open_page(browser, **PHONE)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))

    home_total = away_total = 0
    for number, paper in enumerate(SLIP_PAPER, start=1):
        expect(page.get_by_role("heading", name=f"Giv {number}")).to_be_visible()
        for name in FIELDS:
            page.locator(f"input[name={name}]").fill(str(paper.get(name, 0)))
        page.locator(f"input[name=out][value={paper['out']}]").check()
        home_total += paper["home_score"]
        away_total += paper["away_score"]
        # The server's engine answers while the secretary types: the computed total counts.
        expect(page.locator("#preview-home-total")).to_have_text(points(home_total))
        expect(page.locator("#preview-away-total")).to_have_text(points(away_total))
        if number == 2:
            # The slip is a note beside the deal being typed, not a refusal.
            expect(page.locator(".preview__warnings")).to_contain_text(NOTE)
        expect(page.locator("#problems-home_total")).to_be_empty()
        expect(page.locator("#problems-home_min")).to_be_empty()
        page.get_by_role("button", name=f"Spara giv {number}").tap()
        expect(page.locator("#total-home")).to_have_text(points(home_total))
        expect(page.locator("#total-away")).to_have_text(points(away_total))

    assert Deal.objects.filter(match=setup["match"]).count() == len(SLIP_PAPER)
    notes = page.locator(".sheet .sheet__warning")
    expect(notes).to_have_count(1)
    expect(notes).to_contain_text(NOTE)
    # The note stands right under deal 2's row.
    assert page.locator("#deal-2 + tr.sheet__warning").count() == 1
    assert problems == []
