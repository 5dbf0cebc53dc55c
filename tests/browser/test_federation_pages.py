"""The federation pages in real headless Chromium, on a phone (390 px) and at 1280 px: a visitor
filters the ranking list, follows a figure to the matches behind it, reads how the rating works,
the club table, a player's seasons and rating chart, and a competition's place-by-round charts.
Nothing makes a page scroll sideways; the charts and their tables are inside the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.services.seasons import season_close
from tests.support.browser import open_page
from tests.factories import make_admin


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def inside(locator, width: int) -> None:
    box = locator.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_federation_pages_on_a_phone_and_a_desk(live_server, federation, browser, width):
    season_close(name="2025/26", user=make_admin())
    page, problems = open_page(browser, width=width, height=844)

    page.goto(live_server.url + reverse("scoring:home"))
    page.get_by_role("navigation", name="Huvudmeny").get_by_role("link", name="Rankning").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rankning")
    page.get_by_label("Säsong").select_option("2026/27")
    page.get_by_label("Klubb").select_option(label="Canastaklubben Ess")
    page.get_by_role("button", name="Visa").click()
    rows = page.locator("table.rankings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Anna")
    assert page_width(page) <= width

    # A figure leads to the matches behind it.
    rows.first.get_by_role("link", name="Anna: 2 matcher, matcherna bakom siffrorna").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna")
    expect(page.locator("table.ranking-matches tbody tr")).to_have_count(2)
    assert page_width(page) <= width

    page.get_by_role("link", name="Så fungerar ratingen").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Så fungerar ratingen")
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:player-detail", args=[federation["players"]["Anna"].pk]))
    chart = page.get_by_role("img", name="Rating för Anna, match för match")
    expect(chart).to_be_visible()
    inside(chart, width)
    expect(page.locator("[data-season]")).to_have_count(2)
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:competition-detail", args=[federation["series"].pk]))
    page.get_by_role("link", name="Klubbtabell").click()
    expect(page.locator("table.club-table tbody tr")).to_have_count(2)
    assert page_width(page) <= width
    page.get_by_role("link", name="Tabell", exact=True).click()
    page.get_by_text("Placering omgång för omgång").click()
    chart = page.get_by_role("img", name="Greta/Hugo: placering efter varje omgång")
    expect(chart).to_be_visible()
    inside(chart, width)
    assert page_width(page) <= width

    page.goto(live_server.url + reverse("scoring:club-detail", args=[federation["clubs"]["kung"].pk]))
    inside(page.get_by_role("img", name="Matchpoäng för Kungarna CK per säsong"), width)
    assert page_width(page) <= width
    assert problems == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_a_club_night_on_a_phone_and_a_desk(live_server, browser, width):
    from scoring import services
    from scoring.models import Competition
    from scoring.services.individual import individual_pair_round
    from tests.factories import make_club, make_competition, make_player, make_user, winning_deal

    secretary = make_user("kvallssekreterare", password="hemligt-123")
    club = make_club("Canastaklubben Ruter", secretary=secretary)
    for name in ("Alma Andersson", "Berit Bengtsson", "Carl Carlsson", "Doris Dahl", "Egon Ek",
                 "Frida Falk", "Gun Gustavsson", "Hans Holm", "Ingvar Isaksson"):
        make_player(name, club=club)
    night = make_competition(name="Klubbkväll", organiser=club, kind=Competition.Kind.INDIVIDUAL,
                             requires_confirmation=False)
    page, problems = open_page(browser, width=width, height=844)

    page.goto(live_server.url + reverse("login"))
    page.get_by_label("Användarnamn").fill("kvallssekreterare")
    page.get_by_label("Lösenord").fill("hemligt-123")
    page.locator("main form button[type=submit]").click()
    page.goto(live_server.url + reverse("scoring:manage-individual", args=[night.pk]))
    for box in page.locator("input[name=players]").all():
        box.check()
    page.get_by_role("button", name="Spara spelarna").click()
    expect(page.locator(".messages")).to_contain_text("Spelarna är sparade")
    page.goto(live_server.url + reverse("scoring:manage-individual", args=[night.pk]))
    page.get_by_label("Lottningsnummer").fill("2026")
    page.get_by_role("button", name="Lotta omgång 1").click()
    expect(page.locator(".messages")).to_contain_text("Omgång 1 är lottad")
    assert page_width(page) <= width

    round_ = night.rounds.get()
    for match in round_.matches.all():
        match = services.match_start(match=match, user=secretary)
        for number in range(1, 4):
            match = services.deals_record(match=match, user=secretary, entry=winning_deal(number, "home"),
                                          expected_version=match.version)
    individual_pair_round(competition=night, user=secretary)

    page.goto(live_server.url + reverse("scoring:competition-detail", args=[night.pk]))
    page.get_by_role("link", name="Spelartabell").click()
    rows = page.locator("table.individual-table tbody tr")
    expect(rows).to_have_count(9)
    inside(rows.first.locator("td").last, width)
    expect(page.get_by_text("Stod över omgång 1")).to_be_visible()
    assert page_width(page) <= width
    assert problems == []
    page.context.close()
