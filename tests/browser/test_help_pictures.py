"""The help pages' pictures and the help pages themselves, in Debian's headless Chromium.

The pictures (static/scoring/help/, named by the help pages' `help_picture`) are taken of the
pages they speak of, in the state the help describes (tests/support/help_pages.py, made through the
services): the secretary's and the organiser's pages on a desktop screen, the captain's and the
table's at a phone's width (390 px). Every run takes them, so a page that can no longer be brought
to that state fails here; they are written over the committed ones only with HELP_PICTURES=1
(`make help-pictures`), otherwise into a scratch folder, so that `make test` changes no file
(docs/operations.md, "Help pages and their pictures"). The help pages pass axe-core's WCAG 2 A and
AA rules and fit a 320 px phone and a 1280 px screen at 200 % zoom with nothing wider than the page.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from scoring.views.help import HELP_PAGES
from tests.browser.test_protocol_entry import log_in
from tests.support.browser import open_page
from tests.support.help_pages import help_night

pytestmark = pytest.mark.django_db(transaction=True)

COMMITTED = Path(__file__).resolve().parents[2] / "static" / "scoring" / "help"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


def shoot(page, folder: Path, name: str, *, from_selector: str | None = None) -> None:
    """The window as it is; or, `from_selector`, a window's worth of the page from just above the
    first element it selects (a page too short to scroll it to the top)."""
    # Fonts and images loaded, so that a picture never shows a page half drawn.
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready")
    clip = None
    if from_selector:
        top = page.locator(from_selector).first.evaluate("element => element.getBoundingClientRect().top + window.scrollY")
        size = page.viewport_size
        clip = {"x": 0, "y": max(top - 20, 0), "width": size["width"], "height": size["height"]}
    page.screenshot(path=str(folder / f"{name}.png"), animations="disabled", caret="hide", full_page=clip is not None, clip=clip)


def show_from(page, selector: str, *, above: int) -> None:
    """Scroll so that the first `selector` is `above` pixels below the top of the window."""
    page.locator(selector).first.evaluate(f"element => {{ element.scrollIntoView({{block: 'start'}}); window.scrollBy(0, -{above}); }}")


def test_the_help_pictures_are_taken_of_the_pages_they_show(live_server, browser, tmp_path):
    folder = COMMITTED if os.environ.get("HELP_PICTURES") == "1" else tmp_path
    night = help_night()
    pages = {key: live_server.url + path for key, (_user, path) in night["pages"].items()}

    desk, desk_problems = open_page(browser, **DESKTOP)
    log_in(desk, live_server.url, "sekreterare")
    desk.goto(pages["protocol"])
    expect(desk.locator("#entry")).to_be_visible()
    # The last deals above, the form for the next deal below.
    show_from(desk, "#entry", above=280)
    shoot(desk, folder, "secretary-protocol")
    desk.locator("#upload summary").click()
    desk.locator("#upload").scroll_into_view_if_needed()
    expect(desk.locator("#upload form")).to_be_visible()
    shoot(desk, folder, "secretary-upload")
    desk.goto(pages["correct"])
    expect(desk.locator("form button.button--save")).to_be_visible()
    shoot(desk, folder, "secretary-correct")
    desk.goto(pages["round"])
    expect(desk.get_by_role("heading", level=1)).to_contain_text("Omgången i överblick")
    shoot(desk, folder, "organiser-round", from_selector="main table")  # the tables; the clock is the hall clock's
    desk.goto(pages["cards"])
    expect(desk.locator(".table-card").first).to_be_visible()
    shoot(desk, folder, "organiser-cards")

    phone, phone_problems = open_page(browser, **PHONE)
    log_in(phone, live_server.url, "bortakapten")
    phone.goto(pages["confirm"])
    expect(phone.locator("main form button[type=submit]")).to_be_visible()
    shoot(phone, folder, "captain-confirm")
    phone.goto(pages["dispute"])
    expect(phone.locator("main form textarea")).to_be_visible()
    shoot(phone, folder, "captain-dispute")
    table, table_problems = open_page(browser, **PHONE)
    table.goto(pages["table"])
    expect(table.locator("#deal-form")).to_be_visible()
    shoot(table, folder, "table-enter")
    table.goto(pages["table-waiting"])
    expect(table.locator("[data-agree=yes]")).to_be_visible()
    table.locator("[data-agree=yes]").scroll_into_view_if_needed()
    shoot(table, folder, "table-agree")

    assert {path.stem for path in folder.glob("*.png")} == {
        "secretary-protocol", "secretary-upload", "secretary-correct", "organiser-round", "organiser-cards",
        "captain-confirm", "captain-dispute", "table-enter", "table-agree",
    }  # fmt: skip
    assert desk_problems == phone_problems == table_problems == []


def wcag_failures(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]})
    return [f"{violation['id']}: {node['target']}" for violation in results.response["violations"] for node in violation["nodes"]]


def test_the_help_pages_pass_axe_and_fit_a_phone_and_200_percent_zoom(live_server, browser, tmp_path):
    addresses = [reverse("scoring:help-index")] + [reverse("scoring:help", args=[page]) for page in HELP_PAGES]
    addresses += ["/en" + address for address in addresses]
    # axe-core on a 320 px phone; then 200 % zoom of a 1280 px screen, which lays the page out in
    # 640 CSS pixels, each drawn twice as large: nothing may be wider than the page in either.
    phone, problems = open_page(browser, width=320, height=700)
    zoomed, zoomed_problems = open_page(browser, width=640, height=450, device_scale_factor=2)
    for address in addresses:
        phone.goto(live_server.url + address)
        expect(phone.get_by_role("heading", level=1)).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 320, address
        assert wcag_failures(phone) == [], address
        zoomed.goto(live_server.url + address)
        expect(zoomed.get_by_role("heading", level=1)).to_be_visible()
        assert zoomed.evaluate("document.documentElement.scrollWidth") <= 640, address
    assert problems == zoomed_problems == []
