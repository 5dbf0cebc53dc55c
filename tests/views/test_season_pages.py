"""Seasons on the pages: a player's, team's and club's pages show every season's figures and the
rating's history, a competition's page charts each team's place round by round, with charts that
say what they show, and a closed season's competition page says it is an archive."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Match
from scoring.services.seasons import season_close
from tests.factories import make_admin

pytestmark = pytest.mark.django_db


def test_player_team_and_club_pages_show_every_season_and_the_rating(client, federation):
    season_close(name="2025/26", user=make_admin())
    anna = federation["players"]["Anna"]
    html = client.get(reverse("scoring:player-detail", args=[anna.pk])).content.decode()
    seasons = re.findall(r'data-season="([^"]+)"', html)
    assert seasons == ["2026/27", "2025/26"]
    row_old = html.split('data-season="2025/26"', 1)[1].split("</tr>", 1)[0]
    assert "arkiv" in row_old
    # The rating chart: an image with a title and a description, the numbers in a table too.
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert "3 matcher med rating" in svg
    assert html.count(reverse("scoring:match-detail", args=[federation["matches"]["r3"].pk])) >= 1

    team_html = client.get(reverse("scoring:team-detail", args=[federation["teams"]["ab"].pk])).content.decode()
    assert re.findall(r'data-season="([^"]+)"', team_html) == ["2026/27", "2025/26"]
    club_html = client.get(reverse("scoring:club-detail", args=[federation["clubs"]["kung"].pk])).content.decode()
    # Kungarna 2026/27: EF 1 + GH 1.5 = 2.5 match points; the bar chart says so in words.
    assert "2026/27: 2,5 matchpoäng i 4 matcher" in club_html


def test_competition_page_charts_each_teams_place_round_by_round(client, federation):
    series = federation["series"]
    html = client.get(reverse("scoring:competition-detail", args=[series.pk])).content.decode()
    assert "Placering omgång för omgång" in html
    table = html.split('class="data-table places-table"', 1)[1].split("</table>", 1)[0]
    gh = federation["teams"]["gh"]
    row = table.split(f'data-team-id="{gh.pk}"', 1)[1].split("</tr>", 1)[0]
    # After round 1 Greta/Hugo drew with Cilla/Dan (0.5 and 5 000 each): second equal with them;
    # after round 2 (1.5 points) first.
    assert re.findall(r'<td class="num">(\d+)</td>', row) == ["2", "1"]
    assert html.count('role="img"') == 4


def test_the_rating_chart_runs_by_date_and_its_numbers_are_in_sight(client, federation):
    from django.utils.formats import date_format

    from scoring.selectors.history import rating_points

    from datetime import datetime, timezone as dt_timezone

    # The season before ends in December 2025; this one is played in October 2026.
    Match.objects.filter(pk=federation["matches"]["o1"].pk).update(
        started_at=datetime(2025, 12, 26, 18, 30, tzinfo=dt_timezone.utc))
    for day, key in enumerate(("r1", "r2", "r3", "r4", "pending"), start=1):
        Match.objects.filter(pk=federation["matches"][key].pk).update(
            started_at=datetime(2026, 10, day * 3, 18, 30, tzinfo=dt_timezone.utc))
    anna = federation["players"]["Anna"]
    html = client.get(reverse("scoring:player-detail", args=[anna.pk])).content.decode()
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "Matchens datum" in svg and "Match med rating" not in svg
    x_labels = re.findall(r'<text x="[\d.]+" y="245" text-anchor="[a-z]+" fill="[^"]+">([^<]*)</text>', svg)
    points = rating_points(anna)
    assert all(point.when for point in points)
    assert x_labels == ["start", *(date_format(point.when, "j b") for point in points)]
    assert x_labels[1:3] == ["26 dec", "3 okt"]
    # "26 dec" then "3 okt" would read backwards: the year is written under the first date and
    # where it changes, in a line of its own under the dates.
    years = re.findall(r'<text x="([\d.]+)" y="264" [^>]*>([^<]*)</text>', svg)
    first_dates = re.findall(r'<text x="([\d.]+)" y="245" [^>]*>([^<]*)</text>', svg)[1:3]
    assert years == [(first_dates[0][0], "2025"), (first_dates[1][0], "2026")]
    # The axis's name, turned on its side at the left edge, stands clear of the widest tick label
    # (DejaVu Sans: digits 0.64 em, a descender 0.3 em).
    from scoring.charts.svg import FONT

    name = re.search(r'<text x="([\d.]+)" [^>]*transform="rotate\(-90[^>]*>Rating</text>', svg)
    ticks = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end" fill="[^"]+">([\d\u2009]+)</text>', svg)
    assert name and ticks
    assert float(name.group(1)) + 0.3 * FONT + 4 <= min(float(x) - len(text) * 0.64 * FONT for x, text in ticks)
    height = float(re.search(r'viewBox="0 0 480 ([\d.]+)"', svg).group(1))
    date_name = re.search(r'y="([\d.]+)" text-anchor="middle" fill="[^"]+" font-weight="bold">Matchens datum<', svg)
    assert 264 + FONT <= float(date_name.group(1)) <= height
    # The table of the chart's numbers is shown as it is, not folded away in a <details>.
    numbers = html.split('class="chart-numbers"', 1)
    assert len(numbers) == 2 and "<table" in numbers[1]
    assert "<details" not in html.split('id="rating-heading"', 1)[1].split("</section>", 1)[0]


def test_a_closed_season_s_competition_page_says_it_is_an_archive(client, federation):
    notice = "Säsongen 2025/26 är avslutad: sidan är dess arkiv."
    old = reverse("scoring:competition-detail", args=[federation["old"].pk])
    assert notice not in client.get(old).content.decode()
    season_close(name="2025/26", user=make_admin())
    assert notice in client.get(old).content.decode()
    series = client.get(reverse("scoring:competition-detail", args=[federation["series"].pk])).content.decode()
    assert "är avslutad: sidan är dess arkiv" not in series

