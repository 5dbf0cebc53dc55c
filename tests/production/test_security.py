"""Security basics: password guessing is throttled (django-axes) with a clear Swedish page, security
headers and the content security policy are sent, passwords and sessions are as Django recommends,
and no secret is kept in the repository."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.conf import settings
from django.urls import reverse

from tests import factories as f

from tests.support.server import BASE_DIR

LOGIN = "/accounts/login/"


def login(client, username, password, ip="203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_the_sixth_attempt_after_five_wrong_passwords_is_locked_out_with_a_swedish_page(client):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    for attempt in range(1, 5):
        response = login(client, "sekreterare", f"fel{attempt}")
        assert response.status_code == 200, attempt
        assert "Inloggningen misslyckades" in response.content.decode()
    # The fifth wrong password reaches the limit: from now on the username is paused here.
    response = login(client, "sekreterare", "fel5")
    assert response.status_code == 429

    # The sixth attempt is refused even with the right password, with a page that says why.
    response = login(client, "sekreterare", "rätt-lösenord-123")
    page = response.content.decode()
    assert response.status_code == 429
    assert "Inloggningen är pausad" in page
    assert "Lösenordet var fel 5 gånger i rad." in page
    assert "pausad i en timme" in page
    assert '<html lang="sv">' in page
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_lockout_is_for_the_username_from_that_address_only(client):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    f.make_user("kassor", password="annat-lösenord-456")
    for attempt in range(5):
        login(client, "sekreterare", f"fel{attempt}")
    assert login(client, "sekreterare", "rätt-lösenord-123").status_code == 429
    # Another secretary in the same hall still logs in, and so does this one from elsewhere.
    assert login(client, "kassor", "annat-lösenord-456").status_code == 302
    client.logout()
    assert login(client, "sekreterare", "rätt-lösenord-123", ip="198.51.100.9").status_code == 302


@pytest.mark.django_db
def test_a_right_password_resets_the_count(client):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    for round_ in range(3):
        for attempt in range(4):
            assert login(client, "sekreterare", f"fel{attempt}").status_code == 200
        assert login(client, "sekreterare", "rätt-lösenord-123").status_code == 302
        client.logout()


@pytest.mark.django_db
def test_pages_carry_security_headers_and_a_strict_content_security_policy(client):
    response = client.get(reverse("scoring:home"))
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in (p.strip() for p in policy.split(";")) if part
    )
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_templates_have_no_inline_script_or_style(client):
    """The policy forbids them, so a template that has one is broken in the browser."""
    offenders = []
    for path in (BASE_DIR / "templates").rglob("*.html"):
        # Comments are not sent to the browser.
        text = re.sub(r"\{#.*?#\}", "", path.read_text())
        text = re.sub(r"\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)
        if "pdf" in path.parts:
            continue  # rendered to PDF by WeasyPrint, never served to a browser
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text):
            offenders.append(f"{path}: inline <script>")
        if re.search(r"<style\b", text):
            offenders.append(f"{path}: <style> element")
        if re.search(r"\son[a-z]+\s*=\s*[\"']", text):
            offenders.append(f"{path}: inline event handler")
        if re.search(r"\sstyle\s*=\s*[\"']", text):
            offenders.append(f"{path}: style attribute")
    assert offenders == []


def test_passwords_and_sessions_as_django_recommends():
    validators = {v["NAME"].rsplit(".", 1)[1] for v in settings.AUTH_PASSWORD_VALIDATORS}
    assert {"MinimumLengthValidator", "CommonPasswordValidator", "UserAttributeSimilarityValidator", "NumericPasswordValidator"} <= validators
    assert settings.SESSION_COOKIE_HTTPONLY
    assert settings.SESSION_COOKIE_SAMESITE in ("Lax", "Strict")
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE
    assert "django.middleware.clickjacking.XFrameOptionsMiddleware" in settings.MIDDLEWARE


def test_production_settings_are_secure():
    """With debug off (a fresh process, as the server starts it)."""
    from tests.production.test_settings import production_env, run_manage

    code = (
        "from django.conf import settings as s; from django.contrib.auth.hashers import get_hasher; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS >= 31536000, s.SESSION_COOKIE_HTTPONLY, s.SESSION_COOKIE_SAMESITE, "
        "get_hasher('default').algorithm, s.SECURE_PROXY_SSL_HEADER)"
    )
    result = run_manage("shell", "-c", code, env_overrides=production_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == [
        "False", "True", "True", "True", "True", "True", "Lax", "pbkdf2_sha256", "('HTTP_X_FORWARDED_PROTO',", "'https')"
    ]


SECRET_PATTERNS = [
    re.compile(r"-----BEGIN (RSA |EC |OPENSSH |)PRIVATE KEY-----"),
    re.compile(r"AKIA[0-9A-Z]{16}"),  # AWS access key
    re.compile(r"ghp_[0-9A-Za-z]{36}"),  # GitHub token
    re.compile(r"xox[baprs]-[0-9A-Za-z-]{10,}"),  # Slack token
    re.compile(r"""SECRET_KEY\s*=\s*["'](?!django-insecure-)[^"']{20,}["']"""),
    re.compile(r"postgres(ql)?://[^:/@\s]+:[^@\s]+@"),  # a database URL with a password
]


def test_no_secret_in_the_repository():
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=BASE_DIR, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    found = []
    for name in filter(None, files):
        path = BASE_DIR / name
        if not path.is_file() or path.suffix in (".mo", ".png", ".pdf", ".xlsx", ".ico", ".woff2"):
            continue
        try:
            text = path.read_text(errors="ignore")
        except OSError:
            continue
        for pattern in SECRET_PATTERNS:
            if pattern.search(text):
                found.append(f"{name}: {pattern.pattern}")
    assert found == []
    ignored = (BASE_DIR / ".gitignore").read_text()
    assert "/var/" in ignored  # the SQLite database and backups live there
