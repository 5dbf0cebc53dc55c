"""The protocol file: the CSV (and xlsx) interchange format of docs/protocol-file.md, read and written.

One row per deal (giv), a header row, columns in any order, unknown columns refused. Reading turns
the rows into DealEntry values; anything that cannot be read raises ProtocolFileError with a stable
code, the line (1 = the header) and the column, so a caller can name them in the user's language.
Rule checks are not done here: `match.replay` does them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Any

from . import xlsx
from .text import csv_text

from scoring.engine.deal import DEAL_ENDS, SIDE_FIELDS as ENGINE_SIDE_FIELDS, SIDE_NUMBERS, WRITTEN_FIELDS, DealEntry, SideEntry
from scoring.engine.match import MatchState, ReplayedDeal
from scoring.engine.problems import AWAY, HOME, SIDES

SIDE_FIELDS = (*ENGINE_SIDE_FIELDS, *WRITTEN_FIELDS)
COLUMNS: tuple[str, ...] = (
    "deal",
    *(f"home_{name}" for name in SIDE_FIELDS),
    *(f"away_{name}" for name in SIDE_FIELDS),
    "out",
    "concealed",
    "end",
    "time_up",
    "dealt",
)
REQUIRED_COLUMNS = ("deal", "home_cards", "away_cards")
# The order a written file uses: the paper protocol's, home then away.
WRITE_COLUMNS: tuple[str, ...] = (
    "deal",
    "home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty", "home_melded",
    "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty", "away_melded",
    "out", "concealed", "end", "time_up", "dealt",
    "home_min", "away_min", "home_score", "away_score", "home_total", "away_total",
)  # fmt: skip

_INT_FIELDS = (*SIDE_NUMBERS, *WRITTEN_FIELDS)
_INT_COLUMNS = tuple(f"{side}_{name}" for side in ("home", "away") for name in _INT_FIELDS)
_COLUMN_SET = frozenset(COLUMNS)
_YES = {"yes", "ja", "y", "j", "true", "1", "x"}
_NO = {"no", "nej", "n", "false", "0"}
# A number beyond this is not a card game's: refuse it as unreadable rather than compute with it.
# It also keeps a thousand deals' running total inside a 32-bit database integer.
LARGEST_NUMBER = 10**6
# The longest number the messages repeat; a pasted wall of digits is cut short.
_SHOWN_DIGITS = 12
# A protocol has tens of deals; a file far beyond that is not a protocol.
MAX_ROWS = 1000
# Blank rows are skipped, but not without end: a sheet of a million empty rows is not a protocol.
MAX_LINES = 10 * MAX_ROWS
# A protocol of a thousand deals is about 100 kB; an upload beyond this is refused unread.
MAX_FILE_BYTES = 1024 * 1024
# Paper habits: a Unicode minus, spaces, no-break or thin spaces as thousands separators.
_PAPER_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2009": None, "\u202f": None, "\xa0": None, " ": None})


@dataclass(frozen=True)
class ProtocolFileError(Exception):
    """The file cannot be read. `code` is stable; line 1 is the header row."""

    code: str
    line: int | None = None
    column: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    # The deal (giv) the row would have been, for a value that cannot be read: a person counts
    # deals on the paper, not lines in a file.
    deal: int | None = None

    def __str__(self) -> str:  # for logs and tracebacks; users see scoring.messages text
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column:
            where.append(f"column {self.column}")
        return f"{self.code} ({', '.join(where)}) {self.params}" if where else self.code


# -- reading ------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    text = csv_text(data)
    if text is None:
        raise ProtocolFileError("encoding")
    return text


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN_DIGITS else text[:_SHOWN_DIGITS] + "…"


def parse_number(raw: Any, line: int | None = None, column: str | None = None) -> int | None:
    """A whole number as a protocol writes it, or None for an empty cell.

    The one reader of numbers for files and for the protocol page alike: ASCII digits with an
    optional sign, a Unicode minus, and spaces as thousands separators. Other digits (Arabic-Indic,
    full-width), underscores, decimals and exponents are refused, as is anything beyond
    LARGEST_NUMBER. Raises ProtocolFileError (`not-a-number`, `number-too-large`).
    """
    if raw is None:
        return None
    if type(raw) is str:
        text = raw
    elif isinstance(raw, bool):
        raise ProtocolFileError("not-a-number", line, column, {"value": str(raw)})
    elif isinstance(raw, int):
        if -LARGEST_NUMBER <= raw <= LARGEST_NUMBER:
            return raw
        raise ProtocolFileError("number-too-large", line, column, {"value": _shown(str(raw))})
    elif isinstance(raw, float):
        if not raw.is_integer():
            raise ProtocolFileError("not-a-number", line, column, {"value": str(raw)})
        return parse_number(int(raw), line, column)
    else:
        text = str(raw)
    # The common case first: plain ASCII digits, perhaps signed (str.isdigit alone would also
    # take other scripts' digits, hence isascii).
    digits = text[1:] if text[:1] in ("-", "+") else text
    if not (digits.isdigit() and digits.isascii()):
        text = text.strip()
        if not text:
            return None
        cleaned = text.translate(_PAPER_SIGNS)
        digits = cleaned[1:] if cleaned[:1] in ("-", "+") else cleaned
        if not (digits.isdigit() and digits.isascii()):
            raise ProtocolFileError("not-a-number", line, column, {"value": text[:40]})
        text = cleaned
    if len(digits) > 9:
        raise ProtocolFileError("number-too-large", line, column, {"value": _shown(text)})
    value = int(text)
    if -LARGEST_NUMBER <= value <= LARGEST_NUMBER:
        return value
    raise ProtocolFileError("number-too-large", line, column, {"value": _shown(text)})


def _parse_yes_no(raw: Any, line: int, column: str, *, empty_is_no: bool = False) -> bool | None:
    if raw is None:
        return False if empty_is_no else None
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().casefold()
    if not text:
        return False if empty_is_no else None
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise ProtocolFileError("bad-value", line, column, {"value": str(raw)[:40], "expected": "yes/no"})


def _parse_choice(raw: Any, line: int, column: str, choices: Sequence[str]) -> str | None:
    if raw is None:
        return None
    text = interchange_value(str(raw))
    if not text:
        return None
    if text not in choices:
        raise ProtocolFileError(
            "bad-value", line, column, {"value": str(raw)[:40], "expected": "/".join(choices)}
        )
    return text


def _parse_minute(raw: Any, line: int) -> int | None:
    """The minute of the match a deal was dealt: a whole number from 0 (docs/protocol-file.md, "Rows and columns": `dealt`)."""
    minute = parse_number(raw, line, "dealt")
    if minute is not None and minute < 0:
        raise ProtocolFileError("bad-value", line, "dealt", {"value": str(raw)[:40], "expected": "0–60"})
    return minute


def _check_header(header: Sequence[Any]) -> list[str]:
    header = list(header)
    # Spreadsheets pad rows with empty cells up to the sheet's used width: ignore those at the end.
    while header and (header[-1] is None or not str(header[-1]).strip()):
        header.pop()
    if not header or all(cell is None or not str(cell).strip() for cell in header):
        raise ProtocolFileError("no-header", 1)
    names: list[str] = []
    for cell in header:
        name = "" if cell is None else interchange_name(str(cell))
        if not name:
            raise ProtocolFileError("empty-column-name", 1, None, {"position": len(names) + 1})
        if name not in _COLUMN_SET:
            raise ProtocolFileError("unknown-column", 1, name)
        if name in names:
            raise ProtocolFileError("duplicate-column", 1, name)
        names.append(name)
    for required in REQUIRED_COLUMNS:
        if required not in names:
            raise ProtocolFileError("missing-column", 1, required)
    return names


# Texts already read as numbers, and their values (bounded: a file of odd numbers cannot grow it
# without end).
_EMPTY = object()  # a text known to be an empty cell
_KNOWN_NUMBERS: dict[str, Any] = {"": _EMPTY}
_KNOWN_NUMBERS_LIMIT = 20_000


@lru_cache(maxsize=64)
def _row_reader(header: tuple[Any, ...]) -> _RowReader:
    """The reader of the rows under a header (a season's files share a few headers: each is
    checked and laid out once)."""
    return _RowReader(_check_header(header))


class _RowReader:
    """Turns the cells of one row into a DealEntry, by the positions the header gave each column
    (looked up once per file, not once per cell)."""

    def __init__(self, names: list[str]):
        self.names = names
        self.width = len(names)
        position = {name: index for index, name in enumerate(names)}
        self.deal = position["deal"]
        # The 16 number columns, home then away; one that is not in the file reads the empty cell
        # added after the row's last.
        self.int_columns = _INT_COLUMNS
        self.int_positions = tuple(position.get(column) for column in _INT_COLUMNS)
        self.int_cells = itemgetter(*[position.get(column, self.width) for column in _INT_COLUMNS])
        self.melded = tuple(position.get(f"{side}_melded") for side in SIDES)
        self.out = position.get("out")
        self.concealed = position.get("concealed")
        self.end = position.get("end")
        self.time_up = position.get("time_up")
        self.dealt = position.get("dealt")

    def numbers(self, cells: Sequence[Any], line: int) -> list[int | None]:
        texts = self.int_cells(cells)
        known = _KNOWN_NUMBERS
        # Protocols repeat the same few hundred numbers: each text is read once (parse_number).
        numbers = list(map(known.get, texts))
        if None in numbers:
            for index, value in enumerate(numbers):
                if value is None:
                    cell = texts[index]
                    value = parse_number(cell, line, self.int_columns[index])
                    if type(cell) is str and len(known) < _KNOWN_NUMBERS_LIMIT:
                        known[cell] = _EMPTY if value is None else value
                    numbers[index] = value
        if _EMPTY in numbers:
            numbers = [None if value is _EMPTY else value for value in numbers]
        return numbers

    def __call__(self, cells: Sequence[Any], line: int) -> DealEntry:
        cells = [*cells, *([None] * (self.width - len(cells))), ""]
        number = parse_number(cells[self.deal], line, "deal")
        if number is None:
            raise ProtocolFileError("missing-value", line, "deal")
        numbers = self.numbers(cells, line)
        sides = []
        for side, first, melded in ((HOME, 0, self.melded[0]), (AWAY, 8, self.melded[1])):
            cards, natural, mixed, red3, penalty, written_min, written_score, written_total = numbers[first : first + 8]
            if cards is None:
                raise ProtocolFileError("missing-value", line, f"{side}_cards")
            melded_cell = None if melded is None else cells[melded]
            sides.append(
                SideEntry(
                    cards,
                    natural or 0,
                    mixed or 0,
                    red3 or 0,
                    penalty or 0,
                    None if melded_cell is None or melded_cell == "" else _parse_yes_no(melded_cell, line, f"{side}_melded"),
                    written_min,
                    written_score,
                    written_total,
                )
            )
        out = cells[self.out] if self.out is not None else None
        end = cells[self.end] if self.end is not None else None
        return DealEntry(
            number,
            sides[0],
            sides[1],
            _OUTS[out] if out in _OUTS else _parse_choice(out, line, "out", SIDES),
            self.flag(cells, self.concealed, line, "concealed"),
            _ENDS[end] if end in _ENDS else _parse_choice(end, line, "end", DEAL_ENDS),
            None if self.dealt is None else _parse_minute(cells[self.dealt], line),
            self.flag(cells, self.time_up, line, "time_up"),
        )

    @staticmethod
    def flag(cells: Sequence[Any], index: int | None, line: int, column: str) -> bool:
        """A `yes`-or-empty column (concealed, time_up)."""
        if index is None:
            return False
        cell = cells[index]
        if cell == "" or cell is None:
            return False
        return bool(_parse_yes_no(cell, line, column, empty_is_no=True))


# The usual spellings, looked up before the full readers (_parse_choice) take the rest.
_OUTS = {None: None, "": None, "home": "home", "away": "away"}
_ENDS = {None: None, "": None, "out": "out", "stock": "stock", "clock": "clock"}


def _is_blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _rows_to_deals(rows: Iterable[tuple[int, Sequence[Any]]]) -> list[DealEntry]:
    iterator = iter(rows)
    try:
        _, header = next(iterator)
    except StopIteration:
        raise ProtocolFileError("no-header", 1) from None
    read_row = _row_reader(tuple(header))
    names = read_row.names
    width = len(names)
    deal_index = read_row.deal
    deals: list[DealEntry] = []
    for line, cells in iterator:
        if line > MAX_LINES:
            raise ProtocolFileError("too-many-rows", line, None, {"limit": MAX_ROWS})
        # A row with its deal number is not blank; only one without is looked at cell by cell.
        if (len(cells) <= deal_index or _is_blank(cells[deal_index])) and all(map(_is_blank, cells)):
            continue
        if len(cells) > width and not all(map(_is_blank, cells[width:])):
            raise ProtocolFileError("too-many-values", line, None, {"columns": width})
        if len(deals) >= MAX_ROWS:
            raise ProtocolFileError("too-many-rows", line, None, {"limit": MAX_ROWS})
        try:
            deal = read_row(cells, line)
        except ProtocolFileError as error:
            raise replace(error, deal=len(deals) + 1) from None
        expected = len(deals) + 1
        if deal.number != expected:
            raise ProtocolFileError(
                "deal-sequence", line, "deal", {"value": deal.number, "expected": expected}
            )
        deals.append(deal)
    return deals


def read_csv(data: bytes | str) -> list[DealEntry]:
    text = _decode(data) if isinstance(data, bytes) else data
    # A text already decoded by the caller may still begin with the byte order mark.
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise ProtocolFileError("not-text")
    first_line = text.split("\n", 1)[0]
    # Spreadsheets set to Swedish write semicolons; accept those and tabs as well as commas.
    delimiter = max((",", ";", "\t"), key=first_line.count)
    deals = read_plain_csv(text, delimiter)
    if deals is not None:
        return deals
    return read_csv_rows(text, delimiter)


def read_csv_rows(text: str, delimiter: str) -> list[DealEntry]:
    """The CSV text read row by row with the `csv` module: any file, and the first thing wrong in
    it refused with its line and column."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)

    def rows() -> Iterable[tuple[int, Sequence[Any]]]:
        try:
            for row in reader:
                yield reader.line_num, row
        except csv.Error as exc:
            raise ProtocolFileError("csv-syntax", reader.line_num, None, {"detail": str(exc)}) from None

    return _rows_to_deals(rows())


