"""The standings on a competition's page: ranks, shared ranks as "3=", the columns the points preset
asks for, the round selector, and results that are still preliminary."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import make_admin, make_competition, make_result, make_team, winning_deal

pytestmark = pytest.mark.django_db


def standings_rows(html: str) -> list[list[str]]:
    """The text of each body row of the standings table."""
    table = html.split('class="data-table standings"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody", 1)[1]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        rows.append([re.sub(r"<[^>]+>", "", cell).strip() for cell in cells])
    return rows


def test_ranks_and_shared_ranks(client, league):
    html = client.get(reverse("scoring:competition-detail", args=[league["competition"].pk])).content.decode()
    rows = standings_rows(html)

    assert [row[0].split()[0] for row in rows] == ["1", "2", "3=", "3="]
    assert [row[1] for row in rows] == ["Essen", "Kungarna", "Damerna", "Ormarna"]
    # played, won, drawn, lost, points, for, against, difference
    assert rows[0][2:] == ["1", "1", "0", "0", "1", "5\u202f500", "3\u202f720", "+1\u202f780"]
    assert rows[1][2:] == ["1", "0", "0", "1", "0", "3\u202f720", "5\u202f500", "\u22121\u202f780"]
    # The shared rank says so in words too.
    assert "(delad)" in rows[2][0]


def test_standings_are_not_sortable(client, league):
    html = client.get(reverse("scoring:competition-detail", args=[league["competition"].pk])).content.decode()

    assert "sort-link" not in html
    assert "aria-sort" not in html


def test_difference_preset_shows_the_difference_only(client):
    competition = make_competition(points_key="fi-liitto")
    make_result(competition, make_team("Ess"), make_team("Kung"), 5100, 3000)

    html = client.get(reverse("scoring:competition-detail", args=[competition.pk])).content.decode()
    rows = standings_rows(html)

    # rank, team, played, won, drawn, lost, points, difference: no for and against
    assert rows[0][1:] == ["Ess", "1", "1", "0", "0", "2", "+2\u202f100"]
    assert "Kortpoäng för" not in html


def test_round_selector_shows_the_standings_after_a_round(client, league):
    competition = league["competition"]
    url = reverse("scoring:competition-detail", args=[competition.pk])
    # A result in round 2 changes the table after round 2 but not after round 1.
    later = league["later"]
    secretary = league["secretary"]
    for number in (1, 2, 3):
        later = services.deals_record(match=later, user=secretary, entry=winning_deal(number, "home"),
                                      expected_version=later.version)
    later = services.match_submit(match=later, user=secretary, expected_version=later.version)
    services.match_confirm(match=later, user=make_admin(), expected_version=later.version)

    after_one = client.get(url + "?after=1").content.decode()
    after_all = client.get(url).content.decode()

    assert "Tabell efter omgång 1" in after_one
    assert '<option value="1" selected>' in after_one
    assert standings_rows(after_one)[0][1] == "Essen"
    assert [row[1] for row in standings_rows(after_all)][:2] == ["Kungarna", "Essen"]


def test_preliminary_results_are_marked(client, league):
    live = league["live"]
    secretary = league["secretary"]
    for number in (2, 3):
        live = services.deals_record(match=live, user=secretary, entry=winning_deal(number, "home"),
                                     expected_version=live.version)
    assert live.status == "finished"
    url = reverse("scoring:competition-detail", args=[league["competition"].pk])
    # Finished but not submitted: it waits for its secretary, not for confirmation.
    assert "väntar på bekräftelse" not in client.get(url).content.decode()
    services.match_submit(match=live, user=secretary, expected_version=live.version)

    html = client.get(url).content.decode()

    assert "1 resultat väntar på bekräftelse" in html
    assert "preliminärt" in html
    # The finished match does not count yet: Damerna still has played 0.
    damerna = next(row for row in standings_rows(html) if row[1] == "Damerna")
    assert damerna[2] == "0"
