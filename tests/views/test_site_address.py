"""Absolute addresses come from SITE_URL, never from the request's Host header: a request sent with
a forged Host must not put that host into any page, feed, calendar or printout."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.readers import pdf_text

pytestmark = pytest.mark.django_db

FORGED = "127.0.0.1:6666"


def pages(league):
    competition = league["competition"]
    played = league["played"]
    return [
        reverse("scoring:home"),
        reverse("scoring:competition-list"),
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:competition-rounds", args=[competition.pk]),
        reverse("scoring:competition-embed", args=[competition.pk]),
        reverse("scoring:competition-feed", args=[competition.pk]),
        reverse("scoring:round-detail", args=[competition.pk, 1]),
        reverse("scoring:match-detail", args=[played.pk]),
        reverse("scoring:team-detail", args=[league["teams"]["ess"].pk]),
        reverse("scoring:team-calendar", args=[league["teams"]["ess"].pk]),
        reverse("scoring:club-list"),
        reverse("scoring:match-protocol", args=[played.pk]),
        reverse("scoring:my-matches"),
        reverse("scoring:manage-competition", args=[competition.pk]),
    ]


def test_a_forged_host_is_in_no_page(client, league, settings):
    settings.SITE_URL = "https://canasta.example.org"
    client.force_login(league["secretary"])
    for path in pages(league):
        response = client.get(path, HTTP_HOST=FORGED)
        assert response.status_code == 200, path
        body = response.content.decode()
        assert "6666" not in body, path
    competition = client.get(reverse("scoring:competition-detail", args=[league["competition"].pk]), HTTP_HOST=FORGED)
    assert "https://canasta.example.org/competitions/" in competition.content.decode()  # the embed code
    feed = client.get(reverse("scoring:competition-feed", args=[league["competition"].pk]), HTTP_HOST=FORGED).json()
    assert feed["competition"]["url"].startswith("https://canasta.example.org/")
    calendar = client.get(reverse("scoring:team-calendar", args=[league["teams"]["ess"].pk]), HTTP_HOST=FORGED)
    assert "@canasta.example.org" in calendar.content.decode()


def test_a_forged_host_is_not_printed(client, league, settings):
    settings.SITE_URL = "https://canasta.example.org"
    client.force_login(league["secretary"])
    response = client.get(reverse("scoring:match-protocol-pdf", args=[league["played"].pk]), HTTP_HOST=FORGED)

    text = pdf_text(response.content)
    assert "6666" not in text
    assert "canasta.example.org" in text


@pytest.fixture
def debug_without_site_url(settings):
    """`runserver 0.0.0.0:8010` in debug with no SITE_URL set (canastaclub/settings.py)."""
    settings.DEBUG = True
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.SITE_URL_FOLLOWS_REQUEST = True
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    return settings


def test_in_debug_without_site_url_printed_links_follow_the_request(client, league, debug_without_site_url):
    client.force_login(league["secretary"])
    url = reverse("scoring:match-protocol-pdf", args=[league["played"].pk])
    text = pdf_text(client.get(url, HTTP_HOST="localhost:8010").content)
    assert f"http://localhost:8010/matches/{league['played'].pk}/" in text
    assert "127.0.0.1:8000" not in text
    # With debug off SITE_URL holds, whatever the request's host (and no document made for the
    # other address is served from the documents cache).
    debug_without_site_url.DEBUG = False
    text = pdf_text(client.get(url, HTTP_HOST="localhost:8010").content)
    assert f"http://127.0.0.1:8000/matches/{league['played'].pk}/" in text
    assert "8010" not in text


def test_in_debug_without_site_url_mailed_links_follow_the_request(
    client, debug_without_site_url, django_capture_on_commit_callbacks
):
    from django.core import mail

    from tests.factories import EXPORT_SAMPLE_DEALS, play_match, protocol_setup

    setup = protocol_setup()
    setup["away_captain"].email = "bortakapten@example.org"
    setup["away_captain"].save()
    match = play_match(setup["match"], setup["secretary"], EXPORT_SAMPLE_DEALS)
    client.force_login(setup["secretary"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("scoring:match-submit", args=[match.pk]), {"version": match.version}, HTTP_HOST="localhost:8010"
        )
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert f"http://localhost:8010/matches/{match.pk}/protocol/" in mail.outbox[0].body