# -- reading a workbook -------------------------------------------------------------------------
# The same columns in the first sheet of an xlsx workbook, read by scoring.files.xlsx within bounds
# on bytes, XML elements, depth, rows, columns and cells: an upload of a few kB may unpack to
# millions of cells and must be refused before the work and the memory grow with it.

# Its max_columns leaves room for a spreadsheet's padding beside a protocol's columns (a value
# further right is refused as a value without a column); every cell element counts towards
# max_cells, empty or not: a thousand deals of 22 columns are 22 000 cells.
XLSX_BOUNDS = xlsx.Bounds(max_line=MAX_LINES)
# The sheet in which the site's protocol workbook names its match (competition, round, teams; see
# exports.xlsx), read beside the deals so that an upload can be compared with the match it is for.
FACTS_SHEET = "Match"


@dataclass(frozen=True)
class ProtocolFile:
    """A protocol file read: its deals, and the (label, value) rows of a workbook's facts sheet
    (none for a CSV file or a workbook without one)."""

    deals: list[DealEntry]
    facts: tuple[tuple[str, Any], ...] = ()


def read_xlsx_file(data: bytes) -> ProtocolFile:
    """The deals of the first sheet (cell values as typed; a formula is refused, even one with a
    saved value) and the rows of the facts sheet."""
    try:
        rows, named = xlsx.read_sheets(data, named=(FACTS_SHEET,), bounds=XLSX_BOUNDS)
    except xlsx.WorkbookError as error:
        params = {"limit": MAX_ROWS} if error.code == "too-many-rows" else {}
        raise ProtocolFileError(error.code, error.line, None, params) from None
    if not rows or rows[0][0] != 1:
        rows.insert(0, (1, []))
    header = {index: interchange_name(str(value)) for index, value in enumerate(rows[0][1]) if value is not None}
    # The rows read are those with a value: below the header, the n-th is deal n.
    for position, (line, cells) in enumerate(rows):
        for index, value in enumerate(cells):
            if isinstance(value, xlsx.Formula):
                column = header.get(index) if line > 1 else None
                raise ProtocolFileError("formula", line, column, {"value": value[:40]}, position if line > 1 else None)
    facts = tuple(
        (cells[0].strip(), cells[1])
        for _line, cells in named.get(FACTS_SHEET, ())
        if len(cells) >= 2 and isinstance(cells[0], str)
    )
    return ProtocolFile(_rows_to_deals(rows), facts)


