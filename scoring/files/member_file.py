"""The member list file: a club's members as CSV or as the first sheet of an xlsx workbook
(docs/member-file.md), read and written.

One row per member under a header row: the name (or a first and a last name), the member number,
the birth year and the e-mail address; only the name's column is required, and the columns may come
in any order, headed in Swedish or English. The file is read within the protocol file's bounds
(scoring.files.protocol_file: bytes, rows, lines; an xlsx workbook through scoring.files.xlsx) and
refused as the protocol file is: a file beyond a bound, one that is not text or not a workbook, a
formula cell. Whatever cannot be read is a MemberFileProblem with a stable code, the line and the
column; all problems of the rows are gathered (up to MAX_PROBLEMS) so that one upload lists them.

What the values must satisfy as a player's (the length of a name, an e-mail address) is the model's
to say; reading only turns cells into text and numbers.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _, gettext_lazy

from . import xlsx
from .protocol_file import MAX_FILE_BYTES, MAX_LINES, MAX_ROWS, XLSX_BOUNDS
from .text import csv_text

__all__ = [
    "FIELDS",
    "MAX_FILE_BYTES",
    "MAX_ROWS",
    "MemberFile",
    "MemberFileError",
    "MemberFileProblem",
    "MemberRow",
    "column_letter",
    "member_file_rows",
    "problem_message",
    "read_member_file",
    "write_csv",
    "write_xlsx",
]

# The fields a member row holds, in the order a written file puts them.
FIELDS = ("name", "member_number", "birth_year", "email")
# A name may also come as two columns, as many member registers keep it.
NAME_PARTS = ("first_name", "last_name")
# The headings read, in any letter case (spaces and a colon around them ignored).
HEADINGS: dict[str, tuple[str, ...]] = {
    "name": ("name", "namn", "full name", "fullständigt namn", "medlem"),
    "first_name": ("first_name", "first name", "förnamn", "fornamn"),
    "last_name": ("last_name", "last name", "surname", "efternamn"),
    "member_number": (
        "member_number", "member number", "member no", "medlemsnummer", "medlemsnr", "medlems-nr",
        "medl.nr", "medl nr", "medlnr",
    ),
    "birth_year": ("birth_year", "birth year", "year of birth", "födelseår", "fodelsear", "född"),
    "email": ("email", "e-mail", "e-mail address", "email address", "e-post", "epost", "e-postadress", "mejl", "mail"),
}  # fmt: skip
_FIELD_OF_HEADING = {heading: name for name, headings in HEADINGS.items() for heading in headings}
# The headings a written file uses, in the language of the page it was asked from.
WRITTEN_HEADINGS = {
    "sv": ("Namn", "Medlemsnummer", "Födelseår", "E-post"),
    "en": ("Name", "Member number", "Birth year", "E-mail"),
}
# A file with more problems than this is far from a member list: the first ones are enough to act on.
MAX_PROBLEMS = 50
# A spreadsheet program takes a cell that begins with one of these for a formula when the file is
# opened (a CSV file has no other way to say "text"): such a cell is refused when read, and written
# after an apostrophe, which the reader drops again.
FORMULA_STARTS = ("=", "+", "-", "@")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class MemberRow:
    """One member as the file gives them; `line` is the row's number in the file (1 = the first)."""

    line: int
    name: str
    member_number: str = ""
    birth_year: int | None = None
    email: str = ""


@dataclass(frozen=True)
class Column:
    """A field the file gives: its heading as written and its place (1 = the first column)."""

    field: str
    heading: str
    position: int


@dataclass(frozen=True)
class MemberFile:
    rows: tuple[MemberRow, ...]
    # The fields the file gives (a first and a last name count as the name), in the file's order.
    columns: tuple[Column, ...]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(column.field for column in self.columns)


@dataclass(frozen=True)
class MemberFileProblem:
    """Why (part of) a file cannot be read: a stable `code`, the line and the column (its heading
    as written and its place), and the values the message repeats."""

    code: str
    line: int | None = None
    heading: str | None = None
    position: int | None = None
    params: dict[str, Any] = field(default_factory=dict)


class MemberFileError(Exception):
    """The file cannot be read; `problems` says why, row by row (`code` is the first one's)."""

    def __init__(self, problems: Sequence[MemberFileProblem]):
        super().__init__(problems[0].code)
        self.problems = tuple(problems)

    @property
    def code(self) -> str:
        return self.problems[0].code


