"""`make load`: a federation's round night as it is played at the tables and served as it is
deployed: Locust, headless and bounded, against nginx with its proxy cache before the app servers
(docs/speed.md, "The round night").

    .venv/bin/python tests/benchmarks/round_night.py [--postgres | --cluster] [--no-nginx]
        [--steps 10,50,100,200,300,500] [--seconds 30] [--fraction 1.0] [--stop-early]

Serving, as docs/operations.md deploys it (deploy/cluster.py starts the parts): nginx
(deploy/nginx.conf.template, the proxy cache of nginx-proxy.conf) before one app server
(deploy/gunicorn.conf.py) on SQLite; with --postgres the same on PostgreSQL; with --cluster two app
servers on PostgreSQL sharing Redis. --no-nginx asks the one app server directly.

The data is `manage.py demo --scale federation` in a scratch database (SQLite in a temporary
folder; with --postgres or --cluster a new database on the server named by DATABASE_URL, dropped
afterwards). Then a new round of every competition is paired through the services and its matches
are live: each has had two deals, is played on the clock (a timed rule set, no hall clock started,
so the last deal is typed as ended by the clock) and has a table link, but one in ten, whose protocol is
kept on paper by its secretary. Before the first step every page of the night is loaded once,
every played match's PDF once and every table phone opens its table page (not measured: the site
has been up during the day, and the phones opened their pages when the players sat down).

Who plays is locustfile.py's (table phones, paper secretaries, organisers, spectators, a PDF
reader, the minimal view). First a quiet step: one table, one paper match, one spectator, one
organiser, each alone, in leagues, asking at a brisk pace for 130 s so that every request type has
a p95 of its own of at least QUIET_SAMPLES answers when nothing else runs (the first team's
confirmation, which a match makes once, is held to the p95 of all the table's writes, the second's,
which writes the match's result, to its own; the
national competition's round and standings, request types of their own, to a person's ceiling).
Then the steps (--steps, numbers of live matches, --seconds each); every step prints one JSON line
per figure ({"name", "value", "unit", "target", "ok"}):
- each request type's p95 (the pages, the live parts, the table's state and its 304, each save and
  table post), target <= 3x its own p95 in the quiet step and under its ceiling (CEILINGS_MS);
- the errors (target 0); the stale looks, each against its own promise (a spectator's page: the
  max-age plus one poll interval; the round at a glance: 10 s; the other phone: 3 s), target 0;
  how long the other phone took to show a proposal (p95 <= 3 s) and the round at a glance a deal
  (p95 <= 10 s);
- the requests answered, as a share of those the users meant to make (target >= 90 %): the acts
  their schedules called for (a poll, a look, a page, a save) and those finished in the step;
- the app servers' CPU seconds per live match and hour, from their processes (psutil), and how
  busy the whole machine was (the load generator and whatever else runs share its cores).
At the end: the deals stored against the deals confirmed, the stale looks over the night,
`round_night_capacity` (the largest step that met every target with every smaller one, target >=
300) and `round_night_cpu_per_match_hour` (target <= 10 s, at the capacity step). Every step is
played, for its figures, even after one missed a target (--stop-early stops there).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(BASE_DIR))

sys.path.insert(0, str(Path(__file__).parent))

from night_plan import read_state, step_plan  # noqa: E402
from tests.support.server import VENV_BIN, free_port, manage, production_env, scratch_database  # noqa: E402

CAPACITY_TARGET = 300
# The load itself (the quiet step and the steps) is bounded: a benchmark, not part of `make test`.
MAX_LOAD_SECONDS = 420
QUIET_SECONDS = 130
RATIO = 3
# A quiet p95 is a reference when the quiet step made this many answers of its type: the p95 of a
# handful is that handful's slowest or fastest, and "3x" of it decides the capacity by chance.
QUIET_SAMPLES = 20
# A table's writes each go through the same service (a proposal, a decision, a confirmation, all
# replaying the match): the first team's confirmation, which a match makes once, is held to the
# quiet p95 of all of them together. The second's confirms the match and writes its result into
# the standings, the places and the ratings (about 80 ms on an idle server at federation size): it
# keeps its own quiet answers, however few.
TABLE_WRITES = ("table deal", "table agree", "table confirm")
ONCE_A_MATCH = ("table confirm, result",)
# What a person accepts, by request type (ms): a page, a live part or a table's state (200 or 304),
# a save or a table post. The protocol PDF and the minimal view are measured against the quiet step only.
PAGE_MS, LIVE_MS, POST_MS = 1000, 300, 500
PAGES = ("live round", "standings", "match", "team", "round at a glance", "table page", "protocol page")
LIVE_PARTS = ("live round live", "standings live", "match live", "round at a glance live", "table state")
POSTS = ("deal save", "table check", "table deal", "table agree", "table confirm", "table confirm, result")
# Below this a p95 is within what the load generator's own scheduling adds on two shared cores
# (Locust measures from its side): "3x the quiet p95" of a 2 ms answer would be 6 ms.
RESOLUTION_MS = 25
# The promises the looks are counted against (docs/speed.md, "The round night").
OTHER_PHONE_SECONDS = 3
ROUND_AT_A_GLANCE_SECONDS = 10
CPU_PER_MATCH_HOUR_TARGET = 10
ANSWERED_SHARE = 0.9
# A match lasts about 50 minutes (a dozen deals of four minutes): each step ends that share of its
# tables' matches (locustfile.MATCH_SECONDS); the spares take their places in the next steps.
MATCH_SECONDS = 3000
ONE_IN_PAPER = 10


def ceiling(kind: str) -> int | None:
    base = kind.removesuffix(" 304").replace(" (national)", "")
    if base in PAGES:
        return PAGE_MS
    if base in LIVE_PARTS:
        return LIVE_MS
    if base in POSTS:
        return POST_MS
    return None


SETUP = r"""
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.utils import timezone
from scoring import services
from scoring.engine import DealEntry, SideEntry
from scoring.engine.rules import get_rules
from scoring.models import Competition, Match, Round
from scoring.services.audit import COMMAND_LINE

