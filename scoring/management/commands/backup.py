"""`python manage.py backup [-o FILE] [--format auto|sqlite|pg_dump|json]`: a consistent copy of
the whole database, taken while the site runs.

- SQLite: SQLite's online backup (`sqlite3.Connection.backup`); the copy is one ordinary SQLite
  file (not in WAL mode), checked with `PRAGMA integrity_check`. Restore: stop the site, remove the
  database's -wal and -shm files, put the copy in place of the database file, start the site.
- PostgreSQL: `pg_dump --format=custom` when pg_dump is installed (one snapshot); restore with
  `pg_restore`. Without pg_dump, or with `--format json` on any database: Django's `dumpdata` as
  JSON, read inside one repeatable-read transaction so that every table is from the same moment;
  restore with `migrate` and `loaddata` into an empty database.

The copy is written to a temporary file next to the target and renamed when complete, so a file
with the backup's name is never half written. The README's "Backup and restore" section has the
restore steps.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

SUFFIXES = {"sqlite": ".sqlite3", "pg_dump": ".dump", "json": ".json"}
# Rebuilt by `migrate` (content types, permissions) or worthless after a restore (sessions).
JSON_EXCLUDE = ("contenttypes", "auth.permission", "sessions")


class Command(BaseCommand):
    help = "Write a consistent copy of the database (SQLite backup, pg_dump or JSON)."

    def add_arguments(self, parser):
        parser.add_argument(
            "-o", "--output", help="File to write (default: var/backups/canasta-<date>-<time>.<kind>)."
        )
        parser.add_argument(
            "--format",
            choices=("auto", "sqlite", "pg_dump", "json"),
            default="auto",
            help="auto: sqlite for SQLite, pg_dump for PostgreSQL when installed, json otherwise.",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, **options):
        connection = connections[options["database"]]
        kind = options["format"]
        if kind == "auto":
            if connection.vendor == "sqlite":
                kind = "sqlite"
            elif connection.vendor == "postgresql" and shutil.which("pg_dump"):
                kind = "pg_dump"
            else:
                kind = "json"
        if kind == "sqlite" and connection.vendor != "sqlite":
            raise CommandError("--format sqlite needs a SQLite database.")
        if kind == "pg_dump" and connection.vendor != "postgresql":
            raise CommandError("--format pg_dump needs a PostgreSQL database.")
        if kind == "pg_dump" and not shutil.which("pg_dump"):
            raise CommandError("pg_dump is not installed; use --format json.")

        output = Path(options["output"]) if options["output"] else self.default_path(kind)
        output.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
        os.close(handle)
        temporary = Path(temporary)
        try:
            getattr(self, f"write_{kind}")(connection, temporary)
            os.replace(temporary, output)
        finally:
            temporary.unlink(missing_ok=True)
        self.stdout.write(str(output))

    @staticmethod
    def default_path(kind: str) -> Path:
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
        return Path(settings.BASE_DIR) / "var" / "backups" / f"canasta-{stamp}{SUFFIXES[kind]}"

    def write_sqlite(self, connection, path: Path) -> None:
        connection.ensure_connection()
        target = sqlite3.connect(path)
        try:
            # Copies page by page; writers may go on meanwhile and the copy restarts if they do.
            connection.connection.backup(target)
            # The site runs in WAL mode; the copy is one self-contained file.
            target.execute("PRAGMA journal_mode=DELETE")
            (result,) = target.execute("PRAGMA integrity_check").fetchone()
        finally:
            target.close()
        if result != "ok":
            raise CommandError(f"The copy failed SQLite's integrity check: {result}")

    def write_pg_dump(self, connection, path: Path) -> None:
        params = connection.settings_dict
        command = ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", str(path)]
        if params.get("HOST"):
            command += ["--host", str(params["HOST"])]
        if params.get("PORT"):
            command += ["--port", str(params["PORT"])]
        if params.get("USER"):
            command += ["--username", str(params["USER"])]
        command += ["--dbname", str(params["NAME"])]
        env = dict(os.environ)
        if params.get("PASSWORD"):
            env["PGPASSWORD"] = str(params["PASSWORD"])
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")

    def write_json(self, connection, path: Path) -> None:
        with transaction.atomic(using=connection.alias):
            if connection.vendor == "postgresql":
                # One snapshot for every table; must be the transaction's first statement.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            call_command(
                "dumpdata",
                "--natural-foreign",
                "--indent", "1",
                "--database", connection.alias,
                *(f"--exclude={label}" for label in JSON_EXCLUDE),
                output=str(path),
                verbosity=0,
            )  # fmt: skip