def _refuse(code: str, line: int | None = None, **params: Any) -> MemberFileError:
    return MemberFileError([MemberFileProblem(code, line, params=params)])


# -- the words of the problems -------------------------------------------------------------------

PROBLEM_TEXTS = {
    "too-large": gettext_lazy("The file is larger than a member list can be (1 MB)."),
    "too-many-rows": gettext_lazy("More than %(limit)s members; split the list into files of at most %(limit)s."),
    "encoding": gettext_lazy("The file is not text in UTF-8 or Windows encoding."),
    "not-text": gettext_lazy("The file is not a CSV text file."),
    "old-excel": gettext_lazy("The file is an old Excel workbook (.xls): save it as .xlsx or as CSV and choose that file."),
    "not-xlsx": gettext_lazy("The file is not a readable Excel workbook (xlsx)."),
    "csv-syntax": gettext_lazy("The CSV text is malformed; save the spreadsheet as CSV again and choose that file."),
    "no-header": gettext_lazy("The file has no header row: the first row names the columns (Name, Member number, Birth year, E-mail)."),
    "empty-column-name": gettext_lazy("The column has no heading."),
    "unknown-column": gettext_lazy("Unknown column “%(heading)s”; the columns are Name, Member number, Birth year and E-mail."),
    "duplicate-column": gettext_lazy("The column appears twice in the header."),
    "missing-name-column": gettext_lazy("The header has no column for the name (Name, or First name and Last name)."),
    "name-twice": gettext_lazy("The header has both a name column and first and last names: keep one of them."),
    "too-many-values": gettext_lazy("The row has more values than the header has columns."),
    "formula": gettext_lazy("The cell holds a formula (%(value)s); write the value itself instead."),
    "formula-like": gettext_lazy("“%(value)s” begins with %(first)s, which a spreadsheet takes for a formula; write the value without it."),
    "missing-name": gettext_lazy("The name is missing."),
    "not-a-year": gettext_lazy("“%(value)s” is not a year; write the birth year alone, for example 1948."),
    "not-text-value": gettext_lazy("“%(value)s” is not a text."),
}