def read_protocol_file(data: bytes, filename: str = "") -> ProtocolFile:
    """Read a CSV or xlsx protocol, by the file's name or, failing that, its first bytes."""
    if len(data) > MAX_FILE_BYTES:
        raise ProtocolFileError("too-large")
    if filename.lower().endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04":
        return read_xlsx_file(data)
    return ProtocolFile(read_csv(data))


def read_protocol(data: bytes, filename: str = "") -> list[DealEntry]:
    """The deals of a CSV or xlsx protocol (read_protocol_file)."""
    return read_protocol_file(data, filename).deals


# -- writing ------------------------------------------------------------------------------------


def _yes_no(value: bool | None) -> str:
    """`yes`/`no` as written; empty where the protocol left it to the default (docs/protocol-file.md, "Rows and columns"), so that
    a file written and read again says the same, warnings included."""
    if value is None:
        return ""
    return "yes" if value else "no"


def _time_up_after(state: MatchState, replayed: ReplayedDeal) -> bool:
    """Whether the file marks `time_up` on this deal: the match ended by the clock after it, between
    deals (not by a deal that the final signal ended)."""
    if replayed.entry.time_up:
        return True
    return (
        state.end == "clock"
        and state.end_deal == replayed.number
        and replayed.entry.effective_end != "clock"
    )


