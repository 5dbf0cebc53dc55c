"""The Canasta figures and the records pages in a real Chromium: in Swedish and English, at 320 px,
at 200 % zoom (640 CSS pixels) and on a desk, nothing is cut off or pushes the page sideways, and
axe-core (WCAG 2 A and AA) finds nothing. The season is tests/selectors/test_figures.py's."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from tests.browser.test_nothing_cut_off import CLIPPED, PAGE_SCROLLS, UNMARKED_SCROLL
from tests.selectors.test_figures import build_season
from tests.support.browser import open_page

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
WIDTHS = [320, 640, 1280]  # a small phone, 1280 px at 200 % zoom, a desk


def axe_violations(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]})
    return [f"{v['id']}: {node['target']}" for v in results.response["violations"] for node in v["nodes"]]


def test_the_figures_and_records_pages_fit_and_pass_axe(live_server, browser, shots):
    season = build_season()
    pages = {
        "team": reverse("scoring:team-detail", args=[season["teams"]["ab"].pk]),
        "competition": reverse("scoring:competition-detail", args=[season["competitions"]["series"].pk]),
        "competition-records": reverse("scoring:competition-records", args=[season["competitions"]["series"].pk]),
        "records": reverse("scoring:records"),
    }
    for width in WIDTHS:
        page, problems = open_page(browser, width=width, height=900)
        for name, path in pages.items():
            # English at the narrowest width, where its longer words would push first.
            for language in ("", "/en") if width == WIDTHS[0] else ("",):
                page.goto(live_server.url + language + path)
                page.locator("details").evaluate_all("boxes => boxes.forEach(box => box.open = true)")
                where = f"{name}{language} at {width}"
                assert page.evaluate(PAGE_SCROLLS) == [], where
                assert page.evaluate(CLIPPED) == [], where
                assert page.evaluate(UNMARKED_SCROLL) == [], where
                if width != 640 and not language:
                    assert axe_violations(page) == [], where
                    page.screenshot(path=str(shots / f"figures-{name}-{width}.png"), full_page=True)
        assert problems == []
