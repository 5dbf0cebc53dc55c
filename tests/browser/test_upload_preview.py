"""Upload with a preview, in real headless Chromium: the secretary chooses a protocol file on the
protocol page, sees it checked and shown as it would be saved (deals, totals), nothing saved yet,
then saves it; a file with an error is listed by deal and cannot be saved."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_protocol_entry import log_in, points

GOOD = b"Giv,Hemma kortpo\xc3\xa4ng,Hemma rena canastor,Hemma blandade canastor,Borta kortpo\xc3\xa4ng,Gick ut\n1,485,2,1,-40,hemma\n2,485,2,1,-40,hemma\n"
BAD = b"deal,home_cards,away_cards\n1,287,-40\n"


@pytest.mark.django_db(transaction=True)
def test_a_protocol_file_is_checked_shown_and_saved_on_confirmation(live_server, browser, tmp_path):
    setup = f.protocol_setup()
    match = setup["match"]
    (tmp_path / "fel.csv").write_bytes(BAD)
    (tmp_path / "protokoll.csv").write_bytes(GOOD)
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))

    page.locator("#upload summary").click()
    page.locator("#upload input[type=file]").set_input_files(str(tmp_path / "fel.csv"))
    page.get_by_role("button", name="Kontrollera filen").click()
    expect(page.locator(".upload-problems")).to_contain_text("Giv 1, hemmalaget, kortpoäng")
    expect(page.get_by_role("button", name="Spara denna 1 giv")).to_have_count(0)
    expect(page.get_by_text("Välj en fil", exact=True)).to_have_count(0)

    page.locator("input[type=file]").set_input_files(str(tmp_path / "protokoll.csv"))
    page.get_by_role("button", name="Kontrollera filen").click()
    expect(page.get_by_role("heading", name="Filen protokoll.csv som den skulle sparas")).to_be_visible()
    expect(page.locator("#deal-2")).to_contain_text(f"3{chr(0x202F)}770")
    assert Deal.objects.count() == 0
    page.get_by_role("button", name="Spara dessa 2 givar").click()

    expect(page).to_have_url(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))
    expect(page.locator("#total-home")).to_have_text(points(3770))
    assert Deal.objects.filter(match=match).count() == 2
    assert problems == []


# Every column of the paper, so that the sheet is as wide as a protocol gets.
WIDE = (
    "deal,home_cards,home_natural,home_mixed,home_red3,home_penalty,away_cards,away_natural,away_mixed,"
    "away_red3,away_penalty,out,home_min,away_min,home_score,away_score,home_total,away_total\n"
    "1,485,2,1,0,0,-40,0,0,0,0,home,50,50,1885,-40,1885,-40\n"
    "2,485,2,1,0,0,-40,0,0,0,0,home,90,15,1885,-40,3770,-80\n"
).encode()

# axe-core's rule scrollable-region-focusable, as the page is drawn: an element that scrolls
# (overflow auto or scroll, content wider or taller than its box) must be reachable by the
# keyboard itself or hold something that is; and a region reached so must have a name.
UNREACHABLE_SCROLL_REGIONS = """() => {
  const focusable = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
  return [...document.querySelectorAll('body *')].filter((element) => {
    const style = getComputedStyle(element);
    const scrolls = (/(auto|scroll)/.test(style.overflowX) && element.scrollWidth > element.clientWidth)
      || (/(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight);
    if (!scrolls) return false;
    const reachable = element.tabIndex >= 0 || element.querySelector(focusable) !== null;
    const named = element.tabIndex < 0 || element.getAttribute('aria-label') || element.getAttribute('aria-labelledby');
    return !(reachable && named);
  }).map((element) => element.outerHTML.slice(0, 120));
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_the_preview_uses_the_page_width_and_its_scroll_region_is_reachable(live_server, browser, tmp_path, shots, width):
    setup = f.protocol_setup()
    match = setup["match"]
    (tmp_path / "protokoll.csv").write_bytes(WIDE)
    page, problems = open_page(browser, width=width)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol-upload", args=[match.pk]))

    page.locator("input[type=file]").set_input_files(str(tmp_path / "protokoll.csv"))
    page.get_by_role("button", name="Kontrollera filen").click()
    expect(page.get_by_role("heading", name="Filen protokoll.csv som den skulle sparas")).to_be_visible()
    if page.locator("#sheet-all-columns").is_visible():  # a phone shows a choice of every column
        page.locator("#sheet-all-columns").check()
    page.screenshot(path=str(shots / f"upload-preview-{width}.png"), full_page=True)

    region = page.get_by_role("region", name="Givarna i en tabell")
    expect(region).to_have_attribute("tabindex", "0")
    region.focus()
    expect(region).to_be_focused()
    assert page.evaluate(UNREACHABLE_SCROLL_REGIONS) == []
    # The sheet takes the width of the page's content, not a reading column beside empty space.
    content = page.evaluate(
        "() => { const main = document.querySelector('.site-main'); const style = getComputedStyle(main);"
        " return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight); }"
    )
    assert region.bounding_box()["width"] >= content - 2
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert problems == []


@pytest.mark.django_db(transaction=True)
def test_a_workbook_of_another_match_asks_before_it_is_saved(live_server, browser, tmp_path, shots):
    from django.utils import translation

    from scoring import services
    from scoring.exports.xlsx import match_protocol_xlsx

    setup = f.protocol_setup()
    match = setup["match"]
    other = f.make_match(home=f.make_team("Älvsjö Jokrar", club=setup["home"].club), away=f.make_team("Malmö Tior"), round_number=8)
    other = services.match_import_deals(
        match=other, user=setup["secretary"], entries=[f.winning_deal(1), f.winning_deal(2)], expected_version=other.version
    )
    with translation.override("sv"):
        (tmp_path / "protokoll.xlsx").write_bytes(match_protocol_xlsx(other).content)
    page, problems = open_page(browser, width=390)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol-upload", args=[match.pk]))

    page.locator("input[type=file]").set_input_files(str(tmp_path / "protokoll.xlsx"))
    page.get_by_role("button", name="Kontrollera filen").click()
    notice = page.get_by_role("region", name="Filen gäller en annan match")
    expect(notice).to_contain_text("Älvsjö Jokrar")
    expect(notice).to_contain_text("Hemmalaget")
    page.screenshot(path=str(shots / "upload-other-match-390.png"), full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.get_by_role("button", name="Spara dessa 2 givar").click()
    expect(page.locator(".error-summary")).to_contain_text("Kryssa i rutan")
    assert Deal.objects.filter(match=match).count() == 0

    page.get_by_label("Filen är ändå den här matchens protokoll: spara den här.").check()
    page.get_by_role("button", name="Spara dessa 2 givar").click()
    expect(page).to_have_url(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))
    assert Deal.objects.filter(match=match).count() == 2
    assert problems == []
