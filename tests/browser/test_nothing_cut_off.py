"""Nothing is cut off: at 320, 390, 768, 1280 and 1440 px, and at 200 % zoom (1280 px of screen,
640 CSS pixels), no table cell on the public pages, the protocol page, the captain's view or the
management pages holds more than it shows (scrollWidth > clientWidth), and a table wider than its
box scrolls inside a box that says so. The page itself never scrolls sideways, no number is broken
across two lines ("5 29 / 5") and no heading breaks inside a word ("HEMMALA / GET")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine.rules import PRESETS
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_protocol_entry import log_in

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

# The standings keep every column they show in sight, +/− included, down to 320 px and at 200 %
# zoom: they choose their columns for the width (public.css) and never need to scroll.
STANDINGS_SCROLL = """() => [...document.querySelectorAll('table.standings')]
  .filter(table => table.offsetParent !== null && table.parentElement.scrollWidth > table.parentElement.clientWidth + 1)
  .map(table => table.parentElement.scrollWidth + ' > ' + table.parentElement.clientWidth)"""

# The page as a whole is no wider than the window: nothing pushes it sideways.
PAGE_SCROLLS = r"""() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  // What sticks out: the last element past the right edge that no scrolling box of its own holds.
  const out = [...document.body.querySelectorAll('*')].filter(e => {
    if (e.getBoundingClientRect().right <= root.clientWidth + 1) return false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return false;
    }
    return true;
  }).pop();
  return [root.scrollWidth + ' > ' + root.clientWidth + (out ? ', ' + out.tagName.toLowerCase() + '.' + out.className + ' "' + out.textContent.trim().slice(0, 30) + '"' : '')];
}"""

# Words laid out over more than one line: a number anywhere ("5 29 / 5"), and a word of a heading
# or a label ("HEMMALA / GET"): h1-h4, table headings, legends, labels, summaries, captions, terms
# of a list, and text set in capitals. Such a word may break after a hyphen, a dash or a slash.
# (Names in a table's cells may break where they must, hyphenated: public.css.) A word's Range
# has one client rectangle per line it is on.
BROKEN_WORDS = r"""() => {
  const NUMBER = /^[+\u2212\u2013-]?\d[\d\u202f\u2009\u00a0]*([.,]\d+)?$/;
  const HEADING = 'h1, h2, h3, h4, th, legend, label, summary, caption, dt';
  const lines = range => new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.offsetParent === null || parent.closest('script, style, .visually-hidden')) continue;
    const heading = !!parent.closest(HEADING) || getComputedStyle(parent).textTransform === 'uppercase';
    const words = /[^ \t\n\r]+/g;
    for (let m = words.exec(node.data); m; m = words.exec(node.data)) {
      const word = m[0].replace(/[()\[\]:;.,!?]+$/, '').replace(/^[(\[]+/, '');
      const number = NUMBER.test(word);
      if (!number && (!heading || /[-\u2010\u2011\u2013\u2014\/\u00ad]/.test(word))) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (lines(range) > 1) found.push((number ? 'number ' : 'word ') + JSON.stringify(m[0]) + ' in ' + parent.tagName.toLowerCase() + '.' + parent.className);
    }
  }
  return found;
}"""


@pytest.mark.django_db(transaction=True)
def test_no_table_cell_is_cut_off_at_any_width(live_server, browser):
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"])
    match = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    competition = match.competition
    # A match under way with long team names and a sheet with notes (red threes that count nothing,
    # an unusual penalty): the sheet, its notes and the entry form at 320 px.
    club = setup["home"].club
    noted = f.make_match(
        home=f.make_team("Johansson-Lindqvist/Bergström", club=club), away=f.make_team("Örebro Röda treor", club=club),
        competition=competition, table=2,
    )
    noted = f.play_match(noted, setup["secretary"], [
        f.deal(1, home_cards=285, home_natural=1, home_mixed=1, out="home", away_cards=120, home_red3=1,
               away_penalty=50),
        f.winning_deal(2, "away"),
    ])  # fmt: skip
    # Five-figure card points in the standings (a season's worth): "+13 560" stays in sight.
    for number, (home_total, away_total) in enumerate([(6120, 1340), (5840, 905), (5215, 1375)], start=2):
        f.make_result(competition, noted.home_team, noted.away_team, home_total, away_total, round_number=number)
    # The players' page at the table (a phone in the hand), and the secretary's view of the tables.
    link = services.table_link_issue(match=noted, user=setup["secretary"])
    # A deal waiting for the other team at a table: its numbers under the row headings
    # ("Kortpoäng", the longest word) beside the pairs' names.
    waiting = f.make_match(home=f.make_team("Eriksson/Larsson", club=club), away=f.make_team("Jansson/Hansson", club=club),
                           competition=competition, table=3)  # fmt: skip
    waiting = f.play_match(waiting, setup["secretary"], [f.deal(1, home_cards=120, away_cards=45)])
    waiting_link = services.table_link_issue(match=waiting, user=setup["secretary"])
    services.table_deal_propose(link=waiting_link, codes=[waiting_link.code], client_id="waiting", side="home", number=2,
                                entry=f.deal(2, home_cards=185, away_cards=-45))  # fmt: skip
    captain_pages = [reverse("scoring:match-protocol", args=[match.pk]), reverse("scoring:my-matches")]
    secretary_pages = [
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:round-detail", args=[competition.pk, match.round.number]),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:team-detail", args=[setup["home"].pk]),
        reverse("scoring:match-protocol", args=[match.pk]),
        reverse("scoring:match-protocol", args=[noted.pk]),
        reverse("scoring:match-detail", args=[noted.pk]),
        reverse("scoring:manage-club", args=[setup["home"].club_id]),
        reverse("scoring:manage-competition", args=[competition.pk]),
        *(reverse("scoring:rules", args=[key]) for key in PRESETS),
        reverse("scoring:table", args=[link.code]),
        reverse("scoring:table", args=[waiting_link.away_code]),
        reverse("scoring:match-table-link", args=[noted.pk]),
        reverse("scoring:round-tables", args=[competition.pk, noted.round.number]),
        reverse("scoring:round-table-cards", args=[competition.pk, noted.round.number]),
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
                for standings in page.evaluate(STANDINGS_SCROLL):
                    found.append(f"{width}px {who} {path}: the standings scroll sideways ({standings})")
                for sideways in page.evaluate(PAGE_SCROLLS):
                    found.append(f"{width}px {who} {path}: the page scrolls sideways ({sideways})")
                for word in page.evaluate(BROKEN_WORDS):
                    found.append(f"{width}px {who} {path}: {word} is broken across lines")
        page.context.close()
        assert problems == []
    assert found == [], "\n".join(found)
