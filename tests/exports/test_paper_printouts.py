"""Printouts as a club reads them: the official protocol gives the day the match was played."""

from __future__ import annotations

from datetime import date, datetime, timezone as dt_timezone

import pytest

from scoring.exports import pdf
from scoring.models import Match

from tests.support.readers import pdf_text

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
    from scoring.exports.listings import StandingsExportTable

    text = pdf_text(pdf.standings_pdf(played["competition"])[2])

    # The difference is signed, as on the web: the winner +1 780, the loser −1 780.
    assert "+1 780" in text and "-1 780" in text
    # A team's name is one cell on one line, in a column without the protocol header's frame.
    assert "Hemmalaget" in text.replace("\n", " ")
    assert StandingsExportTable.base_columns["team"].attrs["td"]["class"] == "listing-team strong"


def test_the_protocol_sheet_speaks_swedish_and_imports_again(played):
    import io

    from django.utils import translation
    from openpyxl import load_workbook

    from scoring.files.protocol_file import read_protocol
    from scoring.exports import xlsx
    from tests.factories import EXPORT_SAMPLE_DEALS

    with translation.override("sv"):
        content = xlsx.match_protocol_xlsx(played["match"])[2]
    sheet = load_workbook(io.BytesIO(content), read_only=True).worksheets[0]
    header, first = list(sheet.iter_rows(min_row=1, max_row=2, values_only=True))

    assert header[:3] == ("Giv", "Hemma kortpoäng", "Hemma rena canastor")
    assert "home_cards" not in header
    assert "hemma" in first and "yes" not in first and "home" not in first
    # The reader takes the Swedish sheet as it takes the interchange columns.
    deals = read_protocol(content, "protokoll.xlsx")
    assert [(d.home.cards, d.away.cards, d.out, d.effective_end) for d in deals] == [
        (d.home.cards, d.away.cards, d.out, d.effective_end) for d in EXPORT_SAMPLE_DEALS
    ]


def test_the_competition_workbooks_deal_sheet_speaks_swedish(played):
    import io

    from django.utils import translation
    from openpyxl import load_workbook

    from scoring.exports import xlsx

    with translation.override("sv"):
        content = xlsx.competition_xlsx(played["competition"])[2]
    sheet = load_workbook(io.BytesIO(content), read_only=True)["Givar"]
    header, first = list(sheet.iter_rows(min_row=1, max_row=2, values_only=True))

    assert header[:7] == ("Match", "Omgång", "Bord", "Hemmalaget", "Bortalaget", "Giv", "Hemma kortpoäng")
    assert "yes" not in first and "home" not in first
