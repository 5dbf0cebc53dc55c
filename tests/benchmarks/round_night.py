"""`make load`: a federation's round night with Locust, headless and bounded (the load itself at
most 3 minutes), against gunicorn on loopback or, with --cluster, through nginx and its proxy cache
before two app servers sharing PostgreSQL and Redis (deploy/cluster.py, as `make cluster`).

    .venv/bin/python tests/benchmarks/round_night.py [--postgres | --cluster]
        [--steps 10,50,100,200,300] [--seconds 30] [--fraction 1.0]

The data is `manage.py demo --scale federation` in a scratch database (SQLite in a temporary
folder; with --postgres or --cluster a new database on the server named by DATABASE_URL, dropped
afterwards). Then a new round of every competition is paired through the services and its matches
are live. The users are locustfile.py's: a secretary per live match saving a deal every 20 s;
1 000 spectators per 300 live matches, each keeping a page open whose live part asks every 20 s
with its validator, and opening another page about every 60 s; one protocol PDF a second; the
minimal view as the baseline, in the same run. Before the first step every page of the night is
loaded once and every PDF once, not measured (the server has been up during the day; `warm_up`).
The load is stepped (--steps: numbers of live matches, --seconds each); every step prints one JSON
line per figure ({"name", "value", "unit", "target", "ok"}):
- the p95 of each page type, of each live part and of a deal save, target <= 3x the baseline's p95
  in that step (the protocol PDF's and the secretary's protocol page's are printed without one);
- the errors (target 0), and the stale looks: looks that showed an older total than a save
  confirmed more than max-age plus one poll interval before (target 0);
- the requests answered, as a share of those the step's users would make if every answer came at
  once (target >= 90 %), and the baseline's p95 (target <= 250 ms): an overloaded server queues
  requests, its baseline with them, and its ratios alone could pass;
and at the end: every confirmed save stored, `round_night_stale_looks` over the night (target 0)
and `round_night_capacity`, the largest number of live matches whose step met every target
(target >= 300); the stepping stops at the first step that misses one (--keep-going plays every
step all the same, for the figures; the capacity is still the last step of the unbroken run).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(BASE_DIR))

from tests.support.server import (  # noqa: E402
    VENV_BIN,
    free_port,
    gunicorn,
    manage,
    production_env,
    scratch_database,
)

RATIO = 3
# The site's default (settings.PUBLIC_MAX_AGE): how long a kept page may be older than a save.
PUBLIC_MAX_AGE = 5
CAPACITY_TARGET = 300
MAX_LOAD_SECONDS = 180
# The targets: the spectators' four page types, the three live parts and a deal save. The protocol
# PDF (one a second) is load the pages must bear; its p95 is printed too, without a target: a
# WeasyPrint document made for the first time takes a few hundred milliseconds of its own, and a
# made one is stored under its match's version (scoring/views/exports.py).
PAGE_TYPES = ("live round", "standings", "match", "team", "live round live", "standings live", "match live",
              "deal save")
MEASURED_ONLY = ("protocol pdf", "protocol page")

SETUP = r"""
import json
from datetime import timedelta
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from scoring import services
from scoring.models import Competition, Match, Round
from scoring.services.audit import COMMAND_LINE

wanted = int(LIVE)
User = get_user_model()
today = timezone.localdate()
accounts, rounds = [], []
for competition in Competition.objects.order_by("pk"):
    if len(accounts) >= wanted:
        break
    last = competition.rounds.order_by("-number").first()
    round_ = services.round_save(user=COMMAND_LINE, round=Round(competition=competition, number=last.number + 1, date=today))
    rounds.append(f"/competitions/{competition.pk}/rounds/{round_.number}/")
    teams = list(competition.teams.order_by("pk"))[:20]
    for table, (home, away) in enumerate(zip(teams[0::2], teams[1::2]), start=1):
        if len(accounts) >= wanted:
            break
        match = services.match_create(user=COMMAND_LINE, competition=competition, round=round_, table=table,
                                      home_team=home, away_team=away, scheduled_start=timezone.now())
        user = User.objects.create_user(f"rundkvall{len(accounts)}")
        home.club.secretaries.add(user)
        # Signed in before the round began, as a secretary is at the table: the night's load is
        # the deals, not the password checks (each a third of a second of CPU by design).
        browser = Client()
        browser.force_login(user)
        accounts.append({"username": user.username, "match": match.pk, "competition": competition.pk,
                         "round": rounds[-1], "home": home.pk, "away": away.pk,
                         "session": {"name": settings.SESSION_COOKIE_NAME,
                                     "value": browser.cookies[settings.SESSION_COOKIE_NAME].value}})
