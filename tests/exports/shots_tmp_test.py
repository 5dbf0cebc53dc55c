import pytest
from django.urls import reverse
from playwright.sync_api import sync_playwright

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]

@pytest.mark.django_db(transaction=True)
def test_shots(live_server, full_round):
    match = full_round["match"]; round_ = full_round["round"]
    urls = {
        "match": reverse("scoring:match-detail", args=[match.pk]),
        "round": reverse("scoring:round-detail", args=[round_.competition_id, round_.number]),
        "comp": reverse("scoring:competition-detail", args=[round_.competition_id]),
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for width in (390, 1280):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for name, url in urls.items():
                page.goto(live_server.url + url)
                el = page.locator(".downloads")
                el.scroll_into_view_if_needed()
                el.screenshot(path=f"/tmp/exports-out/page-{name}-{width}.png")
        browser.close()
