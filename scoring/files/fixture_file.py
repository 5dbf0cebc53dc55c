"""The fixture list file (spelprogram): a CSV with one row per match, read and checked.

Columns (header row required, any order, Swedish names accepted too):

| column  | Swedish  | content                                                  |
|---------|----------|----------------------------------------------------------|
| round   | omgång   | round number, 1 or more (required)                       |
| date    | datum    | the round's date, 2026-09-14 (optional; one per round)   |
| table   | bord     | table number, 1 or more (optional; else numbered in order) |
| home    | hemma    | home team's name, as in the competition (required)       |
| away    | borta    | away team's name (required)                              |

Commas or semicolons separate the values (a spreadsheet saved as CSV in Swedish uses semicolons);
UTF-8 (with or without BOM), or Windows-1252 as older spreadsheet programs write it. Every problem
is reported with its line and column; a file with any problem is refused as a whole.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _

from .text import csv_text

__all__ = ["FixtureRow", "FixtureProblem", "MAX_FILE_BYTES", "read_fixtures"]

MAX_FILE_BYTES = 1_000_000
COLUMNS = ("round", "date", "table", "home", "away")
REQUIRED = ("round", "home", "away")
ALIASES = {
    "omgång": "round",
    "omgang": "round",
    "datum": "date",
    "bord": "table",
    "hemma": "home",
    "hemmalag": "home",
    "borta": "away",
    "bortalag": "away",
}


@dataclass(frozen=True)
class FixtureRow:
    line: int
    round: int
    date: date | None
    table: int | None
    home: object  # a team (whatever the caller's map holds)
    away: object


@dataclass(frozen=True)
class FixtureProblem:
    line: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        if self.line is not None and self.column:
            return _("Line %(line)s, column “%(column)s”: %(message)s") % {
                "line": self.line, "column": self.column, "message": self.message}
        if self.line is not None:
            return _("Line %(line)s: %(message)s") % {"line": self.line, "message": self.message}
        return str(self.message)


def _is_binary(data: bytes) -> bool:
    """An Excel workbook (a zip), a picture or any file with NUL bytes: not text to read as CSV."""
    return data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")) or b"\x00" in data[:4096]


def _decode(data: bytes) -> str:
    text = csv_text(data)
    # A fixture list's odd byte is shown as "?" in the name it sits in, which the import then names.
    return data.decode("cp1252", errors="replace") if text is None else text


def _positive_int(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value >= 1 else None


def read_fixtures(
    data: bytes | str, teams: Mapping[str, object]
) -> tuple[list[FixtureRow], list[FixtureProblem]]:
    """Read a fixture file. `teams` maps casefolded team names to teams (None: the name is ambiguous).

    Returns the rows and the problems; when there is any problem the rows must not be used.
    """
    problems: list[FixtureProblem] = []
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            return [], [FixtureProblem(None, None, _("The file is too large (more than 1 MB)."))]
        if _is_binary(data):
            return [], [FixtureProblem(None, None, _(
                "The file is not a CSV file (text). Save the spreadsheet as CSV, separated by commas or "
                "semicolons, and choose that file."))]
        text = _decode(data)
    else:
        text = data
    # Lines ended the Windows, Unix or old Mac way (a CSV saved by Excel for Mac) read the same.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[FixtureRow] = []
    try:
        records = [(reader.line_num, raw) for raw in reader]
    except csv.Error:
        return [], [FixtureProblem(reader.line_num or None, None, _(
            "this line cannot be read as CSV; save the spreadsheet as CSV again and choose that file."))]
    for line_number, raw in records:
        if not any(cell.strip() for cell in raw):
            continue
        if header is None:
            header = [ALIASES.get(cell.strip().casefold(), cell.strip().casefold()) for cell in raw]
            for index, name in enumerate(header):
                if name not in COLUMNS:
                    problems.append(FixtureProblem(line_number, raw[index].strip(), _(
                        "unknown column; the columns are round, date, table, home and away.")))
                elif header.index(name) != index:
                    problems.append(FixtureProblem(line_number, raw[index].strip(), _("the column appears twice.")))
            for name in REQUIRED:
                if name not in header:
                    problems.append(FixtureProblem(line_number, None, _(
                        "the column “%(column)s” is missing.") % {"column": name}))
            if problems:
                return [], problems
            continue
        line = line_number
        if len(raw) > len(header):
            problems.append(FixtureProblem(line, None, _("more values than columns.")))
            continue
        values = {name: (raw[i].strip() if i < len(raw) else "") for i, name in enumerate(header)}
        row_problems: list[FixtureProblem] = []
        round_number = _positive_int(values["round"])
        if round_number is None:
            row_problems.append(FixtureProblem(line, "round", _("“%(value)s” is not a round number (1 or more).") % {"value": values["round"]}))
        round_date = None
        if values.get("date"):
            try:
                round_date = date.fromisoformat(values["date"])
            except ValueError:
                row_problems.append(FixtureProblem(line, "date", _("“%(value)s” is not a date; write it as 2026-09-14.") % {"value": values["date"]}))
        table = None
        if values.get("table"):
            table = _positive_int(values["table"])
            if table is None:
                row_problems.append(FixtureProblem(line, "table", _("“%(value)s” is not a table number (1 or more).") % {"value": values["table"]}))
        found = {}
        for side in ("home", "away"):
            name = values[side]
            if not name:
                row_problems.append(FixtureProblem(line, side, _("the team's name is missing.")))
                continue
            key = name.casefold()
            if key not in teams:
                row_problems.append(FixtureProblem(line, side, _("no team named “%(name)s” plays in this competition.") % {"name": name}))
            elif teams[key] is None:
                row_problems.append(FixtureProblem(line, side, _("more than one team of the competition is named “%(name)s”.") % {"name": name}))
            else:
                found[side] = teams[key]
        if len(found) == 2 and found["home"] == found["away"]:
            row_problems.append(FixtureProblem(line, "away", _("a team cannot play itself.")))
        if row_problems:
            problems.extend(row_problems)
            continue
        rows.append(FixtureRow(line, round_number, round_date, table, found["home"], found["away"]))
    if header is None:
        return [], [FixtureProblem(None, None, _("The file is empty."))]
    if not rows and not problems:
        return [], [FixtureProblem(None, None, _("The file has no matches."))]
    problems.extend(_check_rounds(rows))
    return rows, problems


def _check_rounds(rows: list[FixtureRow]) -> list[FixtureProblem]:
    """Across rows: one date per round, a table once per round, a team once per round."""
    problems = []
    dates: dict[int, tuple[date | None, int]] = {}
    tables: dict[tuple[int, int], int] = {}
    playing: dict[tuple[int, object], int] = {}
    for row in rows:
        if row.round in dates:
            first_date, first_line = dates[row.round]
            if row.date != first_date:
                problems.append(FixtureProblem(row.line, "date", _(
                    "round %(round)s has another date on line %(other)s.") % {"round": row.round, "other": first_line}))
        else:
            dates[row.round] = (row.date, row.line)
        if row.table is not None:
            key = (row.round, row.table)
            if key in tables:
                problems.append(FixtureProblem(row.line, "table", _(
                    "table %(table)s of round %(round)s is already used on line %(other)s.")
                    % {"table": row.table, "round": row.round, "other": tables[key]}))
            else:
                tables[key] = row.line
        for side, team in (("home", row.home), ("away", row.away)):
            key = (row.round, team)
            if key in playing:
                problems.append(FixtureProblem(row.line, side, _(
                    "%(team)s already plays in round %(round)s (line %(other)s).")
                    % {"team": team, "round": row.round, "other": playing[key]}))
            else:
                playing[key] = row.line
    return problems