competitions = sorted({account["competition"] for account in accounts})
played = list(Match.objects.filter(status=Match.Status.CONFIRMED, competition_id__in=competitions).order_by("pk").values_list("pk", flat=True)[:60])
print("SETUP:" + json.dumps({
    "accounts": accounts,
    "pages": {
        "live round": rounds,
        "standings": [f"/competitions/{pk}/" for pk in competitions],
        "match": [f"/matches/{account['match']}/" for account in accounts],
        "team": [f"/teams/{account[side]}/" for account in accounts for side in ("home", "away")],
    },
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
    result = manage("shell", "-c", code, env=env, timeout=900)
    line = next(line for line in result.stdout.splitlines() if line.startswith(marker))
    return json.loads(line[len(marker):])


def read_stats(prefix: Path) -> dict[str, dict]:
    with open(f"{prefix}_stats.csv", encoding="utf-8") as stats:
        return {row["Name"]: row for row in csv.DictReader(stats)}


def read_failures(prefix: Path) -> list[str]:
    """What went wrong, as Locust counted it: "name: error (n times)"."""
    path = Path(f"{prefix}_failures.csv")
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as failures:
        return [f"{row['Name']}: {row['Error']} ({row['Occurrences']} times)" for row in csv.DictReader(failures)]


def warm_up(port: int, data: dict, workers: int) -> float:
    """Load every page of the night once, eight at a time, before the first step (not measured): a
    server on a round night has been up and serving these pages during the day, and the first
    visitor after a restart (its imports, its connections) is not what the steps measure. The
    protocol PDFs of the played matches are loaded once: each was made when it was first
    downloaded, after its match was confirmed in an earlier round, and is stored, shared by the
    processes, under its match's version (scoring/views/exports.py)."""
    pages = [url for kind in ("standings", "live round", "match", "team") for url in data["pages"][kind]]
    urls = pages * workers + data["pdfs"]
    started = time.perf_counter()

    def load(url):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{url}", timeout=300) as response:
            response.read()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(load, urls))
    return time.perf_counter() - started


# Of the requests a step's users would make if every answer came at once, the share that must have
# been answered: a server that cannot keep up queues the rest, and its baseline queues with them,
# so the ratios alone could pass an overloaded server.
ANSWERED_SHARE = 0.9
# A minimal view answers in a millisecond or two of the server's time; a baseline p95 beyond this
# is time spent waiting in the server's queue, and ratios against it say nothing (2 December, 200
# live matches: 93 % answered, every p95 1.7-2.1 s, ratios 1.0-1.2).
BASELINE_QUEUEING_MS = 250


def planned_requests(live: int, spectators: int, seconds: int) -> float:
    """The spectators' looks (a page opened at the start, then one request every 20 s but for a
    team page, which asks for nothing), the secretaries' saves, the PDF downloads and the
    baseline's requests a step of `seconds` makes when every answer is immediate (locustfile.py)."""
    team_share = 5 / 100
    looks = spectators * (1 + (1 - team_share) * seconds / 20 + team_share * seconds / 60)
    return looks + live * seconds / 20 + seconds / 1 + seconds / 0.25


def run_step(live: int, seconds: int, port: int, data_path: Path, tmp: Path) -> tuple[bool, dict]:
    spectators = max(1, round(live * 1000 / 300))
    users = live + spectators + 2
    prefix = tmp / f"step{live}"
    confirmed_path = tmp / f"confirmed{live}.json"
    env = {**os.environ, "ROUND_NIGHT_DATA": str(data_path), "ROUND_NIGHT_CONFIRMED": str(confirmed_path),
           "LIVE": str(live), "SPECTATORS": str(spectators), "PUBLIC_MAX_AGE": str(PUBLIC_MAX_AGE)}
    subprocess.run(
        [str(VENV_BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")), "--headless",
         "--host", f"http://127.0.0.1:{port}", "-u", str(users), "-r", str(users),
         "-t", f"{seconds}s", "--stop-timeout", "5", "--csv", str(prefix), "--only-summary",
         "--loglevel", "WARNING"],
        cwd=BASE_DIR, env=env, check=False, capture_output=True, timeout=seconds + 120,
    )
    stats = read_stats(prefix)
    saves = {"saves": 0, "posted": 0, "looks": 0, "stale_looks": 0}
    if confirmed_path.exists():
        saves.update(json.loads(confirmed_path.read_text()))
    if "baseline" not in stats:  # not one baseline request came back within the step: overloaded
        emit(f"round_night_{live}_baseline_p95", None, "ms", "an answer within the step", False)
        return False, saves
    made = sum(int(row["Request Count"]) for name, row in stats.items()
               if name in (*PAGE_TYPES, "protocol pdf", "baseline"))
    planned = planned_requests(live, spectators, seconds)
    answered = emit(f"round_night_{live}_answered", 100 * made / planned, "% of planned requests",
                    f">= {ANSWERED_SHARE:.0%}", made >= ANSWERED_SHARE * planned, requests=made, planned=round(planned))
    baseline = float(stats["baseline"]["95%"])
    ok = emit(f"round_night_{live}_baseline_p95", baseline, "ms", f"<= {BASELINE_QUEUEING_MS} ms",
              baseline <= BASELINE_QUEUEING_MS, requests=int(stats["baseline"]["Request Count"]))
    ok = answered and ok
    for kind in PAGE_TYPES:
        row = stats.get(kind)
        if row is None:
            # Spectators choose pages by weight (locustfile.PAGE_WEIGHTS): in a small step nobody
            # may have opened a team page. Nothing was measured, and nothing failed.
            emit(f"round_night_{live}_{kind.replace(' ', '_')}_p95", None, "ms", f"<= {RATIO}x baseline", True,
                 about="no request of this type was made")
            continue
        p95 = float(row["95%"])
        ok = emit(f"round_night_{live}_{kind.replace(' ', '_')}_p95", p95, "ms", f"<= {RATIO}x baseline p95",
                  p95 <= RATIO * baseline, ratio=round(p95 / baseline, 1) if baseline else None,
                  requests=int(row["Request Count"])) and ok
    for kind in MEASURED_ONLY:
        row = stats.get(kind)
        if row is not None:
            p95 = float(row["95%"])
            emit(f"round_night_{live}_{kind.replace(' ', '_')}_p95", p95, "ms", None, True,
                 ratio=round(p95 / baseline, 1) if baseline else None, requests=int(row["Request Count"]))
    failures = int(stats["Aggregated"]["Failure Count"])
    ok = emit(f"round_night_{live}_errors", failures, "requests", 0, failures == 0,
              requests=int(stats["Aggregated"]["Request Count"]), about=read_failures(prefix)) and ok
    ok = emit(f"round_night_{live}_stale_looks", saves["stale_looks"], "looks", 0, saves["stale_looks"] == 0,
              looks=saves["looks"]) and ok
    return ok, saves


@contextmanager
def serving(cluster, env: dict, args, tmp: Path):
    """The site the night is played against; yields its port: gunicorn on loopback, or nginx before
    the cluster's two app servers and Redis (`cluster`, deploy/cluster.py)."""
    if cluster is None:
        with gunicorn(env, workers=args.workers, threads=args.threads, log_path=tmp / "gunicorn.log") as port:
            yield port
        return
    try:
        cluster.start_redis()
        cluster.start_app(0)
        cluster.start_app(1)
        cluster.start_nginx()
        yield cluster.port
    finally:
        cluster.stop_all()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", action="store_true", help="a scratch database on DATABASE_URL's server")
    parser.add_argument("--cluster", action="store_true",
                        help="through nginx and its proxy cache, two app servers, PostgreSQL and Redis")
    parser.add_argument("--steps", default="10,50,100,200,300", help="numbers of live matches, one step each")
    parser.add_argument("--seconds", type=int, default=30, help="seconds of load per step")
    parser.add_argument("--fraction", type=float, default=1.0, help="a smaller federation (tests of this script)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--keep-going", action="store_true",
                        help="play every step even after one missed a target (the capacity is unchanged)")
    args = parser.parse_args(argv)
    steps = sorted({int(step) for step in args.steps.split(",")})
    if len(steps) * args.seconds > MAX_LOAD_SECONDS:
        parser.error(f"the load is bounded to {MAX_LOAD_SECONDS} s: steps x seconds is more")
    postgres = None
    if args.postgres or args.cluster:
        import dj_database_url

        parsed = dj_database_url.parse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
        postgres = {"host": parsed["HOST"], "port": parsed["PORT"], "user": parsed["USER"], "password": parsed["PASSWORD"]}

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        with scratch_database(tmp, postgres) as database_url:
            # Locust's one PDF reader stands for many spectators, each with his own address in a
            # hall; the limit per address would count them all as one (429s, not the load measured).
            load_env = {"DJANGO_SETTINGS_MODULE": "tests.benchmarks.load_settings", "DJANGO_LOG_LEVEL": "WARNING",
                        "DJANGO_DOCUMENTS_PER_MINUTE": "100000", "DJANGO_CACHE_DIR": str(tmp / "cache")}
            cluster = None
            if args.cluster:
                from deploy.cluster import Cluster

                # Two app servers of `--workers` processes each would be twice the single server's.
                workers = max(1, args.workers // 2)
                cluster = Cluster(run_dir=tmp / "cluster", database_url=database_url, port=free_port(),
                                  app_ports=(free_port(), free_port()), redis_port=free_port(), workers=workers,
                                  threads=args.threads, static_root=tmp / "static", extra_env=load_env)  # fmt: skip
                # The servers' secret key: the secretaries' sessions made here carry a hash of it.
                load_env["DJANGO_SECRET_KEY"] = cluster.secret_key()
            env = production_env(database_url=database_url, static_root=tmp / "static", **load_env)
            started = time.perf_counter()
            manage("migrate", "--noinput", env=env)
            manage("collectstatic", "--noinput", env=env)
            manage("demo", "--scale", "federation", "--fraction", str(args.fraction), "--public-passwords", env=env,
                   timeout=900)
            data = shell(SETUP.replace("LIVE", str(max(steps))), env, "SETUP:")
            emit("round_night_data", time.perf_counter() - started, "s", None, True,
                 live_matches=len(data["accounts"]), database="postgresql" if postgres else "sqlite",
                 served_by="nginx, 2 app servers, Redis" if cluster else "gunicorn")
            data_path = tmp / "round_night.json"
            data_path.write_text(json.dumps(data), encoding="utf-8")
            capacity, confirmed, posted, stale, unbroken = 0, 0, 0, 0, True
            with serving(cluster, env, args, tmp) as port:
                emit("round_night_warm_up", warm_up(port, data, args.workers), "s", None, True)
                for live in steps:
                    if live > len(data["accounts"]):
                        break
                    ok, saves = run_step(live, args.seconds, port, data_path, tmp)
                    confirmed += saves["saves"]
                    posted += saves["posted"]
                    stale += saves["stale_looks"]
                    unbroken = unbroken and ok
                    if unbroken:
                        capacity = live
                    elif not args.keep_going:
                        # A larger load would only queue behind this one's unanswered requests.
                        break
            ids = json.dumps([account["match"] for account in data["accounts"]])
            stored = shell(COUNT.replace("IDS", repr(ids)), env, "COUNT:")
    # Every confirmed save is stored; a save still under way when its step ended may be stored
    # without Locust seeing the answer, but nothing is stored that was not posted.
    all_ok = emit("round_night_saves_stored", stored, "deals", f"{confirmed} confirmed <= stored <= {posted} posted",
                  confirmed <= stored <= posted)
    all_ok = emit("round_night_stale_looks", stale, "looks", 0, stale == 0) and all_ok
    all_ok = emit("round_night_capacity", capacity, "live matches", f">= {CAPACITY_TARGET}",
                  capacity >= CAPACITY_TARGET) and all_ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
