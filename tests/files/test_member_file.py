"""The member list file (docs/member-file.md): read with the protocol file's bounds and refusals,
every problem named by its row and column, and written so that reading it again gives the same rows.

The hostile files are the protocol upload's own (tests/support/hostile_files.py,
tests/support/upload_files.py): each is refused here too, the workbooks beyond a bound with the same
code and within the same 1 s and 200 MB; and the same attacks made on a member list's shape."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.files.member_file import (
    MAX_FILE_BYTES,
    MemberFileError,
    MemberRow,
    problem_message,
    read_member_file,
    write_csv,
    write_xlsx,
)
from scoring.files.protocol_file import MAX_FILE_BYTES as PROTOCOL_MAX_FILE_BYTES
from scoring.files.protocol_file import ProtocolFileError, read_protocol
from tests.support.hostile_files import HOSTILE_NAMES, SHEET, csv_bytes, hostile_file, patch_xlsx, xlsx_bytes
from tests.support.depth import examples
from tests.support import upload_files
from tests.support.upload_files import BOUND_BYTES, BOUND_SECONDS, HOSTILE_WORKBOOKS, hostile_workbook

# What the protocol reader says of a file that is no text, no workbook or beyond a bound: the
# member reader says the same of it. (A protocol's own columns are an unknown column here, and a
# cell a protocol cannot read as a number may be a member's name: those files are refused for their
# header, or made again below in a member list's shape.)
SAME_CODES = {"not-xlsx", "too-large", "not-text", "encoding", "formula"}
MEMBER_ROWS = [("Namn", "Medlemsnummer", "Födelseår", "E-post"), ("Anna Berg", "12", 1948, "anna@example.se")]


def cost(read):
    """(what `read()` raised or returned, CPU seconds, peak bytes allocated while it ran), as the
    protocol reader's bounds are measured (tests/files/test_upload_bounds.py)."""
    return upload_files.cost(read, MemberFileError)


def refusal(data: bytes, filename: str) -> MemberFileError:
    with pytest.raises(MemberFileError) as info:
        read_member_file(data, filename)
    return info.value


# The workbooks of HOSTILE_WORKBOOKS are measured below; the same bytes are not read twice here.
MEASURED_BELOW = {f"xlsx-{name}" for name in HOSTILE_WORKBOOKS}


@pytest.mark.parametrize("name", [name for name in HOSTILE_NAMES if name not in MEASURED_BELOW])
def test_every_file_the_protocol_upload_refuses_is_refused(name):
    filename, data, code = hostile_file(name)
    with pytest.raises(ProtocolFileError):
        read_protocol(data, filename)

    error = refusal(data, filename)

    if code in SAME_CODES or (code == "too-many-rows" and filename.endswith(".xlsx")):
        assert error.code == code
    with translation.override("sv"):
        message = problem_message(error.problems[0])
    assert message != error.code and " " in message  # a sentence, not a code


@pytest.mark.parametrize("name", sorted(HOSTILE_WORKBOOKS))
def test_a_hostile_workbook_is_refused_with_the_protocols_code_within_1_s_and_200_mb(name):
    data = hostile_workbook(name)
    error, seconds, peak = cost(lambda: read_member_file(data, "medlemmar.xlsx"))
    assert isinstance(error, MemberFileError), error
    assert error.code == HOSTILE_WORKBOOKS[name][1]
    assert peak < BOUND_BYTES and seconds < BOUND_SECONDS


MEMBER_HEADER = "Namn,Medlemsnummer,Födelseår,E-post"


def member_workbook_with(change) -> bytes:
    return patch_xlsx(xlsx_bytes(MEMBER_ROWS), SHEET, change)


