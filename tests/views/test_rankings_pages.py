"""The pages of the ranking lists: the list, the matches behind each figure, a pair's matches, the
rating explained, a series' club table; and the `rankings` command's JSON is the page's list."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.formatting import rating_text

pytestmark = pytest.mark.django_db


def test_command_json_is_the_page(client, federation):
    out = StringIO()
    call_command("rankings", "--season", "2026/27", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert set(rows[0]) == {"rank", "tied", "player", "club", "matches", "won", "points", "card_points", "rating"}
    html = client.get(reverse("scoring:rankings"), {"season": "2026/27"}).content.decode()
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    page_rows = []
    for tr in re.findall(r"<tr.*?</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", td).replace("\u202f", "").replace("&nbsp;", "").strip()
                 for td in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        page_rows.append(cells)
    expected = [
        [f"{r['rank']}{'=' if r['tied'] else ''}" + (" (delad)" if r["tied"] else ""), r["player"], r["club"],
         str(r["matches"]), str(r["won"]), str(r["points"]).replace(".", ","), str(r["card_points"]), str(r["rating"])]
        for r in rows
    ]
    assert page_rows == expected


def test_each_figure_links_to_the_matches_behind_it(client, federation):
    anna = federation["players"]["Anna"]
    html = client.get(reverse("scoring:rankings"), {"season": "2026/27"}).content.decode()
    url = reverse("scoring:ranking-player", args=[anna.pk]) + "?season=2026%2F27"
    assert f'href="{url}"' in html
    page = client.get(url).content.decode()
    m = federation["matches"]
    for key in ("r1", "r3"):
        assert reverse("scoring:match-detail", args=[m[key].pk]) in page
    for key in ("pending", "o1", "r2"):
        assert f'data-match-id="{m[key].pk}"' not in page
    assert 'data-figure="points">1<' in page


def test_pair_matches_page_and_rating_page(client, federation):
    team = federation["teams"]["ef"]
    page = client.get(reverse("scoring:ranking-pair", args=[team.pk])).content.decode()
    assert reverse("scoring:match-detail", args=[federation["matches"]["r4"].pk]) in page
    assert client.get(reverse("scoring:rating-explained")).status_code == 200


def test_club_table(client, federation):
    series = federation["series"]
    html = client.get(reverse("scoring:competition-clubs", args=[series.pk])).content.decode()
    body = html.split("<tbody", 1)[1]
    # Ess: AB 1 + CD 0.5 = 1.5 points; Kungarna: EF 1 + GH 1.5 = 2.5 points.
    kung, ess = federation["clubs"]["kung"], federation["clubs"]["ess"]
    assert body.index(f'data-club-id="{kung.pk}"') < body.index(f'data-club-id="{ess.pk}"')
    assert reverse("scoring:competition-clubs", args=[series.pk]) in client.get(
        reverse("scoring:competition-detail", args=[series.pk])
    ).content.decode()
    assert client.get(reverse("scoring:competition-clubs", args=[federation["old"].pk])).status_code == 404


def test_a_club_filter_beyond_any_id_means_every_club(client, federation):
    response = client.get(reverse("scoring:rankings"), {"club": str(10**30), "season": "no such"})
    assert response.status_code == 200
    assert 'data-id="' in response.content.decode()


def test_a_page_replays_nothing(federation, client, monkeypatch):
    """The rankings, a player's page, a pair's and a ranking row's matches read the stored rows:
    nothing replays the rating on a GET (every replay asks the engine's expected_score)."""

    def no_replay(*args, **kwargs):
        raise AssertionError("the rating was replayed on a GET")

    anna = federation["players"]["Anna"]
    urls = [
        reverse("scoring:rankings"), reverse("scoring:rankings") + "?season=2026%2F27",
        reverse("scoring:rankings") + "?list=pairs", reverse("scoring:player-detail", args=[anna.pk]),
        reverse("scoring:team-detail", args=[federation["teams"]["ab"].pk]),
    ]  # fmt: skip (the views are imported with the URLs, before the engine is patched)
    monkeypatch.setattr("scoring.engine.rating.expected_score", no_replay)
    for url in urls:
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("scoring:ranking-player", args=[anna.pk]) + "?season=2025%2F26").content.decode()
    assert rating_text(1484) in page  # o1: 1500 before, 1484 after, as stored
