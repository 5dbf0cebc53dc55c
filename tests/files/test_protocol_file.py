"""The protocol file (docs/protocol-file.md): reading CSV and xlsx, every ProtocolFileError
code with its line and column, and writing a file that reads back the same."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from scoring.engine import replay
from scoring.files.protocol_file import (
    COLUMNS,
    MAX_ROWS,
    REQUIRED_COLUMNS,
    WRITE_COLUMNS,
    ProtocolFileError,
    read_csv,
    read_protocol,
    read_xlsx_file,
    write_csv,
    write_xlsx,
)

from tests.support.deals import INTERNATIONELL, SV_TAVLING, clean_deal, deal, scored_deal
from tests.support.hostile_files import xlsx_bytes

HEADER = "deal,home_cards,away_cards"


def csv_text(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def read_error(data) -> ProtocolFileError:
    with pytest.raises(ProtocolFileError) as info:
        if isinstance(data, bytes) and data[:4] == b"PK\x03\x04":
            read_xlsx_file(data).deals
        else:
            read_csv(data)
    return info.value


# -- the columns --------------------------------------------------------------------------------


def test_columns_are_those_of_rules_md():
    sides = ["cards", "natural", "mixed", "red3", "penalty", "melded", "min", "score", "total"]
    expected = {"deal", "out", "concealed", "end", "time_up", "dealt"} | {
        f"{s}_{n}" for s in ("home", "away") for n in sides
    }
    assert set(COLUMNS) == expected
    assert set(WRITE_COLUMNS) == expected
    assert REQUIRED_COLUMNS == ("deal", "home_cards", "away_cards")


# -- reading CSV --------------------------------------------------------------------------------


def test_read_minimal_csv_with_defaults():
    (entry,) = read_csv(csv_text(HEADER, "1,120,-40"))
    assert entry.number == 1
    assert (entry.home.cards, entry.away.cards) == (120, -40)
    for side in (entry.home, entry.away):
        assert (side.natural, side.mixed, side.red3, side.penalty) == (0, 0, 0, 0)
        assert side.melded is None
        assert (side.written_min, side.written_score, side.written_total) == (None, None, None)
    assert entry.out is None
    assert entry.concealed is False
    assert entry.end is None
    assert entry.effective_end == "stock"
    assert entry.melded("home") is True  # positive card points
    assert entry.melded("away") is False


@pytest.mark.parametrize(
    ("line", "home_melded", "away_melded"),
    [
        # default: yes if the side has canastas, positive card points or went out; otherwise no
        ("1,0,0,,,,", False, False),
        ("1,-40,-5,,,,", False, False),
        ("1,5,0,,,,", True, False),
        ("1,-40,-60,1,,,", True, False),
        ("1,-40,-60,,1,,", False, True),
        ("1,0,-60,,,home,", True, False),
        ("1,0,-60,,,away,", False, True),
        # written yes/no wins over the default
        ("1,-40,120,,,,no", False, False),
        ("1,-40,120,,,,yes", False, True),
    ],
)
def test_melded_default(line, home_melded, away_melded):
    header = "deal,home_cards,away_cards,home_natural,away_mixed,out,away_melded"
    (entry,) = read_csv(csv_text(header, line))
    assert entry.melded("home") is home_melded
    assert entry.melded("away") is away_melded


@pytest.mark.parametrize(
    ("out", "end", "effective_end"),
    [("home", "", "out"), ("", "", "stock"), ("", "clock", "clock"), ("away", "out", "out"), ("", "stock", "stock")],
)
def test_end_default(out, end, effective_end):
    (entry,) = read_csv(csv_text("deal,home_cards,away_cards,out,end", f"1,0,0,{out},{end}"))
    assert entry.effective_end == effective_end
    assert entry.out == (out or None)


def test_read_every_column_in_any_order():
    header = ",".join(reversed(WRITE_COLUMNS))
    values = {
        "deal": "1",
        "home_cards": "285", "home_natural": "1", "home_mixed": "0", "home_red3": "2", "home_penalty": "100",
        "home_melded": "yes",
        "away_cards": "-40", "away_natural": "0", "away_mixed": "0", "away_red3": "1", "away_penalty": "0",
        "away_melded": "no",
        "out": "home", "concealed": "yes", "end": "out", "time_up": "yes", "dealt": "48",
        "home_min": "50", "away_min": "50", "home_score": "1085", "away_score": "-140",
        "home_total": "1085", "away_total": "-140",
    }  # fmt: skip
    line = ",".join(values[name] for name in reversed(WRITE_COLUMNS))
    (entry,) = read_csv(csv_text(header, line))
    assert entry == deal(
        {"cards": 285, "natural": 1, "red3": 2, "penalty": 100, "melded": True, "min": 50, "score": 1085, "total": 1085},
        {"cards": -40, "red3": 1, "melded": False, "min": 50, "score": -140, "total": -140},
        out="home",
        concealed=True,
        end="out",
        dealt_minute=48,
        time_up=True,
    )
    state = replay(SV_TAVLING, [entry])
    # Red threes under sv-tavling: a warning, and the written scores include them (home rules).
    assert state.deals[0].errors == ()
    assert [p.code for p in state.deals[0].warnings if p.code == "score-mismatch"] == ["score-mismatch", "score-mismatch"]
    assert state.end == "clock"


@pytest.mark.parametrize(
    "data",
    [
        csv_text(HEADER, "1,120,-40", "2,-5,300"),
        csv_text("deal;home_cards;away_cards", "1;120;-40", "2;-5;300"),
        csv_text("deal\thome_cards\taway_cards", "1\t120\t-40", "2\t-5\t300"),
        "\r\n".join([HEADER, "1,120,-40", "2,-5,300"]) + "\r\n",
        csv_text("away_cards,deal,home_cards", "-40,1,120", "300,2,-5"),
        csv_text("Deal, Home_Cards ,AWAY_CARDS", "1,120,-40", "2,-5,300"),
        csv_text(HEADER, "", "1,120,-40", " , , ", "2,-5,300", ""),
        csv_text(HEADER, "1,+120,\u221240", "2,-5,300"),
        csv_text(HEADER, '1," 120 ",-40', "2,-5,300"),
    ],
    ids=["commas", "semicolons", "tabs", "crlf", "any-order", "header-case-and-spaces", "blank-lines",
         "unicode-minus", "quoted-spaces"],
)
def test_read_csv_variants(data):
    deals = read_csv(data)
    assert [(d.number, d.home.cards, d.away.cards) for d in deals] == [(1, 120, -40), (2, -5, 300)]
    # The same as bytes, with and without a byte order mark, and in Windows encoding.
    assert read_csv(data.encode("utf-8")) == deals
    assert read_csv(b"\xef\xbb\xbf" + data.encode("utf-8")) == deals
    assert read_csv("\ufeff" + data) == deals
    assert read_protocol(("\ufeff" + data).encode("utf-8"), "protokoll.csv") == deals


def test_thousands_separators():
    (entry,) = read_csv(csv_text(HEADER, '1,"1 180",-1\u2009180'))
    assert (entry.home.cards, entry.away.cards) == (1180, -1180)


@pytest.mark.parametrize(
    ("raw", "melded"),
    [("yes", True), ("YES", True), ("ja", True), ("Ja", True), ("no", False), ("nej", False), ("", None)],
)
def test_yes_no_values(raw, melded):
    (entry,) = read_csv(csv_text("deal,home_cards,away_cards,home_melded", f"1,0,0,{raw}"))
    assert entry.home.melded is melded


@pytest.mark.parametrize(("raw", "concealed"), [("yes", True), ("", False), ("no", False)])
def test_concealed_values(raw, concealed):
    (entry,) = read_csv(csv_text("deal,home_cards,away_cards,out,concealed", f"1,100,0,home,{raw}"))
    assert entry.concealed is concealed


def test_read_cp1252():
    data = csv_text(HEADER, "1,120,-40").encode("cp1252")
    assert read_csv(data)[0].home.cards == 120


# -- every ProtocolFileError, with its line and column --------------------------------------------


@pytest.mark.parametrize(
    ("data", "code", "line", "column"),
    [
        (csv_text("deal,home_cards,away_cards,home_bonus", "1,0,0,0"), "unknown-column", 1, "home_bonus"),
        (csv_text("deal,home_cards,away_cards,dealt_at", "1,0,0,5"), "unknown-column", 1, "dealt_at"),
        (csv_text("deal,home_cards", "1,0"), "missing-column", 1, "away_cards"),
        (csv_text("home_cards,away_cards", "0,0"), "missing-column", 1, "deal"),
        (csv_text("deal,home_cards,away_cards,home_cards", "1,0,0,0"), "duplicate-column", 1, "home_cards"),
        (csv_text("deal,home_cards,,away_cards", "1,0,0,0"), "empty-column-name", 1, None),
        ("", "no-header", 1, None),
        ("\n\n", "no-header", 1, None),
        (csv_text(HEADER, "1,120,-40", "2,abc,0"), "not-a-number", 3, "home_cards"),
        (csv_text(HEADER, "1,120,-4O"), "not-a-number", 2, "away_cards"),
        (csv_text(HEADER, "1,12.5,0"), "not-a-number", 2, "home_cards"),
        (csv_text(HEADER, "x,0,0"), "not-a-number", 2, "deal"),
        (csv_text("deal,home_cards,away_cards,away_red3", "1,0,0,two"), "not-a-number", 2, "away_red3"),
        (csv_text("deal,away_score,home_cards,away_cards", "1,-4 0 0 0 0 0 0 0 0 0,0,0"), "number-too-large", 2, "away_score"),
        (csv_text(HEADER, "1,99999999,0"), "number-too-large", 2, "home_cards"),
        (csv_text("deal,home_cards,away_cards,home_melded", "1,0,0,maybe"), "bad-value", 2, "home_melded"),
        (csv_text("deal,home_cards,away_cards,concealed", "1,0,0,perhaps"), "bad-value", 2, "concealed"),
        (csv_text("deal,home_cards,away_cards,out", "1,0,0,both"), "bad-value", 2, "out"),
        (csv_text("deal,home_cards,away_cards,end", "1,0,0,time"), "bad-value", 2, "end"),
        (csv_text(HEADER, "1,0,0", "3,0,0"), "deal-sequence", 3, "deal"),
        (csv_text(HEADER, "2,0,0"), "deal-sequence", 2, "deal"),
        (csv_text(HEADER, "1,0,0", "1,0,0"), "deal-sequence", 3, "deal"),
        (csv_text(HEADER, "1,0,0", "", "3,0,0"), "deal-sequence", 4, "deal"),
        (csv_text(HEADER, ",0,0"), "missing-value", 2, "deal"),
        (csv_text(HEADER, "1,,0"), "missing-value", 2, "home_cards"),
        (csv_text(HEADER, "1,0"), "missing-value", 2, "away_cards"),
        (csv_text(HEADER, "1,0,0,5"), "too-many-values", 2, None),
        (csv_text(HEADER, '1,"' + "9" * 140_000 + '",0'), "csv-syntax", 2, None),
        (b"\x81\x8d\x8f\x90", "encoding", None, None),
        (csv_text(HEADER, "1,0\x00,0"), "not-text", None, None),
    ],
)
def test_file_errors(data, code, line, column):
    error = read_error(data)
    assert (error.code, error.line, error.column) == (code, line, column)
    assert code in str(error)


def test_file_error_params():
    assert read_error(csv_text(HEADER, "1,0,0", "3,0,0")).params == {"value": 3, "expected": 2}
    assert read_error(csv_text(HEADER, "1,abc,0")).params == {"value": "abc"}
    assert read_error(csv_text("deal,home_cards,,away_cards")).params == {"position": 3}


def test_too_many_rows():
    lines = [HEADER] + [f"{n},0,0" for n in range(1, MAX_ROWS + 2)]
    error = read_error(csv_text(*lines))
    assert (error.code, error.line) == ("too-many-rows", MAX_ROWS + 2)
    assert len(read_csv(csv_text(*lines[:-1]))) == MAX_ROWS


def test_header_only_is_an_empty_protocol():
    assert read_csv(csv_text(HEADER)) == []


# -- xlsx ---------------------------------------------------------------------------------------


def test_read_xlsx():
    data = xlsx_bytes(
        [
            ("away_cards", "Deal", "home_cards", "home_natural", "out", "home_melded", "concealed", "home_score"),
            (-40, 1, 285, 1, "home", "yes", None, 885),
            (-40.0, 2.0, "285", None, "", None, "", None),
            (None, None, None, None, None, None, None, None),
            (0, 3, 35, 1, "home", True, "yes", 735),
        ]
    )
    deals = read_xlsx_file(data).deals
    assert deals == read_protocol(data, "protokoll.xlsx")
    assert deals == read_protocol(data)  # recognised by its first bytes
    assert [d.number for d in deals] == [1, 2, 3]
    assert deals[0] == clean_deal(home={"cards": 285, "natural": 1, "melded": True, "score": 885})
    assert deals[1] == deal({"cards": 285}, {"cards": -40}, number=2)
    assert deals[2].concealed and deals[2].home.melded is True
    assert replay(SV_TAVLING, deals).errors == 0


@pytest.mark.parametrize(
    ("rows", "code", "line", "column"),
    [
        ([("deal", "home_cards", "bonus"), (1, 0, 0)], "unknown-column", 1, "bonus"),
        ([("deal", "home_cards"), (1, 0)], "missing-column", 1, "away_cards"),
        ([("deal", "home_cards", "away_cards"), (1, 0, 0), (2, 0, "femtio")], "not-a-number", 3, "away_cards"),
        ([("deal", "home_cards", "away_cards"), (1, 12.5, 0)], "not-a-number", 2, "home_cards"),
        ([("deal", "home_cards", "away_cards"), (1, 0, 0), (3, 0, 0)], "deal-sequence", 3, "deal"),
        ([("deal", "home_cards", "away_cards", "away_melded"), (1, 0, 0, "kanske")], "bad-value", 2, "away_melded"),
        ([], "no-header", 1, None),
    ],
)
def test_xlsx_errors(rows, code, line, column):
    error = read_error(xlsx_bytes(rows))
    assert (error.code, error.line, error.column) == (code, line, column)


def test_not_an_xlsx():
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(b"PK\x03\x04 this is no workbook", "protokoll.xlsx")
    assert info.value.code == "not-xlsx"


# -- writing ------------------------------------------------------------------------------------


def sample_match():
    return [
        clean_deal(1),
        deal({"cards": -40, "red3": 1}, {"cards": 120, "mixed": 1, "red3": 2}, number=2, out="away", concealed=True),
        deal({"cards": 500, "natural": 2, "penalty": 100}, {"cards": 0}, number=3, end="stock"),
        deal({"cards": 0}, {"cards": -20, "red3": 1, "melded": True}, number=4, end="clock"),
        scored_deal(5, (4, 500), (0, 0)),
        scored_deal(6, (0, 0), (1, 100)),  # after the end
    ]


def summary(state):
    return (
        [(d.number, d.score, d.home_total, d.away_total, d.home_min_before, d.away_min_before, d.errors, d.warnings)
         for d in state.deals],
        (state.home_total, state.away_total, state.finished, state.end, state.end_deal, state.winner),
        (state.errors, state.warnings),
    )


@pytest.mark.parametrize("rules", [SV_TAVLING, INTERNATIONELL], ids=lambda r: r.key)
def test_write_csv_read_csv_round_trip(rules):
    state = replay(rules, sample_match())
    text = write_csv(state)
    assert text.splitlines()[0] == ",".join(WRITE_COLUMNS)
    deals = read_csv(text)
    assert len(deals) == len(state.deals)
    again = replay(rules, deals)
    assert summary(again) == summary(state)
    # What was written is what the engine computed: checking the written file finds nothing new.
    for written, original in zip(deals, state.deals):
        assert written.home.written_score == original.score.home.score
        assert written.away.written_total == original.away_total
        assert written.home.written_min == original.home_min_before
        assert written.melded("home") == original.entry.melded("home")
        assert written.melded("away") == original.entry.melded("away")
        assert written.effective_end == original.entry.effective_end
    # Writing the read file again gives the same text.
    assert write_csv(again) == text


def test_write_xlsx_read_xlsx_round_trip():
    state = replay(INTERNATIONELL, sample_match())
    data = write_xlsx(state)
    assert data[:4] == b"PK\x03\x04"
    assert summary(replay(INTERNATIONELL, read_protocol(data, "x.xlsx"))) == summary(state)


def test_written_file_shows_the_engines_numbers():
    state = replay(SV_TAVLING, [clean_deal(1), clean_deal(2, concealed=True)])
    rows = [line.split(",") for line in write_csv(state).splitlines()]
    header, first, second = rows
    record = dict(zip(header, second))
    assert record["home_score"] == "985"
    assert record["home_total"] == "1870"
    assert record["away_total"] == "-80"
    assert record["concealed"] == "yes"
    # `melded` as written: left to the default here, so empty (docs/protocol-file.md, "Rows and columns").
    assert record["home_melded"] == "" and record["away_melded"] == ""
    assert dict(zip(header, first))["concealed"] == ""
    assert record["time_up"] == "" and record["dealt"] == ""


def test_written_file_marks_time_up_where_the_clock_ended_the_match_between_deals():
    deals = [clean_deal(1, dealt_minute=0), clean_deal(2, dealt_minute=49)]
    for state in (replay(SV_TAVLING, deals, clock_expired=True), replay(SV_TAVLING, [deals[0], replace(deals[1], time_up=True)])):
        records = [dict(zip(rows[0], row)) for rows in [list(csv.reader(io.StringIO(write_csv(state))))] for row in rows[1:]]
        assert [r["time_up"] for r in records] == ["", "yes"]
        assert [r["dealt"] for r in records] == ["0", "49"]
        again = replay(SV_TAVLING, read_csv(write_csv(state)))
        assert (again.end, again.end_deal, again.winner) == ("clock", 2, "home")


# -- words in any letter case and in Swedish (docs/rules.md, "Revision 3") ------------------------------

ANY_CASE = """deal,home_cards,home_natural,away_cards,away_natural,out,concealed,end,time_up,home_melded,away_melded
1,285,1,-40,0, HEMMA ,JA,UTGÅNG,,Yes,NEJ
2,-40,0,285,1,Borta,j,Utgång,,N,True
3,0,0,0,0,,Nej,TALONG,no,false,NEJ
4,0,0,0,0,,,Klockan,X,0,n
5,0,0,0,0,,,  Stock ,NO,Y,
"""
AS_ENGLISH = """deal,home_cards,home_natural,away_cards,away_natural,out,concealed,end,time_up,home_melded,away_melded
1,285,1,-40,0,home,yes,out,,yes,no
2,-40,0,285,1,away,yes,out,,no,yes
3,0,0,0,0,,,stock,,no,no
4,0,0,0,0,,,clock,yes,no,no
5,0,0,0,0,,,stock,,yes,
"""


def test_words_are_read_in_any_letter_case_and_in_swedish():
    """docs/protocol-file.md, "Rows and columns": words in any letter case with spaces around them ignored; ja,
    nej, j, x; hemma/borta, utgång/talong/klockan; headings in any letter case too."""
    assert read_csv(ANY_CASE) == read_csv(AS_ENGLISH)
    assert read_csv(ANY_CASE.replace("deal,home_cards", "Deal,HOME_CARDS", 1)) == read_csv(AS_ENGLISH)


@pytest.mark.parametrize("word", ["F", "hemmalaget", "kanske"])
def test_any_other_word_makes_the_file_unreadable_by_line_and_column(word):
    with pytest.raises(ProtocolFileError) as refused:
        read_csv(ANY_CASE.replace(",false,NEJ\n", f",false,{word}\n"))
    assert (refused.value.line, refused.value.column) == (4, "away_melded")


def test_a_file_written_again_keeps_the_paper_as_written_and_its_notes():
    """write_csv writes the written minimums, scores and totals (rule 35 b, revision 3), and where
    nothing was written the computed ones, the total carried on from the one before as the
    protocol has it: read again, the protocol has the same notes at the same deals."""
    deals = [
        clean_deal(1, home={"cards": 285, "natural": 1, "total": 885}),
        clean_deal(2, home={"cards": 285, "natural": 1, "total": 1775}, away={"cards": -40, "score": -45}),
        clean_deal(3),
        clean_deal(4, home={"cards": 285, "natural": 1, "min": 90}),
    ]
    state = replay(SV_TAVLING, deals)
    notes = [(d.number, p.code, p.side) for d in state.deals for p in d.warnings]
    assert notes == [(2, "score-mismatch", "away"), (2, "total-mismatch", "home")]
    rows = list(csv.DictReader(io.StringIO(write_csv(state))))
    assert [row["home_total"] for row in rows] == ["885", "1775", "2660", "3545"]
    assert [row["away_score"] for row in rows] == ["-40", "-45", "-40", "-40"]
    again = replay(SV_TAVLING, read_csv(write_csv(state)))
    assert [(d.number, p.code, p.side) for d in again.deals for p in d.warnings] == notes
    assert (again.errors, again.home_total, again.away_total) == (0, state.home_total, state.away_total)
    # Without a written number every column is the computed one.
    clean = replay(SV_TAVLING, [clean_deal(1), clean_deal(2)])
    rows = list(csv.DictReader(io.StringIO(write_csv(clean))))
    assert [(row["home_min"], row["home_score"], row["home_total"]) for row in rows] == [("50", "885", "885"), ("50", "885", "1770")]
