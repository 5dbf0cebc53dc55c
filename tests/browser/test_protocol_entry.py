"""A whole match entered in real headless Chromium, as a secretary at the card table would: log in,
type six deals from the paper protocol with the live check, meet a problem (card points 287) and
put it right, correct an earlier deal with a reason, finish at 5000, submit; then the away captain
logs in and confirms. Screenshots of the protocol page at 390 and 1280 px go to
$PROTOCOL_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import AuditEntry, Deal, Match
from tests import factories as f
from tests.support.browser import open_page

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

PASSWORD = "secret-pass-123"
THIN = "\u202f"


# The paper protocol: home wins at deal 6 and no deal before it reaches 5000.
DEALS = [
    {"home_cards": 285, "home_natural": 1, "home_mixed": 1, "away_cards": 120, "out": "home"},  # 1185 / 120
    {"home_cards": -40, "away_cards": 190, "away_natural": 1, "out": "away"},  # −40 / 790
    {"home_cards": 300, "home_natural": 2, "away_cards": 50, "out": "home"},  # 1400 / 50
    {"home_cards": 150, "home_natural": 1, "away_cards": 200, "away_mixed": 1},  # 650 / 500, stock
    {"home_cards": 200, "home_mixed": 1, "away_cards": -60, "away_penalty": 50, "out": "home"},  # 600 / −110
    {"home_cards": 400, "home_natural": 2, "home_mixed": 1, "away_cards": -30, "out": "home"},  # 1800 / −30
]


def points(number: int) -> re.Pattern:
    """A number as the site shows it: thin space between thousands, a true minus sign."""
    text = f"{abs(number):,}".replace(",", THIN)
    return re.compile(("\u2212" if number < 0 else "") + re.escape(text) + r"$")




def log_in(page, base, username):
    page.goto(base + reverse("login") + "?next=" + reverse("scoring:my-matches"))
    page.get_by_label("Användarnamn").fill(username)
    page.get_by_label("Lösenord").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mina matcher")


def type_deal(page, values):
    for name in ("home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty",
                 "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty"):  # fmt: skip
        if name in values:
            page.locator(f"input[name={name}]").fill(str(values[name]))
    if values.get("out"):
        page.locator(f"input[name=out][value={values['out']}]").check()


@pytest.mark.django_db(transaction=True)
def test_a_secretary_enters_a_whole_match_and_the_away_captain_confirms(live_server, browser, shots):
    setup = f.protocol_setup()
    match = setup["match"]
    base = live_server.url
    protocol_url = base + reverse("scoring:match-protocol", args=[match.pk])

    page, problems = open_page(browser)
    log_in(page, base, "sekreterare")
    page.get_by_role("link", name="För in protokollet").click()
    expect(page).to_have_url(protocol_url)
    expect(page.get_by_role("heading", name="Giv 1")).to_be_visible()

    home_total = away_total = 0
    for number, values in enumerate(DEALS, start=1):
        if number == 3:
            # A slip of the pen: 287 cannot be card points. The live check says so at the field …
            page.locator("input[name=home_cards]").fill("287")
            expect(page.locator("#problems-home_cards")).to_contain_text("Giv 3, hemmalaget, kortpoäng")
            expect(page.locator("#problems-home_cards")).to_contain_text("delbart med 5")
            expect(page.locator("input[name=home_cards]")).to_have_attribute("aria-invalid", "true")
            # … and saving anyway is refused with what was typed kept.
            page.locator("input[name=away_cards]").fill("50")
            page.get_by_role("button", name="Spara giv 3").click()
            expect(page.locator("input[name=home_cards]")).to_have_value("287")
            expect(page.locator("input[name=away_cards]")).to_have_value("50")
            expect(page.locator("#problems-home_cards")).to_contain_text("delbart med 5")
        type_deal(page, values)
        # The server's engine answers while the secretary types.
        expected = {
            1: (1185, 120), 2: (-40, 790), 3: (1400, 50), 4: (650, 500), 5: (600, -110), 6: (1800, -30),
        }[number]  # fmt: skip
        expect(page.locator("#preview-home-score")).to_have_text(points(expected[0]))
        expect(page.locator("#preview-away-score")).to_have_text(points(expected[1]))
        home_total += expected[0]
        away_total += expected[1]
        expect(page.locator("#preview-home-total")).to_have_text(points(home_total))
        expect(page.locator("#problems-home_cards")).to_be_empty()
        page.get_by_role("button", name=f"Spara giv {number}").click()
        expect(page.locator("#total-home")).to_have_text(points(home_total))
        expect(page.locator("#total-away")).to_have_text(points(away_total))

        if number == 4:
            # The paper says 195, not 190, in deal 2: correct it with a reason.
            page.get_by_role("link", name="Rätta giv 2").click()
            expect(page.locator("input[name=away_cards]")).to_have_value("190")
            page.locator("input[name=away_cards]").fill("195")
            expect(page.locator("#preview-away-score")).to_have_text(points(795))
            page.get_by_label("Orsak").fill("Skrivfel: pappret säger 195")
            page.get_by_role("button", name="Spara rättelsen av giv 2").click()
            away_total += 5
            expect(page.locator("#total-away")).to_have_text(points(away_total))
            expect(page.locator("#deal-4")).to_contain_text(f"1{THIN}465")

    # Deal 6 reached 5000: the match is over and no further deal is taken.
    expect(page.get_by_text("Matchen är slut: 5000 uppnått")).to_be_visible()
    expect(page.locator("input[name=home_cards]")).to_have_count(0)
    assert (home_total, away_total) == (5595, 1325)

    page.locator("#audit summary").click()
    expect(page.locator("#audit")).to_contain_text("Skrivfel: pappret säger 195")
    page.locator("#audit summary").click()
    page.screenshot(path=str(shots / "protocol-finished-1280.png"), full_page=True)
    phone, phone_problems = open_page(browser, width=390)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(protocol_url)
    expect(phone.get_by_text("Matchen är slut: 5000 uppnått")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(shots / "protocol-finished-390.png"), full_page=True)
    phone.context.close()

    page.get_by_role("button", name="Skicka in protokollet").click()
    expect(page.get_by_text("Väntar på att kaptenen för Bortalaget bekräftar", exact=False)).to_be_visible()
    page.get_by_role("button", name="Logga ut").click()
    page.context.close()

    captain, captain_problems = open_page(browser)
    log_in(captain, base, "bortakapten")
    captain.get_by_role("link", name="Kontrollera och bekräfta").click()
    expect(captain.locator("input[name=home_cards]")).to_have_count(0)
    captain.get_by_role("button", name="Bekräfta protokollet").click()
    expect(captain.get_by_text("Protokollet är bekräftat")).to_be_visible()
    captain.context.close()

    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert (match.home_total, match.away_total, match.winner) == (5595, 1325, "home")
    assert match.confirmed_by == setup["away_captain"] and match.entered_by == setup["secretary"]
    assert AuditEntry.objects.get(action="deal_correct").reason == "Skrivfel: pappret säger 195"
    assert problems == [] and phone_problems == [] and captain_problems == []


@pytest.mark.django_db(transaction=True)
def test_the_entry_page_on_a_phone_fits_and_checks_as_you_type(live_server, browser, shots):
    setup = f.protocol_setup()
    match = setup["match"]
    page, problems = open_page(browser, width=390)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))

    # Tab order follows the paper: the home side's columns, then the away side's; canasta points,
    # for a paper that writes them rather than counts, beside the counts.
    page.locator("input[name=home_min]").focus()
    paper_order = [
        "home_min", "home_cards", "home_natural", "home_mixed", "home_canasta_points", "home_red3", "home_penalty",
        "home_score", "home_total",
        "away_min", "away_cards", "away_natural", "away_mixed", "away_canasta_points", "away_red3", "away_penalty",
        "away_score", "away_total",
    ]  # fmt: skip
    for name in paper_order:
        expect(page.locator(":focus")).to_have_attribute("name", name)
        page.keyboard.press("Tab")

    type_deal(page, DEALS[0])
    expect(page.locator("#preview-home-total")).to_have_text(points(1185))
    expect(page.locator("#preview-home-min")).to_have_text("50")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "protocol-entry-390.png"), full_page=True)
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_what_is_typed_before_the_scripts_have_loaded_is_checked_once_they_have(live_server, browser):
    """A quick typist on a slow phone: htmx is held back while 287 goes into the card points, and
    the check still comes once it has loaded (htmx alone only hears input that comes after it)."""
    setup = f.protocol_setup()
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    held_back = []
    page.route("**/htmx.min.js", lambda route: held_back.append(route))

    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]), wait_until="commit")
    page.locator("input[name=home_cards]").fill("287")
    expect(page.locator("#problems-home_cards")).to_be_empty()
    assert len(held_back) == 1
    held_back[0].continue_()

    expect(page.locator("#problems-home_cards")).to_contain_text("Giv 1, hemmalaget, kortpoäng")
    expect(page.locator("input[name=home_cards]")).to_have_attribute("aria-invalid", "true")
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_a_typing_slip_in_a_number_field_is_named_and_never_saved_as_0(live_server, browser):
    """The browser gives a number field holding "12e" an empty value, which would count as 0: the
    page says which deal, side and field is wrong instead, and after the refused save it opens at
    that field (on a phone, not at the top of the page)."""
    setup = f.protocol_setup()
    page, problems = open_page(browser, width=390, height=700)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))

    type_deal(page, DEALS[0])
    away_cards = page.locator("input[name=away_cards]")
    away_cards.click()
    away_cards.press_sequentially("12e")
    expect(page.locator("#problems-away_cards")).to_contain_text("Giv 1, bortalaget, kortpoäng: skriv ett heltal")

    page.get_by_role("button", name="Spara giv 1").click()
    expect(page.locator("#problems-away_cards")).to_contain_text("Giv 1, bortalaget, kortpoäng: skriv ett heltal")
    expect(away_cards).to_be_focused()
    assert away_cards.evaluate("input => { const box = input.getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight; }")
    assert not Deal.objects.exists()

    away_cards.fill("120")  # put right, the deal is saved with what the paper says
    page.get_by_role("button", name="Spara giv 1").click()
    expect(page.locator("#total-away")).to_have_text(points(120))
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_saving_while_a_live_check_is_under_way_waits_for_it(live_server, browser):
    """Leaving the page would cut the check off (an error in the browser): the save waits for it."""
    setup = f.protocol_setup()
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[setup["match"].pk]))
    held_back = []
    released = []

    def hold_the_check(route):
        # Held until the test lets the checks go; any check after that goes at once.
        if released:
            route.continue_()
        else:
            held_back.append(route)

    page.route("**/protocol/check/", hold_the_check)

    type_deal(page, DEALS[0])
    expect(page.locator("form.deal-form.htmx-request")).to_have_count(1)  # the check is under way
    page.get_by_role("button", name="Spara giv 1").click()
    # A save sent without waiting would leave at once; give it the time to (not a condition the
    # test waits for: with the check held, nothing may be saved however long it is held).
    page.wait_for_timeout(300)
    assert not Deal.objects.exists()  # not sent yet
    assert held_back
    released.append(True)
    for route in held_back:
        route.continue_()

    expect(page.locator("#total-home")).to_have_text(points(1185))
    assert Deal.objects.count() == 1
    assert problems == []