wanted = int(WANTED)
LEAGUE_TEAMS = 20  # a league's most; the national competition has hundreds
User = get_user_model()
today = timezone.localdate()
timed = get_rules("sv-tavling").to_dict()


def session_of(user):
    # Signed in before the round began: the night's load is the deals, not the password checks.
    browser = Client()
    browser.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": browser.cookies[settings.SESSION_COOKIE_NAME].value}


def a_deal():
    return DealEntry(number=0, home=SideEntry(cards=60), away=SideEntry(cards=-20), end="stock")


# The leagues' rounds first, ten tables each, then the national competition's: each step watches
# many competitions, and the largest steps play a national round of hundreds of tables.
competitions = sorted(Competition.objects.filter(archived=False), key=lambda c: (c.teams.count() > LEAGUE_TEAMS, c.pk))
matches, organisers = [], {}
for competition in competitions:
    if len(matches) >= wanted:
        break
    last = competition.rounds.order_by("-number").first()
    round_ = services.round_save(user=COMMAND_LINE, round=Round(competition=competition, number=last.number + 1, date=today))
    Competition.objects.filter(pk=competition.pk).update(table_confirmation=True)
    organiser = User.objects.create_user(f"rundkvall-arrangor{competition.pk}")
    competition.organiser.secretaries.add(organiser)
    organisers[competition.pk] = {"session": session_of(organiser), "round": f"/competitions/{competition.pk}/rounds/{round_.number}/"}
    teams = list(competition.teams.order_by("pk"))
    for table, (home, away) in enumerate(zip(teams[0::2], teams[1::2]), start=1):
        if len(matches) >= wanted:
            break
        match = services.match_create(user=COMMAND_LINE, competition=competition, round=round_, table=table,
                                      home_team=home, away_team=away, scheduled_start=timezone.now())
        Match.objects.filter(pk=match.pk).update(rules_snapshot=timed)
        match.refresh_from_db()
        secretary = User.objects.create_user(f"rundkvall{len(matches)}")
        home.club.secretaries.add(secretary)
        for _deal in range(2):
            match = services.deals_record(match=match, user=secretary, entry=a_deal(), expected_version=None)
        entry = {"match": match.pk, "competition": competition.pk, "round": f"/competitions/{competition.pk}/rounds/{round_.number}/",
                 "home": home.pk, "away": away.pk, "large": len(teams) > LEAGUE_TEAMS}
        if len(matches) % ONE_IN_PAPER == ONE_IN_PAPER - 1:
            entry.update(kind="paper", session=session_of(secretary))
        else:
            link = services.table_link_issue(match=match, user=secretary)
            entry.update(kind="table", home_code=link.code, away_code=link.away_code)
        matches.append(entry)
