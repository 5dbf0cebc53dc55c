"""Official documents: PDF protocols and standings (WeasyPrint), Excel workbooks (openpyxl).

Every exporter returns an Export: (filename, content_type, content bytes). The numbers come from the
engine (a match's deals are replayed with scoring.engine.replay) or from the stored match totals the
services wrote from it; nothing here computes a score.

- documents: the plain data a document shows (protocol rows, headers, the opening-minimum table);
- pdf: the PDF documents (match protocol, blank round protocols, standings, round results);
- xlsx: the Excel workbooks, all written by one sheet writer, and a match's protocol as CSV;
- tables: the column sets of the standings and results sheets.
"""

from __future__ import annotations

from typing import NamedTuple


class Export(NamedTuple):
    filename: str
    content_type: str
    content: bytes


PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
