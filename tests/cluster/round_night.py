"""The round night (tests/benchmarks/round_night.py, its Locust users and targets unchanged) through
nginx against two app servers sharing one PostgreSQL and one Redis, as deploy/cluster.py runs them
on loopback; with the processor time each part used, for the sizing in the README (Deployment,
Several app servers).

    .venv/bin/python tests/cluster/round_night.py [--steps 10,50,100] [--seconds 30]
        [--fraction 0.2] [--workers 2] [--threads 2]

PostgreSQL is the server DATABASE_URL names (127.0.0.1:5432 by default): a scratch database there,
dropped afterwards. Every step prints round_night.py's JSON lines, then one of its own:
`round_night_cluster_<live>_cpu` with the processor seconds per second of load each part used
(app servers, PostgreSQL, nginx, Redis; read from /proc, so other work on the machine does not
count) and `live_matches_per_app_core`: live matches one core of app server can carry at that
load. At the end, as round_night.py: every confirmed save stored, and the capacity reached.

This machine has two cores for everything (Locust, nginx, both app servers, PostgreSQL): two app
servers here cannot be faster than one; the processor time per live match is what carries over
to a bigger machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(BASE_DIR))

from deploy.cluster import Cluster, postgres_params  # noqa: E402
from tests.benchmarks import round_night  # noqa: E402
from tests.production.server import free_port, manage, production_env, scratch_database  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def processor_seconds(select) -> dict[int, float]:
    """Processor seconds (user + system) of each process `select(pid, group, command)` picks."""
    used = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat_file:
                stat = stat_file.read()
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()
        if select(int(name), int(fields[2]), command):
            used[int(name)] = (int(fields[11]) + int(fields[12])) / TICKS
    return used


def used_between(before: dict[int, float], after: dict[int, float]) -> float:
    """Processor seconds used between two samples by the processes alive at the second (a process
    that ended meanwhile takes its time along: PostgreSQL ends a connection's process with it)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def two_costs(rows: list[tuple[float, float, float]]) -> tuple[float, float]:
    """Least squares of seconds = a * first + b * second over rows (first, second, seconds)."""
    s11 = sum(r[0] * r[0] for r in rows)
    s12 = sum(r[0] * r[1] for r in rows)
    s22 = sum(r[1] * r[1] for r in rows)
    t1 = sum(r[0] * r[2] for r in rows)
    t2 = sum(r[1] * r[2] for r in rows)
    det = s11 * s22 - s12 * s12
    return (t1 * s22 - t2 * s12) / det, (s11 * t2 - s12 * t1) / det


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="10,50,100", help="numbers of live matches, one step each")
    parser.add_argument("--seconds", type=int, default=30, help="seconds of load per step")
    parser.add_argument("--fraction", type=float, default=1.0, help="a smaller federation (quicker to make)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes per app server")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn process")
    args = parser.parse_args(argv)
    steps = sorted({int(step) for step in args.steps.split(",")})
    if len(steps) * args.seconds > round_night.MAX_LOAD_SECONDS:
        parser.error(f"the load is bounded to {round_night.MAX_LOAD_SECONDS} s: steps x seconds is more")
    url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    params = postgres_params(url)
    if params["host"] not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the round night only talks to a database on this machine")
    postgres = {key: params[key] for key in ("host", "port", "user", "password")}

    with tempfile.TemporaryDirectory(prefix="canasta-cluster-night-") as folder:
        tmp = Path(folder)
        with scratch_database(tmp, postgres) as database_url:
            database = database_url.rsplit("/", 1)[1]
            cluster = Cluster(
                run_dir=tmp / "cluster", database_url=database_url, port=free_port(),
                app_ports=(free_port(), free_port()), redis_port=free_port(), workers=args.workers,
                threads=args.threads, static_root=tmp / "static",
                extra_env={
                    "DJANGO_SETTINGS_MODULE": "tests.benchmarks.load_settings", "DJANGO_LOG_LEVEL": "WARNING",
                    # Locust's one PDF reader stands for many visitors but comes from one address;
                    # with the count shared in Redis, the per-visitor limit would refuse most of it.
                    "DJANGO_DOCUMENTS_PER_MINUTE": "100000",
                },
            )  # fmt: skip
            # The load test's settings: the site's own over plain HTTP, plus the baseline view; and
            # the servers' secret key: the secretaries' sessions made here carry a hash of it, and a
            # server with another key takes them for signed out.
            env = production_env(database_url=database_url, static_root=tmp / "static", DJANGO_LOG_LEVEL="WARNING",
                                 DJANGO_SETTINGS_MODULE="tests.benchmarks.load_settings",
                                 DJANGO_SECRET_KEY=cluster.secret_key())  # fmt: skip
            started = time.perf_counter()
            manage("migrate", "--noinput", env=env)
            manage("collectstatic", "--noinput", env=env)
            manage("demo", "--scale", "federation", "--fraction", str(args.fraction), "--public-passwords", env=env,
                   timeout=900)  # fmt: skip
            setup = round_night.SETUP.replace("LIVE", str(max(steps)))
            data = round_night.shell(setup, env, "SETUP:")
            round_night.emit("round_night_data", time.perf_counter() - started, "s", None, True,
                             live_matches=len(data["accounts"]), database="postgresql")  # fmt: skip
            data_path = tmp / "round_night.json"
            data_path.write_text(json.dumps(data), encoding="utf-8")

            capacity, confirmed = 0, 0
            try:
                cluster.start_redis()
                cluster.start_app(0)
                cluster.start_app(1)
                cluster.start_nginx()
                groups = {
                    "app_servers": {cluster.processes["app1"].pid, cluster.processes["app2"].pid},
                    "nginx": {cluster.processes["nginx"].pid},
                    "redis": {cluster.processes["redis"].pid},
                }

                def sample() -> dict[str, dict[int, float]]:
                    used = {part: processor_seconds(lambda pid, group, command, g=g: group in g) for part, g in groups.items()}
                    used["postgresql"] = processor_seconds(
                        lambda pid, group, command: command.startswith("postgres:") and f" {database} " in command
                    )
                    return used

                measured = []
                for live in steps:
                    if live > len(data["accounts"]):
                        break
                    before, clock = sample(), time.monotonic()
                    ok, saves = round_night.run_step(live, args.seconds, cluster.port, data_path, tmp)
                    after, elapsed = sample(), time.monotonic() - clock
                    confirmed += saves["saves"]
                    capacity = live if ok else capacity
                    seconds = {part: used_between(before[part], after[part]) for part in after}
                    stats = round_night.read_stats(tmp / f"step{live}")
                    served = int(stats["Aggregated"]["Request Count"])
                    pdfs = int(stats["protocol pdf"]["Request Count"]) if "protocol pdf" in stats else 0
                    measured.append((pdfs, served - pdfs, seconds))
                    failures = tmp / f"step{live}_failures.csv"
                    if failures.exists():
                        for line in failures.read_text(encoding="utf-8").splitlines()[1:6]:
                            print(f"failure: {line}", flush=True)
                    round_night.emit(
                        f"round_night_cluster_{live}_cpu", round(seconds["app_servers"] / elapsed, 2),
                        "cores busy (app servers)", None, True,
                        cores={part: round(used / elapsed, 3) for part, used in seconds.items()},
                        requests=served, pdfs=pdfs, app_servers=2, workers=args.workers, threads=args.threads,
                    )  # fmt: skip
                # The processor time of a step is that of its PDFs (a fixed stream, one a second)
                # plus that of its other requests (pages and saves, in proportion to the live
                # matches): two costs, fitted over the steps. A live match makes 0.1 requests a
                # second (its secretary: a save and the protocol page every 20 s) and 1000/300
                # spectators 0.1 each (locustfile.py): 0.433 a second.
                per_match = 0.1 + 1000 / 300 * 0.1
                if len(measured) >= 2:
                    for part in ("app_servers", "postgresql"):
                        per_pdf, per_request = two_costs([(pdfs, other, used[part]) for pdfs, other, used in measured])
                        round_night.emit(
                            f"round_night_cluster_{part}_per_request", round(per_request * 1000, 2), "ms of processor",
                            None, True, per_pdf_ms=round(per_pdf * 1000, 1),
                            requests_per_core_second=round(1 / per_request, 1) if per_request > 0 else None,
                            live_matches_per_core=round(1 / (per_match * per_request)) if per_request > 0 else None,
                            steps=[live for live in steps][: len(measured)],
                        )  # fmt: skip
                logs = "".join((cluster.run_dir / f"app{n}.log").read_text(errors="replace") for n in (1, 2))
            finally:
                cluster.stop_all()
            ids = json.dumps([account["match"] for account in data["accounts"]])
            stored = round_night.shell(round_night.COUNT.replace("IDS", repr(ids)), env, "COUNT:")
    # A save that Locust stopped waiting for at the end of a step (its --stop-timeout) may be stored
    # without Locust having seen the confirmation: stored may exceed confirmed, never fall short.
    all_ok = round_night.emit("round_night_saves_lost", max(0, confirmed - stored), "deals", 0, stored >= confirmed,
                              confirmed=confirmed, stored=stored)  # fmt: skip
    all_ok = round_night.emit("round_night_server_errors", logs.count("Traceback"), "tracebacks", 0,
                              "Traceback" not in logs) and all_ok  # fmt: skip
    round_night.emit("round_night_capacity", capacity, "live matches", None, True, through="nginx, 2 app servers")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
