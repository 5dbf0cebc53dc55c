"""Start the site the way the README's deployment section does, for the gunicorn test and the load
test: production settings from the environment, migrate, collectstatic, gunicorn on loopback.

Only ever binds 127.0.0.1. A scratch database is used, never the developer's or CI's own: a SQLite
file in a temporary folder, or, when a PostgreSQL server is given, a new database on it that is
dropped again afterwards.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_env(*, database_url: str, static_root: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": "https://canasta.example.org",
            "DATABASE_URL": database_url,
            "DJANGO_STATIC_ROOT": str(static_root),
            "DJANGO_LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **extra,
        }
    )
    return env


def manage(*args: str, env: dict[str, str], timeout: int = 300) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


@contextlib.contextmanager
def scratch_database(tmp_dir: Path, postgres: dict | None = None) -> Iterator[str]:
    """A DATABASE_URL of an empty database that is thrown away afterwards."""
    if postgres is None:
        yield f"sqlite:///{tmp_dir / 'db.sqlite3'}"
        return
    import psycopg

    name = f"canasta_scratch_{uuid.uuid4().hex[:12]}"
    params = {key: value for key, value in postgres.items() if value}
    admin = {**params, "dbname": "postgres"}
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    user = params.get("user", "")
    password = f":{params['password']}" if params.get("password") else ""
    host = params.get("host", "127.0.0.1")
    port = params.get("port", 5432)
    try:
        yield f"postgres://{user}{password}@{host}:{port}/{name}"
    finally:
        with psycopg.connect(**admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def http_get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 10):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@contextlib.contextmanager
def gunicorn(env: dict[str, str], *, workers: int = 2, threads: int = 1, log_path: Path) -> Iterator[int]:
    """`gunicorn canastaclub.wsgi` on a free loopback port; yields the port once /healthz answers."""
    port = free_port()
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "canastaclub.wsgi",
            "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers),
            "--threads", str(threads),
            "--graceful-timeout", "5",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{log_path.read_text()}")
            try:
                status, _, _ = http_get(port, "/healthz", timeout=2)
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within a minute:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield port
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        log.close()
