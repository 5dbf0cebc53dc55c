"""Shared test set-up.

pytest-django's live_server runs the site in a thread next to the test's event loop (Playwright);
Django refuses database access from such a context unless told it is safe, which it is here.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest
from django.db.backends.signals import connection_created

from tests.support import depth

# The shared worlds (a league, a federation, a played match, hostile names) for tests in any folder.
pytest_plugins = ["tests.fixtures"]

# How many examples the property and fuzz tests try: a tenth by default, all with TEST_DEPTH=deep
# (make test-deep). Loaded before the test modules are imported, whose @settings build on it.
depth.load_hypothesis_profile()


def pytest_report_header(config):
    return depth.describe()


def _sqlite_without_fsync(sender, connection, **kwargs):
    """The tests' SQLite file is thrown away after the run, so a commit need not wait for the
    disk (about 3 ms each here): synchronous=OFF still keeps every commit whole and visible to
    the other connections (WAL), and only a crash of the operating system could lose one."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=OFF")


connection_created.connect(_sqlite_without_fsync)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 is slow on purpose; tests log in often and need no such protection."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language, as each request does (the language is the
    address's, i18n_patterns): a request under /en/ leaves English active in its thread, and a
    later test's reverse() would otherwise give English addresses."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session", autouse=True)
def _own_cache_folders(tmp_path_factory):
    """Each test process keeps its made documents and kept fragments in folders of its own (the
    site keeps them on disk, shared by a server's processes): another process emptying its caches
    (below) must not take away what a test has just made."""
    from django.conf import settings
    from django.test import override_settings

    root = tmp_path_factory.mktemp("cache")
    caches = {alias: dict(config) for alias, config in settings.CACHES.items()}
    for alias, config in caches.items():
        if config["BACKEND"].endswith("FileBasedCache"):
            config["LOCATION"] = str(root / alias)
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _empty_cache(_own_cache_folders):
    """Each test starts with empty caches (the made documents, the visitors' document counts), as a
    fresh server process would."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    yield
    for cache in caches.all():
        cache.clear()


@pytest.fixture(scope="session")
def _chromium():
    """One Chromium per test process, started when the first browser test asks for it: starting
    it costs about a second, and the tests share nothing through it (each page has a context of
    its own, closed after its test, see `browser`)."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM_ARGS

    with sync_playwright() as playwright:

        def launch():
            return playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)

        chromium = {"browser": launch(), "launch": launch}
        yield chromium
        chromium["browser"].close()


@pytest.fixture
def browser(_chromium):
    """Chromium for one test: the contexts the test opened (its cookies, pages, storage) are
    closed after it, together with the database connections the test opened while Playwright
    ran (Playwright gives the test a context of its own, so Django opens connections of its own
    there; left open, PostgreSQL could not drop the test database)."""
    from django.db import connections

    if not _chromium["browser"].is_connected():  # a test before it crashed it
        _chromium["browser"] = _chromium["launch"]()
    chromium = _chromium["browser"]
    yield chromium
    for context in chromium.contexts:
        context.close()
    connections.close_all()


def pytest_collection_modifyitems(config, items):
    """Every test that drives the real browser (the `browser` fixture) is marked slow, whether or
    not its module says so: `make test-fast` leaves them all out (pyproject.toml, markers)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
