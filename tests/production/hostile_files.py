"""Hostile protocol files, shared by the hostile-file and fuzz tests.

Each builder returns the bytes of one malformed or malicious CSV/xlsx protocol; `hostile_file(name)`
gives one with the file name a browser would send and the error the reader must answer with.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from collections.abc import Callable

from openpyxl import Workbook

HEADER = "deal,home_cards,away_cards"


def csv_bytes(*lines: str, encoding: str = "utf-8") -> bytes:
    return ("\n".join(lines) + "\n").encode(encoding)


def xlsx_bytes(rows) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def patch_xlsx(data: bytes, member: str, change) -> bytes:
    """Rewrite one part of a workbook (the sheet XML, say) the way an attacker would."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename == member:
                content = change(content)
            target.writestr(info.filename, content)
    return out.getvalue()


SHEET = "xl/worksheets/sheet1.xml"
GOOD_ROWS = [("deal", "home_cards", "away_cards", "home_natural"), (1, 5, 0, 0)]


def zip_bomb() -> bytes:
    """A workbook of a few dozen kB whose sheet unpacks to 60 MB of blanks."""
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS),
        SHEET,
        lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b" " * (60 * 1024 * 1024)),
    )


def huge_dimension() -> bytes:
    """A sheet that claims 16 384 columns by a million rows and has a cell at the far corner."""

    def change(xml: bytes) -> bytes:
        xml = re.sub(rb'<dimension ref="[^"]*" ?/>', b'<dimension ref="A1:XFD1048576"/>', xml)
        return xml.replace(
            b"</sheetData>",
            b'<row r="1048576"><c r="XFD1048576" t="n"><v>1</v></c></row></sheetData>',
        )

    return patch_xlsx(xlsx_bytes(GOOD_ROWS), SHEET, change)


def sheet_with_cell(cell_xml: bytes) -> bytes:
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS),
        SHEET,
        lambda xml: xml.replace(b'<row r="2">', b'<row r="2">' + cell_xml, 1),
    )


def billion_laughs() -> bytes:
    entities = b'<!ENTITY a "aaaaaaaaaa">' + b"".join(
        b'<!ENTITY %s "%s">' % (bytes([ord("a") + i + 1]), (b"&" + bytes([ord("a") + i]) + b";") * 10)
        for i in range(7)
    )
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS),
        SHEET,
        lambda xml: b'<?xml version="1.0"?><!DOCTYPE worksheet [' + entities + b"]>"
        + xml.replace(b"<t>deal</t>", b"<t>&h;</t>"),
    )