def _minute(minute: float | None) -> int | float | str:
    if minute is None:
        return ""
    return int(minute) if float(minute).is_integer() else minute


def _as_written(written: int | None, computed: int) -> int:
    return computed if written is None else written


def deal_rows(state: MatchState) -> list[list[Any]]:
    """The rows of a protocol file for a replayed match, numbers as numbers, header first.

    The minimums, deal scores and running totals are the protocol's as written where it wrote them
    (rule 35 b, docs/rules.md, "Revision 3": the paper goes in as written). Where it wrote none, the
    minimum and the deal score are the computed ones and the running total carries on from the
    total before it as the protocol has it, as the paper would have been added up: so a file
    exported and read again has the same notes, at the same deals, and without a slip every number
    is the computed one."""
    rows: list[list[Any]] = [list(WRITE_COLUMNS)]
    home_basis = away_basis = 0
    for replayed in state.deals:
        entry = replayed.entry
        home, away = entry.home, entry.away
        home_score = _as_written(home.written_score, replayed.home_score)
        away_score = _as_written(away.written_score, replayed.away_score)
        home_basis = _as_written(home.written_total, home_basis + home_score)
        away_basis = _as_written(away.written_total, away_basis + away_score)
        rows.append(
            [
                entry.number,
                home.cards, home.natural, home.mixed, home.red3, home.penalty,
                _yes_no(home.melded),
                away.cards, away.natural, away.mixed, away.red3, away.penalty,
                _yes_no(away.melded),
                entry.out or "",
                "yes" if entry.concealed else "",
                entry.effective_end,
                "yes" if _time_up_after(state, replayed) else "",
                _minute(entry.dealt_minute),
                _as_written(home.written_min, replayed.home_min_before),
                _as_written(away.written_min, replayed.away_min_before),
                home_score, away_score, home_basis, away_basis,
            ]
        )  # fmt: skip
    return rows


