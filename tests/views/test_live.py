"""The live parts: pages poll (htmx) only while a round is played, and the partials carry news."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import make_admin, winning_deal

pytestmark = pytest.mark.django_db


def test_competition_page_polls_while_a_round_is_played(client, league, settings):
    settings.SCORING_LIVE_POLL_SECONDS = 7
    competition = league["competition"]

    html = client.get(reverse("scoring:competition-detail", args=[competition.pk])).content.decode()

    assert f'hx-get="{reverse("scoring:competition-live", args=[competition.pk])}?"' in html
    assert 'hx-trigger="every 7s"' in html
    assert 'data-poll-seconds="7"' in html


def test_no_polling_when_no_match_is_in_progress(client, league):
    live = league["live"]
    for number in (2, 3):
        live = services.deals_record(match=live, user=league["secretary"], entry=winning_deal(number, "home"),
                                     expected_version=live.version)
    competition = league["competition"]

    html = client.get(reverse("scoring:competition-detail", args=[competition.pk])).content.decode()
    partial = client.get(reverse("scoring:competition-live", args=[competition.pk])).content.decode()

    assert "hx-trigger" not in html
    assert partial.lstrip().startswith('<div id="competition-live"')
    assert "hx-trigger" not in partial  # the swap stops the polling


def test_a_look_back_does_not_poll(client, league):
    # Round 1 finishes; round 2 starts. The table after round 1 no longer changes.
    live, later = league["live"], league["later"]
    for number in (2, 3):
        live = services.deals_record(match=live, user=league["secretary"], entry=winning_deal(number, "home"),
                                     expected_version=live.version)
    services.deals_record(match=later, user=league["secretary"], entry=winning_deal(1, "home"),
                          expected_version=later.version)
    url = reverse("scoring:competition-detail", args=[league["competition"].pk])

    def live_area(html):
        return html.split('id="competition-live"', 1)[1].split(">", 1)[0]

    assert "hx-trigger" not in live_area(client.get(url + "?after=1").content.decode())
    assert "hx-trigger" in live_area(client.get(url + "?after=2").content.decode())
    assert "hx-trigger" in live_area(client.get(url).content.decode())


def test_live_partials_show_a_new_deal(client, league):
    competition = league["competition"]
    live = league["live"]
    round_url = reverse("scoring:round-live", args=[competition.pk, 1])
    assert "1\u202f885" in client.get(round_url).content.decode()

    services.deals_record(match=live, user=league["secretary"], entry=winning_deal(2, "home"),
                          expected_version=live.version)

    partial = client.get(round_url).content.decode()
    assert "3\u202f770" in partial
    assert partial.lstrip().startswith('<div id="round-live"')
    assert "<html" not in partial
    assert 'hx-trigger="every' in partial


def test_match_partial_answers_304_to_its_validator_until_the_match_changes(client, league):
    live = league["live"]
    page = client.get(reverse("scoring:match-detail", args=[live.pk]))
    url = reverse("scoring:match-live", args=[live.pk])
    # The page hands its live part the validator the part's first poll sends.
    assert f"""hx-headers='{{"If-None-Match": "\\{page["ETag"][:-1]}\\""}}'""" in page.content.decode()

    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    live = services.deals_record(match=live, user=league["secretary"], entry=winning_deal(2, "away"),
                                 expected_version=live.version)
    response = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])

    assert response.status_code == 200
    assert 'id="deal-2"' in response.content.decode()
    assert response["ETag"] != page["ETag"]


def test_competition_partial_carries_the_standings_and_the_round_being_played(client, league):
    competition, live = league["competition"], league["live"]
    url = reverse("scoring:competition-live", args=[competition.pk])
    for number in (2, 3):
        live = services.deals_record(match=live, user=league["secretary"], entry=winning_deal(number, "home"),
                                     expected_version=live.version)
    # Finished: the result shows at once, and counts once it is confirmed.
    partial = client.get(url).content.decode()
    assert "5\u202f655" in partial and "preliminärt" in partial
    live = services.match_submit(match=live, user=league["secretary"], expected_version=live.version)
    services.match_confirm(match=live, user=make_admin(), expected_version=live.version)

    partial = client.get(url).content.decode()
    rows = partial.split('class="data-table standings"', 1)[1].split("</table>", 1)[0]
    assert rows.index(">Damerna<") < rows.index(">Kungarna<")
    assert "väntar på bekräftelse" not in partial
