"""The competition workbook's sheets of Canasta figures and records, read back as a spreadsheet
would: the same numbers as the read model (selectors.figures, selectors.records) the pages show.
The season is tests/selectors/test_figures.py's."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from scoring.exports import xlsx
from scoring.selectors.figures import FIGURES, competition_figures
from tests.selectors.test_figures import build_season

pytestmark = pytest.mark.django_db


def test_the_workbook_has_the_competitions_figures_and_records(english):
    season = build_season()
    series = season["competitions"]["series"]
    book = load_workbook(io.BytesIO(xlsx.competition_xlsx(series).content))
    assert "Figures" in book.sheetnames and "Records" in book.sheetnames
    rows = [row for row in book["Figures"].iter_rows(values_only=True)]
    header = next(i for i, row in enumerate(rows) if row[0] == "Pair")
    by_name = {row[0]: row for row in rows[header + 1:]}
    assert list(by_name) == ["The whole competition", "Anna/Bo", "Cilla/Dan", "Eva/Filip"]
    figures = competition_figures(series, teams=True)
    columns = {f.key: 1 + index for index, f in enumerate(FIGURES)}
    anna_bo = by_name["Anna/Bo"]
    expected = next(t.figures for t in figures.teams if t.name == "Anna/Bo")
    assert anna_bo[columns["deals"]] == expected.deals == 13  # 8 in round 1, 5 in round 2
    assert anna_bo[columns["natural_per_deal"]] == round(expected.natural_per_deal, 2)
    assert anna_bo[columns["went_out_share"]] == round(100 * expected.went_out_share, 1)
    assert anna_bo[columns["target_minute"]] == 42
    assert by_name["The whole competition"][columns["clock_share"]] == round(100 * 2 / 6, 1)
    records = [row for row in book["Records"].iter_rows(values_only=True)]
    comeback = next(row for row in records if row[0] == "Largest deficit turned into a win")
    assert comeback[1:4] == (3850, "Anna/Bo", "Eva/Filip")
    assert comeback[5].endswith(f"/matches/{season['matches']['m2'].pk}/#deal-2")
