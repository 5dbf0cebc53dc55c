"""The club's member list in a real Chromium: the secretary reads a spreadsheet of members, sees it
as it would be saved (the counts, a change, a new member, a possible duplicate), which fits a
320 px phone and passes axe-core (WCAG 2 A and AA), and saves it."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Player
from tests.browser.test_nothing_cut_off import PAGE_SCROLLS
from tests.browser.test_protocol_entry import log_in
from tests.services.test_members import HEADER, club_with_members, line
from tests.support.browser import open_page
from tests.support.hostile_files import csv_bytes

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def axe_violations(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]})
    return [f"{v['id']}: {node['target']}" for v in results.response["violations"] for node in v["nodes"]]


def test_a_member_list_is_read_shown_and_saved(live_server, browser, tmp_path, shots):
    club, _secretary = club_with_members(12)
    rows = [line(n) for n in range(1, 13)]
    rows[2] = line(3, name="Medlem 003 Andersson-Lindqvist", email="medlem.tre.andersson.lindqvist@example.se")
    rows += [line(5), "Nya Medlemmen;3001;1961;nya@example.se"]
    (tmp_path / "medlemmar.csv").write_bytes(csv_bytes(HEADER, *rows))
    page, problems = open_page(browser, width=390, height=844)
    log_in(page, live_server.url, "sekreteraren")
    page.goto(live_server.url + reverse("scoring:manage-club", args=[club.pk]))
    page.get_by_role("link", name="Medlemslista (Excel, CSV)").click()

    page.get_by_label("Medlemslista (Excel xlsx eller CSV)").set_input_files(str(tmp_path / "medlemmar.csv"))
    page.get_by_role("button", name="Läs in filen").click()

    expect(page.get_by_role("heading", name="Listan i medlemmar.csv så som den skulle sparas")).to_be_visible()
    counts = page.locator(".member-counts")
    expect(counts).to_contain_text("Nya1")
    expect(counts).to_contain_text("Ändrade1")
    expect(counts).to_contain_text("Möjliga dubbletter1")
    expect(page.locator(".member-changes")).to_contain_text("Medlem 003 Andersson-Lindqvist")
    assert Player.objects.filter(club=club).count() == 12
    for width in (320, 390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate(PAGE_SCROLLS) == [], width
        assert axe_violations(page) == [], width
        if width != 320:
            page.screenshot(path=str(shots / f"member-list-{width}.png"), full_page=True)

    page.get_by_role("button", name="Spara: 1 nya, 1 ändrade").click()

    expect(page.get_by_role("heading", level=1)).to_have_text(club.name)
    expect(page.locator(".messages")).to_contain_text("Medlemslistan sparades: 1 nya och 1 ändrade spelare.")
    assert Player.objects.filter(club=club).count() == 13
    assert Player.objects.get(member_number="1003").email == "medlem.tre.andersson.lindqvist@example.se"
    assert problems == []
