"""Printouts as a club reads them: the official protocol gives the day the match was played."""

from __future__ import annotations

from datetime import date, datetime, timezone as dt_timezone

import pytest

from scoring.exports import pdf
from scoring.models import Match

from .readers import pdf_text

pytestmark = pytest.mark.django_db


def test_the_official_protocol_shows_the_day_played_not_the_day_planned(played, english):
    match = played["match"]
    match.round.date = date(2026, 10, 3)
    match.round.save()
    Match.objects.filter(pk=match.pk).update(started_at=datetime(2026, 10, 10, 17, 0, tzinfo=dt_timezone.utc))
    match.refresh_from_db()

    text = pdf_text(pdf.match_protocol_pdf(match)[2])

    assert "2026-10-10" in text
    assert "2026-10-03" not in text


def test_the_standings_pdf_reads_like_the_web_table(played, english):
    from scoring.exports.tables import StandingsExportTable

    text = pdf_text(pdf.standings_pdf(played["competition"])[2])

    # The difference is signed, as on the web: the winner +1 780, the loser −1 780.
    assert "+1 780" in text and "-1 780" in text
    # A team's name is one cell on one line, in a column without the protocol header's frame.
    assert "Hemmalaget" in text.replace("\n", " ")
    assert StandingsExportTable.base_columns["team"].attrs["td"]["class"] == "listing-team strong"