def column_letter(position: int) -> str:
    """A column's place as a spreadsheet names it: 1 -> A, 28 -> AB."""
    letters = ""
    while position > 0:
        position, rest = divmod(position - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def where(line: int | None, heading: str | None, position: int | None) -> str:
    """'Row 12, column C (E-post)': where in the file, as the spreadsheet shows it."""
    if line is None:
        return ""
    if position is None:
        return _("Row %(line)s") % {"line": line}
    if heading:
        return _("Row %(line)s, column %(letter)s (%(heading)s)") % {
            "line": line, "letter": column_letter(position), "heading": heading[:40],
        }  # fmt: skip
    return _("Row %(line)s, column %(letter)s") % {"line": line, "letter": column_letter(position)}


def problem_message(problem: MemberFileProblem) -> str:
    """The problem as a sentence in the reader's language, naming the row and the column."""
    template = PROBLEM_TEXTS.get(problem.code)
    text = problem.code if template is None else str(template) % problem.params if problem.params else str(template)
    place = where(problem.line, problem.heading, problem.position)
    return f"{place}: {text}" if place else text


# -- reading --------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    text = csv_text(data)
    if text is None:
        raise _refuse("encoding")
    return text


def _is_blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _heading_field(cell: Any) -> str | None:
    text = _SPACES.sub(" ", str(cell)).strip().rstrip(":").strip().casefold()
    return _FIELD_OF_HEADING.get(text)


def _header(line: int, cells: Sequence[Any]) -> dict[str, Column]:
    """The fields of a header row, each with its column; refused with the column named."""
    cells = list(cells)
    while cells and _is_blank(cells[-1]):
        cells.pop()
    found: dict[str, Column] = {}
    for position, cell in enumerate(cells, start=1):
        if _is_blank(cell):
            raise MemberFileError([MemberFileProblem("empty-column-name", line, None, position)])
        heading = str(cell).strip()[:40]
        name = _heading_field(cell)
        if name is None:
            raise MemberFileError([MemberFileProblem("unknown-column", line, heading, position, {"heading": heading})])
        if name in found:
            raise MemberFileError([MemberFileProblem("duplicate-column", line, heading, position)])
        found[name] = Column(name, heading, position)
    if "name" in found and any(part in found for part in NAME_PARTS):
        raise _refuse("name-twice", line)
    if "name" not in found and not all(part in found for part in NAME_PARTS):
        raise _refuse("missing-name-column", line)
    return found


class _RowReader:
    """Turns one row's cells into a MemberRow, gathering the problems of its cells."""

    def __init__(self, columns: dict[str, Column]):
        self.columns = columns
        self.width = max(column.position for column in columns.values())
        self.problems: list[MemberFileProblem] = []

    def problem(self, code: str, line: int, name: str, **params: Any) -> None:
        column = self.columns[name]
        self.problems.append(MemberFileProblem(code, line, column.heading, column.position, params))

    def cell(self, cells: Sequence[Any], name: str) -> Any:
        column = self.columns.get(name)
        if column is None or column.position > len(cells):
            return None
        return cells[column.position - 1]

    def text(self, cells: Sequence[Any], line: int, name: str) -> str:
        """A text cell: a whole number written as a number is its digits; spaces around it and runs
        of spaces inside are one space."""
        value = self.cell(cells, name)
        if value is None:
            return ""
        if isinstance(value, bool):
            self.problem("not-text-value", line, name, value=str(value))
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        text = _SPACES.sub(" ", str(value)).strip()
        if isinstance(value, str) and text[:1] == "'" and text[1:2] in (*FORMULA_STARTS, "'"):
            return text[1:]  # written so by write_csv: the apostrophe only says "text"
        if text[:1] in FORMULA_STARTS:
            self.problem("formula-like", line, name, value=text[:40], first=text[:1])
            return ""
        return text

    def year(self, cells: Sequence[Any], line: int) -> int | None:
        value = self.cell(cells, "birth_year")
        if _is_blank(value):
            return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value if 0 < value < 10_000 else self.not_a_year(line, value)
        text = str(value).strip()
        if text.isascii() and text.isdigit() and len(text) == 4:
            return int(text)
        return self.not_a_year(line, value)

    def not_a_year(self, line: int, value: Any) -> None:
        self.problem("not-a-year", line, "birth_year", value=str(value)[:40])
        return None

    def __call__(self, line: int, cells: Sequence[Any]) -> MemberRow:
        if "name" in self.columns:
            name = self.text(cells, line, "name")
        else:
            name = " ".join(part for part in (self.text(cells, line, "first_name"), self.text(cells, line, "last_name")) if part)
        if not name and not self.problems_on(line):
            first = "name" if "name" in self.columns else "first_name"
            self.problem("missing-name", line, first)
        return MemberRow(
            line,
            name,
            self.text(cells, line, "member_number"),
            self.year(cells, line),
            self.text(cells, line, "email"),
        )

    def problems_on(self, line: int) -> bool:
        return any(problem.line == line for problem in self.problems)


def _rows_to_members(rows: Iterable[tuple[int, Sequence[Any]]]) -> MemberFile:
    """The members of the rows of a file (line, cells): the first row with a value is the header."""
    iterator = iter(rows)
    columns: dict[str, Column] | None = None
    for line, cells in iterator:
        if line > MAX_LINES:
            raise _refuse("too-many-rows", line, limit=MAX_ROWS)
        if not all(map(_is_blank, cells)):
            columns = _header(line, cells)
            break
    if columns is None:
        raise _refuse("no-header", 1)
    read_row = _RowReader(columns)
    members: list[MemberRow] = []
    for line, cells in iterator:
        if line > MAX_LINES:
            raise _refuse("too-many-rows", line, limit=MAX_ROWS)
        if all(map(_is_blank, cells)):
            continue
        if len(members) >= MAX_ROWS:
            raise _refuse("too-many-rows", line, limit=MAX_ROWS)
        if len(cells) > read_row.width and not all(map(_is_blank, cells[read_row.width :])):
            read_row.problems.append(MemberFileProblem("too-many-values", line, None, read_row.width + 1))
        else:
            members.append(read_row(line, cells))
        if len(read_row.problems) >= MAX_PROBLEMS:
            break
    if read_row.problems:
        raise MemberFileError(read_row.problems[:MAX_PROBLEMS])
    given = {"name" if name in NAME_PARTS else name: column for name, column in columns.items()}
    if "name" not in columns:
        first = columns["first_name"]
        given["name"] = Column("name", first.heading, first.position)
    ordered = tuple(sorted(given.values(), key=lambda column: column.position))
    return MemberFile(tuple(members), ordered)


def _read_csv(data: bytes) -> MemberFile:
    text = _decode(data).removeprefix("\ufeff")
    if "\x00" in text:
        raise _refuse("not-text")
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    # Spreadsheets set to Swedish write semicolons; commas and tabs are read as well.
    delimiter = max((";", ",", "\t"), key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)

    def rows() -> Iterable[tuple[int, Sequence[Any]]]:
        try:
            for row in reader:
                yield reader.line_num, row
        except csv.Error:
            raise _refuse("csv-syntax", reader.line_num) from None

    return _rows_to_members(rows())


def _read_xlsx(data: bytes) -> MemberFile:
    try:
        rows, _named = xlsx.read_sheets(data, bounds=XLSX_BOUNDS)
    except xlsx.WorkbookError as error:
        params = {"limit": MAX_ROWS} if error.code == "too-many-rows" else {}
        raise _refuse(error.code, error.line, **params) from None
    # A formula's saved value is whatever a program last computed: the cell is refused, as in a
    # protocol (docs/protocol-file.md, "Rows and columns"), before the header is looked at.
    for line, cells in rows:
        for position, value in enumerate(cells, start=1):
            if isinstance(value, xlsx.Formula):
                raise MemberFileError([MemberFileProblem("formula", line, None, position, {"value": value[:40]})])
    return _rows_to_members(rows)


def read_member_file(data: bytes, filename: str = "") -> MemberFile:
    """Read a CSV or xlsx member list, by the file's name or, failing that, its first bytes."""
    if len(data) > MAX_FILE_BYTES:
        raise _refuse("too-large")
    if data[:4] == b"\xd0\xcf\x11\xe0" or filename.lower().endswith(".xls"):
        raise _refuse("old-excel")
    if filename.lower().endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04":
        return _read_xlsx(data)
    return _read_csv(data)


# -- writing --------------------------------------------------------------------------------------


def member_file_rows(members: Iterable[Any], language: str = "sv") -> list[list[Any]]:
    """The rows of a member file, header first, for `members` (anything with the four fields as
    attributes: players, MemberRows), the headings in `language` (Swedish unless English)."""
    headings = WRITTEN_HEADINGS["en" if language.startswith("en") else "sv"]
    rows: list[list[Any]] = [list(headings)]
    for member in members:
        rows.append([
            member.name, member.member_number or "", member.birth_year if member.birth_year is not None else "",
            member.email or "",
        ])  # fmt: skip
    return rows


def _as_text_cell(value: Any) -> Any:
    """A text that a spreadsheet would take for a formula after an apostrophe, and so a text that
    begins with an apostrophe itself (the reader drops one apostrophe before either)."""
    if isinstance(value, str) and value[:1] in (*FORMULA_STARTS, "'"):
        return "'" + value
    return value


def write_csv(members: Iterable[Any], language: str = "sv") -> bytes:
    """The members as CSV: UTF-8 with a byte order mark (so that Excel reads å, ä and ö), the
    cells separated by semicolons in Swedish, as Excel set to Swedish opens them, by commas in
    English."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if not language.startswith("en") else ",", lineterminator="\r\n")
    for row in member_file_rows(members, language):
        writer.writerow([_as_text_cell(value) for value in row])
    return buffer.getvalue().encode("utf-8-sig")


def write_xlsx(members: Iterable[Any], language: str = "sv", sheet_title: str = "") -> bytes:
    """The members as the first sheet of a workbook: member numbers as text (a leading 0 stays),
    birth years as numbers, and no cell a formula whatever it begins with."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    title = sheet_title or ("Members" if language.startswith("en") else "Medlemmar")
    sheet = workbook.create_sheet(title=title[:31])
    for row in member_file_rows(members, language):
        cells = []
        for value in row:
            cell = WriteOnlyCell(sheet, value=_as_text_cell(value) if value != "" else None)
            if isinstance(value, str) and value:
                cell.data_type = "s"  # text, even "=…": openpyxl would write a formula
            cells.append(cell)
        sheet.append(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
