"""Settings of the Canasta club site: one module, driven by environment variables.

Local development needs no variables at all (debug on, SQLite file in var/). Production sets
DJANGO_DEBUG=0 and then must set DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS; the README lists every
variable. Values are read here once, at import; nothing else in the code base reads os.environ.
"""

import importlib.util
import ipaddress
import os
import re
import warnings
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable; refuse anything unclear rather than guess."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0 (got {raw!r}).")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a list separated by commas and/or spaces."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item for item in re.split(r"[\s,]+", raw) if item]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number (got {raw!r}).") from None


# --- Core -----------------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(50 or more random characters)."
        )
    # Only ever used with debug on, on a developer's machine.
    SECRET_KEY = "django-insecure-local-development-only-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [],
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# Addresses (or networks, 10.0.0.0/8) of the reverse proxies in front of the site: only a request
# from one of them has its X-Forwarded-For header believed (scoring/web/client_address.py).
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"DJANGO_TRUSTED_PROXIES: {_proxy!r} is not an address or network.") from None
# A secret only the proxy (nginx) sends, in the X-Canasta-Proxy header: when set, X-Forwarded-For is
# believed only from a request that carries it, so another process that can reach an app server
# on the proxy's address cannot claim a client address (scoring/web/client_address.py).
PROXY_SECRET = os.environ.get("DJANGO_PROXY_SECRET", "")
# A refused form post gets a page in the site's language and style, saying what to do.
CSRF_FAILURE_VIEW = "scoring.views.errors.csrf_failure"

INSTALLED_APPS = [
    # The admin without its autodiscovery at start-up: scoring.admin uses the services, and every
    # process that starts Django would import them, a `protocol check` too (docs/speed.md, "Today's
    # figures"). The root URLconf (canastaclub/urls.py) discovers the admin modules instead.
    "django.contrib.admin.apps.SimpleAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    # Not django_tables2: its templates and tag library are named in TEMPLATES (below, "Tables").
    "axes",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads the request: a NUL character in it is a 400, never a query.
    "scoring.web.middleware.NulCharacterMiddleware",
    # ETags, 304s and Cache-Control; outside the session middleware, whose Vary: Cookie it sees.
    "scoring.web.public_cache.PublicCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "scoring.web.middleware.SwedishFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scoring.web.middleware.SiteAddressFromRequestMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "scoring.web.middleware.DomainErrorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Axes wants to be last: it turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "canastaclub.urls"
WSGI_APPLICATION = "canastaclub.wsgi.application"

# django-tables2 draws the public tables. Listed in INSTALLED_APPS it would be imported by every
# process that starts Django, and with it psycopg (through its JSON column), a `protocol check` too
# (docs/speed.md, "Today's figures"): its templates and its tag library are named here instead,
# found without importing it, and it is imported when a table is drawn. It has no models, and the
# site's table template (templates/django_tables2/canasta.html) words all it shows.
TABLES2_TEMPLATES = Path(importlib.util.find_spec("django_tables2").origin).parent / "templates"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", TABLES2_TEMPLATES],
        "APP_DIRS": True,
        "OPTIONS": {
            "libraries": {"django_tables2": "django_tables2.templatetags.django_tables2"},
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
# SQLite file by default; DATABASE_URL=postgres://user@host:5432/name for PostgreSQL.

# In production a server process keeps its database connection for a while (DJANGO_CONN_MAX_AGE
# seconds) instead of opening one per request, which on PostgreSQL costs a new server process.
CONN_MAX_AGE = env_int("DJANGO_CONN_MAX_AGE", 0 if DEBUG else 60)
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.config(conn_max_age=CONN_MAX_AGE, conn_health_checks=True)}
    # PostgreSQL: parameters bound by the server and statements prepared once per connection
    # after their second run, so the server does not parse and plan the same few statements
    # (read a match, save a deal) on every request: saving a deal took 3.5
    # instead of 4.4 ms. Off with DJANGO_DB_PREPARED_STATEMENTS=no, which a pooler in
    # transaction mode (PgBouncer) needs.
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DJANGO_DB_PREPARED_STATEMENTS", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=2)
else:
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES = {
        "default": dj_database_url.parse(
            f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}", conn_max_age=CONN_MAX_AGE
        )
    }

