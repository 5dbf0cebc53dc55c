"""Debian's headless Chromium as the browser tests drive it (Playwright): its arguments, and a page
that collects the console errors and page errors it meets (a test asserts there are none)."""

from __future__ import annotations

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
    page.set_default_timeout(10_000)
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return page, problems