def write_csv(state: MatchState) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(deal_rows(state))
    return buffer.getvalue()


def write_xlsx(state: MatchState, sheet_title: str = "Protokoll") -> bytes:
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=sheet_title[:31])
    for row in deal_rows(state):
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# -- the Swedish headings of the spreadsheets a person reads ----------------------------------------
#
# The site's workbooks head their deal columns in Swedish and write Swedish words (ja, hemma,
# talong); a file saved from one imports again, as does one in the interchange columns above.

SWEDISH_HEADERS: dict[str, str] = {
    "deal": "Giv",
    **{
        f"{side}_{name}": f"{label} {text}"
        for side, label in (("home", "Hemma"), ("away", "Borta"))
        for name, text in (
            ("cards", "kortpoäng"),
            ("natural", "rena canastor"),
            ("mixed", "blandade canastor"),
            ("red3", "röda treor"),
            ("penalty", "straff"),
            ("melded", "har lagt ut"),
            ("min", "minimum"),
            ("score", "givpoäng"),
            ("total", "summa"),
        )
    },
    "out": "Gick ut",
    "concealed": "Dold utgång",
    "end": "Given slutade",
    "time_up": "Tiden ute",
    "dealt": "Given minut",
}
SWEDISH_VALUES: dict[str, str] = {
    "hemma": "home",
    "borta": "away",
    "utgång": "out",
    "talong": "stock",
    "klockan": "clock",
}
_COLUMN_OF_SWEDISH = {heading.casefold(): column for column, heading in SWEDISH_HEADERS.items()}
_VALUE_OF_SWEDISH = {word.casefold(): value for word, value in SWEDISH_VALUES.items()}
SWEDISH_WORDS: dict[str, str] = {value: word for word, value in SWEDISH_VALUES.items()}