# SQLite in write-ahead-log mode: pages are read while a protocol is being saved, instead of
# waiting for it (the load test's p95 fell from about 80 to 20 ms). A restore removes the -wal and
# -shm files too (README, Backup and restore).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA journal_mode=WAL;"
    # SQLite has no row locks (SELECT ... FOR UPDATE is ignored): a transaction takes the write lock
    # when it begins, so the services' lock-then-check-the-version is served one at a time there
    # too, and two saves wait for each other instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # The tests' database is a file too, not Django's shared in-memory one: that one locks whole
    # tables between connections ("database table is locked") where a file in WAL mode lets the
    # browser tests' live check read while a deal is being saved, as the site does in production.
    # (pytest-xdist gives each worker its own file.)
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", str(BASE_DIR / "var" / "test-db.sqlite3"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# dumpdata/loaddata JSON with times to the microsecond (JSON backups restore exactly).
SERIALIZATION_MODULES = {"json": "scoring.backends.json_serializer"}

# --- Authentication -------------------------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:my-matches"  # who logs in comes to enter or confirm protocols
LOGOUT_REDIRECT_URL = "scoring:home"

# Brute-force protection (scoring/web/login_throttle.py), by the client's real address: a user name
# from one address is paused after AXES_FAILURE_LIMIT wrong passwords, and one address trying many
# names after LOGIN_FAILURES_PER_ADDRESS. The right password from another address still gets in.
AXES_HANDLER = "scoring.web.login_throttle.LoginThrottleHandler"
AXES_FAILURE_LIMIT = 5
LOGIN_FAILURES_PER_ADDRESS = 20
AXES_COOLOFF_TIME = 1  # hours; registration/locked_out.html says "an hour"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_CLIENT_IP_CALLABLE = "scoring.web.client_address.client_address"
# A name is counted by as much of it as Axes's rows hold: an over-long one is a wrong guess.
AXES_USERNAME_CALLABLE = "scoring.web.login_throttle.throttled_username"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# --- Languages and time ---------------------------------------------------------------------------
# msgids are English; Swedish is the default language of the site.

LANGUAGE_CODE = "sv"
LANGUAGES = [
    ("sv", _("Swedish")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Stockholm"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------------
# WhiteNoise serves them in every setting; with finders on, tests and runserver need no
# collectstatic. Production runs collectstatic and gets hashed, compressed files.

STATIC_URL = "static/"
# Where collectstatic writes (a directory the server user can write to in production).
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True
# Before the first collectstatic, STATIC_ROOT does not exist; with finders on that is expected.
warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles", category=UserWarning)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# --- Security -------------------------------------------------------------------------------------

# Uploads: a protocol file is at most 1 MB (scoring.files.protocol_file.MAX_FILE_BYTES, checked
# by the import view and the reader); no form posts more than that either.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"  # embeddable pages opt out per view (xframe_options_exempt)

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    # A load balancer's health check may come over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # DJANGO_SECURE_COOKIES=0 only for a try on loopback over plain HTTP (make cluster): browsers
    # and HTTP clients would otherwise keep the login and form cookies to themselves there.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Content Security Policy (django-csp 4): no inline scripts or styles anywhere, so templates use
# static files only (htmx is configured through a <meta> tag for that reason). frame-ancestors is
# left out unless configured: X-Frame-Options already denies framing, and the embeddable pages
# lift that per view.
_csp_directives = {
    "default-src": [SELF],
    "img-src": [SELF, "data:"],
    "style-src": [SELF],
    "script-src": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    "form-action": [SELF],
}
_frame_ancestors = env_list("DJANGO_CSP_FRAME_ANCESTORS", [])
if _frame_ancestors:
    _csp_directives["frame-ancestors"] = _frame_ancestors
CONTENT_SECURITY_POLICY = {"DIRECTIVES": _csp_directives}

# --- Logging: one console handler, for the process manager to collect -----------------------------
# On stderr, not stdout: stdout belongs to management commands whose output is data
# (`manage.py protocol check --json`), and gunicorn's own log goes to stderr too.

LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            # The server (gunicorn, WSGI) logs to standard output for the process manager to
            # collect; manage.py defaults to standard error, because standard output is the data
            # of commands such as `protocol check --json`.
            "stream": "ext://sys.stderr"
            if os.environ.get("DJANGO_LOG_STREAM", "stdout") == "stderr"
            else "ext://sys.stdout",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # Its start-up banner would otherwise greet every management command.
        "axes.apps": {"level": "WARNING"},
        # WeasyPrint reports every step of every PDF, and fontTools every font it subsets.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# --- Cache ----------------------------------------------------------------------------------------
# Django's stock cache only. The default cache holds the document limit's counts and, with several
# app servers, the logins (below). On one machine each process has its own memory cache. Several
# app servers share one Redis (REDIS_URL, e.g. redis://127.0.0.1:6379/1, a database of the site's
# own): what one server keeps holds for all at once. Redis is only a cache: while it does not
# answer, the site works from the database and nobody sees an error
# (scoring/backends/redis_cache.py).

# Made documents (scoring/views/exports.py, up to a few MB each): on disk, shared by the processes.
CACHE_DIR = Path(os.environ.get("DJANGO_CACHE_DIR", "").strip() or BASE_DIR / "var" / "cache")
DOCUMENTS_CACHE = {
    "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
    "LOCATION": str(CACHE_DIR / "documents"),
    "OPTIONS": {"MAX_ENTRIES": 2000},
}
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "scoring.backends.redis_cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "canasta",
            # Seconds to wait for Redis before working without it: on loopback or a LAN it answers
            # in well under a millisecond, and a page must not hang on a lost Redis.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "health_check_interval": 30},
        },
        "documents": DOCUMENTS_CACHE,
    }
    # Sessions are written to the database and kept in Redis too, so a signed-in request reads
    # its session from Redis; when Redis does not answer, from the database. Every server knows
    # every session either way, and an outage logs nobody out.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "canasta",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        },
        "documents": DOCUMENTS_CACHE,
    }
    # Sessions in the database only: a process's own memory would not see another's logout.
    SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Seconds a browser or nginx keeps an anonymous public page: how late a spectator may see a save.
