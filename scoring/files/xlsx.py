"""The sheets of an xlsx workbook, read within bounds (pure Python, no Django).

An xlsx file is a zip of XML parts. An upload of a few kB may unpack to a gigabyte, to millions of
XML elements or to millions of nested ones; every step here stops at a bound before the work and the
memory grow with it, and the caller gets a WorkbookError with a stable code.

- **Zip members.** Only stored and deflate members are read (what Excel, LibreOffice and openpyxl
  write): zipfile unpacks bzip2 and LZMA members with no bound on what one read returns, and a
  2 kB bzip2 member unpacks to a gigabyte in one call. A workbook whose members claim to unpack to
  more than `Bounds.claimed_bytes` is refused unread.
- **Bytes.** Each part is read through ZipFile.open() in CHUNK-byte reads (a deflate read returns
  at most what it is asked for), at most `part_bytes` per part and `total_bytes` for every part read.
- **XML.** expat, fed chunk by chunk, through handlers that count every element of every part read
  against `elements` and the nesting against `depth`, and keep only what the sheet reader keeps.
  A document type is refused (so no entities to expand). expat hands over a start tag only once it
  is complete, with all its attributes in one dict (one tag of 8 MB of attributes took 170 MB), so
  a token that expat holds back for longer than `token_bytes` is refused while it grows.
  ElementTree's XMLPullParser is this same expat, but builds an Element for every tag; the handlers
  here keep nothing.
- **Sheets.** Rows numbered beyond `max_line`, more than `max_cells` cells, a value far to the right
  (`max_columns`) and a value longer than `MAX_TEXT` characters are bounded as the rows are read.

Only the parts a sheet needs are read: the package's relationships, the workbook and its
relationships, the shared strings, and the sheets asked for. A formula cell comes back as a
`Formula` (the text of the formula, "=" first), never as the value a program last saved with it.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from xml.parsers import expat

CHUNK = 64 * 1024
# A value longer than this is not a number or a column name; what is kept of it is enough to name it.
MAX_TEXT = 200
# Excel's own limit: column XFD.
_LAST_COLUMN = 16_384
# Row numbers with more digits than this are not a sheet's (Excel stops at 1 048 576): the number
# is refused without being read or repeated.
_ROW_DIGITS = 7
READABLE_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


@dataclass(frozen=True)
class Bounds:
    """What one workbook may cost to read. A protocol of a thousand deals saved by Excel or
    LibreOffice is about 1 MB of sheet XML and 50 000 elements: the bounds leave room for that
    several times over, and a refusal within them takes a fraction of a second."""

    claimed_bytes: int = 50 * 1024 * 1024
    part_bytes: int = 8 * 1024 * 1024
    total_bytes: int = 16 * 1024 * 1024
    elements: int = 200_000
    depth: int = 64
    token_bytes: int = 128 * 1024
    # The first sheet's shape.
    max_line: int = 10_000
    max_columns: int = 64
    max_cells: int = 50_000


BOUNDS = Bounds()


@dataclass(frozen=True)
class WorkbookError(Exception):
    """The workbook cannot be read: `not-xlsx` (not a workbook, or a broken or odd one),
    `too-large` (beyond a bound) or `too-many-rows` (a row numbered beyond `max_line`; `line` is
    its number when it is a sheet's number at all)."""

    code: str
    line: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.code if self.line is None else f"{self.code} (line {self.line})"


class Formula(str):
    """A cell that holds a formula, as "=" and its text: the saved value beside it is whatever a
    program last computed, not what was typed."""


@dataclass(frozen=True)
class Sheet:
    name: str
    part: str


Row = tuple[int, list[Any]]


def _local(name: str) -> str:
    return name[name.rfind("}") + 1 :]


def _ignore(*args: Any) -> None:
    return None


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _rels_name(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _column_index(reference: str) -> int:
    """1 for "A7", 28 for "AB7"; 0 if the reference has no letters."""
    index = 0
    for char in reference:
        if "A" <= char <= "Z":
            index = index * 26 + ord(char) - 64
            if index > _LAST_COLUMN:
                raise WorkbookError("not-xlsx")
        else:
            break
    return index


def _cell_value(kind: str, value: str | None, inline: str | None, strings: list[str]) -> Any:
    """The value of one cell as openpyxl would give it: numbers, text, booleans, dates."""
    if kind == "inlineStr":
        return inline
    if value is None:
        return None
    if kind == "s":
        index = int(value)
        if not 0 <= index < len(strings):
            raise ValueError(value)
        return strings[index]
    if kind in ("str", "e"):
        return value
    if kind == "b":
        return value.strip() in ("1", "true")
    if not value.strip():
        return None
    if kind == "d":
        return datetime.fromisoformat(value.strip())
    if kind in ("n", ""):
        text = value.strip()
        number = float(text)
        if number.is_integer() and "." not in text and "e" not in text.lower():
            return int(text)
        return number
    raise ValueError(kind)


class Workbook:
    """An xlsx file opened for bounded reading. `bytes_read` and `elements_read` say what reading
    has cost so far (every part together)."""

    def __init__(self, data: bytes, bounds: Bounds = BOUNDS):
        self.bounds = bounds
        self.bytes_read = 0
        self.elements_read = 0
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
            members = self.archive.infolist()
        except Exception:  # not a zip, or a broken one
            raise WorkbookError("not-xlsx") from None
        self.members = {info.filename: info for info in members}
        if sum(info.file_size for info in members) > bounds.claimed_bytes:
            raise WorkbookError("too-large")
        self._strings: list[str] | None = None
        self._sheets: tuple[list[Sheet], str | None] | None = None

    def close(self) -> None:
        self.archive.close()

    def __enter__(self) -> Workbook:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- one part ---------------------------------------------------------------------------

    def parse(
        self,
        name: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] = _ignore,
        text: Callable[[str], None] | None = None,
    ) -> None:
        """Stream the part `name` through `start(tag, attributes)`, `end(tag)` and `text(data)`,
        tags given as "namespace}local" (see _local), within the bounds."""
        info = self.members.get(name)
        if info is None:
            raise WorkbookError("not-xlsx")
        if info.compress_type not in READABLE_METHODS or info.flag_bits & 0x1:  # 0x1: encrypted
            raise WorkbookError("not-xlsx")
        bounds = self.bounds
        parser = expat.ParserCreate(namespace_separator="}")
        depth = 0
        # Where expat last reported something: a token it holds back grows the distance from there.
        reported = 0

        def refuse(*args: Any) -> None:
            raise WorkbookError("not-xlsx")

        def on_start(tag: str, attributes: dict[str, str]) -> None:
            nonlocal depth, reported
            self.elements_read += 1
            depth += 1
            if self.elements_read > bounds.elements or depth > bounds.depth:
                raise WorkbookError("too-large")
            reported = parser.CurrentByteIndex
            start(tag, attributes)

        def on_end(tag: str) -> None:
            nonlocal depth, reported
            depth -= 1
            reported = parser.CurrentByteIndex
            end(tag)

        def noted(*args: Any) -> None:
            nonlocal reported
            reported = parser.CurrentByteIndex

        def on_text(data: str) -> None:
            nonlocal reported
            reported = parser.CurrentByteIndex
            if text is not None:
                text(data)

        parser.StartDoctypeDeclHandler = refuse
        parser.EntityDeclHandler = refuse
        parser.StartElementHandler = on_start
        parser.EndElementHandler = on_end
        parser.CharacterDataHandler = on_text
        parser.CommentHandler = noted
        parser.ProcessingInstructionHandler = noted
        parser.buffer_text = True
        unpacked = 0
        try:
            with self.archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    unpacked += len(chunk)
                    self.bytes_read += len(chunk)
                    if unpacked > bounds.part_bytes or self.bytes_read > bounds.total_bytes:
                        raise WorkbookError("too-large")
                    parser.Parse(chunk, False)
                    if unpacked - reported > bounds.token_bytes:
                        raise WorkbookError("too-large")
            parser.Parse(b"", True)
        except WorkbookError:
            raise
        except Exception:  # a broken zip member or malformed XML: not a workbook we can read
            raise WorkbookError("not-xlsx") from None

    def relationships(self, name: str) -> dict[str, tuple[str, str]]:
        """Id -> (type, target) of a relationships part (none if the part is missing)."""
        found: dict[str, tuple[str, str]] = {}
        if name not in self.members:
            return found

        def start(tag: str, attributes: dict[str, str]) -> None:
            if _local(tag) == "Relationship":
                found[attributes.get("Id", "")] = (attributes.get("Type", ""), attributes.get("Target", ""))

        self.parse(name, start)
        return found

    # -- the workbook's sheets ----------------------------------------------------------------

    def sheets(self) -> list[Sheet]:
        """The sheets in the workbook's order, each with its part."""
        return self._read_sheets()[0]

    def _read_sheets(self) -> tuple[list[Sheet], str | None]:
        if self._sheets is not None:
            return self._sheets
        workbook = next(
            (_resolve("", target) for kind, target in self.relationships("_rels/.rels").values()
             if kind.endswith("/officeDocument")),
            "xl/workbook.xml",
        )  # fmt: skip
        listed: list[tuple[str, str]] = []

        def start(tag: str, attributes: dict[str, str]) -> None:
            if _local(tag) == "sheet":
                ids = [value for key, value in attributes.items() if "}" in key and _local(key) == "id"]
                listed.append((attributes.get("name", "")[:MAX_TEXT], ids[0] if ids else ""))

        self.parse(workbook, start)
        relationships = self.relationships(_rels_name(workbook))
        sheets = [
            Sheet(name, _resolve(workbook, relationships[rid][1]))
            for name, rid in listed
            if rid in relationships
        ]
        if not listed or not sheets or listed[0][1] not in relationships:
            raise WorkbookError("not-xlsx")
        shared = next(
            (_resolve(workbook, target) for kind, target in relationships.values() if kind.endswith("/sharedStrings")),
            None,
        )
        self._sheets = sheets, shared if shared in self.members else None
        return self._sheets

    def shared_strings(self) -> list[str]:
        """The shared strings (read once, when a sheet is first read), each cut to MAX_TEXT."""
        if self._strings is not None:
            return self._strings
        strings: list[str] = []
        name = self._read_sheets()[1]
        parts: list[str] = []
        in_t = False
        phonetic = size = 0
        limit = self.bounds.max_cells

        def start(tag: str, attributes: dict[str, str]) -> None:
            nonlocal in_t, phonetic, size
            tag = _local(tag)
            if tag == "si":
                parts.clear()
                size = 0
            elif tag == "t":
                in_t = True
            elif tag == "rPh":  # a phonetic guide, not part of the text
                phonetic += 1

        def end(tag: str) -> None:
            nonlocal in_t, phonetic
            tag = _local(tag)
            if tag == "si":
                if len(strings) >= limit:
                    raise WorkbookError("too-large")
                strings.append("".join(parts))
            elif tag == "t":
                in_t = False
            elif tag == "rPh":
                phonetic -= 1

        def text(data: str) -> None:
            nonlocal size
            if in_t and not phonetic and size < MAX_TEXT:
                parts.append(data[: MAX_TEXT - size])
                size += len(data)

        if name is not None:
            self.parse(name, start, end, text)
        self._strings = strings
        return strings

    def rows(self, sheet: Sheet, *, max_line: int | None = None) -> list[Row]:
        """The sheet's rows, (line, cell values), line 1 first and empty rows left out. Refused as
        soon as the sheet has a row numbered beyond `max_line` (Bounds.max_line by default), more
        cells than `max_cells`, or rows or cells out of order. A value beyond `max_columns` is kept
        once, just beyond them, so that the caller can refuse a value without a column."""
        bounds = self.bounds
        max_line = bounds.max_line if max_line is None else max_line
        max_columns, max_cells = bounds.max_columns, bounds.max_cells
        strings = self.shared_strings()
        rows: list[Row] = []
        row: list[Any] = []
        text: list[str] = []
        line = column = cells = 0
        kind = ""
        value: str | None = None
        inline: str | None = None
        formula: str | None = None
        capture: str | None = None
        in_is = False

        def start(tag: str, attributes: dict[str, str]) -> None:
            nonlocal line, column, cells, kind, value, inline, formula, capture, in_is
            tag = _local(tag)
            if tag == "c":
                cells += 1
                if cells > max_cells:
                    raise WorkbookError("too-large")
                reference = attributes.get("r")
                number = _column_index(reference) if reference else column + 1
                if number <= column:
                    raise WorkbookError("not-xlsx")
                column = number
                kind, value, inline, formula = attributes.get("t", ""), None, None, None
            elif tag == "v" or tag == "f" or (tag == "t" and in_is):
                capture = tag
                text.clear()
            elif tag == "row":
                reference = attributes.get("r")
                if reference is None:
                    number = line + 1
                elif reference.isascii() and reference.isdigit():
                    if len(reference) > _ROW_DIGITS:
                        raise WorkbookError("too-many-rows")
                    number = int(reference)
                else:
                    raise WorkbookError("not-xlsx")
                if number <= line:
                    raise WorkbookError("not-xlsx")
                if number > max_line:
                    raise WorkbookError("too-many-rows", number)
                line, column = number, 0
                row.clear()
            elif tag == "is":
                in_is = True
                inline = ""

        def end(tag: str) -> None:
            nonlocal value, inline, formula, capture, in_is
            tag = _local(tag)
            if tag == capture:
                captured = "".join(text)
                if tag == "v":
                    value = captured
                elif tag == "f":
                    formula = captured
                else:
                    inline = ((inline or "") + captured)[:MAX_TEXT]
                capture = None
            elif tag == "c":
                if formula is not None:
                    content: Any = Formula("=" + formula[:MAX_TEXT])
                else:
                    try:
                        content = _cell_value(kind, value, inline, strings)
                    except (ValueError, OverflowError):
                        raise WorkbookError("not-xlsx") from None
                if content is None or content == "":
                    return
                position = column
                if position > max_columns:
                    if len(row) > max_columns:
                        return
                    position = max_columns + 1
                if len(row) < position:
                    row.extend([None] * (position - len(row)))
                row[position - 1] = content
            elif tag == "row":
                if row:
                    rows.append((line, list(row)))
            elif tag == "is":
                in_is = False

        def characters(data: str) -> None:
            if capture is not None and sum(map(len, text)) < MAX_TEXT:
                text.append(data[:MAX_TEXT])

        if sheet.part not in self.members:
            raise WorkbookError("not-xlsx")
        self.parse(sheet.part, start, end, characters)
        return rows


def read_sheets(
    data: bytes, *, named: Iterable[str] = (), bounds: Bounds = BOUNDS, named_max_line: int = 100
) -> tuple[list[Row], dict[str, list[Row]]]:
    """The first sheet's rows, and the rows of each later sheet whose name (in any letter case) is
    one of `named` and whose rows are numbered at most `named_max_line`, keyed by the name as given."""
    wanted = {name.casefold(): name for name in named}
    with Workbook(data, bounds) as book:
        first, *others = book.sheets()
        rows = book.rows(first)
        found: dict[str, list[Row]] = {}
        for sheet in others:
            key = wanted.get(sheet.name.strip().casefold())
            if key is not None and key not in found:
                try:
                    found[key] = book.rows(sheet, max_line=named_max_line)
                except WorkbookError as error:
                    # A named sheet longer than asked for is not the one meant: left out, since the
                    # first sheet was read well. Beyond the workbook's bounds, the file is refused.
                    if error.code != "too-many-rows":
                        raise
        return rows, found