# The protocol's hostile shapes made on a member list: name -> (file name, bytes, code).
MEMBER_HOSTILE = {
    "csv-formula-in-name": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "=1+1,12,,"), "formula-like"),
    "csv-hyperlink-in-email": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, 'Anna,12,,"=HYPERLINK(""http://evil.example"",""klicka"")"'), "formula-like"),
    "csv-dde-in-number": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna,\"=cmd|' /C calc'!A0\",,"), "formula-like"),
    "csv-at-sign": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "@SUM(A1),12,,"), "formula-like"),
    "csv-word-for-year": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna,12,nittonhundra,"), "not-a-year"),
    "csv-arabic-digits-year": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna,12,١٩٤٨,"), "not-a-year"),
    "csv-utf16": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna,12,,", encoding="utf-16"), "not-text"),
    "csv-nul-bytes": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna\x00,12,,"), "not-text"),
    "csv-binary": ("m.csv", lambda: bytes(range(256)) * 40, "encoding"),
    "csv-empty": ("m.csv", lambda: b"", "no-header"),
    "csv-only-bom": ("m.csv", lambda: b"\xef\xbb\xbf", "no-header"),
    "csv-1001-members": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, *(f"M {n},{n},," for n in range(1, 1002))), "too-many-rows"),
    "csv-million-blank-lines": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, *([""] * 500_000), "Anna,12,,"), "too-many-rows"),
    "csv-giant-field": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, 'Anna,"' + "9" * 200_000 + '",,'), "csv-syntax"),
    "csv-over-1-mb": ("m.csv", lambda: csv_bytes(MEMBER_HEADER, "Anna,12,,") + b" " * (1024 * 1024), "too-large"),
    "csv-unknown-column": ("m.csv", lambda: csv_bytes(MEMBER_HEADER + ",<script>alert(1)</script>", "Anna,12,,,x"), "unknown-column"),
    "csv-no-name-column": ("m.csv", lambda: csv_bytes("Medlemsnummer,E-post", "12,"), "missing-name-column"),
    "xls-old-excel": ("m.xls", lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 500, "old-excel"),
    "xlsx-formula": ("m.xlsx", lambda: xlsx_bytes([MEMBER_ROWS[0], ("=1+1", "12", 1948, "")]), "formula"),
    "xlsx-formula-with-saved-value": ("m.xlsx", lambda: member_workbook_with(
        lambda xml: xml.replace(b'<c r="C2" t="n"><v>1948</v></c>', b'<c r="C2"><f>1900+48</f><v>1948</v></c>')), "formula"),
    "xlsx-boolean-name": ("m.xlsx", lambda: xlsx_bytes([MEMBER_ROWS[0], (True, "12", 1948, "")]), "not-text-value"),
    "xlsx-decimal-year": ("m.xlsx", lambda: xlsx_bytes([MEMBER_ROWS[0], ("Anna", "12", 1948.5, "")]), "not-a-year"),
    "xlsx-10000-rows": ("m.xlsx", lambda: xlsx_bytes([MEMBER_ROWS[0], *((f"M {n}", str(n)) for n in range(1, 10_001))]), "too-many-rows"),
    "xlsx-zip-bomb": ("m.xlsx", lambda: member_workbook_with(lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b" " * (60 * 1024 * 1024))), "too-large"),
    "xlsx-broken-sheet-xml": ("m.xlsx", lambda: member_workbook_with(lambda xml: xml[:300]), "not-xlsx"),
    "xlsx-truncated": ("m.xlsx", lambda: xlsx_bytes(MEMBER_ROWS)[:500], "not-xlsx"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MEMBER_HOSTILE))
def test_a_hostile_member_list_is_refused_with_its_row_and_column(name):
    filename, make, code = MEMBER_HOSTILE[name]
    error = refusal(make(), filename)
    assert error.code == code
    with translation.override("en"):
        message = problem_message(error.problems[0])
    if error.problems[0].position is not None:
        assert message.startswith("Row "), message
    assert "<script>" not in message or "&lt;" not in message


def test_the_bounds_are_the_protocol_files():
    assert MAX_FILE_BYTES == PROTOCOL_MAX_FILE_BYTES == 1024 * 1024


def test_every_problem_of_the_rows_is_named_in_swedish_and_english():
    data = csv_bytes(
        "Namn;Medlemsnummer;Födelseår;E-post",
        "Anna Berg;12;19x8;anna@example.se",
        ";13;;",
        "=Bo;14;;",
        "Cilla;15;1950;;extra",
    )
    error = refusal(data, "m.csv")
    with translation.override("en"):
        english = [problem_message(problem) for problem in error.problems]
    with translation.override("sv"):
        swedish = [problem_message(problem) for problem in error.problems]
    assert english == [
        "Row 2, column C (Födelseår): “19x8” is not a year; write the birth year alone, for example 1948.",
        "Row 3, column A (Namn): The name is missing.",
        "Row 4, column A (Namn): “=Bo” begins with =, which a spreadsheet takes for a formula; write the value without it.",
        "Row 5, column E: The row has more values than the header has columns.",
    ]
    assert swedish[0].startswith("Rad 2, kolumn C (Födelseår): ")
    assert swedish[3].startswith("Rad 5, kolumn E: ")
    assert all(sv.split(": ", 1)[1] != en.split(": ", 1)[1] for sv, en in zip(swedish, english, strict=True))