PUBLIC_MAX_AGE = env_int("DJANGO_PUBLIC_MAX_AGE", 5)

# Documents a visitor who is not signed in may ask for in a minute, counted by the client's real
# address; more get a "please wait" page (429). Each server process counts for itself unless the
# default cache is shared (Redis), so with N processes a client may get up to N times as many.
DOCUMENTS_PER_MINUTE = env_int("DJANGO_DOCUMENTS_PER_MINUTE", 12)
# And a signed-in person, counted by who they are: more, for a secretary printing a round night's
# protocols, but not without end.
DOCUMENTS_PER_MINUTE_SIGNED_IN = env_int("DJANGO_DOCUMENTS_PER_MINUTE_SIGNED_IN", 30)

# --- Tables ---------------------------------------------------------------------------------------

DJANGO_TABLES2_TEMPLATE = "django_tables2/canasta.html"

# --- E-mail ---------------------------------------------------------------------------------------
# Protocols to confirm, disputed and confirmed are mailed (scoring/notifications.py). By default the
# mails are written to the console; a site that mails for real sets DJANGO_EMAIL_HOST and the rest.

EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = env_int("DJANGO_EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "canasta@localhost")

# --- The site's address ---------------------------------------------------------------------------
# The site's public address: every absolute link (printed protocols' link and QR code, e-mails, the
# embed code, the JSON and calendar feeds) is built from it and never from a request's Host header,
# which the sender chooses. A production site must say where it lives, so it refuses to start
# without it.

SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
if not SITE_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SITE_URL must be set when DJANGO_DEBUG is off: the site's public address, "
            "e.g. https://canasta.example.org (printed protocols, e-mails and feeds link to it)."
        )
    SITE_URL = "http://127.0.0.1:8000"
# In debug without SITE_URL, links follow the address the site was reached at (host and port of the
# request, scoring.web.middleware.SiteAddressFromRequestMiddleware), so `runserver 0.0.0.0:8010` prints
# working links; SITE_URL above is then only the address outside a request (commands).
SITE_URL_FOLLOWS_REQUEST = DEBUG and not os.environ.get("SITE_URL", "").strip()
if not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL must be an http or https address such as https://canasta.example.org (got {SITE_URL!r})."
    )
