"""Several app servers on one database, started for real (deploy/cluster.py): Redis, two gunicorn
servers A and B, nginx in front of them, each on a free loopback port, on a scratch database
(PostgreSQL when the suite runs on PostgreSQL, otherwise one SQLite file shared by both servers).

One set-up serves every scenario of test_cluster.py (one test with a subtest each, so it is
started once). A part that cannot be installed (nginx, redis-server) skips the tests with the
reason; a part that is there but fails is an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import shutil
import tempfile
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from deploy.cluster import BASE_DIR, HOST, Cluster
from tests.support.server import free_port, manage, production_env, scratch_database
from tests.production.test_gunicorn import postgres_params

PASSWORD = "secret-pass-123"  # tests.factories.make_user's
MATCHES = 6

SETUP = f"""
import json
from tests import factories as f
s = f.protocol_setup()
competition = s["match"].competition
matches = [s["match"]] + [
    f.make_match(competition=competition, home=s["home"], away=s["away"], table=table)
    for table in range(2, {MATCHES} + 1)
]
print("SETUP:" + json.dumps({{"username": s["secretary"].username, "competition": competition.pk,
                             "matches": [m.pk for m in matches]}}))
"""


def collected_static() -> Path:
    """The static files as collectstatic writes them (hashed names, compressed), made once per
    content of the sources and kept in var/ (collecting takes longer than everything else here)."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256()
    for finder in get_finders():
        for path, storage in finder.list([]):
            stat = os.stat(storage.path(path))
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    base = BASE_DIR / "var" / "test-static"
    target = base / digest.hexdigest()[:16]
    if (target / "staticfiles.json").exists():
        return target
    base.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(dir=base, prefix="partial-"))
    env = production_env(database_url=f"sqlite:///{partial / 'unused.sqlite3'}", static_root=partial / "static")
    manage("collectstatic", "--noinput", env=env)
    try:
        (partial / "static").rename(target)
    except OSError:
        pass  # another test process made it at the same time: theirs is the same
    shutil.rmtree(partial, ignore_errors=True)
    for old in base.iterdir():  # copies of sources that have changed since
        if old != target and not old.name.startswith("partial-"):
            shutil.rmtree(old, ignore_errors=True)
    return target


def missing_parts() -> list[str]:
    missing = []
    if shutil.which("redis-server") is None:
        missing.append("redis-server (Debian package redis-server)")
    if shutil.which("nginx") is None and not shutil.which("/usr/sbin/nginx"):
        missing.append("nginx (Debian package nginx)")
    return missing


@dataclass
class Setup:
    cluster: Cluster
    username: str
    competition: int
    matches: list[int]
    # The secretary's login, made once (a password check is slow on purpose) and shared.
    secretary_cookies: dict[str, str] = field(default_factory=dict)

    @property
    def a(self) -> int:
        return self.cluster.app_ports[0]

    @property
    def b(self) -> int:
        return self.cluster.app_ports[1]

    @property
    def proxy(self) -> int:
        return self.cluster.port


@pytest.fixture(scope="module")
def cluster_setup(tmp_path_factory):
    missing = missing_parts()
    if missing:
        pytest.skip("the cluster tests need " + " and ".join(missing))
    tmp = tmp_path_factory.mktemp("cluster")
    with scratch_database(tmp, postgres_params()) as database_url:
        cluster = Cluster(
            run_dir=tmp / "run",
            database_url=database_url,
            port=free_port(),
            app_ports=(free_port(), free_port()),
            redis_port=free_port(),
            workers=1,
            threads=4,
            extra_env={"DJANGO_LOG_LEVEL": "WARNING"},
            static_root=collected_static(),
        )
        try:
            cluster.start_redis()
            cluster.prepare_database(demo=False, collect_static=False)
            out = cluster.manage("shell", "-c", SETUP)
            data = json.loads(next(line for line in out.splitlines() if line.startswith("SETUP:"))[6:])
            cluster.start_app(0)
            cluster.start_app(1)
            cluster.start_nginx()
            setup = Setup(cluster=cluster, username=data["username"], competition=data["competition"], matches=data["matches"])
            secretary = Browser(cluster.port)
            secretary.login(setup.username)
            setup.secretary_cookies = dict(secretary.cookies)
            yield setup
        finally:
            cluster.stop_all()


CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_INPUT = re.compile(rb'name="version" value="(\d+)"')


@dataclass
class Browser:
    """One visitor: its cookies, and one connection per server it talks to (as a browser keeps
    them open). `port` is the server the next request goes to."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30
    # The address the visitor connects from: any of 127.0.0.0/8 is this machine, so a test can be
    # a client other than the proxy (127.0.0.1).
    source: str | None = None

    def request(self, method: str, path: str, body: dict | None = None, *, port: int | None = None,
                headers: dict[str, str] | None = None):
        port = port or self.port
        headers = {"Host": f"{HOST}:{port}", "Accept-Encoding": "identity", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{HOST}:{port}"
            headers["Referer"] = f"http://{HOST}:{port}{path}"
        source = (self.source, 0) if self.source else None
        conn = http.client.HTTPConnection(HOST, port, timeout=self.timeout, source_address=source)
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            content = response.read()
        finally:
            conn.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, dict(response.getheaders()), content

    def get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs)

    def login(self, username: str, *, password: str = PASSWORD, port: int | None = None,
              headers: dict[str, str] | None = None) -> int:
        """Log in; returns the answer's status (302 when the password was right)."""
        status, _, page = self.get("/accounts/login/", port=port)
        assert status == 200, status
        token = CSRF_INPUT.search(page).group(1).decode()
        status, _, _ = self.request(
            "POST", "/accounts/login/", {"csrfmiddlewaretoken": token, "username": username, "password": password},
            port=port, headers=headers,
        )  # fmt: skip
        assert status == 302 or password != PASSWORD, f"login refused: {status}"
        return status

    def save_deal(self, match: int, home_cards: int, away_cards: int, *, port: int | None = None):
        """Open the protocol page and save the next deal, as a secretary does. Returns the deal
        number the site confirmed, or None with what happened instead."""
        path = f"/matches/{match}/protocol/"
        status, _, page = self.get(path, port=port)
        if status != 200:
            return None, f"protocol page {status}"
        body = {
            "csrfmiddlewaretoken": CSRF_INPUT.search(page).group(1).decode(),
            "version": VERSION_INPUT.search(page).group(1).decode(),
            "home_cards": str(home_cards), "away_cards": str(away_cards), "end": "stock",
        }  # fmt: skip
        status, headers, _ = self.request("POST", path, body, port=port)
        found = re.search(r"[?&]saved=(\d+)", headers.get("Location", ""))
        if status == 302 and found:
            return int(found.group(1)), ""
        return None, f"save {status} {headers.get('Location', '')}"


def query(setup: Setup, sql: str) -> list[tuple]:
    """Rows straight from the database, as neither app server sees them."""
    url = setup.cluster.database_url
    if url.startswith("sqlite:///"):
        import sqlite3

        with contextlib.closing(sqlite3.connect(url[len("sqlite:///"):], timeout=30)) as conn:
            return [tuple(row) for row in conn.execute(sql)]
    import psycopg

    from deploy.cluster import postgres_params

    params = {key: value for key, value in postgres_params(url).items() if value}
    with psycopg.connect(**params) as conn:
        return [tuple(row) for row in conn.execute(sql)]


def deals_stored(setup: Setup) -> dict[int, list[tuple[int, int, int]]]:
    """Each match's stored deals as (number, home cards, away cards)."""
    ids = ",".join(str(int(match)) for match in setup.matches)
    rows = query(
        setup,
        f"SELECT match_id, number, home_cards, away_cards FROM scoring_deal WHERE match_id IN ({ids}) ORDER BY match_id, number",
    )
    stored: dict[int, list[tuple[int, int, int]]] = {}
    for match, number, home, away in rows:
        stored.setdefault(match, []).append((number, home, away))
    return stored
