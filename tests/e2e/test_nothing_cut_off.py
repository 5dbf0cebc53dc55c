"""Nothing is cut off: at 320, 390, 768, 1280 and 1440 px, and at 200 % zoom (1280 px of screen,
640 CSS pixels), no table cell on the public pages, the protocol page, the captain's view or the
management pages holds more than it shows (scrollWidth > clientWidth), and a table wider than its
box scrolls inside a box that says so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine.rules import PRESETS
from tests import factories as f
from tests.browser import open_page
from tests.e2e.test_protocol_entry import log_in

# CSS pixels of the window: the five widths, and 1280 px of screen at 200 % zoom, which lays a page
# out in 640 CSS pixels (the zoom changes the layout only through the width it leaves).
WIDTHS = [320, 390, 640, 768, 1280, 1440]

CLIPPED = """() => [...document.querySelectorAll('td, th')]
  .filter(cell => cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth + 1)
  .map(cell => cell.closest('table').className + ': ' + cell.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)
       + ' (' + cell.scrollWidth + ' > ' + cell.clientWidth + ')')"""

# A table wider than its box: the box scrolls and is marked so (a shadow and a hint, site.css).
UNMARKED_SCROLL = """() => [...document.querySelectorAll('table')]
  .filter(table => table.offsetParent !== null)
  .map(table => table.parentElement)
  .filter(box => box.scrollWidth > box.clientWidth + 1 && !box.matches('[data-scrolls], .sheet-scroll, .table-scroll'))
  .map(box => box.className || box.tagName)"""


@pytest.mark.django_db(transaction=True)
def test_no_table_cell_is_cut_off_at_any_width(live_server, browser):
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"])
    match = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    competition = match.competition
    captain_pages = [reverse("scoring:match-protocol", args=[match.pk]), reverse("scoring:my-matches")]
    secretary_pages = [
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:round-detail", args=[competition.pk, match.round.number]),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:team-detail", args=[setup["home"].pk]),
        reverse("scoring:match-protocol", args=[match.pk]),
        reverse("scoring:manage-club", args=[setup["home"].club_id]),
        reverse("scoring:manage-competition", args=[competition.pk]),
        *(reverse("scoring:rules", args=[key]) for key in PRESETS),
    ]
    found = []
    for who, pages in (("sekreterare", secretary_pages), ("bortakapten", captain_pages)):
        page, problems = open_page(browser)
        log_in(page, live_server.url, who)
        for path in pages:
            page.goto(live_server.url + path)
            for width in WIDTHS:
                # The page is laid out anew for each width, as when a window is resized.
                page.set_viewport_size({"width": width, "height": 800})
                for cell in page.evaluate(CLIPPED):
                    found.append(f"{width}px {who} {path}: {cell}")
                for box in page.evaluate(UNMARKED_SCROLL):
                    found.append(f"{width}px {who} {path}: a table scrolls in {box} without saying so")
        page.context.close()
        assert problems == []
    assert found == []
