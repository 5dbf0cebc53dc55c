"""In a real browser (headless Chromium): a visitor on a phone finds the download buttons on the
standings page, and the workbook button downloads a workbook a spreadsheet program opens."""

from __future__ import annotations

import pytest
from django.urls import reverse
from openpyxl import load_workbook

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

@pytest.mark.django_db(transaction=True)
def test_visitor_downloads_the_competition_workbook_on_a_phone(live_server, played, tmp_path, browser):
    url = live_server.url + reverse("scoring:competition-detail", args=[played["competition"].pk])

    page = browser.new_page(viewport={"width": 390, "height": 844}, accept_downloads=True)
    page.goto(url)
    section = page.get_by_role("region", name="Skriv ut och ladda ner")
    section.scroll_into_view_if_needed()
    pdf_link = section.get_by_role("link", name="Tabell och alla resultat PDF-dokument")
    workbook_link = section.get_by_role("link", name="Hela tävlingen som Excel-arbetsbok Excel-fil")
    assert pdf_link.is_visible() and workbook_link.is_visible()
    box = workbook_link.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 390  # a big target, on screen
    page.screenshot(path=str(tmp_path / "downloads-390.png"), full_page=True)

    with page.expect_download() as download_info:
        workbook_link.click()
    download = download_info.value
    target = tmp_path / download.suggested_filename
    download.save_as(target)

    assert target.suffix == ".xlsx"
    assert load_workbook(target).sheetnames == ["Tabell", "Omgång 1", "Statistik", "Rekord", "Givar"]
