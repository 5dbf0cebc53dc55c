"""Benchmarks of the official documents: a protocol PDF, a round of 40 blank protocols and
a 100 000-deal workbook, each beside the bare library doing the same work, so the figures are ratios
that mean the same on a fast or a busy machine. One JSON line per figure:
{"name", "value", "unit", "target", "ok"} plus "baseline" and "ratio" where they apply. Nothing here
asserts on time; the asserts check that what was measured is right.

- protocol_pdf: scoring.exports.pdf.match_protocol_pdf (queries, engine replay, template, QR code,
  WeasyPrint) against bare WeasyPrint writing the same HTML with the same stylesheets (target ≤ 1.2).
- blank_protocols_40: one PDF of 40 blank protocols (a round of 80 teams), in seconds, with the same
  comparison beside it.
- workbook_100k: scoring.exports.xlsx.competition_xlsx of a competition with 10 000 matches and
  100 000 deals (standings, 100 round sheets, the deals sheet) against bare openpyxl write-only
  writing the same rows already in memory (target ≤ 1.3).
- workbook_100k_peak_memory: `manage.py export --format xlsx` of that competition in a fresh process,
  its peak resident memory (VmHWM) — interpreter and Django included (target < 300 MB).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
import weasyprint
from django.db import connection
from openpyxl import Workbook

from scoring.adapters import computed_fields, entry_to_fields
from scoring.engine import replay
from scoring.exports import pdf, xlsx
from scoring.exports.listings import RoundResultsExportTable, round_result_rows, standings_table
from scoring.models import Club, Competition, Deal, Match, Player, Round, Team
from scoring.selectors import competition_standings, round_results
from tests import factories as f
from tests.support.readers import pdf_page_count

MANAGE_PY = Path(__file__).resolve().parents[2] / "manage.py"
PDF_RATIO, WORKBOOK_RATIO, MEMORY_MB, BLANK_SECONDS = 1.2, 1.3, 300, 60
TEAMS, ROUNDS, DEALS_PER_MATCH = 200, 100, 10  # 100 matches a round: 10 000 matches, 100 000 deals

pytestmark = pytest.mark.django_db


def emit(name, value, unit, target, ok, **extra) -> dict:
    line = {"name": name, "value": round(value, 3) if isinstance(value, float) else value, "unit": unit,
            "target": target, "ok": bool(ok)}
    for key, item in extra.items():
        line[key] = round(item, 3) if isinstance(item, float) else item
    print()  # on a line of its own, after pytest's progress dots
    print(json.dumps(line, ensure_ascii=False))
    return line


def median_seconds(action, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def interleaved(ours, bare, rounds: int) -> tuple[float, float]:
    """Median seconds of each, measured turn about so a busy machine slows both alike."""
    ours_times, bare_times = [], []
    for _ in range(rounds):
        ours_times.append(median_seconds(ours, 1))
        bare_times.append(median_seconds(bare, 1))
    return statistics.median(ours_times), statistics.median(bare_times)


def bare_weasyprint(html: str) -> bytes:
    # The same stylesheets, parsed beforehand as the exporter's cache has them.
    return weasyprint.HTML(string=html, base_url=pdf.base_url()).write_pdf(stylesheets=BARE_CSS)


BARE_CSS: list = []


@pytest.fixture(autouse=True)
def _stylesheets():
    BARE_CSS[:] = pdf.stylesheets()


# -- PDF ----------------------------------------------------------------------------------------


def test_protocol_pdf():
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"])
    html = pdf.match_protocol_html(match)
    pdf.match_protocol_pdf(match)  # warm up fonts and caches for both
    bare_weasyprint(html)

    ours, bare = interleaved(lambda: pdf.match_protocol_pdf(match), lambda: bare_weasyprint(html), 11)

    ratio = ours / bare
    emit("protocol_pdf", ratio, "ratio", PDF_RATIO, ratio <= PDF_RATIO, seconds=ours, baseline=bare)
    assert pdf.match_protocol_pdf(match).content.startswith(b"%PDF")


def test_blank_protocols_for_a_round_of_40():
    competition = f.make_competition()
    club = f.make_club()
    for table in range(1, 41):
        f.make_match(competition=competition, table=table, home=f.make_team(club=club), away=f.make_team(club=club))
    round_ = competition.rounds.get(number=1)
    html = pdf.round_blank_protocols_html(round_)

    ours, bare = interleaved(lambda: pdf.round_blank_protocols_pdf(round_), lambda: bare_weasyprint(html), 1)

    emit("blank_protocols_40", ours, "s", BLANK_SECONDS, ours <= BLANK_SECONDS, baseline=bare, ratio=ours / bare,
         pages=40)
    assert pdf_page_count(pdf.round_blank_protocols_pdf(round_).content) == 40


# -- the 100 000-deal workbook ------------------------------------------------------------------


def _sample_deals():
    """Ten legal deals under sv-tavling: no side reaches 5000; the tenth ends by the clock."""
    deals = []
    for number in range(1, DEALS_PER_MATCH):
        if number % 2:
            deals.append(f.deal(number, home_cards=150, home_mixed=1, out="home", away_cards=-20))
        else:
            deals.append(f.deal(number, away_cards=120, away_natural=1, out="away", home_cards=30))
    deals.append(f.deal(DEALS_PER_MATCH, home_cards=60, home_mixed=1, away_cards=90, end="clock"))
    return deals


@pytest.fixture(scope="module")
def big_competition(django_db_setup, django_db_blocker):
    """10 000 confirmed matches with 100 000 deals, written in bulk with the engine's numbers."""
    with django_db_blocker.unblock():
        started = time.perf_counter()
        club = Club.objects.create(name="Bänkklubben")
        competition = Competition.objects.create(name="Bänkserien", season="2026/27", organiser=club)
        players = Player.objects.bulk_create(Player(name=f"Spelare {n}", club=club) for n in range(2 * TEAMS))
        teams = Team.objects.bulk_create(
            Team(name=f"Lag {n:03d}", club=club, player_one=players[2 * n], player_two=players[2 * n + 1])
            for n in range(TEAMS)
        )
        competition.teams.add(*teams)
        rounds = Round.objects.bulk_create(Round(competition=competition, number=n) for n in range(1, ROUNDS + 1))
        entries = _sample_deals()
        rules = competition.rules
        state = replay(rules, entries, points=competition.points_rules)
        outcome = state.outcome
        assert state.finished and state.errors == 0
        matches = Match.objects.bulk_create(
            Match(
                competition=competition, round=round_, table=table + 1,
                home_team=teams[(table * 2 + round_.number) % TEAMS],
                away_team=teams[(table * 2 + 1 + round_.number) % TEAMS],
                status=Match.Status.CONFIRMED, end=state.end, rules_snapshot=rules.to_dict(),
                deal_count=len(entries), home_total=state.home_total, away_total=state.away_total,
                winner=outcome.winner, home_points=outcome.home_points, away_points=outcome.away_points,
                home_for=outcome.home_for, home_against=outcome.home_against,
                away_for=outcome.away_for, away_against=outcome.away_against,
            )
            for round_ in rounds
            for table in range(TEAMS // 2)
        )  # fmt: skip
        values = [
            {**entry_to_fields(replayed.entry), **computed_fields(replayed)} for replayed in state.deals
        ]
        for start in range(0, len(matches), 1000):
            Deal.objects.bulk_create(
                (Deal(match=match, **row) for match in matches[start : start + 1000] for row in values),
                batch_size=2000,
            )
        emit("bench_workbook_data_build", time.perf_counter() - started, "s", None, True,
             matches=len(matches), deals=len(matches) * len(values))
        yield competition


def bare_rows(competition) -> list[tuple[str, list[list]]]:
    """The workbook's sheets as plain rows in memory: what bare openpyxl is given to write."""
    sheets = [("Standings", list(standings_table(competition, competition_standings(competition)).as_values()))]
    for round_ in competition.rounds.order_by("number"):
        table = RoundResultsExportTable(round_result_rows(round_results(round_)))
        sheets.append((f"Round {round_.number}", list(table.as_values())))
    sheets.append(("Deals", list(xlsx.competition_deal_rows(competition))))
    return sheets


def bare_openpyxl(sheets) -> None:
    workbook = Workbook(write_only=True)
    for title, rows in sheets:
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    workbook.save(os.devnull)


def test_workbook_of_100000_deals(big_competition):
    sheets = bare_rows(big_competition)
    deal_rows = len(sheets[-1][1]) - 1
    assert deal_rows == TEAMS // 2 * ROUNDS * DEALS_PER_MATCH == 100_000

    ours, bare = interleaved(lambda: xlsx.competition_xlsx(big_competition), lambda: bare_openpyxl(sheets), 2)

    ratio = ours / bare
    emit("workbook_100k", ratio, "ratio", WORKBOOK_RATIO, ratio <= WORKBOOK_RATIO, seconds=ours, baseline=bare,
         deals=deal_rows)


def _database_url() -> str:
    """The test database, for a fresh process. SQLite's is a file in WAL mode (settings): the
    fixture's rows are committed, and a reader in another process does not wait for this test's
    open transaction. (A backup through this connection would wait for ever: a connection that
    holds a write transaction, as every test's does under transaction_mode IMMEDIATE, cannot be
    backed up, and Python's backup() retries until it can.)"""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(settings["NAME"])
        assert not connection.is_in_memory_db(), "the benchmark's child process needs the database in a file"
        return f"sqlite:///{name}"
    user, password = settings.get("USER") or "", settings.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return f"postgres://{auth}{settings.get('HOST') or 'localhost'}:{settings.get('PORT') or 5432}/{settings['NAME']}"


def test_workbook_peak_memory(big_competition, tmp_path):
    output = tmp_path / "bench.xlsx"
    env = {**os.environ, "DATABASE_URL": _database_url(), "DJANGO_SETTINGS_MODULE": "canastaclub.settings"}
    # The child reports its own peak resident memory when it ends: VmHWM, the high-water mark of
    # its address space since exec (ru_maxrss would count the parent's pages copied at the fork).
    code = (
        "import runpy, sys\n"
        "sys.argv = sys.argv[1:]\n"
        "try:\n"
        "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
        "finally:\n"
        "    with open('/proc/self/status') as status:\n"
        "        peak = next(line.split()[1] for line in status if line.startswith('VmHWM:'))\n"
        "    print('MAXRSS_KB', peak, file=sys.stderr)\n"
    )
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, str(MANAGE_PY), "export", "--competition", str(big_competition.pk),
         "--format", "xlsx", "-o", str(output)],
        capture_output=True, text=True, env=env, cwd=MANAGE_PY.parent, timeout=900,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    assert result.returncode == 0, result.stderr
    peak_kb = int(result.stderr.rsplit("MAXRSS_KB", 1)[1].split()[0])  # kilobytes on Linux
    peak_mb = peak_kb / 1024
    emit("workbook_100k_peak_memory", peak_mb, "MB", MEMORY_MB, peak_mb < MEMORY_MB, seconds=seconds,
         size_mb=output.stat().st_size / 1e6)
    assert output.stat().st_size > 1_000_000
