"""Hostile protocol files, shared by the hostile-file and fuzz tests.

Each builder returns the bytes of one malformed or malicious CSV/xlsx protocol; `hostile_file(name)`
gives one with the file name a browser would send and the error the reader must answer with.
"""

from __future__ import annotations

import bz2
import functools
import io
import lzma
import re
import struct
import zipfile
import zlib
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


# -- the shapes of a hostile workbook that were accepted, or refused too late ------------------

RELS = "_rels/.rels"
# The parts a protocol's first sheet is read through.
READ_PARTS = (RELS, "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml", SHEET)


def zip_of(members: list[tuple[str, int, bytes, bytes]]) -> bytes:
    """A zip written by hand: (name, method, the member's bytes as stored, its content). Each member
    claims the size and CRC of its content, as a well-made zip does; the stored bytes may be
    anything (a bomb), so the claims alone do not give it away."""
    out = io.BytesIO()
    central = []
    for name, method, stored, content in members:
        offset = out.tell()
        encoded = name.encode()
        fields = (20, 0, method, 0, 0x21, zlib.crc32(content), len(stored), len(content), len(encoded), 0)
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields) + encoded + stored)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, *fields, 0, 0, 0, 0, offset) + encoded)
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), start, 0))
    return out.getvalue()


def deflated(content: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(content) + packer.flush()


def workbook_with_member(member: str, method: int, stored: bytes) -> bytes:
    """The good workbook with one member's stored bytes replaced (method and all); it still claims
    its old content's size."""
    source = zipfile.ZipFile(io.BytesIO(xlsx_bytes(GOOD_ROWS)))
    members = []
    for info in source.infolist():
        content = source.read(info.filename)
        if info.filename == member:
            members.append((info.filename, method, stored, content))
        else:
            members.append((info.filename, zipfile.ZIP_DEFLATED, deflated(content), content))
    return zip_of(members)


# What each bomb unpacks to: more than the 200 MB a refusal may take (about 1 GB and 400 MB were
# sent; these are made in about a second each).
BOMB_BYTES = 256 * 1024 * 1024


def _bomb(packer) -> bytes:
    block = b" " * (16 * 1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(BOMB_BYTES // len(block))) + packer.flush()


def rels_bzip2() -> bytes:
    """`_rels/.rels` stored with bzip2 (zip method 12): under 2 kB, unpacking to 256 MB."""
    return workbook_with_member(RELS, zipfile.ZIP_BZIP2, _bomb(bz2.BZ2Compressor(9)))


def rels_lzma() -> bytes:
    """The same with LZMA (method 14: a 4-byte version and size, the LZMA1 properties, raw data)."""
    dictionary = 1 << 23
    properties = struct.pack("<BI", (2 * 5 + 0) * 9 + 3, dictionary)  # pb 2, lp 0, lc 3
    packer = lzma.LZMACompressor(
        format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA1, "dict_size": dictionary, "lc": 3, "lp": 0, "pb": 2}]
    )
    return workbook_with_member(RELS, zipfile.ZIP_LZMA, struct.pack("<BBH", 9, 4, len(properties)) + properties + _bomb(packer))


def _before_root_end(xml: bytes, filler: bytes) -> bytes:
    end = xml.rindex(b"</")
    return xml[:end] + filler + xml[end:]


def with_shared_strings(data: bytes) -> bytes:
    """The workbook with a shared strings part (as Excel and LibreOffice write; openpyxl writes its
    text inline), so that it has every part a protocol's sheet is read through."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    relationship = (
        b'<Relationship Id="rIdStrings" Target="sharedStrings.xml" '
        b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"/>'
    )
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename == "xl/_rels/workbook.xml.rels":
                content = content.replace(b"</Relationships>", relationship + b"</Relationships>")
            target.writestr(info.filename, content)
        target.writestr(
            "xl/sharedStrings.xml",
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>x</t></si></sst>',
        )
    return out.getvalue()


def tiny_elements_in_every_part() -> bytes:
    """Each part a protocol is read through holds 7.9 MB of <x/> (two million elements each) before
    its end: every part within the old 8 MB per part, 40 kB in all."""
    filler = b"<x/>" * (7_900_000 // 4)
    data = with_shared_strings(xlsx_bytes(GOOD_ROWS))
    for part in READ_PARTS:
        data = patch_xlsx(data, part, lambda xml: _before_root_end(xml, filler))
    return data


def deeply_nested() -> bytes:
    """2.6 million <a> opened inside the sheet, never closed: 7.8 MB unpacked, about 9 kB zipped."""
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS), SHEET, lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b"<a>" * 2_600_000)
    )


def row_number_of_digits(digits: int = 4200) -> bytes:
    """A row numbered with `digits` digits (Python reads up to 4 300 as a number)."""
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS),
        SHEET,
        lambda xml: xml.replace(b"</sheetData>", b'<row r="' + b"9" * digits + b'"><c t="n"><v>1</v></c></row></sheetData>'),
    )


def one_tag_of_attributes() -> bytes:
    """One cell tag carrying 4.8 MB of attributes (400 000 of them, 900 kB zipped), which expat
    hands over in one dict once the tag is complete."""
    attributes = b"".join(b' a%06d=""' % index for index in range(400_000))
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS), SHEET, lambda xml: xml.replace(b'<row r="2">', b'<row r="2"><c r="Z2"' + attributes + b"/>", 1)
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
    "xlsx-rels-bzip2": ("p.xlsx", lambda: rels_bzip2(), "not-xlsx"),
    "xlsx-rels-lzma": ("p.xlsx", lambda: rels_lzma(), "not-xlsx"),
    "xlsx-tiny-elements-in-every-part": ("p.xlsx", lambda: tiny_elements_in_every_part(), "too-large"),
    "xlsx-deeply-nested": ("p.xlsx", lambda: deeply_nested(), "too-large"),
    "xlsx-row-number-of-4200-digits": ("p.xlsx", lambda: row_number_of_digits(), "too-many-rows"),
    "xlsx-one-tag-of-attributes": ("p.xlsx", lambda: one_tag_of_attributes(), "too-large"),
    "xlsx-10000-rows": ("p.xlsx", lambda: xlsx_bytes([GOOD_ROWS[0], *((n, 0, 0, 0) for n in range(1, 10_001))]), "too-many-rows"),
}  # fmt: skip

HOSTILE_NAMES = sorted(_HOSTILE)


@functools.cache
def hostile_file(name: str) -> tuple[str, bytes, str]:
    """(file name, bytes, expected error code) of one hostile file."""
    filename, make, code = _HOSTILE[name]
    return filename, make(), code