used = sorted({entry["competition"] for entry in matches})
played = list(Match.objects.filter(status=Match.Status.CONFIRMED, competition_id__in=used).order_by("pk").values_list("pk", flat=True)[:20])
print("SETUP:" + json.dumps({
    "matches": matches,
    "organisers": {str(pk): organisers[pk] for pk in used},
    "pdfs": [f"/matches/{pk}/protocol.pdf" for pk in played],
}))
"""

COUNT = r"""
import json
from scoring.models import Deal
print("COUNT:" + json.dumps(Deal.objects.filter(match_id__in=json.loads(IDS)).count()))
"""


def emit(name, value, unit, target, ok, **extra) -> bool:
    line = {"name": name, "value": round(value, 1) if isinstance(value, float) else value, "unit": unit,
            "target": target, "ok": bool(ok), **extra}
    print(json.dumps(line, ensure_ascii=False), flush=True)
    return bool(ok)


def shell(code: str, env: dict, marker: str):
    result = manage("shell", "-c", code, env=env, timeout=1800)
    line = next(line for line in result.stdout.splitlines() if line.startswith(marker))
    return json.loads(line[len(marker):])


def p95(values) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)])


# -- warming up ------------------------------------------------------------------------------------

def fetch(port: int, path: str, tries: int = 2) -> tuple[int, dict, str]:
    """A GET before the steps; a failure is said on stderr and tried once more (a server error
    there is in the servers' logs, --keep-folder)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=300) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        print(f"warm-up: {path} answered {error.code}", file=sys.stderr, flush=True)
        if tries <= 1:
            raise
        time.sleep(1)
        return fetch(port, path, tries - 1)


def phone_sits_down(port: int, code: str) -> dict:
    """What a phone keeps while its table page is open: its CSRF cookie and the token its forms
    post (Django takes the cookie's secret itself as a token; a browser got both with the page),
    and the state it shows with its validator and poll interval (asked for once now)."""
    csrf = secrets.token_hex(16)
    _status, _headers, text = fetch(port, f"/t/{code}/state/")
    state = read_state(text)
    # No guess: a state that no longer says its interval would measure another night than it plays.
    assert state["poll"] > 0, f"/t/{code}/state/ names no interval (data-poll-seconds)"
    return {"csrf": csrf, "token": csrf, "poll": state["poll"], "state": state}


def warm_up(port: int, app_ports: list[int], data: dict, workers: int, memory_path: Path) -> float:
    """Before the first step (not measured): each app server's processes draw a few pages of every
    kind (past nginx, which would keep the first answer), every PDF of the night is made once, and
    every table phone sits down (phone_sits_down). A server on a round night has been up during the
    day: the first visitor after a restart (its imports, its connections) is not what the steps
    measure; a PDF made is stored under what it shows (scoring/views/exports.py); the phones opened
    their pages when the players sat down (a phone opening it again is measured: RELOAD_EVERY)."""
    started = time.perf_counter()
    matches = data["matches"] + [data["quiet"]["table"], data["quiet"]["paper"]]
    kinds = (
        sorted({entry["round"] for entry in matches}),
        sorted({f"/competitions/{entry['competition']}/" for entry in matches}),
        [f"/matches/{entry['match']}/" for entry in matches],
        [f"/teams/{entry[side]}/" for entry in matches for side in ("home", "away")],
    )
    pages = [url for urls in kinds for url in urls[:3]]
    urls = [(app_port, url) for app_port in app_ports for url in pages * 2 * workers]
    urls += [(port, url) for url in data["pdfs"]]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda address: fetch(*address), urls))
    phones = [(entry, side) for entry in matches if entry["kind"] == "table" for side in ("home", "away")]
    with ThreadPoolExecutor(max_workers=8) as pool:
        opened = list(pool.map(lambda phone: phone_sits_down(port, phone[0][f"{phone[1]}_code"]), phones))
    memory = {"phones": {f"{entry['match']}:{side}": page for (entry, side), page in zip(phones, opened)}, "ended": []}
    memory_path.write_text(json.dumps(memory), encoding="utf-8")
    return time.perf_counter() - started


