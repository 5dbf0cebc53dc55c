"""The README's deployment steps, run as written: production settings from the environment,
migrate, collectstatic, `check --deploy`, gunicorn; then the proxy's view of it."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from tests.support.server import gunicorn, http_get, manage, production_env, scratch_database

# A real browser or server: left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow


def postgres_params() -> dict | None:
    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        return None
    return {
        "host": database.get("HOST") or "127.0.0.1",
        "port": database.get("PORT") or 5432,
        "user": database.get("USER") or "",
        "password": database.get("PASSWORD") or "",
    }


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """The site as deployed: (port, static root, server log path)."""
    tmp = tmp_path_factory.mktemp("deploy")
    with scratch_database(tmp, postgres_params()) as database_url:
        env = production_env(database_url=database_url, static_root=tmp / "static")
        manage("migrate", "--noinput", env=env)
        manage("collectstatic", "--noinput", env=env)
        manage("check", "--deploy", "--fail-level", "WARNING", env=env)
        log_path = tmp / "gunicorn.log"
        with gunicorn(env, workers=2, log_path=log_path) as port:
            yield port, tmp / "static", log_path


# The proxy terminates HTTPS and says so in this header (README, Deployment).
VIA_PROXY = {"X-Forwarded-Proto": "https"}


def test_health_check_answers_over_plain_http(deployed):
    port, _, _ = deployed
    status, headers, body = http_get(port, "/healthz")
    assert (status, body) == (200, b"ok")
    assert "no-cache" in headers.get("Cache-Control", "")


def test_the_start_page_is_served_with_security_headers(deployed):
    port, _, _ = deployed
    status, headers, body = http_get(port, "/", VIA_PROXY)
    assert status == 200
    assert b"Canasta" in body and b'lang="sv"' in body
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_plain_http_is_redirected_to_https(deployed):
    port, _, _ = deployed
    status, headers, _ = http_get(port, "/")
    assert status == 301
    assert headers["Location"] == "https://127.0.0.1/"


def test_an_unknown_host_is_refused(deployed):
    port, _, _ = deployed
    status, _, _ = http_get(port, "/", {**VIA_PROXY, "Host": "evil.example"})
    assert status == 400


def test_static_files_are_hashed_compressed_and_cached_by_whitenoise(deployed):
    port, static_root, _ = deployed
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["scoring/css/site.css"]
    assert hashed != "scoring/css/site.css"

    status, _, page = http_get(port, "/", VIA_PROXY)
    assert f"/static/{hashed}".encode() in page

    status, headers, body = http_get(port, f"/static/{hashed}", VIA_PROXY)
    assert status == 200
    assert body == (static_root / hashed).read_bytes()
    assert headers["Content-Type"].startswith("text/css")
    assert "immutable" in headers["Cache-Control"]

    status, headers, body = http_get(port, f"/static/{hashed}", {**VIA_PROXY, "Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"

    status, _, body = http_get(port, "/static/scoring/js/htmx.min.js", VIA_PROXY)
    assert status == 200 and b"htmx" in body


def test_errors_are_plain_pages_and_logged_to_the_process_log(deployed):
    port, _, log_path = deployed
    status, _, body = http_get(port, "/no-such-page-here", VIA_PROXY)
    assert status == 404
    assert b"Traceback" not in body and b"DEBUG = True" not in body
    log = log_path.read_text()
    assert "WARNING django.request: Not Found: /no-such-page-here" in log
