"""The settings module in production mode, run in a fresh process as a server would."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def run_manage(*args, env_overrides, drop=()):
    env = {**os.environ, **env_overrides}
    # Set by tests/conftest.py for the browser tests; the deploy check rightly refuses it.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    for name in drop:
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env(**extra):
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "example.org",
        "SITE_URL": "https://example.org",
        **extra,
    }


def test_deploy_check_passes_in_production_mode():
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", env_overrides=production_env()
    )

    assert result.returncode == 0, result.stdout + result.stderr


def test_production_mode_refuses_to_start_without_a_secret_key():
    result = run_manage(
        "check", env_overrides={"DJANGO_DEBUG": "0"}, drop=["DJANGO_SECRET_KEY"]
    )

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_mode_refuses_to_start_without_its_address():
    result = run_manage("check", env_overrides=production_env(), drop=["SITE_URL"])

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SITE_URL must be set" in result.stderr


def test_an_address_that_is_not_a_web_address_is_refused():
    result = run_manage("check", env_overrides=production_env(SITE_URL="canasta.example.org"))

    assert result.returncode != 0
    assert "SITE_URL must be an http or https address" in result.stderr


def test_unclear_debug_value_is_refused():
    result = run_manage("check", env_overrides={"DJANGO_DEBUG": "maybe"})

    assert result.returncode != 0
    assert "DJANGO_DEBUG" in result.stderr


def test_the_server_logs_to_stdout_and_commands_to_stderr():
    """gunicorn loads canastaclub.wsgi: its log goes to standard output; manage.py's to stderr."""
    probe = (
        "import logging, django, os;"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'canastaclub.settings');"
        "import canastaclub.wsgi;"
        "logging.getLogger('django').warning('probe-line')"
    )
    env = {**os.environ}
    env.pop("DJANGO_LOG_STREAM", None)
    server = subprocess.run(
        [sys.executable, "-c", probe], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert "probe-line" in server.stdout and "probe-line" not in server.stderr

    command = run_manage("shell", "-c", "import logging; logging.getLogger('django').warning('probe-line')",
                         env_overrides={}, drop=("DJANGO_LOG_STREAM",))
    assert "probe-line" in command.stderr and "probe-line" not in command.stdout
