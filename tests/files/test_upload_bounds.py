"""A protocol upload is read once, streaming, and refused as soon as it goes beyond a protocol's
bounds (zip methods, bytes, XML elements, depth, one token's length, rows, columns, cells), however
small the file: a few dozen kB may unpack to a gigabyte or to millions of elements. A formula cell
is refused even with a saved value.

The bound for every hostile file: refused or accepted within 1 s and 200 MB. It is asserted in this
process on what the reader did (bytes unpacked, elements parsed), on the peak of memory allocated
(tracemalloc sees the decompressors and expat too) and on CPU time, which a loaded machine does not
stretch as it does the wall clock. What the upload page says of such a file is
tests/views/test_upload_bounds_page.py."""

from __future__ import annotations

import pytest

from scoring.files.protocol_file import (
    MAX_FILE_BYTES,
    WRITE_COLUMNS,
    XLSX_BOUNDS,
    ProtocolFileError,
    read_protocol,
)
from scoring.files import xlsx
from tests.support import upload_files
from tests.support.hostile_files import READ_PARTS, xlsx_bytes
from tests.support.upload_files import (
    BOUND_BYTES, BOUND_SECONDS, HOSTILE_WORKBOOKS, empty_cells, formula_with_saved_value, hostile_workbook, one_wide_row,
    row_number_of_digits,
)


def cost(read):
    """(what `read()` raised or returned, CPU seconds, peak bytes allocated while it ran)."""
    return upload_files.cost(read, ProtocolFileError)


def refusal(data: bytes) -> ProtocolFileError:
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(data, "p.xlsx")
    return info.value


@pytest.mark.parametrize("name", sorted(HOSTILE_WORKBOOKS))
def test_a_hostile_workbook_is_refused_within_1_s_and_200_mb(name):
    data = hostile_workbook(name)
    assert len(data) <= MAX_FILE_BYTES  # it passes the upload limit: the reader must refuse it

    error, seconds, peak = cost(lambda: read_protocol(data, "p.xlsx"))

    assert isinstance(error, ProtocolFileError) and error.code == HOSTILE_WORKBOOKS[name][1]
    assert peak < BOUND_BYTES, f"{peak / 2**20:.0f} MB"
    assert seconds < BOUND_SECONDS, f"{seconds:.2f} s"


def read_first_sheet(data: bytes) -> xlsx.Workbook:
    """The reader after reading (or refusing) the first sheet, with what reading cost."""
    book = xlsx.Workbook(data, XLSX_BOUNDS)
    try:
        book.rows(book.sheets()[0])
    except xlsx.WorkbookError:
        pass
    return book


@pytest.mark.parametrize("name", ["rels-bzip2", "rels-lzma"])
def test_a_part_packed_with_another_method_than_deflate_is_never_unpacked(name):
    book = read_first_sheet(hostile_workbook(name))
    assert book.bytes_read == 0


def test_tiny_elements_in_every_part_stop_at_the_element_bound():
    """40 MB of <x/> in five parts: reading stops within a chunk of the first 200 000 elements."""
    book = read_first_sheet(hostile_workbook("tiny-elements-in-every-part"))
    assert book.elements_read == XLSX_BOUNDS.elements + 1
    assert book.bytes_read < 4 * XLSX_BOUNDS.elements + 2 * xlsx.CHUNK


def test_deep_nesting_stops_at_the_depth_bound():
    book = read_first_sheet(hostile_workbook("deeply-nested"))
    assert book.elements_read < 2 * XLSX_BOUNDS.depth + 20
    assert book.bytes_read <= 4 * xlsx.CHUNK


def test_one_long_tag_is_refused_before_expat_hands_it_over():
    book = read_first_sheet(hostile_workbook("one-tag-of-attributes"))
    assert book.elements_read < 60  # the parts before the sheet; the tag never came
    assert book.bytes_read <= XLSX_BOUNDS.token_bytes + 2 * xlsx.CHUNK