# -- CPU -------------------------------------------------------------------------------------------


class CpuMeter:
    """CPU seconds of the app servers' processes (each gunicorn with its workers), of nginx, of
    Redis, of the PostgreSQL backends serving the scratch database (their process titles name it)
    and of the load generator, and how busy the machine's cores were, between two readings."""

    def __init__(self, app_pids: list[int], nginx_pid: int | None, redis_pid: int | None, database_name: str | None):
        import psutil

        self.psutil = psutil
        self.app = [psutil.Process(pid) for pid in app_pids]
        self.nginx = [psutil.Process(nginx_pid)] if nginx_pid else []
        self.redis = [psutil.Process(redis_pid)] if redis_pid else []
        self.database_name = database_name

    def seconds(self, processes) -> float:
        total = 0.0
        for process in processes:
            try:
                times = process.cpu_times()
            except self.psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    def tree(self, roots) -> list:
        found = []
        for root in roots:
            try:
                found += [root, *root.children(recursive=True)]
            except self.psutil.NoSuchProcess:
                continue
        return found

    def database_backends(self) -> list:
        if not self.database_name:
            return []
        found = []
        for process in self.psutil.process_iter(["cmdline"]):
            if any(self.database_name in part for part in process.info["cmdline"] or ()):
                found.append(process)
        return found

    def reading(self, locust_pid: int | None = None) -> dict:
        locust = []
        if locust_pid:
            try:
                locust = [self.psutil.Process(locust_pid)]
            except self.psutil.NoSuchProcess:
                locust = []
        machine = self.psutil.cpu_times()
        backends = {process.pid: self.seconds([process]) for process in self.database_backends()}
        return {"at": time.monotonic(), "app": self.seconds(self.tree(self.app)), "nginx": self.seconds(self.nginx),
                "redis": self.seconds(self.redis), "database": backends,
                "locust": self.seconds(self.tree(locust)),
                "busy": machine.user + machine.nice + machine.system + machine.irq + machine.softirq,
                "all": sum(machine) - getattr(machine, "guest", 0) - getattr(machine, "guest_nice", 0)}  # fmt: skip


# -- a step ----------------------------------------------------------------------------------------