# name -> (file name, a function making the bytes, expected ProtocolFileError code); the bytes are
# made when first asked for (hostile_file), not when the tests are collected.
_HOSTILE: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "csv-word-for-number": ("p.csv", lambda: csv_bytes(HEADER, "1,femtio,0"), "not-a-number"),
    "csv-decimal": ("p.csv", lambda: csv_bytes(HEADER, "1,12.5,0"), "not-a-number"),
    "csv-exponent": ("p.csv", lambda: csv_bytes(HEADER, "1,1e5,0"), "not-a-number"),
    "csv-huge-number": ("p.csv", lambda: csv_bytes(HEADER, "1,99999999999999999999,0"), "number-too-large"),
    "csv-large-number": ("p.csv", lambda: csv_bytes(HEADER, "1,5000000,0"), "number-too-large"),
    "csv-large-penalty": ("p.csv", lambda: csv_bytes("deal,home_cards,away_cards,home_penalty", "1,0,0,2000000"), "number-too-large"),
    "csv-formula-sum": ("p.csv", lambda: csv_bytes(HEADER, "1,=1+1,0"), "not-a-number"),
    "csv-formula-hyperlink": ("p.csv", lambda: csv_bytes(HEADER, '1,"=HYPERLINK(""http://evil.example"",""klicka"")",0'), "not-a-number"),
    "csv-formula-dde": ("p.csv", lambda: csv_bytes(HEADER, "1,0,\"=cmd|' /C calc'!A0\""), "not-a-number"),
    "csv-arabic-digits": ("p.csv", lambda: csv_bytes(HEADER, "1,١٢٣,0"), "not-a-number"),
    "csv-superscript": ("p.csv", lambda: csv_bytes(HEADER, "1,²,0"), "not-a-number"),
    "csv-yes-no-garbage": ("p.csv", lambda: csv_bytes("deal,home_cards,away_cards,home_melded", "1,0,0,kanske"), "bad-value"),
    "csv-utf16": ("p.csv", lambda: csv_bytes(HEADER, "1,5,0", encoding="utf-16"), "not-text"),
    "csv-binary": ("p.csv", lambda: bytes(range(256)) * 40, "encoding"),
    "csv-nul-bytes": ("p.csv", lambda: csv_bytes(HEADER, "1,5\x00,0"), "not-text"),
    "csv-empty": ("p.csv", lambda: b"", "no-header"),
    "csv-only-bom": ("p.csv", lambda: b"\xef\xbb\xbf", "no-header"),
    "csv-10000-rows": ("p.csv", lambda: csv_bytes(HEADER, *(f"{n},0,0" for n in range(1, 10_001))), "too-many-rows"),
    "csv-million-blank-lines": ("p.csv", lambda: csv_bytes(HEADER, *([""] * 500_000), "1,0,0"), "too-many-rows"),
    "csv-giant-field": ("p.csv", lambda: csv_bytes(HEADER, '1,"' + "9" * 200_000 + '",0'), "csv-syntax"),
    "csv-over-1-mb": ("p.csv", lambda: csv_bytes(HEADER, "1,0,0") + b" " * (1024 * 1024), "too-large"),
    "csv-unknown-column": ("p.csv", lambda: csv_bytes(HEADER + ",<script>alert(1)</script>", "1,0,0,0"), "unknown-column"),
    "xlsx-word-for-number": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, "femtio", 0, 0)]), "not-a-number"),
    "xlsx-decimal": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, 12.5, 0, 0)]), "not-a-number"),
    "xlsx-huge-number": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, 10**15, 0, 0)]), "number-too-large"),
    "xlsx-boolean": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, True, 0, 0)]), "not-a-number"),
    "xlsx-formula-in-required-column": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, "=1+1", 0, 0)]), "formula"),
    "xlsx-formula-in-optional-column": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, 5, 0, "=1+1")]), "formula"),
    "xlsx-formula-hyperlink": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], (1, '=HYPERLINK("http://evil.example","klicka")', 0, 0)]), "formula"),
    "xlsx-zip-bomb": ("p.xlsx", lambda: zip_bomb(), "too-large"),
    "xlsx-huge-dimension": ("p.xlsx", lambda: huge_dimension(), "too-many-rows"),
    "xlsx-billion-laughs": ("p.xlsx", lambda: billion_laughs(), "not-xlsx"),
    "xlsx-broken-sheet-xml": ("p.xlsx", lambda: patch_xlsx(xlsx_bytes(GOOD_ROWS), SHEET, lambda xml: xml[:300]), "not-xlsx"),
    "xlsx-bad-number-cell": ("p.xlsx", lambda: sheet_with_cell(b'<c r="Z2" t="n"><v>abc</v></c>'), "not-xlsx"),
    "xlsx-bad-shared-string": ("p.xlsx", lambda: sheet_with_cell(b'<c r="Z2" t="s"><v>999</v></c>'), "not-xlsx"),
    "xlsx-bad-date-cell": ("p.xlsx", lambda: sheet_with_cell(b'<c r="Z2" t="d"><v>garbage</v></c>'), "not-xlsx"),
    "xlsx-no-sheet": ("p.xlsx", lambda: patch_xlsx(xlsx_bytes(GOOD_ROWS), "xl/workbook.xml", lambda xml: re.sub(rb"<sheets>.*</sheets>", b"<sheets/>", xml)), "not-xlsx"),
    "xlsx-truncated": ("p.xlsx", lambda: xlsx_bytes(GOOD_ROWS)[:500], "not-xlsx"),
    "xlsx-not-a-zip": ("p.xlsx", lambda: b"PK\x03\x04 this is no workbook", "not-xlsx"),
    "xlsx-10000-rows": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], *((n, 0, 0, 0) for n in range(1, 10_001))]), "too-many-rows"),
}  # fmt: skip

HOSTILE_NAMES = sorted(_HOSTILE)


@functools.cache
def hostile_file(name: str) -> tuple[str, bytes, str]:
    """(file name, bytes, expected error code) of one hostile file."""
    filename, make, code = _HOSTILE[name]
    return filename, make(), code
