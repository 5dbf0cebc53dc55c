"""Dispute and correct, and confirm on a phone, in real headless Chromium: the away captain, on a
phone (mobile emulation, 390 px, touch), disputes a submitted protocol with a reason; the home
secretary finds it under My matches with the reason, corrects the deal and submits again; the
captain confirms on the phone. Each step mails those concerned (the outbox)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services
from scoring.models import AuditEntry, Match
from tests import factories as f
from tests.support.browser import open_page
from tests.browser.test_protocol_entry import log_in

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.mark.django_db(transaction=True)
def test_the_captain_disputes_on_a_phone_the_secretary_corrects_the_captain_confirms(live_server, browser, settings):
    settings.SITE_URL = "https://canasta.example.org"
    setup = f.protocol_setup()
    for who in ("secretary", "away_captain"):
        setup[who].email = f"{who}@example.org"
        setup[who].save()
    match = f.play_match(setup["match"], setup["secretary"])
    match = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    base = live_server.url
    mail.outbox.clear()

    phone, phone_problems = open_page(browser, **PHONE)
    log_in(phone, base, "bortakapten")
    phone.get_by_role("link", name="Kontrollera och bekräfta").click()
    phone.get_by_role("link", name="Ifrågasätt protokollet").click()
    phone.get_by_label("Vad är fel i protokollet?").fill("Giv 4: våra kortpoäng var 120, inte −20.")
    phone.get_by_role("button", name="Skicka tillbaka till sekreteraren").click()
    expect(phone.get_by_text("Protokollet är skickat tillbaka")).to_be_visible()
    expect(phone.locator("#dispute")).to_contain_text("Giv 4: våra kortpoäng var 120")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert [m.to for m in mail.outbox] == [["secretary@example.org"]]

    page, problems = open_page(browser)
    log_in(page, base, "sekreterare")
    expect(page.locator(".match-card__dispute")).to_contain_text("Giv 4: våra kortpoäng var 120")
    page.get_by_role("link", name="Rätta och skicka in igen").click()
    expect(page.locator("#dispute")).to_contain_text("Giv 4: våra kortpoäng var 120")
    page.get_by_role("link", name="Rätta giv 4").click()
    page.locator("input[name=away_cards]").fill("120")
    page.get_by_label("Orsak").fill("Bortalagets protokoll: 120")
    page.get_by_role("button", name="Spara rättelsen av giv 4").click()
    expect(page.locator("#deal-4")).to_contain_text("120")
    page.get_by_role("button", name="Skicka in protokollet").click()
    expect(page.locator("#dispute")).to_have_count(0)
    assert mail.outbox[-1].to == ["away_captain@example.org"]
    assert f"https://canasta.example.org/matches/{match.pk}/protocol/" in mail.outbox[-1].body
    page.context.close()

    phone.goto(base + reverse("scoring:my-matches"))
    phone.get_by_role("link", name="Kontrollera och bekräfta").click()
    confirm = phone.get_by_role("button", name="Bekräfta protokollet")
    box = confirm.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    confirm.tap()
    expect(phone.get_by_text("Protokollet är bekräftat")).to_be_visible()
    phone.context.close()

    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.dispute_reason == ""
    assert AuditEntry.objects.get(action="match_dispute").reason.startswith("Giv 4")
    assert problems == [] and phone_problems == []
