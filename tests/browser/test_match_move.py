"""A match moved by agreement, in the browser: the home club's secretary proposes a new date from
the protocol page, the away captain accepts it, and the team's calendar feed gives the new date.
The move page and the organiser's "who is here" page fit 320 px and 200 % zoom and pass axe-core."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Competition, Match
from tests import factories as f
from tests.browser.test_nothing_cut_off import BROKEN_WORDS, PAGE_SCROLLS
from tests.browser.test_protocol_entry import log_in
from tests.support.browser import open_page

pytestmark = pytest.mark.django_db(transaction=True)

# 320 px, and 1280 px of screen at 200 % zoom (laid out in 640 CSS pixels).
NARROW = (320, 640)


def axe_violations(page) -> list[str]:
    """axe-core's WCAG 2 A and AA rules (the copy axe-playwright-python carries)."""
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
                                       "resultTypes": ["violations"]})  # fmt: skip
    return [f"{violation['id']}: {node['target']}" for violation in results.response["violations"]
            for node in violation["nodes"]]  # fmt: skip


def fits(page, where: str) -> list[str]:
    found = []
    for width in NARROW:
        page.set_viewport_size({"width": width, "height": 800})
        found += [f"{width}px {where}: {problem}" for problem in page.evaluate(PAGE_SCROLLS) + page.evaluate(BROKEN_WORDS)]
    page.set_viewport_size({"width": 1280, "height": 900})
    return found


def test_a_match_moved_by_agreement_has_its_new_date_in_the_teams_calendar(live_server, browser):
    setup = f.protocol_setup()
    match = setup["match"]
    Match.objects.filter(pk=match.pk).update(scheduled_start=timezone.now() + timedelta(days=3))
    new_day = timezone.localdate() + timedelta(days=17)

    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:match-protocol", args=[match.pk]))
    page.get_by_role("link", name="Flytta matchen till en annan dag efter överenskommelse").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Flytta matchen")
    page.locator("input[name=new_date]").fill(f"{new_day:%Y-%m-%d}")
    page.locator("input[name=new_time]").fill("19:15")
    page.locator("input[name=hall]").fill("Folkets hus")
    page.get_by_role("button", name="Föreslå den nya dagen").click()
    expect(page.get_by_text("Den nya dagen är föreslagen.")).to_be_visible()
    found = fits(page, "the move page, proposed")
    assert axe_violations(page) == []

    captain, captain_problems = open_page(browser)
    log_in(captain, live_server.url, "bortakapten")
    captain.goto(live_server.url + reverse("scoring:match-move", args=[match.pk]))
    found += fits(captain, "the move page, to answer")
    assert axe_violations(captain) == []
    captain.get_by_role("button", name="Godta den nya dagen").click()
    expect(captain.get_by_text("Matchen är flyttad till den nya dagen.")).to_be_visible()

    feed = captain.request.get(live_server.url + reverse("scoring:team-calendar", args=[setup["away"].pk])).text()
    start = timezone.make_aware(timezone.datetime.combine(new_day, timezone.datetime.strptime("19:15", "%H:%M").time()))
    assert f"DTSTART:{start.astimezone(timezone.get_fixed_timezone(0)):%Y%m%dT%H%M%S}Z" in feed
    assert "LOCATION:Folkets hus" in feed
    assert found == [] and problems == [] and captain_problems == []


def test_who_is_here_fits_a_phone_and_passes_axe(live_server, browser):
    setup = f.protocol_setup()
    club = setup["home"].club
    teams = [setup["home"], *(f.make_team(name, club=club) for name in ("Johansson-Lindqvist/Bergström", "Essen"))]
    cup = f.make_competition(organiser=club, kind=Competition.Kind.TOURNAMENT, teams=teams, name="Höstturneringen")
    page, problems = open_page(browser)
    log_in(page, live_server.url, "sekreterare")
    page.goto(live_server.url + reverse("scoring:manage-check-in", args=[cup.pk]))
    page.get_by_label("Essen").check()
    page.get_by_role("button", name="Spara vilka som är här").click()
    expect(page.get_by_text("Sparat: 1 på plats.")).to_be_visible()
    assert fits(page, "who is here") == []
    assert axe_violations(page) == []
    assert problems == []
