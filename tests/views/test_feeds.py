"""What other sites read: the embeddable page (framing allowed for it alone), the JSON feed (CORS),
and a team's fixtures as iCalendar."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.urls import reverse

from scoring.feeds.calendar import CalendarEvent, calendar

pytestmark = pytest.mark.django_db


def test_embed_may_be_framed_other_pages_not(client, league):
    embed = client.get(reverse("scoring:competition-embed", args=[league["competition"].pk]))
    page = client.get(reverse("scoring:competition-detail", args=[league["competition"].pk]))

    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed
    assert "frame-ancestors *" in embed["Content-Security-Policy"]
    assert "script-src 'self'" in embed["Content-Security-Policy"]
    assert page["X-Frame-Options"] == "DENY"
    assert "frame-ancestors *" not in page["Content-Security-Policy"]


def test_embed_has_standings_and_results_with_links_out_of_the_frame(client, league):
    html = client.get(reverse("scoring:competition-embed", args=[league["competition"].pk])).content.decode()

    assert 'class="data-table standings"' in html
    assert 'class="data-table results"' in html
    assert 'class="site-header' not in html
    assert 'target="_blank" rel="noopener"' in html


def test_json_feed_shape(client, league):
    response = client.get(reverse("scoring:competition-feed", args=[league["competition"].pk]))

    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    data = json.loads(response.content)
    assert set(data) == {"competition", "generated_at", "standings", "preliminary_results", "rounds"}
    assert data["competition"]["name"] == "Mellansvenska serien"
    first = data["standings"][0]
    assert first == {
        "rank": 1, "tied": False, "rank_label": "1",
        "team": {"id": league["teams"]["ess"].pk, "name": "Essen"},
        "played": 1, "won": 1, "drawn": 0, "lost": 0, "points": 1,
        "card_points_for": 5500, "card_points_against": 3720, "difference": 1780,
    }
    assert [row["rank_label"] for row in data["standings"]] == ["1", "2", "3=", "3="]
    round_one = data["rounds"][0]
    assert round_one["number"] == 1 and round_one["date"] == "2026-10-03" and round_one["live"] is True
    played = round_one["matches"][0]
    assert played["home"]["name"] == "Essen" and played["status"] == "confirmed"
    assert (played["home_total"], played["away_total"], played["winner"], played["end"]) == (5500, 3720, "home", "target")
    assert played["counts"] is True and played["preliminary"] is False
    assert played["url"].endswith(reverse("scoring:match-detail", args=[league["played"].pk]))
    live = round_one["matches"][1]
    assert (live["status"], live["deals"], live["home_total"], live["away_total"]) == ("in_progress", 1, 1885, -40)
    assert data["rounds"][1]["matches"][0]["status"] == "scheduled"


def unfold(text: str) -> list[str]:
    assert text.endswith("\r\n")
    lines: list[str] = []
    for raw in text.split("\r\n")[:-1]:
        if raw.startswith(" "):
            lines[-1] += raw[1:]
        else:
            lines.append(raw)
    return lines


def test_team_calendar_parses_with_one_event_per_match(client, league):
    team = league["teams"]["ess"]
    response = client.get(reverse("scoring:team-calendar", args=[team.pk]))

    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    text = response.content.decode("utf-8")
    for raw in text.split("\r\n"):
        assert len(raw.encode("utf-8")) <= 75
    lines = unfold(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines
    assert any(line.startswith("PRODID:") for line in lines)
    events = [i for i, line in enumerate(lines) if line == "BEGIN:VEVENT"]
    assert len(events) == 2  # round 1 at home, round 2 away; the non-public match is left out
    assert lines.count("END:VEVENT") == 2
    first = lines[events[0]:lines.index("END:VEVENT") + 1]
    props = dict(line.split(":", 1) for line in first if ":" in line)
    assert props["DTSTART;VALUE=DATE"] == "20261003"
    assert props["DTEND;VALUE=DATE"] == "20261004"
    assert props["SUMMARY"] == "Essen – Kungarna 5500–3720"
    assert props["UID"].startswith(f"match-{league['played'].pk}@")
    assert props["LOCATION"] == "Canastaklubben Ess\\, Örebro"
    assert props["STATUS"] == "CONFIRMED"


def test_calendar_times_escaping_and_folding():
    start = datetime(2026, 10, 3, 18, 30, tzinfo=dt_timezone.utc)
    text = calendar(
        [CalendarEvent(uid="u1@x", start=start, end=start + timedelta(minutes=60),
                       summary="Å; Ä, Ö\\", description="rad ett\nrad två " + "ö" * 60)],
        name="Lag", prodid="-//t//t//SV", stamp=start,
    )
    lines = unfold(text)

    assert "DTSTART:20261003T183000Z" in lines
    assert "DTEND:20261003T193000Z" in lines
    assert "SUMMARY:Å\\; Ä\\, Ö\\\\" in lines
    assert any(line.startswith("DESCRIPTION:rad ett\\nrad två ööö") for line in lines)
    for raw in text.split("\r\n"):
        assert len(raw.encode("utf-8")) <= 75
    # Folding never splits a UTF-8 character.
    text.encode("utf-8").decode("utf-8")
    for raw in text.encode("utf-8").split(b"\r\n"):
        raw.decode("utf-8")


def test_a_lone_carriage_return_in_a_team_name_is_escaped():
    """A bare CR would end the content line early in some calendar programs (RFC 5545, 3.3.11)."""
    start = datetime(2026, 10, 3, 18, 30, tzinfo=dt_timezone.utc)
    text = calendar(
        [CalendarEvent(uid="u1@x", start=start, end=start + timedelta(minutes=60), summary="Lag\rEtt – Lag Två")],
        name="Lag\rEtt", prodid="-//t//t//SV", stamp=start,
    )
    assert "\r" not in text.replace("\r\n", "")
    lines = unfold(text)
    assert "SUMMARY:Lag\\nEtt – Lag Två" in lines
    assert "X-WR-CALNAME:Lag\\nEtt" in lines
