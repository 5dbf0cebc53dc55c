"""The live parts: pages poll (htmx) only while a round is played, and the partials carry news."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.views import public as public_views
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


def test_a_long_table_comes_a_page_at_a_time_and_the_live_part_polls_the_page_shown(client, league, monkeypatch):
    """A national competition's six hundred teams and its round's three hundred tables are shown
    LIVE_TABLE_ROWS rows at a time, each table with pages of its own; the page's live part is asked
    for the pages shown, and a poll draws them, not the first ones."""
    monkeypatch.setattr(public_views, "LIVE_TABLE_ROWS", 1)
    competition = league["competition"]
    page_url = reverse("scoring:competition-detail", args=[competition.pk])
    live_url = reverse("scoring:competition-live", args=[competition.pk])

    first = client.get(page_url)
    standings, results = first.context["standings"], first.context["current_results"]
    assert (len(standings.page.object_list), standings.paginator.num_pages) == (1, 4)
    assert (len(results.page.object_list), results.paginator.num_pages) == (1, 2)
    html = first.content.decode()
    # Each table is its own anchor, and its page links lead back to it (the results stand below
    # a hundred rows of standings).
    assert 'id="standings-table"' in html and 'href="?standings-page=2#standings-table"' in html
    assert 'id="results-table"' in html and 'href="?results-page=2#results-table"' in html
    assert f'hx-get="{live_url}?"' in html

    second = client.get(page_url + "?standings-page=3&results-page=2")
    leader = standings.page.object_list[0].record.record.team_id
    third = second.context["standings"].page.object_list[0].record.record.team_id
    assert third != leader and second.context["current_results"].page.number == 2
    assert f'hx-get="{live_url}?standings-page=3&amp;results-page=2"' in second.content.decode()

    poll = client.get(live_url + "?standings-page=3&results-page=2")
    assert poll.context["standings"].page.object_list[0].record.record.team_id == third
    assert poll.context["current_results"].page.number == 2
    assert f'hx-get="{live_url}?standings-page=3&amp;results-page=2"' in poll.content.decode()
