"""Workbooks that are small to upload and huge to read: the shapes an attacker sends to tie up a
worker. Shared by the hostile-input tests and the upload benchmark (tests/perf)."""

from __future__ import annotations

import functools
import time
import tracemalloc

from tests.support.hostile_files import (
    GOOD_ROWS,
    SHEET,
    deeply_nested,
    one_tag_of_attributes,
    patch_xlsx,
    rels_bzip2,
    rels_lzma,
    row_number_of_digits,
    tiny_elements_in_every_part,
    xlsx_bytes,
)


def empty_cells() -> bytes:
    """About 90 kB zipped, 44 MB unpacked: rows of empty styled cells after a good protocol."""
    row = b"<row>" + b'<c s="0"/>' * 16_384 + b"</row>"
    filler = row * 270
    return patch_xlsx(xlsx_bytes(GOOD_ROWS), SHEET, lambda xml: xml.replace(b"</sheetData>", filler + b"</sheetData>"))


def one_wide_row() -> bytes:
    """About 100 kB zipped: one row of two million cells, each with a value."""
    filler = b'<row r="3">' + b'<c t="n"><v>0</v></c>' * 2_000_000 + b"</row>"
    return patch_xlsx(xlsx_bytes(GOOD_ROWS), SHEET, lambda xml: xml.replace(b"</sheetData>", filler + b"</sheetData>"))


def formula_with_saved_value() -> bytes:
    return patch_xlsx(
        xlsx_bytes(GOOD_ROWS),
        SHEET,
        lambda xml: xml.replace(b'<c r="B2" t="n"><v>5</v></c>', b'<c r="B2"><f>2+3</f><v>5</v></c>'),
    )


# The workbooks that tied up a worker (and one more shape of the same kind), each with the code it
# is refused with. Each is under the 1 MB upload limit and must be refused within 1 s and 200 MB.
HOSTILE_WORKBOOKS = {
    "rels-bzip2": (rels_bzip2, "not-xlsx"),
    "rels-lzma": (rels_lzma, "not-xlsx"),
    "tiny-elements-in-every-part": (tiny_elements_in_every_part, "too-large"),
    "deeply-nested": (deeply_nested, "too-large"),
    "row-number-of-4200-digits": (row_number_of_digits, "too-many-rows"),
    "one-tag-of-attributes": (one_tag_of_attributes, "too-large"),
    "empty-cells": (empty_cells, "too-large"),
    "one-wide-row": (one_wide_row, "too-large"),
}


# What reading one hostile upload may cost at most (CPU seconds, bytes allocated at the peak).
BOUND_SECONDS = 1.0
BOUND_BYTES = 200 * 1024 * 1024


@functools.cache
def hostile_workbook(name: str) -> bytes:
    return HOSTILE_WORKBOOKS[name][0]()


def cost(read, refusal: type[Exception]):
    """(what `read()` raised as `refusal` or returned, CPU seconds, peak bytes allocated while it ran)."""
    def outcome():
        try:
            return read()
        except refusal as error:
            return error

    started = time.process_time()
    outcome()
    seconds = time.process_time() - started
    tracemalloc.start()
    try:
        result = outcome()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, seconds, peak