def interchange_name(header: str) -> str:
    """A header cell as its interchange column: 'Hemma kortpoäng' -> 'home_cards'; an interchange
    name or an unknown one comes back as it was written (lower case, trimmed)."""
    text = header.strip().casefold()
    return _COLUMN_OF_SWEDISH.get(text, text)


def interchange_value(text: str) -> str:
    """A written choice as the interchange value: 'hemma' -> 'home', 'talong' -> 'stock'."""
    text = text.strip().casefold()
    return _VALUE_OF_SWEDISH.get(text, text)


# -- reading a plain CSV text column by column ---------------------------------------------------
# Most files are written by a program or a careful hand: no quotes, every row complete and
# numbered 1, 2, 3 …, every cell a number or a word. Such a text is split into cells at once and
# read a column at a time (one look-up per cell, the deals made by map). A text that is anything
# else, or a cell this reading has not met, goes to read_csv_rows, which reads it as before and
# refuses it with its line and column; so what a file reads as, or why it is refused, does not
# depend on which reading took it (tests/files/test_plain_csv.py).


class _NotPlain(Exception):
    """The text is not one read_plain_csv reads; read_csv_rows reads it."""


# The deal numbers as a plain file writes them.
_DEAL_TEXTS = [str(number) for number in range(1, MAX_ROWS + 1)]
_DEAL_CELLS = {text: number for number, text in enumerate(_DEAL_TEXTS, start=1)}
# A column name is short; a longer header cell is left to the csv module (which limits a field).
_LONGEST_HEADER_CELL = 100
# Numbers already read (by parse_number), by the empty cell's meaning in the column: card points
# must be written, a count left empty is 0, a written number left empty is not written.
_NUMBER_CELLS: dict[str, int] = {}
_COUNT_CELLS: dict[str, int | None] = {"": 0}
_WRITTEN_CELLS: dict[str, int | None] = {"": None}
# The minute a deal was dealt: as a written number, but never below 0 (_parse_minute refuses it).
_MINUTE_CELLS: dict[str, int | None] = {"": None}
# The words of the other columns, each as the row-by-row reader reads it (so they cannot differ).
_YES_NO_WORDS = ("", *sorted(_YES), *sorted(_NO))
_MELDED_CELLS = {word: None if word == "" else _parse_yes_no(word, 0, "") for word in _YES_NO_WORDS}
_FLAG_CELLS = {word: _RowReader.flag([word], 0, 0, "") for word in _YES_NO_WORDS}
_OUT_CELLS = {word: _parse_choice(word, 0, "out", SIDES) for word in ("", *SIDES, "hemma", "borta")}
_END_CELLS = {word: _parse_choice(word, 0, "end", DEAL_ENDS) for word in ("", *DEAL_ENDS, "utgång", "talong", "klockan")}


