"""Every text that users typed is written into a workbook as text: a team named
=HYPERLINK(...) must not become a live formula in the standings, results, protocol or competition
workbooks, and a spreadsheet program shows it exactly as typed."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import zipfile

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.fixtures import HOSTILE_TEXTS


def _downloads(hostile_competition) -> dict[str, str]:
    competition = hostile_competition["competition"]
    match = hostile_competition["match"]
    return {
        "standings": reverse("scoring:standings-xlsx", args=[competition.pk]),
        "results": reverse("scoring:round-results-xlsx", args=[competition.pk, 1]),
        "protocol": reverse("scoring:match-protocol-xlsx", args=[match.pk]),
        "competition": reverse("scoring:competition-xlsx", args=[competition.pk]),
    }


def _workbooks(client, hostile_competition) -> dict[str, bytes]:
    workbooks = {}
    for name, url in _downloads(hostile_competition).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        workbooks[name] = response.content
    return workbooks


@pytest.mark.django_db
def test_no_workbook_holds_a_formula_or_an_error_cell(client, hostile_competition):
    for name, data in _workbooks(client, hostile_competition).items():
        # The sheet XML itself: no <f> element anywhere (openpyxl writes "=..." text as one).
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                if member.startswith("xl/worksheets/"):
                    assert b"<f>" not in archive.read(member) and b"<f " not in archive.read(member), (name, member)
        texts = set()
        workbook = load_workbook(io.BytesIO(data))
        for sheet in workbook.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    assert cell.data_type not in ("f", "e"), (name, sheet.title, cell.coordinate, cell.value)
                    if isinstance(cell.value, str):
                        texts.add(cell.value)
        assert HOSTILE_TEXTS["home"] in texts, name
        if name != "protocol":
            assert HOSTILE_TEXTS["error"] in texts or name == "results", name


@pytest.mark.slow  # a real LibreOffice, a few seconds
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.django_db
def test_libreoffice_shows_the_literal_text(client, hostile_competition, tmp_path):
    source = tmp_path / "standings.xlsx"
    source.write_bytes(_workbooks(client, hostile_competition)["competition"])
    result = subprocess.run(
        [
            "soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/lo-profile",
            "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", str(tmp_path / "out"),
            str(source),
        ],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "out" / "standings.csv").read_text(encoding="utf-8")
    cells = {cell for row in csv.reader(io.StringIO(text)) for cell in row}
    # The first sheet (the standings): the names as typed, not "team" (the link's label) or 3.
    assert HOSTILE_TEXTS["home"] in cells
    assert HOSTILE_TEXTS["away"] in cells
    assert "#N/A" in cells
    assert "team" not in cells
