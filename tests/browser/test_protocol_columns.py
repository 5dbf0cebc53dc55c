"""The public protocol page in the paper's columns (scoring.protocol_layout), in Chromium: at 1280 px
every column of both sides side by side in a box that does not scroll; on a 390 px phone the columns
written on the paper (minimum, deal score, total), and, asked for every column, a table that
scrolls sideways in its box and says so, its last total reachable."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services
from scoring.engine import get_rules
from scoring.protocol_layout import paper_columns
from tests import factories as f
from tests.support.browser import open_page

# A real browser: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

SCROLLS = "box => box.scrollWidth > box.clientWidth + 1"
# The columns the paper has written by the scorer (the opening minimum, the deal score, the
# running total), which a phone shows without scrolling.
WRITTEN_KEYS = ("min", "score", "total")


def shown_columns(page) -> list[str]:
    return page.eval_on_selector_all(
        "table.protocol th[data-column]",
        "cells => cells.filter(cell => cell.offsetParent !== null).map(cell => cell.dataset.column)",
    )


@pytest.fixture
def played(db):
    """A match played under the home rules, which count red threes: nine columns a side."""
    setup = f.protocol_setup()
    competition = setup["match"].competition
    competition.rules_key = "sv-hem"
    competition.save()
    match = f.play_match(setup["match"], setup["secretary"])
    return services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)


@pytest.mark.django_db(transaction=True)
def test_every_column_on_a_wide_screen_and_the_written_ones_on_a_phone(live_server, played, browser):
    keys = [column.key for column in paper_columns(get_rules("sv-hem"))]
    url = live_server.url + reverse("scoring:match-detail", args=[played.pk])

    page, problems = open_page(browser, width=1280)
    page.goto(url)
    box = page.locator(".protocol-scroll")
    expect(page.get_by_label("Visa alla kolumner")).to_be_hidden()
    assert shown_columns(page) == keys + keys
    assert box.evaluate(SCROLLS) is False
    page.context.close()

    page, phone_problems = open_page(browser, width=390, height=844)
    page.goto(url)
    box = page.locator(".protocol-scroll")
    hint = page.get_by_text("Tabellen är bredare än skärmen")
    written = [key for key in keys if key in WRITTEN_KEYS]
    assert written == ["min", "score", "total"]
    assert shown_columns(page) == written + written
    assert box.evaluate(SCROLLS) is False
    expect(hint).to_be_hidden()

    page.get_by_label("Visa alla kolumner").check()
    expect(hint).to_be_visible()
    assert shown_columns(page) == keys + keys
    assert box.evaluate(SCROLLS) is True
    # The away side's last total: reached by scrolling the box, not the page.
    last_total = page.locator("#deal-8 td.protocol__total[data-side=away]")
    outside = "cell => cell.getBoundingClientRect().right - cell.closest('.protocol-scroll').getBoundingClientRect().right"
    assert last_total.evaluate(outside) > 0
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert last_total.evaluate(outside) <= 0
    expect(last_total).to_have_text("3\u202f720")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
    assert problems == [] and phone_problems == []
