"""Excel workbooks read back with openpyxl (and LibreOffice), as a user's spreadsheet would."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from scoring.adapters import deal_to_entry
from scoring.engine import replay
from scoring.files.protocol_file import WRITE_COLUMNS, read_xlsx_file
from scoring.exports import XLSX, xlsx
from scoring.exports.listings import RoundResultsExportTable, round_result_rows, standings_table
from scoring.exports.xlsx import sheet_name
from scoring.selectors import competition_results, competition_standings, round_results
from scoring.services import match_import_deals
from tests import factories as f


def open_workbook(content: bytes):
    return load_workbook(io.BytesIO(content))


# -- the one sheet writer -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Omgång 1", "Omgång 1"),
        ("Results [round 3]: A/B*?", "Results -round 3-- A-B--"),
        ("'quoted'", "quoted"),
        ("x" * 40, "x" * 31),
        ("", "Sheet"),
    ],
)
def test_sheet_names_are_what_excel_accepts(title, expected, english):
    assert sheet_name(title) == expected


def test_sheet_names_are_unique_within_31_characters(english):
    taken = ["Omgång 1", "A" * 31]
    assert sheet_name("omgång 1", taken) == "omgång 1 (2)"
    assert sheet_name("A" * 40, taken) == "A" * 27 + " (2)"


def test_writer_makes_a_bold_frozen_header_numbers_as_numbers_and_fitted_widths(db):
    workbook = xlsx.new_workbook()
    rows = [["team", "points", "a rather long header"], ["Åkarp", 5500, 0.5], ["Lund", -40, None]]
    xlsx.write_sheet(workbook, "Tabell", rows, heading=[["Skåneserien"], []])

    sheet = open_workbook(xlsx.save(workbook))["Tabell"]

    assert sheet["A1"].value == "Skåneserien" and sheet["A1"].font.b
    assert [cell.value for cell in sheet[3]] == ["team", "points", "a rather long header"]
    assert all(cell.font.b for cell in sheet[3])
    assert sheet.freeze_panes == "A4"
    assert sheet["B4"].value == 5500 and sheet["B4"].data_type == "n"
    assert sheet["C4"].value == 0.5 and sheet["B5"].value == -40
    assert sheet["C5"].value is None
    assert sheet.column_dimensions["C"].width >= len("a rather long header")
    assert sheet.column_dimensions["A"].width < sheet.column_dimensions["C"].width


def test_export_tables_give_the_spreadsheet_numbers(full_round, english):
    """django-tables2's as_values gives each cell's value: numbers as numbers (the rank too, and the
    difference unsigned), the whole names as headings, None for an empty cell."""
    competition = full_round["competition"]
    f.make_result(competition, f.make_team("Åby"), f.make_team("Öja"), 4000, 4000, round_number=2, table=None)
    standings = list(standings_table(competition, competition_standings(competition)).as_values())
    results = [
        list(RoundResultsExportTable(round_result_rows(round_results(round_))).as_values())
        for round_ in competition.rounds.order_by("number")
    ]

    assert standings[0] == [
        "Rank", "Team", "Played", "Won", "Drawn", "Lost", "Match points", "Card points for",
        "Card points against", "Difference",
    ]
    assert len(standings) > 1
    assert all(isinstance(value, (int, float)) for row in standings[1:] for value in (row[0], *row[2:]))
    assert any(row[-1] < 0 for row in standings[1:])
    draw = results[1][1]
    assert draw[0] is None and draw[3:7] == [4000, 4000, 0.5, 0.5]


def test_competition_results_are_each_rounds_results_in_one_query(full_round, django_assert_num_queries, english):
    competition = full_round["competition"]
    competition.requires_confirmation = True
    competition.save()
    f.make_result(competition, f.make_team(), f.make_team(), round_number=2, status="submitted")
    rounds = list(competition.rounds.order_by("number"))

    with django_assert_num_queries(1):
        grouped = competition_results(competition)
        rows = {number: round_result_rows(grouped[round_.pk]) for number, round_ in enumerate(rounds, 1)}

    for number, round_ in enumerate(rounds, 1):
        assert rows[number] == round_result_rows(round_results(round_))
    assert rows[2][0]["status"].endswith(", preliminary")


# -- documents ----------------------------------------------------------------------------------


def test_standings_workbook_has_the_competition_header_and_the_table(played, english):
    filename, content_type, content = xlsx.standings_xlsx(played["competition"])

    assert content_type == XLSX and filename.endswith(".xlsx")
    workbook = open_workbook(content)
    assert workbook.sheetnames == ["Standings"]
    sheet = workbook["Standings"]
    assert sheet["A1"].value == "Skåneserien 2026/27"
    assert sheet["A2"].value == "Standings"
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    header_index = values.index(
        ["Rank", "Team", "Played", "Won", "Drawn", "Lost", "Match points", "Card points for",
         "Card points against", "Difference"]
    )
    assert sheet.freeze_panes == f"A{header_index + 2}"
    assert values[header_index + 1] == [1, "Hemmalaget", 1, 1, 0, 0, 1, 5500, 3720, 1780]
    assert values[header_index + 2] == [2, "Bortalaget", 1, 0, 0, 1, 0, 3720, 5500, -1780]


def test_difference_only_competition_exports_the_difference(db, english):
    competition = f.make_competition(points_key="fi-liitto")
    f.make_result(competition, f.make_team("Alfa"), f.make_team("Beta"), 5100, 3000)

    sheet = open_workbook(xlsx.standings_xlsx(competition).content).active
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]

    assert ["Rank", "Team", "Played", "Won", "Drawn", "Lost", "Match points", "Difference"] in rows
    assert [1, "Alfa", 1, 1, 0, 0, 2, 2100] in rows


def test_round_results_workbook(full_round, english):
    content = xlsx.round_results_xlsx(full_round["round"]).content
    sheet = open_workbook(content)["Round 1"]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]

    assert [1, "Hemmalaget", "Bortalaget", 5500, 3720, 1, 0, "Confirmed"] in rows
    assert [2, "Östra lagen", "Ängelholm", None, None, None, None, "Scheduled"] in rows


def test_match_protocol_workbook_imports_again_to_the_same_deals(played):
    match = played["match"]
    content = xlsx.match_protocol_xlsx(match).content

    entries = read_xlsx_file(content).deals  # the first sheet, as `protocol import` reads it
    stored = [deal_to_entry(deal) for deal in match.deals.order_by("number")]
    protocol_fields = ("cards", "natural", "mixed", "red3", "penalty")
    assert len(entries) == len(stored) == 8
    for imported, original in zip(entries, stored):
        assert (imported.number, imported.out, imported.concealed, imported.effective_end) == (
            original.number, original.out, original.concealed, original.effective_end,
        )
        for side in ("home", "away"):
            assert imported.melded(side) == original.melded(side)
            for name in protocol_fields:
                assert getattr(imported.side(side), name) == getattr(original.side(side), name)
    # The written minimums, scores and totals are the engine's: the file checks without an error.
    state = replay(match.rules, entries)
    assert state.errors == 0 and (state.home_total, state.away_total) == (5500, 3720)

    # And a secretary can import it into another match.
    other = f.make_match(competition=match.competition, home=match.home_team, away=match.away_team, table=2)
    other = match_import_deals(
        match=other, user=played["secretary"], entries=entries, expected_version=None
    )
    assert (other.deal_count, other.home_total, other.away_total) == (8, 5500, 3720)


def test_match_protocol_workbook_has_the_match_facts(played, english):
    workbook = open_workbook(xlsx.match_protocol_xlsx(played["match"]).content)

    assert workbook.sheetnames == ["Protocol", "Match"]
    assert [cell.value for cell in workbook["Protocol"][1]] == list(WRITE_COLUMNS)
    facts = {row[0].value: row[1].value for row in workbook["Match"].iter_rows(min_row=2)}
    assert facts["Home team"] == "Hemmalaget" and facts["Home total"] == 5500
    assert facts["Home match points"] == 1 and facts["How the match ended"] == "5000 reached"


def test_competition_workbook_has_standings_rounds_and_every_deal(full_round, english):
    competition = full_round["competition"]
    f.make_round(competition, 2)

    workbook = open_workbook(xlsx.competition_xlsx(competition).content)

    assert workbook.sheetnames == ["Standings", "Round 1", "Round 2", "Figures", "Records", "Deals"]
    deals = workbook["Deals"]
    rows = [[cell.value for cell in row] for row in deals.iter_rows()]
    assert rows[0] == ["match", "round", "table", "home_team", "away_team", *WRITE_COLUMNS]
    assert len(rows) == 1 + 8
    match = full_round["match"]
    first = dict(zip(rows[0], rows[1]))
    assert first["match"] == match.pk and first["round"] == 1 and first["home_team"] == "Hemmalaget"
    assert (first["deal"], first["home_cards"], first["home_natural"], first["out"]) == (1, 485, 2, "home")
    assert (first["home_score"], first["home_total"], first["away_total"]) == (1885, 1885, -40)
    assert (first["home_melded"], first["away_melded"], first["end"]) == ("yes", "no", "out")
    last = dict(zip(rows[0], rows[-1]))
    assert (last["deal"], last["home_total"], last["away_total"]) == (8, 5500, 3720)
    assert deals.freeze_panes == "A2"


@pytest.mark.slow  # a real LibreOffice, a few seconds
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_the_competition_workbook(full_round, tmp_path, english):
    source = tmp_path / "competition.xlsx"
    source.write_bytes(xlsx.competition_xlsx(full_round["competition"]).content)

    result = subprocess.run(
        [
            "soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/lo-profile",
            "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", str(tmp_path / "out"),
            str(source),
        ],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    converted = Path(tmp_path / "out" / "competition.csv")
    assert converted.exists(), result.stdout + result.stderr
    text = converted.read_text(encoding="utf-8")
    assert '"Skåneserien 2026/27"' in text  # the first sheet: the standings
    # Text quoted, numbers not: LibreOffice read the numbers as numbers.
    assert '1,"Hemmalaget",1,1,0,0,1,5500,3720,1780' in text
