"""A protocol upload is read once, streaming, and refused as soon as it goes beyond a protocol's
bounds (rows, columns, cells), however small the file: a few dozen kB may unpack to millions of
cells. A formula cell is refused even with a saved value. (How long and how much memory the
refusal takes is measured in tests/perf/test_upload_bench.py, not asserted here.)"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.engine.protocol_file import MAX_CELLS, MAX_COLUMNS, WRITE_COLUMNS, ProtocolFileError, read_protocol
from tests import factories as f
from tests.production.hostile_files import xlsx_bytes

from .upload_files import empty_cells, formula_with_saved_value, one_wide_row


def refusal(data: bytes) -> ProtocolFileError:
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(data, "p.xlsx")
    return info.value


def test_a_small_file_of_millions_of_empty_cells_is_refused():
    data = empty_cells()
    assert len(data) < 120 * 1024
    assert refusal(data).code == "too-large"


def test_a_small_file_with_one_row_of_two_million_cells_is_refused():
    data = one_wide_row()
    assert len(data) < 120 * 1024
    assert refusal(data).code == "too-large"


def test_a_formula_with_a_saved_value_is_refused_and_named():
    error = refusal(formula_with_saved_value())
    assert (error.code, error.line, error.column) == ("formula", 2, "home_cards")


def test_a_value_far_to_the_right_is_a_value_without_a_column():
    far = [None] * (MAX_COLUMNS + 10)
    far[:3], far[-1] = [1, 5, 0], 7
    error = refusal(xlsx_bytes([("deal", "home_cards", "away_cards"), far]))
    assert (error.code, error.line) == ("too-many-values", 2)


def test_the_largest_protocol_is_still_read():
    """A thousand deals in every column of the protocol file: well inside the bounds."""
    row = {name: 0 for name in WRITE_COLUMNS}
    row.update(home_melded="no", away_melded="no", out="", concealed="", end="", home_min=50, away_min=50)
    rows = [WRITE_COLUMNS, *([{**row, "deal": n}[name] for name in WRITE_COLUMNS] for n in range(1, 1001))]
    assert len(rows) * len(WRITE_COLUMNS) < MAX_CELLS
    deals = read_protocol(xlsx_bytes(rows), "p.xlsx")
    assert len(deals) == 1000


@pytest.mark.django_db
def test_the_upload_page_refuses_a_huge_sheet_with_a_message_and_saves_nothing(client):
    setup = f.protocol_setup()
    match = setup["match"]
    client.force_login(setup["secretary"])
    url = reverse("scoring:match-protocol-upload", args=[match.pk])
    response = client.post(
        url,
        {"version": match.version, "file": SimpleUploadedFile("protokoll.xlsx", one_wide_row())},
        HTTP_ACCEPT_LANGUAGE="sv",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Filen kunde inte läsas. Inget sparades." in page
    assert "Filen är för stor för ett protokoll." in page
    match.refresh_from_db()
    assert match.deal_count == 0
