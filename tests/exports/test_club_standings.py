"""The club table in the competition's PDF and workbook, read back as a user's programs would."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from scoring.exports import pdf, xlsx
from tests.support.readers import pdf_text, squeeze

pytestmark = pytest.mark.django_db


def test_competition_pdf_and_workbook_have_the_club_table(federation):
    series = federation["series"]
    text = squeeze(pdf_text(pdf.competition_pdf(series).content))
    assert "Klubbtabell" in text
    # Kungarna: EF 1 + GH 1.5 = 2.5 points, 2 pairs, 4 matches, card points 8 000 + 10 200.
    assert "1 Kungarna CK 2 4 2 1 1 2,5 18 200" in text
    assert "2 Canastaklubben 2 4 1 1 2 1,5" in text  # "Ess" wraps to the next line

    workbook = load_workbook(io.BytesIO(xlsx.competition_xlsx(series).content), read_only=True)
    assert "Klubbtabell" in workbook.sheetnames
    rows = [row for row in workbook["Klubbtabell"].iter_rows(values_only=True) if row and row[0] is not None]
    header = next(i for i, row in enumerate(rows) if row[:2] == ("Plac.", "Klubb"))
    assert rows[header + 1][:8] == (1, "Kungarna CK", 2, 4, 2, 1, 1, 2.5)


def test_no_club_table_without_the_choice(federation):
    old = federation["old"]
    assert "Klubbtabell" not in pdf_text(pdf.competition_pdf(old).content)
    workbook = load_workbook(io.BytesIO(xlsx.competition_xlsx(old).content), read_only=True)
    assert "Klubbtabell" not in workbook.sheetnames