class _PlainPlan:
    """How read_plain_csv reads the cells under one header: `cells`, for each column in the file's
    order, the cells it reads (each text to its value); `arguments`, for each value of a deal in
    the order SideEntry (home, then away) and then DealEntry take them, the column's position
    (None: not in the file) and the value when the column is not in the file (as read_row gives
    it)."""

    def __init__(self, read_row: _RowReader):
        arguments: list[tuple[int | None, Any]] = []
        readers: dict[int, dict[str, Any]] = {read_row.deal: _DEAL_CELLS}
        for first, melded in ((0, read_row.melded[0]), (8, read_row.melded[1])):
            numbers = read_row.int_positions[first : first + 8]
            cards, natural, mixed, red3, penalty, written_min, written_score, written_total = numbers
            arguments += [(cards, _NUMBER_CELLS, None), (natural, _COUNT_CELLS, 0), (mixed, _COUNT_CELLS, 0),
                          (red3, _COUNT_CELLS, 0), (penalty, _COUNT_CELLS, 0), (melded, _MELDED_CELLS, None),
                          (written_min, _WRITTEN_CELLS, None), (written_score, _WRITTEN_CELLS, None),
                          (written_total, _WRITTEN_CELLS, None)]  # fmt: skip
        arguments += [(read_row.out, _OUT_CELLS, None), (read_row.concealed, _FLAG_CELLS, False),
                      (read_row.end, _END_CELLS, None), (read_row.dealt, _MINUTE_CELLS, None),
                      (read_row.time_up, _FLAG_CELLS, False)]  # fmt: skip
        for position, known, _absent in arguments:
            if position is not None:
                readers[position] = known
        self.cells = tuple(readers[position] for position in range(read_row.width))
        # The arguments whose columns are in the file: each column's cells cut from the row-after-
        # row list at once (`columns`) and the look-up that reads them (`readers`); and where the
        # others go in the arguments, with their value.
        present = [(position, known) for position, known, _absent in arguments if position is not None]
        # A row's cells and then its line end (read_plain_csv): a column is every (width + 1)th cell.
        stride = read_row.width + 1
        self.columns = itemgetter(*[slice(position, None, stride) for position, _known in present])
        self.readers = tuple(known.__getitem__ for _position, known in present)
        self.absent = [(index, absent) for index, (position, _known, absent) in enumerate(arguments) if position is None]


