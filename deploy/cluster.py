"""Several app servers on one database, on this machine: PostgreSQL, Redis, two gunicorn servers
and nginx in front of them, on loopback only.

    .venv/bin/python deploy/cluster.py start     (make cluster)
    .venv/bin/python deploy/cluster.py stop      (make cluster-stop)

`start` starts PostgreSQL if it is not running, creates the database `canasta_cluster` if it is
missing, starts a Redis of its own (port 6380, a cache without persistence), migrates, collects the
static files, fills the demo season (`manage.py demo`, which adds nothing a second time), starts
the app servers on 127.0.0.1:8001 and :8002 and nginx on 127.0.0.1:8080, and returns once the site
answers through nginx. Everything runs with production settings (debug off), except that cookies
may travel over plain HTTP, since this is loopback without TLS (DJANGO_SECURE_COOKIES=0).
Processes, logs and the generated configuration are kept in var/cluster/; `stop` ends the
processes it started there, by their recorded ids (PostgreSQL keeps running).

Variables: CLUSTER_PORT (8080), CLUSTER_APP_PORTS (8001,8002), CLUSTER_REDIS_PORT (6380),
CLUSTER_DATABASE_URL (postgres://postgres@127.0.0.1:5432/canasta_cluster), GUNICORN_WORKERS.

The `Cluster` class is also what tests/cluster uses, with ports, folder and database of its own.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DEPLOY_DIR = BASE_DIR / "deploy"
VENV_BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


class ClusterError(RuntimeError):
    pass


def http_get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 10):
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": f"{HOST}:{port}", **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def wait_until(condition, *, seconds: float, what: str, process: subprocess.Popen | None = None, log: Path | None = None):
    """Poll `condition()` until it is true; fail with the log when time is up or the process died."""
    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            raise ClusterError(f"{what}: the process exited with {process.returncode}.\n{tail(log)}")
        try:
            if condition():
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise ClusterError(f"{what}: no answer within {seconds:.0f} s.\n{tail(log)}")
        time.sleep(0.1)


def tail(log: Path | None, lines: int = 40) -> str:
    if log is None or not log.exists():
        return ""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A child of ours that has exited but not been waited for is gone for our purposes.
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
        return waited == 0
    except ChildProcessError:
        return True


def stop_pid(pid: int, *, seconds: float = 20) -> None:
    """SIGTERM (a graceful stop for each of these servers), then SIGKILL if it lingers."""
    if not pid_alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while pid_alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 5
        time.sleep(0.05)


@dataclass
class Cluster:
    """The parts of the setup, each started on demand; `env` is the app servers' environment."""

    run_dir: Path
    database_url: str
    port: int = 8080
    app_ports: tuple[int, ...] = (8001, 8002)
    redis_port: int = 6380
    workers: int = 3
    threads: int = 1
    extra_env: dict[str, str] = field(default_factory=dict)
    # Where collectstatic writes (run_dir/static unless given): tests pass one collected before.
    static_root: Path | None = None
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    def __post_init__(self):
        self.run_dir.mkdir(parents=True, exist_ok=True)
        if self.static_root is None:
            self.static_root = self.run_dir / "static"

    # -- configuration ---------------------------------------------------------------------------

    @property
    def redis_url(self) -> str:
        return f"redis://{HOST}:{self.redis_port}/0"

    @property
    def env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "GUNICORN_"))}
        env.pop("REDIS_URL", None)
        env.update(
            {
                "DJANGO_DEBUG": "0",
                # One key for every server: a session or form made by one is valid on the others.
                "DJANGO_SECRET_KEY": self.secret_key(),
                "DJANGO_ALLOWED_HOSTS": f"{HOST},localhost",
                "DATABASE_URL": self.database_url,
                "REDIS_URL": self.redis_url,
                "DJANGO_TRUSTED_PROXIES": HOST,
                # nginx proves itself with it: another process on 127.0.0.1 cannot forge an address.
                "DJANGO_PROXY_SECRET": self.proxy_secret(),
                "DJANGO_STATIC_ROOT": str(self.static_root),
                "SITE_URL": f"http://{HOST}:{self.port}",
                # Plain HTTP on loopback: no redirect to HTTPS, cookies without the Secure flag.
                "DJANGO_SECURE_SSL_REDIRECT": "0",
                "DJANGO_SECURE_COOKIES": "0",
                "DJANGO_HSTS_SECONDS": "0",
                "GUNICORN_WORKERS": str(self.workers),
                "GUNICORN_THREADS": str(self.threads),
                "PYTHONUNBUFFERED": "1",
                **self.extra_env,
            }
        )
        return env

    def secret_key(self) -> str:
        path = self.run_dir / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(64))
            path.chmod(0o600)
        return path.read_text().strip()

    def proxy_secret(self) -> str:
        """What nginx sends in X-Canasta-Proxy (scoring.web.client_address), kept beside the secret key."""
        path = self.run_dir / "proxy_secret"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(32))
            path.chmod(0o600)
        return path.read_text().strip()

    def manage(self, *args: str, timeout: float = 600) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR, env=self.env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        if result.returncode != 0:
            raise ClusterError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def prepare_database(self, *, demo: bool, collect_static: bool = True) -> None:
        self.manage("migrate", "--noinput")
        if collect_static:
            self.manage("collectstatic", "--noinput")
        if demo:
            # Debug is off, so the demo's well-known passwords must be asked for: this is loopback.
            self.manage("demo", "--public-passwords")

    # -- processes -------------------------------------------------------------------------------

    def spawn(self, name: str, command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        log = open(self.run_dir / f"{name}.log", "ab")
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        self.processes[name] = process
        (self.run_dir / f"{name}.pid").write_text(str(process.pid))
        return process

    def start_redis(self) -> None:
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise ClusterError("redis-server is not installed (Debian: apt-get install redis-server).")
        process = self.spawn(
            "redis",
            [redis_server, str(DEPLOY_DIR / "redis.conf"), "--port", str(self.redis_port), "--dir", str(self.run_dir)],
        )
        wait_until(self.redis_answers, seconds=20, what="Redis", process=process, log=self.run_dir / "redis.log")

    def redis_answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(host=HOST, port=self.redis_port, socket_timeout=1).ping())
        except redis.exceptions.RedisError:
            return False

    def start_app(self, index: int) -> None:
        name = f"app{index + 1}"
        port = self.app_ports[index]
        process = self.spawn(
            name,
            [str(VENV_BIN / "gunicorn"), "-c", str(DEPLOY_DIR / "gunicorn.conf.py"), "canastaclub.wsgi",
             "--bind", f"{HOST}:{port}"],
            env=self.env,
        )  # fmt: skip
        wait_until(
            lambda: http_get(port, "/healthz", timeout=2)[0] == 200,
            seconds=90, what=f"app server {name} on port {port}", process=process, log=self.run_dir / f"{name}.log",
        )  # fmt: skip

    def nginx_conf(self) -> Path:
        upstream = "\n".join(
            # Three failed connections within 10 s take a server out of the rotation for 10 s: a
            # stopped server is soon skipped instead of being tried by every request, and no single
            # request, however odd, takes a server out (nginx-proxy.conf, proxy_next_upstream).
            f"        server {HOST}:{port} max_fails=3 fail_timeout=10s;"
            for port in self.app_ports
        )
        text = (DEPLOY_DIR / "nginx.conf.template").read_text()
        for name, value in {
            "@RUN_DIR@": str(self.run_dir),
            "@DEPLOY_DIR@": str(DEPLOY_DIR),
            "@LISTEN@": f"{HOST}:{self.port}",
            "@UPSTREAM_SERVERS@": upstream,
            "@PROXY_SECRET@": self.proxy_secret(),
        }.items():
            text = text.replace(name, value)
        if os.geteuid() == 0:
            # nginx started by root runs its workers as nobody, who may not enter run_dir (a folder
            # of the starter's own) where the proxy cache is kept: they run as root here, on loopback.
            text = "user root;\n" + text
        path = self.run_dir / "nginx.conf"
        path.write_text(text)
        path.chmod(0o600)  # it holds the proxy secret
        return path

    def start_nginx(self) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise ClusterError("nginx is not installed (Debian: apt-get install nginx).")
        conf = self.nginx_conf()
        command = [nginx, "-c", str(conf), "-p", str(self.run_dir), "-e", str(self.run_dir / "nginx-error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise ClusterError(f"nginx refuses its configuration:\n{checked.stderr}")
        process = self.spawn("nginx", [*command, "-g", "daemon off;"])
        wait_until(
            lambda: http_get(self.port, "/healthz", timeout=2)[0] == 200,
            seconds=30, what=f"nginx on port {self.port}", process=process, log=self.run_dir / "nginx-error.log",
        )  # fmt: skip

    def stop(self, name: str) -> None:
        """Stop one part by the process id recorded when it was started."""
        pid_file = self.run_dir / f"{name}.pid"
        if not pid_file.exists():
            return
        pid = int(pid_file.read_text())
        stop_pid(pid)
        process = self.processes.pop(name, None)
        if process is not None:
            process.wait(timeout=5)
        pid_file.unlink(missing_ok=True)

    def stop_all(self) -> None:
        names = ["nginx"] + [f"app{index + 1}" for index in range(len(self.app_ports))] + ["redis"]
        for name in names:
            self.stop(name)


# -- PostgreSQL ----------------------------------------------------------------------------------


def postgres_params(database_url: str) -> dict:
    url = urllib.parse.urlsplit(database_url)
    return {
        "host": url.hostname or HOST,
        "port": url.port or 5432,
        "user": urllib.parse.unquote(url.username or ""),
        "password": urllib.parse.unquote(url.password or ""),
        "dbname": url.path.lstrip("/"),
    }


def ensure_postgres(database_url: str) -> None:
    """PostgreSQL running (started here if it is a local cluster that is down), and the database
    there (created if missing)."""
    import psycopg

    params = postgres_params(database_url)
    admin = {key: value for key, value in {**params, "dbname": "postgres"}.items() if value}

    def answers() -> bool:
        try:
            psycopg.connect(**admin, connect_timeout=2).close()
            return True
        except psycopg.OperationalError as error:
            if "authentication" in str(error) or "password" in str(error):
                raise ClusterError(
                    f"PostgreSQL at {params['host']}:{params['port']} refuses user {params['user']!r}: {error}\n"
                    "Give CLUSTER_DATABASE_URL a user and password it accepts."
                ) from None
            return False

    if not answers():
        if params["host"] not in (HOST, "localhost") or not Path("/etc/postgresql").is_dir():
            raise ClusterError(f"PostgreSQL does not answer at {params['host']}:{params['port']}.")
        print("Starting PostgreSQL", flush=True)
        for version in sorted(os.listdir("/etc/postgresql")):
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"], check=False)
        wait_until(answers, seconds=60, what="PostgreSQL")
    with psycopg.connect(**admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [params["dbname"]]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{params["dbname"]}"')


# -- make cluster / make cluster-stop -----------------------------------------------------------


def local_cluster() -> Cluster:
    ports = tuple(int(port) for port in os.environ.get("CLUSTER_APP_PORTS", "8001,8002").split(","))
    return Cluster(
        run_dir=BASE_DIR / "var" / "cluster",
        database_url=os.environ.get("CLUSTER_DATABASE_URL", f"postgres://postgres@{HOST}:5432/canasta_cluster"),
        port=int(os.environ.get("CLUSTER_PORT", "8080")),
        app_ports=ports,
        redis_port=int(os.environ.get("CLUSTER_REDIS_PORT", "6380")),
        workers=int(os.environ.get("GUNICORN_WORKERS") or 3),
    )


def start() -> None:
    cluster = local_cluster()
    cluster.stop_all()  # a setup left running from before is replaced, not doubled
    try:
        if cluster.database_url.startswith(("postgres://", "postgresql://")):
            ensure_postgres(cluster.database_url)
        print(f"Redis on {HOST}:{cluster.redis_port}", flush=True)
        cluster.start_redis()
        print("Migrating, collecting static files, demo data", flush=True)
        cluster.prepare_database(demo=True)
        for index, port in enumerate(cluster.app_ports):
            print(f"App server {index + 1} on {HOST}:{port}", flush=True)
            cluster.start_app(index)
        cluster.start_nginx()
        wait_until(lambda: http_get(cluster.port, "/")[0] == 200, seconds=30, what="the start page through nginx")
    except BaseException:
        cluster.stop_all()
        raise
    print(
        f"\nThe site answers on http://{HOST}:{cluster.port}/ (nginx, app servers on ports "
        f"{', '.join(map(str, cluster.app_ports))}, Redis on {cluster.redis_port}).\n"
        f"Logins as for the demo (README, Demo data), e.g. sekreterare-orebro / canasta.\n"
        f"Logs: {cluster.run_dir}/*.log. Stop it with: make cluster-stop"
    )


def stop() -> None:
    cluster = local_cluster()
    cluster.stop_all()
    print("Stopped nginx, the app servers and Redis (PostgreSQL keeps running).")


if __name__ == "__main__":
    commands = {"start": start, "stop": stop}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: {sys.argv[0]} start|stop")
    try:
        commands[sys.argv[1]]()
    except ClusterError as error:
        sys.exit(str(error))
