"""A bounded load test: gunicorn on loopback, a database filled by `manage.py demo`, and N
concurrent users for S seconds (default 50 users, 60 seconds).

    .venv/bin/python tests/perf/load_test.py [--users 50] [--seconds 60] [--think 1.0]
        [--save-share 0.05] [--workers 4] [--threads 2] [--postgres] [--public-logged-in]
    make load                      (the same, with LOAD_ARGS="..." passed on)

Each user is a club secretary with a match of their own. It logs in (before the clock starts),
then loops: mostly public pages (standings, rounds, match protocols, teams, the start page), and
now and then (--save-share, 5 % of its turns by default: a deal about every 20 seconds, some ten
times a real league evening's pace) the protocol page of its match followed by saving the next
deal through the protocol form, with its CSRF token, as a browser would. The public pages are
fetched without the login, as most of their readers do (and so from the site's page cache, warmed
up first as on a site that has been running); `--public-logged-in` fetches them with the
secretary's login instead (never cached). `--think` is the mean pause between a user's requests in
seconds (0: as fast as the server answers, a stress test).

At the end it prints requests per second, p50, p95 and p99 per kind of request, the errors, and
checks that no deal was lost: the deals saved (answers that said "saved") equal the deals in the
database, match by match. One JSON line per figure, then a summary. Exit status 1 on any error,
a lost or extra deal, or a public p95 above --target-p95 milliseconds (default 200).

Only 127.0.0.1 is used; users, time and request count are bounded. A scratch database (SQLite in
a temporary folder; with --postgres a new database on the server named by DATABASE_URL, dropped
afterwards) is used, never your own.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(BASE_DIR))

from tests.production.server import gunicorn, manage, production_env, scratch_database  # noqa: E402

HOST = "127.0.0.1"
PASSWORD = "last-test-lösen-42"
MAX_USERS = 200
MAX_SECONDS = 600
MAX_REQUESTS = 1_000_000

SETUP = r"""
import json
from django.contrib.auth import get_user_model
from scoring.models import Club, Competition, Match, Player, Round, Team
User = get_user_model()
users = int(USERS)
club, _ = Club.objects.get_or_create(name="Lasttestklubben")
def player(n):
    return Player.objects.get_or_create(name=f"Lastspelare {n}", club=club)[0]
home = Team.objects.get_or_create(name="Lastlaget hemma", club=club, defaults={"player_one": player(1), "player_two": player(2)})[0]
away = Team.objects.get_or_create(name="Lastlaget borta", club=club, defaults={"player_one": player(3), "player_two": player(4)})[0]
competition, _ = Competition.objects.get_or_create(name="Lasttestserien", season="2026/27", organiser=club)
competition.teams.add(home, away)
round_, _ = Round.objects.get_or_create(competition=competition, number=1)
accounts = []
for n in range(users):
    user = User.objects.filter(username=f"last{n}").first() or User.objects.create_user(f"last{n}", password=PASSWORD)
    club.secretaries.add(user)
    match, _ = Match.objects.get_or_create(competition=competition, round=round_, table=n + 1, home_team=home, away_team=away)
    accounts.append({"username": user.username, "match": match.pk})
public = []
for c in Competition.objects.exclude(pk=competition.pk):
    public.append(f"/competitions/{c.pk}/")
    public.append(f"/competitions/{c.pk}/rounds/")
    for r in c.rounds.all():
        public.append(f"/competitions/{c.pk}/rounds/{r.number}/")
