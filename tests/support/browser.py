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


def cut_the_network(context, base_url: str) -> None:
    """No network for the pages of `context`: the browser says it is offline, and every request
    to the site is refused as a lost connection would refuse it. The browser's offline emulation
    alone is not enough: right after a reload, or for a request that passes through a service
    worker, Chromium may still let it reach the server."""
    context.set_offline(True)
    context.route(f"{base_url}/**", lambda route: route.abort("internetdisconnected"))


def restore_the_network(context, base_url: str) -> None:
    context.unroute(f"{base_url}/**")
    context.set_offline(False)
