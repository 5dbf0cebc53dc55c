"""Upload with a preview, in real headless Chromium: the secretary chooses a protocol file on the
protocol page, sees it checked and shown as it would be saved (deals, totals), nothing saved yet,
then saves it; a file with an error is listed by deal and cannot be saved."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Deal
from tests import factories as f
from tests.browser import open_page
from tests.e2e.test_protocol_entry import log_in, points

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