def test_a_row_number_of_many_digits_is_not_repeated():
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(row_number_of_digits(4200), "p.xlsx")
    assert (info.value.code, info.value.line) == ("too-many-rows", None)
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(row_number_of_digits(5), "p.xlsx")
    assert (info.value.code, info.value.line) == ("too-many-rows", 99999)


def test_the_issue_files_build_as_described():
    """Control: each hostile file is what its name says (a bound test that passes on a harmless
    file proves nothing)."""
    import io
    import zipfile

    methods = {info.filename: info.compress_type for info in zipfile.ZipFile(io.BytesIO(hostile_workbook("rels-bzip2"))).infolist()}
    assert methods["_rels/.rels"] == zipfile.ZIP_BZIP2
    archive = zipfile.ZipFile(io.BytesIO(hostile_workbook("tiny-elements-in-every-part")))
    assert all(archive.getinfo(part).file_size > 7_900_000 for part in READ_PARTS)
    assert archive.read("xl/workbook.xml").count(b"<x/>") == 1_975_000


def test_a_workbook_just_inside_the_element_bound_is_read_within_1_s_and_200_mb():
    """The other side of the bound: elements a protocol does not use, just fewer than the bound in
    all, spread over every part read. Accepted, and as cheap as the bound promises."""
    from tests.support.hostile_files import GOOD_ROWS, READ_PARTS, patch_xlsx, with_shared_strings

    filler = b"<x/>" * ((XLSX_BOUNDS.elements - 100) // len(READ_PARTS))
    data = with_shared_strings(xlsx_bytes(GOOD_ROWS))
    for part in READ_PARTS:
        data = patch_xlsx(data, part, lambda xml: xml[: xml.rindex(b"</")] + filler + xml[xml.rindex(b"</") :])

    deals, seconds, peak = cost(lambda: read_protocol(data, "p.xlsx"))

    assert [deal.home.cards for deal in deals] == [5]
    assert seconds < BOUND_SECONDS and peak < BOUND_BYTES
    assert read_first_sheet(data).elements_read > XLSX_BOUNDS.elements - 100


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
    far = [None] * (XLSX_BOUNDS.max_columns + 10)
    far[:3], far[-1] = [1, 5, 0], 7
    error = refusal(xlsx_bytes([("deal", "home_cards", "away_cards"), far]))
    assert (error.code, error.line) == ("too-many-values", 2)


def test_the_largest_protocol_is_still_read():
    """A thousand deals in every column of the protocol file: well inside the bounds."""
    row = {name: 0 for name in WRITE_COLUMNS}
    row.update(home_melded="no", away_melded="no", out="", concealed="", end="", home_min=50, away_min=50)
    rows = [WRITE_COLUMNS, *([{**row, "deal": n}[name] for name in WRITE_COLUMNS] for n in range(1, 1001))]
    assert len(rows) * len(WRITE_COLUMNS) < XLSX_BOUNDS.max_cells
    data = xlsx_bytes(rows)
    deals, seconds, peak = cost(lambda: read_protocol(data, "p.xlsx"))
    assert len(deals) == 1000
    assert seconds < BOUND_SECONDS and peak < BOUND_BYTES
    book = read_first_sheet(data)
    assert book.elements_read < XLSX_BOUNDS.elements / 3


def test_a_facts_sheet_is_read_within_its_own_bound():
    """The sheet that names the match is read too, at most 100 rows; a longer one is left out."""
    import io

    from openpyxl import Workbook

    def workbook(facts_rows: int) -> bytes:
        book = Workbook()
        book.active.append(["deal", "home_cards", "away_cards"])
        book.active.append([1, 5, 0])
        facts = book.create_sheet("Match")
        for row in range(facts_rows):
            facts.append(["Omgång", row])
        buffer = io.BytesIO()
        book.save(buffer)
        return buffer.getvalue()

    from scoring.files.protocol_file import read_protocol_file

    assert read_protocol_file(workbook(2), "p.xlsx").facts == (("Omgång", 0), ("Omgång", 1))
    long = read_protocol_file(workbook(500), "p.xlsx")
    assert long.facts == () and len(long.deals) == 1