def test_the_headings_are_read_in_swedish_and_english_in_any_order_and_case():
    data = csv_bytes("E-MAIL,Year of birth, name ,member number", "bo@example.se,1950,Bo Ek,7")
    (row,) = read_member_file(data, "m.csv").rows
    assert row == MemberRow(2, "Bo Ek", "7", 1950, "bo@example.se")
    data = xlsx_bytes([("Förnamn", "Efternamn", "Medlemsnr"), ("Anna", "Berg", 12), (None, None, None), ("Bo", "Ek", 13.0)])
    member_file = read_member_file(data, "m.xlsx")
    assert [(row.line, row.name, row.member_number) for row in member_file.rows] == [(2, "Anna Berg", "12"), (4, "Bo Ek", "13")]
    assert member_file.fields == ("name", "member_number")


def test_a_title_row_above_the_header_is_a_heading_the_reader_does_not_know():
    error = refusal(csv_bytes("Medlemmar 2026", "Namn;Medlemsnummer"), "m.csv")
    assert (error.code, error.problems[0].line, error.problems[0].position) == ("unknown-column", 1, 1)


MEMBERS = [
    MemberRow(0, "Åsa Öberg", "0012", 1948, "asa@example.se"),
    MemberRow(0, 'Bo "Bosse" Ek; Jr, d.y.', "", None, ""),
    MemberRow(0, "=Cilla", "+46", 1931, "cilla@example.se"),
    MemberRow(0, "Dan Ask", "D-7", None, "dan.ask@example.se"),
]


@pytest.mark.parametrize("language", ["sv", "en"])
@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_written_file_reads_back_as_the_same_members(kind, language):
    data = (write_csv if kind == "csv" else write_xlsx)(MEMBERS, language)
    member_file = read_member_file(data, f"m.{kind}")
    assert [(row.name, row.member_number, row.birth_year, row.email) for row in member_file.rows] == [
        (row.name, row.member_number, row.birth_year, row.email) for row in MEMBERS
    ]
    assert member_file.fields == ("name", "member_number", "birth_year", "email")


def test_a_written_workbook_holds_no_formula_and_keeps_leading_zeros():
    from io import BytesIO

    from openpyxl import load_workbook

    sheet = load_workbook(BytesIO(write_xlsx(MEMBERS, "sv"))).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("Namn", "Medlemsnummer", "Födelseår", "E-post")
    assert rows[1] == ("Åsa Öberg", "0012", 1948, "asa@example.se")
    assert rows[3][0] == "'=Cilla" and all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


# A cell as a person types it: printable text on one line (what the player form allows), without
# the spaces around it and the runs of spaces that reading makes one.
_CELL_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), max_size=40
).map(lambda text: " ".join(text.split()))
_MEMBERS = st.lists(
    st.builds(
        MemberRow,
        st.just(0),
        _CELL_TEXT.filter(bool),
        _CELL_TEXT,
        st.one_of(st.none(), st.integers(1900, 2026)),
        st.from_regex(r"[a-z0-9.]{1,12}@[a-z]{1,8}\.se", fullmatch=True) | st.just(""),
    ),
    max_size=8,
)


@settings(max_examples=examples(500), deadline=None)
@example(members=[MemberRow(0, "'=x", "''1", None, "")], kind="csv", language="sv")
@example(members=[MemberRow(0, "'Anna'", "-", 1950, "")], kind="xlsx", language="en")
@given(members=_MEMBERS, kind=st.sampled_from(["csv", "xlsx"]), language=st.sampled_from(["sv", "en"]))
def test_any_members_written_read_back_the_same(members, kind, language):
    data = (write_csv if kind == "csv" else write_xlsx)(members, language)
    read = read_member_file(data, f"m.{kind}").rows
    assert [(row.name, row.member_number, row.birth_year, row.email) for row in read] == [
        (row.name, row.member_number, row.birth_year, row.email) for row in members
    ]
