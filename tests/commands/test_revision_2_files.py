"""docs/rules.md, "Revision 2", through the file paths: `time_up` and `dealt` in `protocol check` and
`protocol import`, many files checked at once, and the new warnings in the check report. The
upload page and the protocol page (the captain's view, and the official protocol PDF beside it)
are tests/views/test_revision_2_pages.py."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from scoring.models import Deal
from tests import factories as f

from .test_protocol_check import ERROR_EXAMPLE, run_check

# A CK 70 ending: deal 2 ends after minute 50, so no new deal is dealt and the match ends by the
# clock between deals, written as `time_up` on the last deal.
TIME_UP = (
    "deal,dealt,home_cards,home_natural,away_cards,out,end,time_up\n"
    "1,0,285,1,-40,home,,\n"
    "2,31,-40,,300,,stock,yes\n"
)
DEALT_LATE = "deal,dealt,home_cards,home_natural,away_cards,out\n1,0,285,1,-40,home\n2,52,285,1,-40,home\n"
# Penalty of 50 (not in hundreds) and red threes under sv-tavling, which counts them nothing.
WARNED = "deal,home_cards,home_natural,home_red3,away_cards,away_penalty,out\n1,285,1,1,-40,50,home\n"


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_check_ends_a_time_up_match_by_the_clock(tmp_path):
    result = run_check(tmp_path, TIME_UP, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["result"] == {
        "finished": True, "end": "clock", "home_total": 845, "away_total": 260,
        "winner": "home", "home_points": 1, "away_points": 0,
    }  # fmt: skip


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_time_up_under_rules_without_a_clock_is_an_error(tmp_path):
    result = run_check(tmp_path, TIME_UP, "--json", "--rules", "sv-hem")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [e["code"] for e in report["deals"][1]["errors"]] == ["clock-not-allowed"]
    assert report["deals"][1]["errors"][0]["field"] == "time_up"
    assert report["result"]["finished"] is False


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_a_deal_dealt_after_the_main_time_is_an_error_naming_the_column(tmp_path):
    result = run_check(tmp_path, DEALT_LATE, "--json")
    assert result.returncode == 1
    (error,) = json.loads(result.stdout)["deals"][1]["errors"]
    assert (error["code"], error["side"], error["field"]) == ("dealt-after-time", None, "dealt")
    assert "52" in error["message"] and "50" in error["message"]


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_the_new_warnings_have_codes_in_the_report(tmp_path):
    result = run_check(tmp_path, WARNED, "--json")
    assert result.returncode == 0
    warnings = json.loads(result.stdout)["deals"][0]["warnings"]
    assert [(w["code"], w["side"], w["field"]) for w in warnings] == [
        ("penalty-unusual", "away", "away_penalty"),
        ("red-threes-not-counted", "home", "home_red3"),
    ]
    assert all(w["message"] for w in warnings)


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_many_files_and_folders_give_a_line_each_and_the_totals(tmp_path):
    season = tmp_path / "season"
    (season / "round-1").mkdir(parents=True)
    (season / "round-1" / "a.csv").write_text(TIME_UP)
    (season / "round-1" / "b.csv").write_text(ERROR_EXAMPLE)
    (season / "c.csv").write_text("deal,home_cards\n1,0\n")  # no away_cards: cannot be read
    (season / "notes.txt").write_text("not a protocol")
    extra = tmp_path / "d.csv"
    extra.write_text(WARNED)

    result = run_check(tmp_path, None, str(extra), str(season), "--language", "en", name="x.csv")
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 2  # a file could not be read
    assert len(lines) == 6
    assert lines[0].startswith(f"{tmp_path / 'x.csv'}: ")  # the missing file named first
    assert "cannot be read" in lines[0]
    assert lines[1].startswith(f"{extra}: 1 deals, 0 errors, 2 warnings")
    assert lines[2].startswith(f"{season / 'c.csv'}: cannot be read")
    assert f"{season / 'round-1' / 'a.csv'}: 2 deals, 0 errors, 0 warnings; 845–260, home team wins (clock)" == lines[3]
    assert lines[4].startswith(f"{season / 'round-1' / 'b.csv'}: 1 deals, 1 errors")
    assert result.stdout.strip().endswith(
        "5 files, 4 deals: 1 errors in 1 files, 3 warnings, 2 files cannot be read."
    )


@pytest.mark.slow  # manage.py in a process of its own: about a second each
def test_many_files_as_json_lines(tmp_path):
    (tmp_path / "a.csv").write_text(TIME_UP)
    (tmp_path / "b.csv").write_text(ERROR_EXAMPLE)
    result = run_check(tmp_path, None, "--json", name="")  # the folder itself
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1
    assert [o.get("file") for o in objects[:-1]] == [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]
    assert objects[0]["result"]["end"] == "clock" and objects[0]["errors"] == 0
    assert objects[1]["errors"] == 1
    assert objects[-1] == {
        "totals": {"files": 2, "deals": 3, "errors": 1, "warnings": 1, "files_with_errors": 1, "unreadable": 0}
    }


# -- import -------------------------------------------------------------------------------------


@pytest.fixture
def s(db):
    setup = f.protocol_setup()
    assert setup["match"].competition.rules.has_clock
    return setup


def assert_ended_by_the_clock(match):
    match.refresh_from_db()
    assert (match.status, match.end, match.winner, match.clock_expired) == ("finished", "clock", "home", True)
    assert (match.home_total, match.away_total) == (845, 260)
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [(d.dealt_at - match.started_at).total_seconds() / 60 for d in deals] == [0, 31]


def test_import_of_a_time_up_file_ends_the_match_by_the_clock_and_keeps_the_minutes(s, tmp_path):
    match = s["match"]
    path = tmp_path / "p.csv"
    path.write_text(TIME_UP)
    call_command("protocol", "import", str(path), "--match", str(match.pk))
    assert_ended_by_the_clock(match)

    exported = tmp_path / "out.csv"
    call_command("protocol", "export", "--match", str(match.pk), "--output", str(exported))
    rows = [line.split(",") for line in exported.read_text().splitlines()]
    records = [dict(zip(rows[0], row)) for row in rows[1:]]
    assert [(r["dealt"], r["time_up"]) for r in records] == [("0", ""), ("31", "yes")]


def test_a_file_with_a_deal_after_time_up_is_not_imported(s, tmp_path):
    match = s["match"]
    path = tmp_path / "p.csv"
    path.write_text(TIME_UP + "3,0,285,1,-40,home,,\n")
    with pytest.raises(SystemExit) as exit_info:
        call_command("protocol", "import", str(path), "--match", str(match.pk))
    assert exit_info.value.code == 1
    assert Deal.objects.count() == 0
