"""A CSV file's text as a club's computer writes it: UTF-8 (with or without the byte-order mark
Excel puts first) or, as Excel on Windows saves "CSV", Windows-1252. The protocol file, the member
list and the fixture list read their CSV through this one guess."""

from __future__ import annotations

CSV_ENCODINGS = ("utf-8-sig", "cp1252")


def csv_text(data: bytes) -> str | None:
    """The file's text in the first encoding it is valid in, or None when it is neither (a few
    bytes have no character in Windows-1252)."""
    for encoding in CSV_ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None
