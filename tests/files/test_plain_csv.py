"""Reading a plain CSV text column by column (protocol_file.read_plain_csv) is only a faster way to
read it: whenever it reads a text, it reads the deals that the row-by-row reader (read_csv_rows)
reads, and it leaves every other text to that reader, which refuses it with the same error,
line and column as before.

Held over texts made of the cells that decide it (numbers as paper writes them, words in other
spellings, empty and blank cells, quotes, wrong deal numbers, short and long rows, blank lines,
CR LF and lone CR) under headers of any order, with optional columns left out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import get_rules, replay
from scoring.files.protocol_file import (
    COLUMNS,
    REQUIRED_COLUMNS,
    SWEDISH_HEADERS,
    ProtocolFileError,
    read_csv,
    read_csv_rows,
    read_plain_csv,
    write_csv,
)

from tests.support.deals import clean_deal, deal
from tests.support.depth import examples

# Cells as most files write them, and the odd ones (one cell in twelve).
PLAIN = {"number": ["0", "5", "-5", "120", "-40", "1500", ""], "out": ["", "home", "away"], "end": ["", "out", "stock", "clock"],
         "yes-no": ["", "yes", "no"]}  # fmt: skip
ODD = {
    "number": ["+5", "05", " 5", "5 ", "1 000", "\u221240", " ", "1.5", "1e3", "x", "\u0665", "99999999999", "1000001", "-0"],
    "word": ["ja", "nej", "x", "1", "0", "Yes", " yes", "maybe", "Home", "hemma", "borta", "talong", "utgång", "klockan",
             "Stock", "both", "5"],
}  # fmt: skip


def kind(name: str) -> str:
    if name in ("out", "end"):
        return name
    if name.endswith("_melded") or name in ("concealed", "time_up"):
        return "yes-no"
    return "number"


@st.composite
def texts(draw):
    optional = [c for c in COLUMNS if c not in REQUIRED_COLUMNS]
    names = [*REQUIRED_COLUMNS, *draw(st.lists(st.sampled_from(optional), unique=True, max_size=len(optional)))]
    names = draw(st.permutations(names))
    header = [SWEDISH_HEADERS[name] if draw(st.integers(0, 9)) == 0 else name for name in names]
    if draw(st.integers(0, 19)) == 0:
        header.append("")  # a spreadsheet's padding
    rows = [header]
    for number in range(1, draw(st.integers(0, 4)) + 1):
        row = []
        for name in names:
            odd = draw(st.integers(0, 11)) == 0
            if name == "deal":
                cell = draw(st.sampled_from(["", " 1", "02", str(number + 1)])) if odd else str(number)
            elif odd:
                cell = draw(st.sampled_from(ODD["number" if kind(name) == "number" else "word"]))
            else:
                cell = draw(st.sampled_from(PLAIN[kind(name)]))
                if name.endswith("_cards") and not cell:
                    cell = "0"
            row.append(cell)
        shape = draw(st.integers(0, 29))
        if shape == 0:
            row = row[:-1]
        elif shape == 1:
            row = [*row, draw(st.sampled_from(["", "7"]))]
        elif shape == 2:
            row = []
        rows.append(row)
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    quote = draw(st.integers(0, 9)) == 0
    lines = [delimiter.join(f'"{cell}"' if quote and cell else cell for cell in row) for row in rows]
    newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    return newline.join(lines) + (newline if draw(st.booleans()) else "")


def outcome(read, *args):
    try:
        return read(*args)
    except ProtocolFileError as error:
        return error


@pytest.mark.slow  # 500 texts under TEST_DEPTH=deep, each read six ways: seconds
@settings(max_examples=examples(500), deadline=None)
@given(text=texts())
def test_the_plain_reading_reads_what_the_row_reading_reads(text):
    for delimiter in (",", ";", "\t"):
        plain = outcome(read_plain_csv, text, delimiter)
        assert not isinstance(plain, ProtocolFileError)
        if plain is not None:
            assert plain == read_csv_rows(text, delimiter)
    rows = outcome(read_csv_rows, text, max((",", ";", "\t"), key=text.split("\n", 1)[0].count))
    assert outcome(read_csv, text) == rows


def test_a_file_the_site_writes_is_read_plainly():
    """Written numbers, melded yes and no, red threes, a concealed going out, the minute dealt, the
    time running out: all read by the plain reading, as the row reading reads them."""
    deals = [
        clean_deal(1, dealt_minute=0),
        clean_deal(2, away={"cards": -40, "red3": 1, "melded": False}, dealt_minute=12),
        clean_deal(3, home={"cards": 285, "natural": 1, "melded": True, "penalty": 100}, concealed=True),
        deal({"cards": 60}, {"cards": 45}, number=4, end="stock", dealt_minute=47, time_up=True),
    ]
    text = write_csv(replay(get_rules("sv-tavling"), deals))
    plain = read_plain_csv(text, ",")
    assert plain is not None
    assert plain == read_csv_rows(text, ",")
    assert [entry.time_up for entry in plain] == [False, False, False, True]
