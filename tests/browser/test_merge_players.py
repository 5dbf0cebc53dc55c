"""A player entered twice, merged in real headless Chromium as a club secretary would: from the
player's page, choose the player to keep, read what moves, merge; the club's page then lists one
player, in both teams. Screenshots of the confirmation at 390 and 1280 px go to
$PROTOCOL_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations


import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Player, Team
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_protocol_entry import log_in

# A real browser: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow


@pytest.mark.django_db(transaction=True)
def test_a_secretary_merges_a_player_entered_twice(live_server, browser, shots):
    secretary = f.make_user("sekreterare")
    club = f.make_club("Hemmaklubben", secretary=secretary)
    anna = f.make_player("Anna Berg", club=club)
    # Entered twice before names were compared in any letter case.
    twice = f.make_player("anna berg", club=club)
    essen = f.make_team("Essen", club=club, players=(anna, f.make_player("Bo Ek", club=club)))
    kungarna = f.make_team("Kungarna", club=club, players=(twice, f.make_player("Cia Lund", club=club)))
    competition = f.make_competition(organiser=club, name="Klubbserien")
    f.make_result(competition, kungarna, f.make_team("Gästerna"), round_number=1)

    page, problems = open_page(browser, width=390, height=844)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:manage-club", args=[club.pk]))
    page.get_by_role("link", name="anna berg", exact=True).click()
    page.get_by_role("link", name="Inlagd två gånger? Slå ihop anna berg med en annan …").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Slå ihop anna berg med …")

    # The same name in another letter case is offered first.
    choice = page.get_by_label("Slå ihop med")
    expect(choice.locator("option").nth(1)).to_have_text("Anna Berg")
    choice.select_option(label="Anna Berg")
    page.get_by_role("button", name="Visa vad som flyttas").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Slå ihop anna berg med Anna Berg?")
    moves = page.locator(".delete-list")
    expect(moves).to_contain_text("laget Kungarna: Anna Berg spelar i det i stället för anna berg")
    expect(moves).to_contain_text("1 spelad match: protokollet och statistiken räknas för Anna Berg")
    page.screenshot(path=str(shots / "merge-player-390.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(shots / "merge-player-1280.png"), full_page=True)

    page.get_by_role("button", name="Slå ihop anna berg med Anna Berg").click()

    expect(page.get_by_text("Sammanslaget: anna berg med Anna Berg.")).to_be_visible()
    players = page.locator("#players-title").locator("xpath=ancestor::section").locator(".manage-list__name")
    expect(players).to_have_text(["Anna Berg", "Bo Ek", "Cia Lund"])
    expect(page.locator(".manage-list__item", has_text="Kungarna")).to_contain_text("Anna Berg · Cia Lund")
    assert not Player.objects.filter(pk=twice.pk).exists()
    assert Team.objects.get(pk=kungarna.pk).player_one_id == anna.pk
    assert Team.objects.get(pk=essen.pk).player_one_id == anna.pk
    assert problems == []
