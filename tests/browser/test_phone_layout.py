"""The public tables on a 390 px phone (QA: the result column ran off the screen, the standings lost
För/Mot/+/−, and home and away team ran together once the dash was hidden).

At 390 × 844 in real headless Chromium: no page scrolls sideways, the cells a phone user needs (rank,
team, played, points and difference of the standings; the match and its result; the round and date)
lie inside the screen, the secondary figures are hidden, a tied rank still reads "5=", and a dash
separates the home team from the away team, which starts on a line of its own. At 1280 px every
column is back and the dash stands between the teams on one line. Team names are the long ones of
real clubs, and of pairs ("Pettersson/Jonsson"), since short names would hide the problem.
Screenshots go to $PUBLIC_SCREENSHOTS (or the test's temporary folder).
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Match
from tests.support.browser import open_page
from tests.factories import make_club, make_competition, make_match, make_player, make_result, make_team

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}

# The standings' columns by position (the exports keep this order too) and their Swedish headers.
STANDINGS_ESSENTIAL = {1: "Plac.", 2: "Lag", 3: "Sp", 7: "P", 10: "+/−"}
STANDINGS_SECONDARY = {4: "V", 5: "O", 6: "F", 8: "För", 9: "Mot"}


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PUBLIC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def division(db):
    """Rounds 1 and 2 played in part, round 3 to come. The two pairs have not played yet, so they
    share fifth place: "5=" twice."""
    ess = make_club("Canastaklubben Ess", city="Örebro")
    kung = make_club("Kortklubben Kung", city="Åkersberga")
    teams = {
        "knektar": make_team("Åkersberga Knektar", club=kung),
        "treor": make_team("Örebro Röda treor", club=ess),
        "jokrar": make_team("Älvsjö Jokrar", club=ess),
        "tvaor": make_team("Malmö Tvåor", club=kung),
        "pj": make_team("Pettersson/Jonsson", club=ess),
        "sg": make_team("Svensson/Gustafsson", club=kung),
    }
    competition = make_competition(
        organiser=ess, name="Canastaserien division 1", season="2026/27", teams=list(teams.values())
    )
    played = [
        make_result(competition, teams["knektar"], teams["treor"], 7155, 5350, table=1),
        make_result(competition, teams["jokrar"], teams["tvaor"], 10125, 1890, table=2),
        make_result(competition, teams["treor"], teams["tvaor"], 6110, 1890, round_number=2, table=1),
    ]
    # Played deal by deal (make_result stores the totals only): the pages show the score.
    Match.objects.filter(pk__in=[match.pk for match in played]).update(deal_count=8)
    make_match(competition=competition, home=teams["knektar"], away=teams["jokrar"], round_number=2, table=2)
    make_match(competition=competition, home=teams["pj"], away=teams["sg"], round_number=2, table=3)
    make_match(competition=competition, home=teams["treor"], away=teams["pj"], round_number=3, table=1)
    for number, day in ((1, date(2026, 11, 22)), (2, date(2026, 11, 29)), (3, date(2026, 12, 13))):
        competition.rounds.filter(number=number).update(date=day)
    # A player of Örebro Röda treor also plays the club's pairs championship: their page shows a
    # table of figures per competition, and each match row names its competition.
    player = teams["treor"].player_one
    pair = make_team("Karlsson/Bengtsson", club=ess, players=(player, make_player(club=ess)))
    championship = make_competition(organiser=ess, name="Klubbmästerskapet i par", season="2026/27")
    pairs_match = make_result(championship, pair, teams["pj"], 5015, 1990)
    Match.objects.filter(pk=pairs_match.pk).update(deal_count=6)
    return {"competition": competition, "teams": teams}


def _pages(division):
    competition, treor = division["competition"], division["teams"]["treor"]
    return {
        "standings": reverse("scoring:competition-detail", args=[competition.pk]),
        "team": reverse("scoring:team-detail", args=[treor.pk]),
        "player": reverse("scoring:player-detail", args=[treor.player_one_id]),
        "round": reverse("scoring:round-detail", args=[competition.pk, 1]),
        "rounds": reverse("scoring:competition-rounds", args=[competition.pk]),
    }


def _page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def _assert_inside(locator, width: int, what: str):
    """Every cell `locator` finds is shown and lies wholly inside a screen `width` wide."""
    assert locator.count() > 0, f"no {what}"
    for index in range(locator.count()):
        cell = locator.nth(index)
        expect(cell).to_be_visible()
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{what} #{index} at {box}"


def _separators(page) -> list[dict]:
    """For each match of the page's results tables: the text drawn between home and away team,
    whether it is shown, and where the two teams stand."""
    return page.evaluate(
        """() => [...document.querySelectorAll('table.results td.results__teams')].map(cell => {
            const home = cell.querySelector('.results__home');
            const away = cell.querySelector('.results__away');
            // The dash may be an element of its own or drawn after the home team's name.
            const element = cell.querySelector('.results__dash');
            const after = getComputedStyle(home, '::after');
            const drawn = after.display !== 'none' && after.visibility !== 'hidden' ? after.content : '';
            const shown = element && element.getClientRects().length > 0
                && getComputedStyle(element).visibility !== 'hidden' ? element.textContent : '';
            const h = home.getBoundingClientRect(), a = away.getBoundingClientRect();
            return {
                dash: drawn + shown,
                homeShown: h.width > 0 && h.height > 0,
                awayShown: a.width > 0 && a.height > 0,
                homeBottom: h.bottom, awayTop: a.top, homeRight: h.right, awayLeft: a.left,
                sameLine: Math.abs(h.top - a.top) < 1,
            };
        })"""
    )


def _check_results(page, *, width: int, when_shown: bool):
    tables = page.locator("table.results")
    _assert_inside(tables.locator("td.results__teams"), width, "match cell")
    _assert_inside(tables.locator("td.results__result"), width, "result cell")
    # The score itself (a link "7 155 – 5 350", or "Protokoll") lies inside the screen as well.
    _assert_inside(tables.locator("td.results__result a"), width, "result link")
    if when_shown:
        _assert_inside(tables.locator("td.results__when"), width, "round and date cell")
    separators = _separators(page)
    assert separators
    for match in separators:
        assert "–" in match["dash"], match
        assert match["homeShown"] and match["awayShown"], match
        # On a phone the away team starts on a line of its own, below the home team and its dash.
        assert match["awayTop"] >= match["homeBottom"] - 1, match


def _standings_column(page, position: int):
    return page.locator(f"table.standings tbody td:nth-child({position})")


@pytest.mark.django_db(transaction=True)
def test_the_public_tables_fit_a_phone(live_server, division, browser, shots):
    page, problems = open_page(browser, **PHONE, device_scale_factor=1)
    pages = _pages(division)
    width = PHONE["width"]

    page.goto(live_server.url + pages["standings"])
    expect(page.locator("table.standings tbody tr")).to_have_count(6)
    assert _page_width(page) <= width
    headers = page.locator("table.standings thead th")
    for position, header in STANDINGS_ESSENTIAL.items():
        expect(headers.nth(position - 1)).to_have_text(header)
        _assert_inside(_standings_column(page, position), width, f"standings column {header}")
    for position, header in STANDINGS_SECONDARY.items():
        expect(headers.nth(position - 1)).to_have_text(header)
        expect(headers.nth(position - 1)).to_be_hidden()
        expect(_standings_column(page, position).first).to_be_hidden()
    # The two pairs that have not played share fifth place, and say so in the rank's own words.
    ranks = _standings_column(page, 1)
    expect(ranks.nth(4)).to_contain_text("5=")
    expect(ranks.nth(5)).to_contain_text("5=")
    expect(page.locator("table.standings tbody tr").nth(5)).to_contain_text("Svensson/Gustafsson")
    expect(page.get_by_text("Vänd telefonen på tvären")).to_be_visible()
    # The current round's results under the standings follow the same rules.
    _check_results(page, width=width, when_shown=False)
    page.screenshot(path=shots / "phone-standings.png", full_page=True)

    page.goto(live_server.url + pages["team"])
    expect(page.get_by_role("heading", level=1)).to_have_text("Örebro Röda treor")
    assert _page_width(page) <= width
    results = page.locator("table.results").first
    expect(results).to_contain_text("7 155 – 5 350")
    expect(page.locator("table.results").nth(1)).to_contain_text("Pettersson/Jonsson")
    _check_results(page, width=width, when_shown=True)
    # One competition: a phone leaves its name out of the rows; round and date stay.
    expect(results.locator(".results__competition").first).to_be_hidden()
    expect(results.locator("td.results__when").last).to_contain_text("Omgång 1 · 22 november")
    page.screenshot(path=shots / "phone-team.png", full_page=True)

    page.goto(live_server.url + pages["player"])
    expect(page.locator("table.results tbody tr")).to_have_count(3)
    assert _page_width(page) <= width
    _check_results(page, width=width, when_shown=True)
    # Two competitions: each row names its own.
    expect(page.locator("table.results .results__competition").first).to_be_visible()
    # Per competition: the competition, the matches and the average deal score; the rest (their
    # totals stand above the table) is hidden.
    statistics = page.locator("table.player-statistics")
    expect(statistics.locator("tbody tr")).to_have_count(2)
    for position, header in {1: "Tävling", 2: "Matcher", 5: "Snittpoäng per giv"}.items():
        expect(statistics.locator("thead th").nth(position - 1)).to_have_text(header)
        _assert_inside(statistics.locator(f"tbody td:nth-child({position})"), width, header)
    for position in (3, 4, 6, 7):
        expect(statistics.locator(f"tbody td:nth-child({position})").first).to_be_hidden()
    page.screenshot(path=shots / "phone-player.png", full_page=True)

    for name in ("round", "rounds"):
        page.goto(live_server.url + pages[name])
        expect(page.locator("table.results").first).to_contain_text("10 125 – 1 890")
        if name == "rounds":
            expect(page.get_by_role("table", name="Omgång 2")).to_contain_text("Pettersson/Jonsson")
        assert _page_width(page) <= width
        _check_results(page, width=width, when_shown=False)
        page.screenshot(path=shots / f"phone-{name}.png", full_page=True)

    assert problems == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_wide_screen_keeps_every_column_and_the_dash_between_the_teams(
    live_server, division, browser, shots
):
    page, problems = open_page(browser, **WIDE)
    pages = _pages(division)

    page.goto(live_server.url + pages["standings"])
    headers = page.locator("table.standings thead th")
    for position, header in {**STANDINGS_ESSENTIAL, **STANDINGS_SECONDARY}.items():
        expect(headers.nth(position - 1)).to_be_visible()
        expect(_standings_column(page, position).first).to_be_visible()
    expect(page.get_by_text("Vänd telefonen på tvären")).to_be_hidden()
    page.screenshot(path=shots / "wide-standings.png", full_page=True)

    page.goto(live_server.url + pages["team"])
    expect(page.locator("table.results .results__competition").first).to_be_visible()
    separators = _separators(page)
    assert separators
    for match in separators:
        # "Åkersberga Knektar – Örebro Röda treor" on one line, the dash between the names.
        assert "–" in match["dash"] and match["sameLine"], match
        assert match["homeRight"] <= match["awayLeft"], match
    page.screenshot(path=shots / "wide-team.png", full_page=True)
    assert problems == []
    page.context.close()