matches = [f"/matches/{m.pk}/" for m in Match.objects.exclude(competition=competition).filter(deal_count__gt=0)]
teams = [f"/teams/{t.pk}/" for t in Team.objects.exclude(club=club)]
print("SETUP:" + json.dumps({"accounts": accounts, "standings": public, "matches": matches, "teams": teams}))
"""

COUNT = r"""
import json
from scoring.models import Deal, Match
ids = json.loads(IDS)
print("COUNT:" + json.dumps({str(m.pk): [m.deal_count, Deal.objects.filter(match=m).count()] for m in Match.objects.filter(pk__in=ids)}))
"""


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.error_samples: list[str] = []
        self.saved: dict[int, int] = defaultdict(int)
        self.by_path: dict[str, list[float]] = defaultdict(list)

    def record(self, kind: str, seconds: float, ok: bool, detail: str = ""):
        with self.lock:
            self.times[kind].append(seconds)
            if not ok:
                self.errors[kind] += 1
                if len(self.error_samples) < 10:
                    self.error_samples.append(f"{kind}: {detail}")

    def total(self) -> int:
        return sum(len(v) for v in self.times.values())


class Browser:
    """One user's connection (keep-alive) and cookies, like a browser's."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None):
        headers = {"Host": HOST, "X-Forwarded-Proto": "https", "Accept-Encoding": "identity"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"https://{HOST}{path}"
            headers["Origin"] = f"https://{HOST}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                content = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive connection the server closed between requests: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt == 2:
                    raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, dict(response.getheaders()), content


CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_INPUT = re.compile(rb'name="version" value="(\d+)"')


def login(browser: Browser, username: str) -> None:
    status, _, page = browser.request("GET", "/accounts/login/")
    token = CSRF_INPUT.search(page).group(1).decode()
    status, headers, _ = browser.request(
        "POST", "/accounts/login/", {"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD}
    )
    if status != 302:
        raise RuntimeError(f"login of {username} failed: {status}")


def user_loop(
    browser: Browser,
    visitor: Browser,
    account: dict,
    urls: dict,
    stats: Stats,
    stop_at: float,
    think: float,
    seed: int,
    save_share: float = 0.05,
):
    """`browser` is the secretary's (logged in); `visitor` fetches the public pages (the same
    browser when --public-logged-in, otherwise one without a login, like most readers)."""
    rnd = random.Random(seed)
    match_id = account["match"]
    protocol = f"/matches/{match_id}/protocol/"
    while time.monotonic() < stop_at and stats.total() < MAX_REQUESTS:
        roll = rnd.random()
        try:
            if roll < save_share:
                # The secretary's turn: open the protocol page, then save the next deal.
                started = time.perf_counter()
                status, _, page = browser.request("GET", protocol)
                stats.record("protocol page", time.perf_counter() - started, status == 200, f"{status}")
                if status == 200:
                    token = CSRF_INPUT.search(page).group(1).decode()
                    version = VERSION_INPUT.search(page).group(1).decode()
                    body = {"csrfmiddlewaretoken": token, "version": version, "home_cards": "10",
                            "away_cards": "5", "end": "stock"}  # fmt: skip
                    started = time.perf_counter()
                    status, headers, _ = browser.request("POST", protocol, body)
                    ok = status == 302 and "saved=" in headers.get("Location", "")
                    stats.record("save deal", time.perf_counter() - started, ok, f"{status} {headers.get('Location')}")
                    if ok:
                        with stats.lock:
                            stats.saved[match_id] += 1
            else:
                roll = rnd.random()
                if roll < 0.35:
                    path = rnd.choice(urls["standings"])
                elif roll < 0.75:
                    path = rnd.choice(urls["matches"])
                elif roll < 0.95:
                    path = rnd.choice(urls["teams"])
                else:
                    path = "/"
                started = time.perf_counter()
                status, _, _ = visitor.request("GET", path)
                elapsed = time.perf_counter() - started
                stats.record("public page", elapsed, status == 200, f"{status} {path}")
                with stats.lock:
                    stats.by_path[re.sub(r"\d+", "N", path)].append(elapsed)
        except Exception as error:  # noqa: BLE001 - a failed request is a result to report
            stats.record("connection", 0.0, False, repr(error))
            for each in (browser, visitor):
                each.conn.close()
                each.conn = http.client.HTTPConnection(HOST, each.port, timeout=30)
        if think:
            time.sleep(rnd.uniform(0, 2 * think))


def warm_up(port: int, urls: dict, workers: int) -> None:
    """Fill each worker's page cache and templates, as on a site that has run for a while: every
    public page fetched by visitors over fresh connections (which gunicorn spreads over its
    workers) until a whole pass is fast, at most 20 passes."""
    paths = urls["standings"] + urls["matches"] + urls["teams"] + ["/"]
    for _ in range(20):
        slowest = 0.0
        for path in paths:
            for _ in range(workers):
                visitor = Browser(port)
                started = time.perf_counter()
                visitor.request("GET", path)
                slowest = max(slowest, time.perf_counter() - started)
                visitor.conn.close()
        if slowest < 0.05:
            return


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def shell(code: str, env: dict, marker: str) -> dict:
    result = manage("shell", "-c", code, env=env)
    line = next(line for line in result.stdout.splitlines() if line.startswith(marker))
    return json.loads(line[len(marker):])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between a user's requests (s)")
    parser.add_argument(
        "--save-share", type=float, default=0.05, help="share of a user's turns that open the protocol and save a deal"
    )
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--postgres", action="store_true", help="a scratch database on DATABASE_URL's server")
    parser.add_argument("--target-p95", type=float, default=200.0, help="public pages, milliseconds")
    parser.add_argument(
        "--public-logged-in",
        action="store_true",
        help="fetch the public pages with the secretary's login too (they are then never cached)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.users <= MAX_USERS or not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"users 1–{MAX_USERS}, seconds 1–{MAX_SECONDS}")

    postgres = None
    if args.postgres:
        url = urllib.parse.urlparse(os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres")
        if url.hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("the load test only talks to a database on this machine")
        postgres = {"host": url.hostname, "port": url.port or 5432, "user": url.username or "", "password": url.password or ""}

    with tempfile.TemporaryDirectory(prefix="canasta-load-") as tmp_name:
        tmp = Path(tmp_name)
        with scratch_database(tmp, postgres) as database_url:
            env = production_env(database_url=database_url, static_root=tmp / "static", DJANGO_LOG_LEVEL="WARNING")
            print(f"Preparing: migrate, collectstatic, demo data, {args.users} users ...", flush=True)
            manage("migrate", "--noinput", env=env)
            manage("collectstatic", "--noinput", env=env)
            manage("demo", "--public-passwords", env=env)
            setup = shell(SETUP.replace("USERS", str(args.users)).replace("PASSWORD", repr(PASSWORD)), env, "SETUP:")
            accounts = setup["accounts"]
            print(f"gunicorn: {args.workers} workers × {args.threads} threads on {HOST}", flush=True)
            with gunicorn(env, workers=args.workers, threads=args.threads, log_path=tmp / "gunicorn.log") as port:
                browsers = [Browser(port) for _ in accounts]
                for browser, account in zip(browsers, accounts):
                    login(browser, account["username"])
                visitors = browsers if args.public_logged_in else [Browser(port) for _ in accounts]
                warm_up(port, setup, args.workers)
                stats = Stats()
                print(f"Load: {args.users} users for {args.seconds:g} s, think time {args.think:g} s ...", flush=True)
                started = time.monotonic()
                stop_at = started + args.seconds
                threads = [
                    threading.Thread(
                        target=user_loop,
                        args=(browser, visitor, account, setup, stats, stop_at, args.think, n, args.save_share),
                        daemon=True,
                    )
                    for n, (browser, visitor, account) in enumerate(zip(browsers, visitors, accounts))
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=args.seconds + 60)
                elapsed = time.monotonic() - started
                server_log = (tmp / "gunicorn.log").read_text(errors="replace")
            counts = shell(COUNT.replace("IDS", repr(json.dumps([a["match"] for a in accounts]))), env, "COUNT:")

    lost = {
        match_id: (stats.saved.get(int(match_id), 0), stored)
        for match_id, (_, stored) in counts.items()
        if stats.saved.get(int(match_id), 0) != stored
    }
    mismatched = {match_id: values for match_id, values in counts.items() if values[0] != values[1]}
    total = stats.total()
    errors = sum(stats.errors.values())
    figures = [
        {"name": "load_requests_per_second", "unit": "req/s", "value": round(total / elapsed, 1),
         "users": args.users, "seconds": round(elapsed, 1), "think": args.think, "save_share": args.save_share,
         "workers": args.workers, "threads": args.threads, "database": "postgresql" if postgres else "sqlite",
         "public_pages_as": "secretary" if args.public_logged_in else "visitor"},
    ]  # fmt: skip
    for kind, times in sorted(stats.times.items()):
        if not times or kind == "connection":
            continue
        milliseconds = [t * 1000 for t in times]
        figures.append(
            {"name": f"load_{kind.replace(' ', '_')}", "unit": "ms", "count": len(times),
             "p50": round(statistics.median(milliseconds), 1), "p95": round(percentile(milliseconds, 0.95), 1),
             "p99": round(percentile(milliseconds, 0.99), 1), "max": round(max(milliseconds), 1),
             "errors": stats.errors.get(kind, 0)}
        )  # fmt: skip
    saved = sum(stats.saved.values())
    stored = sum(values[1] for values in counts.values())
    figures.append({"name": "load_deals", "saved": saved, "in_database": stored, "lost_or_extra": len(lost)})
    for figure in figures:
        print(json.dumps(figure, ensure_ascii=False))

    public = next((f for f in figures if f["name"] == "load_public_page"), None)
    print()
    print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:.1f} requests/s, {errors} errors")
    if public:
        print(f"public pages: p50 {public['p50']} ms, p95 {public['p95']} ms (target ≤ {args.target_p95:g} ms)")
    print(f"deals saved: {saved}, in the database: {stored}; matches with lost or extra deals: {len(lost)}")
    print("public pages by kind (p50 / p95 ms):")
    for path, times in sorted(stats.by_path.items()):
        milliseconds = [t * 1000 for t in times]
        print(f"  {path:40} {len(times):6} × {statistics.median(milliseconds):7.1f} / {percentile(milliseconds, 0.95):7.1f}")
    for sample in stats.error_samples:
        print(f"  error: {sample}")
    if "Traceback" in server_log:
        print("The server logged a traceback:\n" + server_log[-3000:])
    failed = bool(errors or lost or mismatched or "Traceback" in server_log)
    if public and public["p95"] > args.target_p95:
        print(f"p95 of public pages is above the target of {args.target_p95:g} ms")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
