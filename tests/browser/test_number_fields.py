"""The number fields of a deal on a phone (Chromium's mobile emulation, touch), on the secretary's
protocol page and on the table's page: a tap puts the cursor where the finger was, so a field
holding 0 turned 45 typed into 450. Counts and penalties are empty now, with 0 shown as a
placeholder (empty means 0), and every number field selects its content when it gets the focus: what
is typed is what the field holds, also in a field typed in before. Card points must be written: an
empty one is refused with a message naming the deal, the side and the field. And on the table's
page the next deal's first field is on the first screen, above the protocol so far."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal, TableDeal
from scoring.services import table
from tests import factories as f
from tests.browser.test_dispute import PHONE
from tests.browser.test_protocol_entry import log_in
from tests.support.browser import open_page

pytestmark = pytest.mark.django_db(transaction=True)

CARDS_MISSING = "Giv {number}, {side}, kortpoäng: skriv kortpoängen som de står på protokollet, även 0."
# Each kind of number field of the secretary's page: card points and the written deal score and
# total (text, for the minus sign), the counts and the penalty, the written minimum, the minute
# dealt and the canasta points (numbers). Canasta points last: their live check fills the counts.
SECRETARY_FIELDS = ("home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty", "home_min", "home_score",
                    "away_total", "dealt", "home_canasta_points")  # fmt: skip
TABLE_FIELDS = ("home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty",
                "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty")  # fmt: skip


def assert_empty_with_placeholders(page, form):
    for side in ("home", "away"):
        cards = page.locator(f"{form} input[name={side}_cards]")
        expect(cards).to_have_value("")
        assert cards.get_attribute("placeholder") is None  # written always, 0 included
        for name in ("natural", "mixed", "red3", "penalty"):
            count = page.locator(f"{form} input[name={side}_{name}]")
            expect(count).to_have_value("")
            assert count.get_attribute("placeholder") == "0"


def tap_and_type(page, locator, text):
    locator.tap()
    expect(locator).to_be_focused()
    page.keyboard.type(text)


def assert_typed_is_held(page, form, names):
    """Each field tapped and typed in, empty; then again, holding a number: it holds what was typed."""
    for name in names:
        field = page.locator(f"{form} input[name={name}]")
        tap_and_type(page, field, "45")
        expect(field).to_have_value("45")
    for name in names:
        field = page.locator(f"{form} input[name={name}]")
        tap_and_type(page, field, "3")
        expect(field).to_have_value("3")


def test_the_secretarys_number_fields_hold_what_is_typed(live_server, browser):
    setup = f.protocol_setup()
    page, problems = open_page(browser, **PHONE)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))
    assert_empty_with_placeholders(page, ".deal-form")
    assert_typed_is_held(page, ".deal-form", SECRETARY_FIELDS)

    # The away side's card points left empty: not a 0, a line not yet copied.
    page.reload()
    tap_and_type(page, page.locator("input[name=home_cards]"), "120")
    page.get_by_role("button", name="Spara giv 1").tap()
    expect(page.locator("#problems-away_cards")).to_contain_text(CARDS_MISSING.format(number=1, side="bortalaget"))
    expect(page.locator("input[name=home_cards]")).to_have_value("120")
    assert not Deal.objects.exists()
    tap_and_type(page, page.locator("input[name=away_cards]"), "0")
    page.get_by_role("button", name="Spara giv 1").tap()
    expect(page.locator("#deal-1")).to_be_visible()
    deal = Deal.objects.get()
    assert (deal.home_cards, deal.away_cards, deal.home_natural, deal.away_penalty) == (120, 0, 0, 0)
    assert problems == []


def test_the_tables_number_fields_hold_what_is_typed(live_server, browser):
    setup = f.protocol_setup()
    link = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    page, problems = open_page(browser, **PHONE)
    page.goto(live_server.url + reverse("scoring:table", args=[link.code]))
    assert_empty_with_placeholders(page, "#deal-form")
    assert_typed_is_held(page, "#deal-form", TABLE_FIELDS)

    # Typed again from the start: the away side's card points left empty are refused, named.
    for name in TABLE_FIELDS:
        page.locator(f"#deal-form input[name={name}]").fill("")
    tap_and_type(page, page.locator("#deal-form input[name=home_cards]"), "120")
    page.locator("#deal-form [data-role=send]").tap()
    expect(page.locator("#problems-away_cards")).to_contain_text(CARDS_MISSING.format(number=1, side="bortalaget"))
    expect(page.locator("#deal-form input[name=home_cards]")).to_have_value("120")  # kept, to be put right
    assert not TableDeal.objects.exists()
    tap_and_type(page, page.locator("#deal-form input[name=away_cards]"), "0")
    page.locator("#deal-form [data-role=send]").tap()
    expect(page.locator(".table-waiting")).to_be_visible()
    expect(page.locator("#queue-list li")).to_have_count(0)
    proposal = TableDeal.objects.get()
    assert (proposal.number, proposal.values["home_cards"], proposal.values["away_cards"]) == (1, 120, 0)
    assert [p for p in problems if "422" not in p] == []  # the refusal, as the browser reports it


FIRST_FIELD = """() => { const r = document.querySelector('#deal-form input.num').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, screen: innerHeight, wide: document.documentElement.scrollWidth, width: innerWidth}; }"""


@pytest.mark.parametrize("width,height", [(390, 844), (320, 640)])
def test_the_next_deals_fields_come_first_on_a_phone(live_server, browser, width, height):
    """Two deals played: the protocol so far is below the next deal's fields, whose first is on the
    first screen (before, it was 1.3 screens down)."""
    setup = f.protocol_setup()
    link = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    for number in (1, 2):
        table.table_deal_propose(link=link, codes=[link.code, link.away_code], client_id=f"d{number}", side="home",
                                 number=number, entry=f.deal(number, home_cards=120, away_cards=45, end="stock"),
                                 agreed_by_both=True)  # fmt: skip
    page, problems = open_page(browser, **{**PHONE, "width": width, "height": height})
    page.goto(live_server.url + reverse("scoring:table", args=[link.code]))
    expect(page.locator("#deal-form [data-role=title]")).to_have_text("Giv 3")
    first = page.evaluate(FIRST_FIELD)
    assert first["bottom"] <= first["screen"], first
    assert first["wide"] <= first["width"], first
    form_bottom = page.locator("#deal-form").bounding_box()
    protocol_top = page.locator(".table-protocol").bounding_box()
    assert protocol_top["y"] >= form_bottom["y"] + form_bottom["height"]
    # The two teams' fields side by side, row by row as on the paper.
    home = page.locator("input[name=home_penalty]").bounding_box()
    away = page.locator("input[name=away_penalty]").bounding_box()
    assert abs(home["y"] - away["y"]) < 1 and home["x"] + home["width"] <= away["x"]
    assert problems == []
