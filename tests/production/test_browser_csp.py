"""The pages work under the content security policy in a real browser: no CSP violation reported
(console or securitypolicyviolation event) on the public pages, the protocol page and its htmx
live check, the upload page and the login lockout page. Screenshots of the lockout page at 390
and 1280 px go to $PRODUCTION_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services
from tests import factories as f

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

PASSWORD = "secret-pass-123"

# Runs before any page script: records every violation the browser reports.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


class Watched:
    """A page whose console errors, page errors and CSP violations are collected."""

    def __init__(self, browser, width=1280):
        self.context = browser.new_context(viewport={"width": width, "height": 900}, locale="sv-SE")
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.violations: list[str] = []

    def visit(self, url: str):
        response = self.page.goto(url)
        self.page.wait_for_load_state("load")
        return response

    def collect(self):
        self.violations += self.page.evaluate("window.__csp || []")
        self.page.evaluate("window.__csp = []")

    def csp_problems(self) -> list[str]:
        self.collect()
        console = [line for line in self.console if re.search(r"Content.Security.Policy|Refused to", line)]
        return self.violations + console


def played_league():
    s = f.protocol_setup()
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    return s, match


@pytest.mark.django_db(transaction=True)
def test_public_and_secretary_pages_and_the_live_check_run_under_the_policy(live_server, browser):
    s, match = played_league()
    base = live_server.url
    visitor = Watched(browser)
    competition = match.competition
    public_urls = [
        reverse("scoring:home"),
        reverse("scoring:competition-list"),
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:competition-rounds", args=[competition.pk]),
        reverse("scoring:round-detail", args=[competition.pk, 1]),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:team-detail", args=[s["home"].pk]),
        reverse("scoring:club-list"),
        reverse("login"),
    ]
    for url in public_urls:
        response = visitor.visit(base + url)
        assert response.status == 200, url
        assert "script-src 'self'" in response.headers["content-security-policy"]
    assert visitor.csp_problems() == []
    assert [line for line in visitor.console if line.startswith("pageerror")] == []

    secretary = Watched(browser)
    secretary.visit(base + reverse("login"))
    secretary.page.get_by_label("Användarnamn").fill("sekreterare")
    secretary.page.get_by_label("Lösenord").fill(PASSWORD)
    secretary.page.locator("main form button[type=submit]").click()
    secretary.page.wait_for_load_state("load")

    secretary.visit(base + reverse("scoring:match-protocol", args=[match.pk]))
    # The live check: htmx posts what is typed and swaps in the engine's answer. It can only
    # work if htmx (a static script) runs and its request and swap pass the policy.
    with secretary.page.expect_response(lambda r: "/protocol/check/" in r.url) as answer:
        secretary.page.locator("input[name=home_cards]").fill("287")
    assert answer.value.status == 200
    expect(secretary.page.locator("#problems-home_cards")).to_contain_text("delbart med 5")
    secretary.page.locator("input[name=home_cards]").fill("120")
    secretary.page.locator("input[name=away_cards]").fill("-40")
    expect(secretary.page.locator("#problems-home_cards")).to_be_empty()
    expect(secretary.page.locator("#preview-home-score")).to_have_text("120")

    for url in (
        reverse("scoring:match-protocol-upload", args=[match.pk]),
        reverse("scoring:my-matches"),
        reverse("scoring:manage-home"),
    ):
        response = secretary.visit(base + url)
        assert response.status == 200, url
    assert secretary.csp_problems() == []
    assert [line for line in secretary.console if line.startswith("pageerror")] == []


@pytest.mark.django_db(transaction=True)
def test_the_lockout_page_is_clear_and_clean(live_server, browser, tmp_path):
    f.make_user("sekreterare", password=PASSWORD)
    shots = Path(os.environ.get("PRODUCTION_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        watched = Watched(browser, width=width)
        page = watched.page
        for attempt in range(6):
            watched.visit(live_server.url + reverse("login"))
            if page.get_by_label("Användarnamn").count() == 0:
                break
            page.get_by_label("Användarnamn").fill("sekreterare")
            page.get_by_label("Lösenord").fill(f"fel-{width}-{attempt}")
            page.locator("main form button[type=submit]").click()
            page.wait_for_load_state("load")
        expect(page.get_by_role("heading", level=1)).to_have_text("Inloggningen är pausad")
        expect(page.get_by_role("alert")).to_contain_text("Lösenordet var fel 5 gånger i rad.")
        page.screenshot(path=str(shots / f"lockout-{width}.png"), full_page=True)
        assert watched.csp_problems() == []
        watched.context.close()
        # The next width starts from a clean slate.
        from axes.utils import reset

        reset()


@pytest.mark.django_db(transaction=True)
def test_the_table_page_and_its_htmx_run_under_the_policy(live_server, browser):
    """The table's page (no account, a phone): htmx's live check of the deal typed and the state
    asked for again with its validator pass the policy, as the hall clock's countdown does."""
    s = f.protocol_setup()
    link = services.table_link_issue(match=s["match"], user=s["secretary"])
    player = Watched(browser, width=390)
    response = player.visit(live_server.url + reverse("scoring:table", args=[link.code]))
    assert "script-src 'self'" in response.headers["content-security-policy"]
    with player.page.expect_response(lambda r: "/check/" in r.url) as answer:
        player.page.locator("input[name=home_cards]").fill("287")
    assert answer.value.status == 200
    expect(player.page.locator("#problems-home_cards")).to_contain_text("delbart med 5")
    player.page.locator("input[name=home_cards]").fill("120")
    player.page.locator("input[name=away_cards]").fill("-40")
    expect(player.page.locator("#preview-home_score")).to_have_text("120")
    with player.page.expect_response(lambda r: "/state/" in r.url) as state:
        player.page.evaluate("() => htmx.trigger('#table-state', 'refresh')")
    assert state.value.status == 304  # nothing changed: the state shown stays
    assert player.csp_problems() == []
    assert [line for line in player.console if line.startswith("pageerror")] == []
