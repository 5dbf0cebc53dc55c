"""`python manage.py protocol check FILE [--rules KEY] [--points KEY] [--json]` (docs/rules.md, "The
protocol file"): exit status, the JSON report's exact schema, the presets it is told to use, and a
readable Swedish text report. Run as a subprocess, as a secretary or a script would, so the exit
status and the separate stdout and stderr are the real ones."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import Workbook

MANAGE_PY = Path(__file__).resolve().parents[2] / "manage.py"

HEADER = "deal,home_cards,home_natural,away_cards,away_natural,out,home_score,away_score"
# The worked example of docs/rules.md, "Scoring one deal": home goes out with a natural canasta (185 + 500 + 100 = 785), away -40
# but written as -45.
# A written slip is a warning (docs/rules.md, "Revision 3"; rule 35 b): the file goes in.
RULES_EXAMPLE = "\n".join([HEADER, "1,185,1,-40,0,home,785,-45"]) + "\n"
# The JSON example of docs/protocol-file.md: away card points -42 (not a multiple of 5, an error) and the home deal
# score written 780 for 785 (a warning).
ERROR_EXAMPLE = "\n".join([HEADER, "1,185,1,-42,0,home,780,-42"]) + "\n"
CLEAN = "\n".join([HEADER, "1,185,1,-40,0,home,785,-40", "2,300,1,120,0,,800,120"]) + "\n"
# Home 2500 per deal (four natural canastas and 500 card points, a stock end): 5000 after deal 2.
FINISHED = (
    "deal,home_natural,home_cards,away_natural,away_cards,end\n"
    "1,4,500,1,200,stock\n"
    "2,4,500,0,-110,stock\n"
)
DRAWN = (
    "deal,home_natural,home_cards,away_natural,away_cards,end\n"
    "1,4,500,4,500,stock\n"
    "2,4,500,4,500,stock\n"
)
RED_THREES = "deal,home_cards,home_natural,home_red3,away_cards,away_red3,out\n1,285,1,2,-40,1,home\n"


def run_check(tmp_path, content: str | bytes | None, *args: str, name: str = "protokoll.csv"):
    path = write_file(tmp_path, content, name)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "canastaclub.settings"}
    return subprocess.run(
        [sys.executable, str(MANAGE_PY), "protocol", "check", str(path), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=MANAGE_PY.parent,
        timeout=60,
    )


def write_file(tmp_path, content: str | bytes | None, name: str) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    return path


def check_in_process(tmp_path, content, *args: str, name: str = "protokoll.csv"):
    """The command in this process (faster than a subprocess): (exit status, stdout, stderr)."""
    from django.core.management import call_command
    from django.utils import translation

    path = write_file(tmp_path, content, name)
    out, err = io.StringIO(), io.StringIO()
    status = 0
    try:
        call_command("protocol", "check", str(path), *args, stdout=out, stderr=err)
    except SystemExit as exit_info:
        status = exit_info.code or 0
    finally:
        translation.deactivate()
    return status, out.getvalue(), err.getvalue()


def run_json(tmp_path, content, *args, name: str = "protokoll.csv"):
    status, out, _ = check_in_process(tmp_path, content, "--json", *args, name=name)
    return status, json.loads(out)


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_json_stdout_is_one_json_object_and_nothing_else(tmp_path):
    result = run_check(tmp_path, ERROR_EXAMPLE, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["errors"] == 1
    assert len(result.stdout.strip().splitlines()) == 1


# -- exit status --------------------------------------------------------------------------------


@pytest.mark.slow  # manage.py in a process of its own: about a second each
@pytest.mark.parametrize(
    ("content", "status"),
    [
        (CLEAN, 0),
        (FINISHED, 0),
        # a warning (deal score above 3000) is not an error
        ("deal,home_cards,home_natural,away_cards,out\n1,500,5,-40,home\n", 0),
        # a header and no deals: nothing wrong
        ("deal,home_cards,away_cards\n", 0),
        # slips of arithmetic are warnings (revision 3): the file goes in
        (RULES_EXAMPLE, 0),
        ("deal,home_cards,away_cards,home_total\n1,0,0,0\n2,100,0,105\n3,100,0,205\n", 0),
        ("deal,home_cards,away_cards\n1,283,0\n", 1),
        (FINISHED + "3,0,100,0,0,stock\n", 1),
    ],
    ids=["clean", "finished", "warning-only", "no-deals", "score-mismatch", "total-mismatch", "not-multiple-of-5",
         "after-match-end"],
)
def test_exit_status_0_and_1(tmp_path, content, status):
    result = run_check(tmp_path, content)
    assert result.returncode == status, result.stderr
    assert result.stdout.strip()


@pytest.mark.slow  # manage.py in a process of its own: about a second each
@pytest.mark.parametrize(
    ("content", "line", "column"),
    [
        ("deal,home_cards,away_cards,colour\n1,0,0,red\n", "1", "colour"),
        ("deal,home_cards\n1,0\n", "1", "away_cards"),
        ("deal,home_cards,away_cards\n1,120,-40\n2,abc,0\n", "3", "home_cards"),
        ("deal,home_cards,away_cards\n1,0,0\n3,0,0\n", "3", "deal"),
        ("deal,home_cards,away_cards,home_melded\n1,0,0,kanske\n", "2", "home_melded"),
    ],
    ids=["unknown-column", "missing-column", "not-a-number", "deal-gap", "bad-yes-no"],
)
def test_exit_status_2_names_line_and_column(tmp_path, content, line, column):
    result = run_check(tmp_path, content, "--json")
    assert result.returncode == 2
    assert column in result.stderr
    assert f" {line}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_exit_status_2_for_a_missing_file(tmp_path):
    result = run_check(tmp_path, None, name="finns-inte.csv")
    assert result.returncode == 2
    assert "finns-inte.csv" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_exit_status_2_for_an_empty_file(tmp_path):
    result = run_check(tmp_path, "")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


# -- the JSON report ----------------------------------------------------------------------------


def test_json_schema_of_rules_md(tmp_path):
    status, report = run_json(tmp_path, ERROR_EXAMPLE)
    assert status == 1
    assert set(report) == {"rules", "deals", "result", "errors"}
    assert report["rules"] == "sv-tavling"
    (deal,) = report["deals"]
    assert set(deal) == {"deal", "home", "away", "errors", "warnings"}
    assert deal["deal"] == 1
    assert deal["home"] == {"score": 785, "total": 785, "min_before": 50}
    assert deal["away"] == {"score": -42, "total": -42, "min_before": 50}
    (error,) = deal["errors"]
    assert set(error) == {"code", "side", "field", "message"}
    assert (error["code"], error["side"], error["field"]) == ("not-multiple-of-5", "away", "away_cards")
    assert isinstance(error["message"], str) and error["message"]
    assert "Giv 1" in error["message"]
    (warning,) = deal["warnings"]
    assert set(warning) == {"code", "side", "field", "message"}
    assert (warning["code"], warning["side"], warning["field"]) == ("score-mismatch", "home", "home_score")
    assert "Giv 1" in warning["message"]
    assert report["result"] == {
        "finished": False,
        "end": None,
        "home_total": 785,
        "away_total": -42,
        "winner": None,
        "home_points": None,
        "away_points": None,
    }
    assert report["errors"] == 1


def test_json_types(tmp_path):
    _, report = run_json(tmp_path, CLEAN + "3,1180,0,0,0,,,\n")
    assert isinstance(report["rules"], str)
    assert isinstance(report["deals"], list) and len(report["deals"]) == 3
    for deal in report["deals"]:
        assert type(deal["deal"]) is int
        for side in ("home", "away"):
            assert set(deal[side]) == {"score", "total", "min_before"}
            assert all(type(value) is int for value in deal[side].values())
        assert isinstance(deal["errors"], list) and isinstance(deal["warnings"], list)
        for problem in deal["errors"] + deal["warnings"]:
            assert set(problem) == {"code", "side", "field", "message"}
            assert problem["side"] in ("home", "away", None)
            assert problem["field"] is None or isinstance(problem["field"], str)
    assert type(report["errors"]) is int
    assert report["errors"] == sum(len(d["errors"]) for d in report["deals"])
    # Deal 3: all the pack's 1180 card points to home on a stock end, no score written: legal.
    assert report["errors"] == 0
    assert [d["home"]["total"] for d in report["deals"]] == [785, 1585, 2765]
    assert [d["home"]["min_before"] for d in report["deals"]] == [50, 50, 90]
    assert [d["away"]["min_before"] for d in report["deals"]] == [50, 15, 50]


def test_json_warning_shape(tmp_path):
    _, report = run_json(tmp_path, "deal,home_cards,home_natural,away_cards,out\n1,500,5,-40,home\n")
    (warning,) = report["deals"][0]["warnings"]
    assert (warning["code"], warning["side"], warning["field"]) == ("deal-score-high", "home", "home_score")
    assert warning["message"]
    assert report["errors"] == 0


@pytest.mark.parametrize(
    ("content", "args", "result"),
    [
        (
            FINISHED,
            (),
            {"finished": True, "end": "target", "home_total": 5000, "away_total": 590, "winner": "home",
             "home_points": 1, "away_points": 0},
        ),
        (
            FINISHED,
            ("--points", "fi-liitto"),
            {"finished": True, "end": "target", "home_total": 5000, "away_total": 590, "winner": "home",
             "home_points": 2, "away_points": 0},
        ),
        (
            DRAWN,
            (),
            {"finished": True, "end": "target", "home_total": 5000, "away_total": 5000, "winner": "draw",
             "home_points": 0.5, "away_points": 0.5},
        ),
        (
            DRAWN,
            ("--points", "fi-liitto"),
            {"finished": True, "end": "target", "home_total": 5000, "away_total": 5000, "winner": "draw",
             "home_points": 1, "away_points": 1},
        ),
        (
            "deal,home_cards,away_cards,away_natural,end\n1,-40,300,1,stock\n2,-20,-30,0,clock\n",
            (),
            {"finished": True, "end": "clock", "home_total": -60, "away_total": 770, "winner": "away",
             "home_points": 0, "away_points": 1},
        ),
    ],
    ids=["target-sv-serie", "target-fi-liitto", "draw-sv-serie", "draw-fi-liitto", "clock"],
)
def test_json_result(tmp_path, content, args, result):
    status, report = run_json(tmp_path, content, *args)
    assert status == 0, report
    assert report["result"] == result
    # Points are whole numbers where they are whole.
    if result["home_points"] in (0, 1, 2):
        assert type(report["result"]["home_points"]) is int


def test_json_deal_after_the_end(tmp_path):
    status, report = run_json(tmp_path, FINISHED + "3,0,100,0,0,stock\n")
    assert status == 1
    assert [e["code"] for e in report["deals"][2]["errors"]] == ["after-match-end"]
    assert report["result"]["home_total"] == 5000  # the totals at the end
    assert report["errors"] == 1


def test_clock_end_is_an_error_without_a_clock(tmp_path):
    content = "deal,home_cards,away_cards,end\n1,0,0,clock\n"
    assert check_in_process(tmp_path, content)[0] == 0
    status, report = run_json(tmp_path, content, "--rules", "internationell-1951")
    assert status == 1
    assert report["rules"] == "internationell-1951"
    assert [e["code"] for e in report["deals"][0]["errors"]] == ["clock-not-allowed"]


def test_rules_change_red_three_scoring(tmp_path):
    _, tavling = run_json(tmp_path, RED_THREES)
    assert (tavling["deals"][0]["home"]["score"], tavling["deals"][0]["away"]["score"]) == (885, -40)
    _, official = run_json(tmp_path, RED_THREES, "--rules", "internationell-1951")
    assert official["rules"] == "internationell-1951"
    # Two red threes +200; the away side has not melded: its red three counts minus.
    assert (official["deals"][0]["home"]["score"], official["deals"][0]["away"]["score"]) == (1085, -140)
    _, home_rules = run_json(tmp_path, RED_THREES, "--rules", "sv-hem")
    assert home_rules["deals"][0]["home"]["score"] == 1085


def test_sv_hem_opening_table(tmp_path):
    content = "deal,home_natural,home_cards,away_cards,end\n1,4,500,0,stock\n2,0,0,0,stock\n"
    _, tavling = run_json(tmp_path, content)
    _, hem = run_json(tmp_path, content, "--rules", "sv-hem")
    assert tavling["deals"][1]["home"]["min_before"] == 90
    assert hem["deals"][1]["home"]["min_before"] == 120


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_unknown_rules_key_is_refused(tmp_path):
    result = run_check(tmp_path, CLEAN, "--rules", "no-such-rules")
    assert result.returncode != 0
    assert not result.stdout.strip()


def test_xlsx_file(tmp_path):
    workbook = Workbook()
    sheet = workbook.active
    for row in [("deal", "home_cards", "home_natural", "away_cards", "out"), (1, 185, 1, -40, "home")]:
        sheet.append(row)
    path = tmp_path / "protokoll.xlsx"
    workbook.save(path)
    status, report = run_json(tmp_path, path.read_bytes(), name="protokoll.xlsx")
    assert status == 0
    assert report["deals"][0]["home"]["score"] == 785


def test_semicolons_and_bom(tmp_path):
    content = "\ufeff" + CLEAN.replace(",", ";")
    status, report = run_json(tmp_path, content.encode("utf-8"))
    assert status == 0
    assert report["result"]["home_total"] == 1585


# -- the text report ----------------------------------------------------------------------------


def test_text_report_is_swedish_and_readable(tmp_path):
    status, text, _ = check_in_process(tmp_path, FINISHED)
    assert status == 0
    assert "Giv" in text
    assert "Svensk tävlingscanasta" in text
    assert "5000" in text and "590" in text  # the final totals
    assert "2500" in text  # deal 1's running total
    for english in ("Deal", "Home team", "Away team", "errors found"):
        assert english not in text


def test_text_report_names_deal_side_and_field_of_an_error(tmp_path):
    status, text, _ = check_in_process(tmp_path, ERROR_EXAMPLE)
    assert status == 1
    assert "Giv 1" in text
    assert "bortalaget" in text.lower()
    assert "785" in text and "-42" in text


def test_a_slip_is_a_warning_that_goes_in(tmp_path):
    """docs/rules.md, "Revision 3": a written deal score that is not the computed one is noted, the
    computed score counts, and the exit status is 0."""
    status, report = run_json(tmp_path, RULES_EXAMPLE)
    assert status == 0
    (deal,) = report["deals"]
    assert deal["errors"] == [] and report["errors"] == 0
    (warning,) = deal["warnings"]
    assert (warning["code"], warning["side"], warning["field"]) == ("score-mismatch", "away", "away_score")
    # The message writes numbers as the tables do: a true minus sign.
    assert "Giv 1" in warning["message"]
    assert "\u221240" in warning["message"] and "\u221245" in warning["message"]
    assert report["result"]["away_total"] == -40


def test_a_negative_natural_count_adds_nothing(tmp_path):
    """docs/rules.md, "Scoring one deal": a count below zero is negative-count and adds nothing (the second statement of
    the checks that replay once asked first scored this -500)."""
    status, report = run_json(tmp_path, "deal,home_cards,away_cards,home_natural\n1,0,0,-1\n")
    assert status == 1
    (deal,) = report["deals"]
    assert deal["home"]["score"] == 0 and deal["home"]["total"] == 0
    assert [(e["code"], e["field"]) for e in deal["errors"]] == [("negative-count", "home_natural")]
    assert report["result"]["home_total"] == 0


def test_a_total_slip_is_noted_once_where_it_was_made_and_the_file_goes_in(tmp_path):
    content = (
        "deal,home_cards,home_natural,away_cards,out,home_total,away_total,home_min\n"
        "1,300,1,-40,home,900,-40,50\n"
        "2,95,1,-30,,1500,-70,50\n"  # 900 + 595 = 1495, written 1500: the slip
        "3,45,1,-10,home,2145,-80,90\n"  # written on from 1500, minimum by the written total
    )
    status, report = run_json(tmp_path, content)
    assert status == 0, report
    notes = [(d["deal"], w["code"], w["side"]) for d in report["deals"] for w in d["warnings"]]
    assert notes == [(2, "total-mismatch", "home")]
    assert report["errors"] == 0
    assert report["result"]["home_total"] == 1495 + 645


# -- what a check loads -------------------------------------------------------------------------

# What only the pages, the documents and the other subcommands use: a check reads a workbook with
# the bounded reader (scoring/files/xlsx.py), never with openpyxl; it writes nothing, so neither the
# services nor the admin (which uses them) are loaded.
NOT_FOR_A_CHECK = ("weasyprint", "openpyxl", "django_tables2")
NOT_FOR_A_CHECK_OF_OURS = ("scoring.services", "scoring.admin", "scoring.views", "scoring.selectors")


def test_a_check_starts_without_the_documents_and_tables_libraries(tmp_path):
    """`protocol check` starts fast (docs/speed.md, "Today's figures"): manage.py as a secretary
    runs it, with Python's import log (`-X importtime`, every module imported, one a line on
    stderr)."""
    path = write_file(tmp_path, CLEAN, "protokoll.csv")
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(MANAGE_PY), "protocol", "check", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "canastaclub.settings"},
        cwd=MANAGE_PY.parent,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    imported = {
        line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")
    }
    assert "scoring.files.protocol_file" in imported  # the log was read
    assert sorted(name for name in imported if name.split(".")[0] in NOT_FOR_A_CHECK) == []
    assert sorted(name for name in imported if name.startswith(NOT_FOR_A_CHECK_OF_OURS)) == []