@lru_cache(maxsize=64)
def _plain_header(line: str, delimiter: str) -> tuple[_RowReader, _PlainPlan] | None:
    """The reader and the plan of a plain text's header line, or None if the header is one only
    read_csv_rows reads (or refuses)."""
    header = line.split(delimiter)
    if max(map(len, header)) > _LONGEST_HEADER_CELL:
        return None
    try:
        read_row = _row_reader(tuple(header))
    except ProtocolFileError:
        return None
    if len(header) != read_row.width:
        return None
    return read_row, _PlainPlan(read_row)


def _learn_numbers(columns: Iterable[tuple[dict[str, Any], list[str]]]) -> None:
    """Read by parse_number the cells of number columns not met before, and remember them; raise
    _NotPlain for a cell that is not a number (or is blank), or when enough are remembered."""
    for cells, texts in columns:
        if (
            cells is not _NUMBER_CELLS and cells is not _COUNT_CELLS and cells is not _WRITTEN_CELLS
            and cells is not _MINUTE_CELLS
        ):  # fmt: skip
            continue
        for text in texts:
            if text in cells:
                continue
            try:
                value = parse_number(text)
            except ProtocolFileError:
                raise _NotPlain from None
            if value is None or len(_NUMBER_CELLS) >= _KNOWN_NUMBERS_LIMIT:
                raise _NotPlain
            _NUMBER_CELLS[text] = _COUNT_CELLS[text] = _WRITTEN_CELLS[text] = value
            if value >= 0:
                _MINUTE_CELLS[text] = value
            elif cells is _MINUTE_CELLS:
                raise _NotPlain


def read_plain_csv(text: str, delimiter: str) -> list[DealEntry] | None:
    """The deals of a plain CSV text (see above), or None if the text is not one."""
    if '"' in text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    text = text.removesuffix("\n")
    count = text.count("\n")
    if not 0 < count <= MAX_ROWS:
        return None
    header = _plain_header(text[: text.index("\n")], delimiter)
    if header is None:
        return None
    read_row, plan = header
    width = read_row.width
    # Split at once into cells with each line end a cell of its own: every line has the header's
    # `width` cells exactly when the line ends are every (width + 1)th cell (no cell holds a line
    # end otherwise), which one comparison of a slice finds.
    cells = text.replace("\n", f"{delimiter}\n{delimiter}").split(delimiter)
    stride = width + 1
    if len(cells) != (count + 1) * stride - 1 or cells[width::stride] != ["\n"] * count:
        return None
    del cells[:stride]
    if cells[read_row.deal :: stride] != _DEAL_TEXTS[:count]:
        return None
    # Each column read cell by cell by its column's look-up, straight into the entries (no list of
    # every value first). A cell not met before stops it with a KeyError: the number columns are
    # then read by parse_number and remembered, and the text is read again.
    try:
        deals = _plain_deals(plan, cells, count)
    except KeyError:
        try:
            _learn_numbers(zip(plan.cells, (cells[position::stride] for position in range(width))))
            deals = _plain_deals(plan, cells, count)
        except (_NotPlain, KeyError):
            return None
    return deals


def _plain_deals(plan: _PlainPlan, cells: list[str], count: int) -> list[DealEntry]:
    """The deals of the cells of a plain text, row after row, by the plan of its header; KeyError
    for a cell the plan's look-ups do not know."""
    columns = list(map(map, plan.readers, plan.columns(cells)))
    for index, absent in plan.absent:
        columns.insert(index, repeat(absent))
    return list(
        map(
            DealEntry,
            range(1, count + 1),
            map(SideEntry, *columns[:9]),
            map(SideEntry, *columns[9:18]),
            *columns[18:],
        )
    )
