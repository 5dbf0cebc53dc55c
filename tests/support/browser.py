"""Debian's headless Chromium as the browser tests drive it (Playwright): its arguments, and a page
that collects the console errors and page errors it meets (a test asserts there are none)."""

from __future__ import annotations

from playwright.sync_api import expect

# Upper bounds, not delays: a check or a save is a round trip to the test server, which on a
# loaded two-core CI machine can take longer than Playwright's 5 s default for `expect`.
WAIT_MS = 20_000
expect.set_options(timeout=WAIT_MS)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def open_page(browser, *, width: int = 1280, height: int = 900, **context_options):
    """A new page in a Swedish context of its own, and the list its errors are collected in."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="sv-SE", **context_options)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return page, problems
