"""`manage.py backup`: the copy restores into an empty database with every match and deal as it was."""

from __future__ import annotations

import datetime
import io
import json
import shutil
import sqlite3
import subprocess
import sys
import uuid

import pytest
from django.core.management import call_command
from django.db import connection

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from tests import factories as f

from tests.support.server import BASE_DIR

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = ("scoring_match", "scoring_deal", "scoring_auditentry", "scoring_competition", "scoring_team")


def league_with_results():
    """A finished and confirmed match, one in progress, a walk over, and an untouched one."""
    s = f.protocol_setup()
    match = s["match"]
    for number in range(1, 4):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    match = services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    services.match_confirm(match=match, user=s["away_captain"], expected_version=match.version)
    second = f.make_match(competition=match.competition, home=s["home"], away=s["away"], round_number=2)
    second = services.deals_record(match=second, user=s["secretary"], entry=f.winning_deal(1, "away"), expected_version=second.version)
    services.deals_record(
        match=second, user=s["secretary"], entry=f.deal(2, home_cards=120, away_cards=-35, end="stock"),
        expected_version=second.version,
    )
    third = f.make_match(competition=match.competition, home=s["home"], away=s["away"], round_number=3)
    services.match_forfeit(match=third, user=s["secretary"], winner="away", reason="WO", expected_version=third.version)
    f.make_match(competition=match.competition, home=s["away"], away=s["home"], round_number=4)
    assert Deal.objects.count() == 5 and Match.objects.count() == 4
    return s


def _plain(value):
    """The same instant reads with different tzinfo objects through different drivers."""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc)
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)  # JSON columns: text from one driver, objects from another
        except ValueError:
            return value
    return value


def rows(cursor, table: str) -> list[tuple]:
    cursor.execute(f"SELECT * FROM {table} ORDER BY id")
    return [tuple(_plain(value) for value in row) for row in cursor.fetchall()]


def live_rows() -> dict[str, list[tuple]]:
    with connection.cursor() as cursor:
        return {table: rows(cursor, table) for table in TABLES}


def orm_rows() -> dict[str, list[dict]]:
    return {
        "matches": list(Match.objects.order_by("pk").values()),
        "deals": list(Deal.objects.order_by("pk").values()),
        "audit": list(AuditEntry.objects.order_by("pk").values()),
    }


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite online backup")
def test_sqlite_backup_is_a_complete_database(tmp_path):
    league_with_results()
    target = tmp_path / "backup.sqlite3"
    out = io.StringIO()
    call_command("backup", "-o", str(target), stdout=out)
    assert out.getvalue().strip() == str(target)

    # One self-contained file: no write-ahead log beside it, whatever mode the site runs in.
    assert target.read_bytes()[18:20] == b"\x01\x01"
    # Restore = put the file in place of the database file.
    restored = tmp_path / "restored.sqlite3"
    shutil.copy(target, restored)
    # The same column converters as Django's own connection, so both sides read alike.
    copy = sqlite3.connect(restored, detect_types=sqlite3.PARSE_DECLTYPES | sqlite3.PARSE_COLNAMES)
    try:
        copied = {table: rows(copy.cursor(), table) for table in TABLES}
    finally:
        copy.close()
    assert copied == live_rows()
    assert len(copied["scoring_deal"]) == 5 and len(copied["scoring_match"]) == 4

    # The restored file is a database the site can run on: every migration is there.
    check = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"],
        cwd=BASE_DIR, env={"DATABASE_URL": f"sqlite:///{restored}", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump and pg_restore")
@pytest.mark.skipif(not shutil.which("pg_restore"), reason="pg_restore is not installed")
def test_pg_dump_backup_restores_into_an_empty_database(tmp_path):
    import psycopg

    league_with_results()
    target = tmp_path / "backup.dump"
    call_command("backup", "-o", str(target), stdout=io.StringIO())
    assert target.read_bytes()[:5] == b"PGDMP"

    params = connection.settings_dict
    server = {"host": params["HOST"] or "127.0.0.1", "port": params["PORT"] or 5432}
    if params["USER"]:
        server["user"] = params["USER"]
    if params["PASSWORD"]:
        server["password"] = params["PASSWORD"]
    name = f"canasta_restore_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        restore = subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "--host", str(server["host"]),
             "--port", str(server["port"]), *(["--username", server["user"]] if "user" in server else []),
             "--dbname", name, str(target)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert restore.returncode == 0, restore.stderr
        with psycopg.connect(**server, dbname=name) as restored:
            copied = {table: rows(restored.cursor(), table) for table in TABLES}
    finally:
        with psycopg.connect(**server, dbname="postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert copied == live_rows()
    assert len(copied["scoring_deal"]) == 5


def test_json_backup_loads_into_an_emptied_database(tmp_path):
    """The generic path (PostgreSQL without pg_dump, or any database): dumpdata, then loaddata."""
    league_with_results()
    before = orm_rows()
    target = tmp_path / "backup.json"
    call_command("backup", "--format", "json", "-o", str(target), stdout=io.StringIO())

    call_command("flush", "--noinput", verbosity=0)
    assert Match.objects.count() == 0 and Deal.objects.count() == 0
    call_command("loaddata", str(target), verbosity=0)

    assert orm_rows() == before
    # The sequences go on after the restored rows: the next save does not collide.
    match = Match.objects.get(pk=before["matches"][-1]["id"])
    services.deals_record(match=match, user=f.make_admin(), entry=f.winning_deal(1), expected_version=match.version)
    assert Deal.objects.count() == 6


def test_backup_never_leaves_a_half_written_file(tmp_path, monkeypatch):
    from scoring.management.commands import backup

    def crash(self, connection, path):
        path.write_text("half")
        raise RuntimeError("disk full")

    monkeypatch.setattr(backup.Command, "write_json", crash)
    with pytest.raises(RuntimeError):
        call_command("backup", "--format", "json", "-o", str(tmp_path / "b.json"), stdout=io.StringIO())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # migrate and backup, each in a manage.py process of its own: seconds
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite files")
def test_the_backup_of_a_running_sites_wal_database_is_one_file(tmp_path):
    """The site's own SQLite file is in WAL mode; its backup must not need a -wal file beside it."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}", "PATH": "/usr/bin:/bin"}
    for args in (["migrate", "--noinput"], ["backup", "-o", str(tmp_path / "copy.sqlite3")]):
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site.sqlite3").read_bytes()[18:20] == b"\x02\x02"  # the site: WAL
    assert (tmp_path / "copy.sqlite3").read_bytes()[18:20] == b"\x01\x01"  # the copy: one file
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    try:
        assert copy.execute("SELECT count(*) FROM django_migrations").fetchone()[0] > 10
    finally:
        copy.close()