def run_locust(live: int, seconds: int, port: int, data_path: Path, memory_path: Path, tmp: Path, meter: CpuMeter,
               quiet: bool, table_poll: float | None = None) -> tuple[dict, dict]:  # fmt: skip
    """One step's Locust run; returns what its users recorded and the CPU readings over the load."""
    name = "quiet" if quiet else f"step{live}"
    results_path, started_path = tmp / f"{name}.json", tmp / f"{name}.started"
    env = {**os.environ, "ROUND_NIGHT_DATA": str(data_path), "ROUND_NIGHT_MEMORY": str(memory_path),
           "ROUND_NIGHT_RESULTS": str(results_path), "ROUND_NIGHT_STARTED": str(started_path),
           "ROUND_NIGHT_QUIET": "1" if quiet else "", "LIVE": str(live), "STEP_SECONDS": str(seconds),
           "MATCH_SECONDS": str(MATCH_SECONDS), "TABLE_POLL": str(table_poll or "")}  # fmt: skip
    plan = step_plan(json.loads(data_path.read_text()), json.loads(memory_path.read_text()), live, quiet)
    users = sum(plan["counts"].values())
    process = subprocess.Popen(
        [str(VENV_BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")), "--headless",
         "--host", f"http://127.0.0.1:{port}", "-u", str(users), "-r", str(users),
         "-t", f"{seconds}s", "--stop-timeout", "10", "--only-summary", "--loglevel", "WARNING"],
        cwd=BASE_DIR, env=env, stdout=open(tmp / f"{name}.log", "wb"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not started_path.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    first = meter.reading(process.pid)
    # The last seconds are the users' stopping: measured up to a second before.
    time.sleep(max(1.0, seconds - 1))
    last = meter.reading(process.pid)
    try:
        process.wait(timeout=seconds + 180)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    recorded = json.loads(results_path.read_text()) if results_path.exists() else {}
    if not recorded:
        print((tmp / f"{name}.log").read_text(errors="replace")[-4000:], file=sys.stderr)
    cpu = {key: last[key] - first[key] for key in first if key != "database"}
    # A backend that ended during the step takes its seconds with it (the servers keep their
    # connections for a minute, DJANGO_CONN_MAX_AGE); one that began counts from its start.
    cpu["database"] = sum(seconds - first["database"].get(pid, 0.0) for pid, seconds in last["database"].items())
    return recorded, cpu


def quiet_matches(matches: list[dict]) -> dict:
    """The quiet step's own matches, apart from the steps', all in leagues (a quiet step drawing the
    national competition's pages would not be quiet): one played at a table, one on paper, and two
    of other leagues that nobody plays then (their pages unchanged: a spectator's poll is a 304).
    The paper match is of another league than the table's: two rounds and standings change."""
    leagues = [entry for entry in matches if not entry["large"]]
    table = [entry for entry in leagues if entry["kind"] == "table"][-1]
    papers = [entry for entry in leagues if entry["kind"] == "paper"]
    paper = ([entry for entry in papers if entry["competition"] != table["competition"]] or papers)[-1]
    idle, taken = [], {table["competition"], paper["competition"]}
    for entry in reversed(leagues):
        if entry["competition"] not in taken and len(idle) < 2:
            idle.append(entry)
            taken.add(entry["competition"])
    return {"table": table, "paper": paper, "idle": idle}


def quiet_references(times: dict[str, list[float]]) -> dict[str, tuple[float, int, str]]:
    """Each request type's reference from the quiet step: its p95, the answers it is of and what
    they were: its own when there are QUIET_SAMPLES of them, else a table write's those of all the
    table's writes (TABLE_WRITES); a type with too few answers and no such group keeps its own."""
    pooled = [value for kind in TABLE_WRITES for value in times.get(kind, ())]
    references = {}
    for kind, values in times.items():
        if len(values) < QUIET_SAMPLES and kind in TABLE_WRITES and len(pooled) >= QUIET_SAMPLES:
            references[kind] = (p95(pooled), len(pooled), "the table's writes")
        else:
            references[kind] = (p95(values), len(values), kind)
    return references


def judge_step(live: int, recorded: dict, cpu: dict, quiet_p95: dict[str, float], cores: int) -> tuple[bool, float | None]:
    """Print a step's figures; returns whether it met every target, and its CPU per match-hour."""
    times = recorded.get("times", {})
    due, done = recorded.get("acts_due", 0), recorded.get("acts_done", 0)
    share = min(done, due) / due if due else 0.0
    ok = emit(f"round_night_{live}_answered", 100 * share, "% of planned requests", f">= {ANSWERED_SHARE:.0%}",
              share >= ANSWERED_SHARE, acts_due=due, acts_done=done, requests=recorded.get("made", 0))  # fmt: skip
    for kind in sorted(times):
        values = times[kind]
        value = p95(values)
        reference = quiet_p95.get(kind)
        limit = ceiling(kind)
        allowed = [] if reference is None else [max(RATIO * reference, RESOLUTION_MS)]
        if limit is not None:
            allowed.append(limit)
        met = value <= min(allowed) if allowed else True
        target = " and ".join(
            ([f"<= {RATIO}x quiet p95 ({reference:.0f} ms)"] if reference is not None else ["no quiet p95"])
            + ([f"<= {limit} ms"] if limit is not None else [])
        )
        ok = emit(f"round_night_{live}_{kind.replace(' ', '_')}_p95", value, "ms", target, met, requests=len(values),
                  ratio=round(value / reference, 1) if reference else None) and ok  # fmt: skip
    failures = recorded.get("failures", {})
    count = sum(failures.values())
    ok = emit(f"round_night_{live}_errors", count, "requests", 0, count == 0, about=failures) and ok
    stale, looks = recorded.get("stale", {}), recorded.get("looks", {})
    for who in ("spectator", "round at a glance", "other phone"):
        ok = emit(f"round_night_{live}_stale_looks_{who.replace(' ', '_')}", stale.get(who, 0), "looks", 0,
                  stale.get(who, 0) == 0, looks=looks.get(who, 0)) and ok  # fmt: skip
    for who, promise in (("other phone", OTHER_PHONE_SECONDS), ("round at a glance", ROUND_AT_A_GLANCE_SECONDS)):
        seen = recorded.get("seen", {}).get(who, [])
        value = p95(seen)
        ok = emit(f"round_night_{live}_{who.replace(' ', '_')}_sees_p95", value, "s", f"<= {promise} s",
                  value is None or value <= promise, changes=len(seen),
                  unseen=recorded.get("unseen", {}).get(who, 0)) and ok  # fmt: skip
    window = cpu.get("at", 0.0)
    per_match_hour = None
    if window > 0 and live:
        per_match_hour = cpu["app"] / live * 3600 / window
        emit(f"round_night_{live}_cpu_per_match_hour", per_match_hour, "CPU s per live match and hour",
             f"<= {CPU_PER_MATCH_HOUR_TARGET}", per_match_hour <= CPU_PER_MATCH_HOUR_TARGET,
             app_servers_cores=round(cpu["app"] / window, 2), nginx_cores=round(cpu["nginx"] / window, 2),
             postgresql_cores=round(cpu["database"] / window, 2), redis_cores=round(cpu["redis"] / window, 2),
             load_generator_cores=round(cpu["locust"] / window, 2),
             machine_busy=f"{100 * cpu['busy'] / cpu['all']:.0f} % of {cores} cores" if cpu.get("all") else None,
             seconds=round(window, 1))  # fmt: skip
    return ok, per_match_hour


# -- serving ---------------------------------------------------------------------------------------


@contextmanager
def serving(args, database_url: str, tmp: Path, load_env: dict):
    """nginx before one app server (or two, with Redis, for --cluster), as deploy/ configures them;
    yields (port, [(app server port, pid)], nginx pid, Redis pid)."""
    from deploy.cluster import Cluster

    servers = 2 if args.cluster else 1
    ports = tuple(free_port() for _ in range(servers))
    env = dict(load_env)
    if not args.cluster:
        env["REDIS_URL"] = ""  # one app server keeps its cache in its own processes' memory
    cluster = Cluster(run_dir=tmp / "cluster", database_url=database_url, port=free_port(), app_ports=ports,
                      redis_port=free_port(), workers=args.workers, threads=args.threads, static_root=tmp / "static",
                      extra_env=env)  # fmt: skip
    try:
        if args.cluster:
            cluster.start_redis()
        for index in range(servers):
            cluster.start_app(index)
        apps = [(port, cluster.processes[f"app{index + 1}"].pid) for index, port in enumerate(ports)]
        redis = cluster.processes["redis"].pid if args.cluster else None
        if args.no_nginx:
            yield ports[0], apps, None, redis
        else:
            cluster.start_nginx()
            yield cluster.port, apps, cluster.processes["nginx"].pid, redis
    finally:
        cluster.stop_all()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", action="store_true", help="a scratch database on DATABASE_URL's server")
    parser.add_argument("--cluster", action="store_true", help="two app servers on PostgreSQL sharing Redis")
    parser.add_argument("--no-nginx", action="store_true", help="ask the (one) app server directly")
    parser.add_argument("--steps", default="10,50,100,200,300,500", help="numbers of live matches, one step each")
    parser.add_argument("--seconds", type=int, default=30, help="seconds of load per step")
    parser.add_argument("--fraction", type=float, default=1.0, help="a smaller federation (trials of this script)")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn processes per app server (one server: deploy/gunicorn.conf.py's default, 2 x cores + 1; the cluster's two: cores + 1 each)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn process (deploy/gunicorn.conf.py's default: 1, sync workers)")
    parser.add_argument("--table-poll", type=float, default=None,
                        help="the phones ask for their state every this many seconds instead of the page's own interval (what another interval would cost)")
    parser.add_argument("--keep-folder", action="store_true",
                        help="keep the scratch folder (logs of the servers and of each step's Locust) and say where")
    parser.add_argument("--keep-going", action="store_true", default=True,
                        help="play every step even after one missed a target, for the figures (the default: the 500 step is reported; the capacity is the unbroken run's)")
    parser.add_argument("--stop-early", dest="keep_going", action="store_false",
                        help="stop at the first step that misses a target")
    args = parser.parse_args(argv)
    if args.cluster and args.no_nginx:
        parser.error("the cluster is served through nginx")
    cores = os.cpu_count() or 1
    if args.workers is None:
        # One server: deploy/gunicorn.conf.py's default. Two on this one machine: half as many each, and one.
        args.workers = cores + 1 if args.cluster else 2 * cores + 1
    steps = sorted({int(step) for step in args.steps.split(",")})
    if QUIET_SECONDS + len(steps) * args.seconds > MAX_LOAD_SECONDS:
        parser.error(f"the load is bounded to {MAX_LOAD_SECONDS} s: the quiet step and steps x seconds are more")
    postgres = None
    if args.postgres or args.cluster:
        import dj_database_url

        parsed = dj_database_url.parse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
        postgres = {"host": parsed["HOST"], "port": parsed["PORT"], "user": parsed["USER"], "password": parsed["PASSWORD"]}
    # The spares take the places of the matches that end during the steps.
    ends = sum(live * args.seconds / MATCH_SECONDS for live in steps)
    wanted = max(steps) + math.ceil(2 * ends) + 2 * ONE_IN_PAPER

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(tempfile.mkdtemp(prefix="round-night-")) if args.keep_folder else Path(folder)
        if args.keep_folder:
            print(f"Scratch folder kept: {tmp}", file=sys.stderr, flush=True)
        with scratch_database(tmp, postgres) as database_url:
            # Locust's one PDF reader stands for many spectators, each with his own address in a
            # hall; the limit per address would count them all as one (429s, not the load measured).
            load_env = {"DJANGO_SETTINGS_MODULE": "tests.benchmarks.load_settings", "DJANGO_LOG_LEVEL": "WARNING",
                        "DJANGO_DOCUMENTS_PER_MINUTE": "100000", "DJANGO_CACHE_DIR": str(tmp / "cache")}
            from deploy.cluster import Cluster

            # The servers' secret key: the sessions made here carry a hash of it.
            load_env["DJANGO_SECRET_KEY"] = Cluster(run_dir=tmp / "cluster", database_url=database_url).secret_key()
            env = production_env(database_url=database_url, static_root=tmp / "static", **load_env)
            started = time.perf_counter()
            manage("migrate", "--noinput", env=env)
            manage("collectstatic", "--noinput", env=env)
            manage("demo", "--scale", "federation", "--fraction", str(args.fraction), "--public-passwords", env=env,
                   timeout=1800)
            setup = SETUP.replace("WANTED", str(wanted)).replace("ONE_IN_PAPER", str(ONE_IN_PAPER))
            data = shell(setup, env, "SETUP:")
            data["large"] = sorted({entry["competition"] for entry in data["matches"] if entry["large"]})
            data["quiet"] = quiet_matches(data["matches"])
            quiet = [data["quiet"]["table"], data["quiet"]["paper"], *data["quiet"]["idle"]]
            data["matches"] = [entry for entry in data["matches"] if entry not in quiet]
            served_by = "gunicorn" if args.no_nginx else "nginx, " + ("2 app servers, Redis" if args.cluster else "1 app server")
            emit("round_night_data", time.perf_counter() - started, "s", None, True,
                 live_matches=len(data["matches"]), database="postgresql" if postgres else "sqlite",
                 served_by=served_by, workers_per_server=args.workers, threads=args.threads,
                 table_poll=args.table_poll or "the page's own")  # fmt: skip
            data_path, memory_path = tmp / "round_night.json", tmp / "memory.json"
            data_path.write_text(json.dumps(data), encoding="utf-8")
            capacity, capacity_cpu, unbroken = 0, None, True
            stale = agreed = confirmed = posted = proposed = 0
            with serving(args, database_url, tmp, load_env) as (port, apps, nginx, redis):
                meter = CpuMeter([pid for _port, pid in apps], nginx, redis, database_url.rsplit("/", 1)[1] if postgres else None)
                warmed = warm_up(port, [app_port for app_port, _pid in apps], data, args.workers, memory_path)
                emit("round_night_warm_up", warmed, "s", None, True)
                recorded, _cpu = run_locust(1, QUIET_SECONDS, port, data_path, memory_path, tmp, meter, quiet=True)
                references = quiet_references(recorded.get("times", {}))
                quiet_p95 = {kind: value for kind, (value, _count, _of) in references.items()}
                for kind, (value, count, of) in sorted(references.items()):
                    own = len(recorded["times"][kind])
                    once = kind in ONCE_A_MATCH  # its own answers, however few
                    emit(f"round_night_quiet_{kind.replace(' ', '_')}_p95", value, "ms",
                         "its own answers (once a match)" if once else f">= {QUIET_SAMPLES} answers",
                         count >= (1 if once else QUIET_SAMPLES), requests=own,
                         **({"of": of, "answers": count} if of != kind else {}))  # fmt: skip
                for live in steps:
                    if live > len(data["matches"]):
                        emit(f"round_night_{live}_skipped", len(data["matches"]), "live matches in the data", None, False)
                        break
                    recorded, cpu = run_locust(live, args.seconds, port, data_path, memory_path, tmp, meter, quiet=False,
                                               table_poll=args.table_poll)  # fmt: skip
                    ok, per_match_hour = judge_step(live, recorded, cpu, quiet_p95, cores)
                    stale += sum(recorded.get("stale", {}).values())
                    saves = recorded.get("saves", {})
                    confirmed += saves.get("confirmed", 0)
                    posted += saves.get("posted", 0)
                    agreed += saves.get("agreed", 0)
                    proposed += saves.get("proposed", 0)
                    unbroken = unbroken and ok
                    if unbroken:
                        capacity, capacity_cpu = live, per_match_hour
                    elif not args.keep_going:
                        break  # a larger load would only queue behind this one's unanswered requests
            ids = json.dumps([entry["match"] for entry in data["matches"]])
            stored = shell(COUNT.replace("IDS", repr(ids)), env, "COUNT:")
    # Every deal the tables saw agreed and every save the paper secretaries saw confirmed is
    # stored (two deals per match were played before the night); nothing is stored that was not
    # proposed at a table or posted on paper.
    before = 2 * len(data["matches"])
    all_ok = emit("round_night_deals_stored", stored - before, "deals",
                  f"{agreed + confirmed} agreed or confirmed <= stored <= {proposed + posted} proposed or posted",
                  agreed + confirmed <= stored - before <= proposed + posted)  # fmt: skip
    all_ok = emit("round_night_stale_looks", stale, "looks", 0, stale == 0) and all_ok
    all_ok = emit("round_night_capacity", capacity, "live matches", f">= {CAPACITY_TARGET}",
                  capacity >= CAPACITY_TARGET) and all_ok
    all_ok = emit("round_night_cpu_per_match_hour", capacity_cpu, "CPU s per live match and hour",
                  f"<= {CPU_PER_MATCH_HOUR_TARGET}, at the capacity step ({capacity} live matches)",
                  capacity_cpu is not None and capacity_cpu <= CPU_PER_MATCH_HOUR_TARGET) and all_ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
