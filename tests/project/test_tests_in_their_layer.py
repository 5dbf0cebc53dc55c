"""Tests stand in their layer (docs/architecture.md, "Tests"): a test that drives pages through
Django's test client is a test of the pages, and its module is in tests/views/ (or with the systems
that serve pages: a real browser, the cluster, production); the folders of the services,
selectors, files, documents and commands test their layer by calling it. The benchmarks time the
pages as a visitor waits for them, so they drive pages too.

The check reads the source (AST). A module drives pages when it imports or builds the test client
(`Client`, `AsyncClient`), takes pytest-django's client fixtures (`client`, `admin_client`, ...) or
uses a test case's `self.client`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PAGE_FOLDERS = ("views", "browser", "cluster", "production", "project", "benchmarks")
CLIENT_CLASSES = {"Client", "AsyncClient"}
CLIENT_FIXTURES = {"client", "admin_client", "async_client", "async_admin_client"}
# Modules outside those folders that still drive pages, each with what it drives them for. An entry
# goes once its page tests are in tests/views/ (test_every_exception_is_still_needed).
STILL_DRIVING_PAGES: dict[str, str] = {
    "tests/services/test_validators_follow_the_services.py": (
        "runs each public service as a scenario and asks the pages it changes for their validators:"
        " the pages witness the service"
    ),
}


def key(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


MODULES = sorted(
    path
    for path in TESTS.rglob("*.py")
    if path.relative_to(TESTS).parts[0] not in PAGE_FOLDERS and "__pycache__" not in path.parts
)


def page_drivers(source: str) -> list[tuple[int, str]]:
    """(line, what) for each use of the test client in the source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("django.test"):
            found += [(node.lineno, f"imports {a.name}") for a in node.names if a.name in CLIENT_CLASSES]
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in CLIENT_CLASSES:
                found.append((node.lineno, f"{ast.unparse(node.func)}()"))
        elif isinstance(node, ast.arg) and node.arg in CLIENT_FIXTURES:
            found.append((node.lineno, f"takes the {node.arg} fixture"))
        elif isinstance(node, ast.Attribute) and node.attr == "client" and ast.unparse(node.value) == "self":
            found.append((node.lineno, "self.client"))
    return found


def test_the_modules_are_found():
    keys = {key(path) for path in MODULES}
    assert {"tests/services/test_match_flow.py", "tests/selectors/test_counting.py", "tests/conftest.py"} <= keys
    assert not any(k.startswith("tests/views/") for k in keys)


@pytest.mark.parametrize("path", MODULES, ids=key)
def test_only_the_page_folders_drive_pages(path):
    if key(path) in STILL_DRIVING_PAGES:
        return
    drivers = [f"{key(path)}:{line}: {what}" for line, what in page_drivers(path.read_text(encoding="utf-8"))]
    assert drivers == [], "Move the page tests to tests/views/:\n" + "\n".join(drivers)


def test_every_exception_is_still_needed():
    """An entry of STILL_DRIVING_PAGES whose module no longer drives pages goes (the list stays short)."""
    assert [name for name in STILL_DRIVING_PAGES if not page_drivers((ROOT / name).read_text(encoding="utf-8"))] == []


@pytest.mark.parametrize(
    "source",
    [
        "from django.test import Client",
        "def test_page(client, db):\n    client.get('/')",
        "def test_admin(admin_client):\n    pass",
        "import django.test\nc = django.test.Client()",
        "class T(TestCase):\n    def test_x(self):\n        self.client.get('/')",
        "from django.test import AsyncClient",
    ],
)
def test_the_detector_sees_the_test_client(source):
    assert page_drivers(source)


@pytest.mark.parametrize(
    "source",
    [
        "import http.client\nconn = http.client.HTTPConnection('x')",
        "from django.test import RequestFactory, override_settings",
        "def test_x(clients, db):\n    pass",
        "redis_client = make()\nredis_client.get('k')",
        "call_command('export', stdout=out)",
    ],
)
def test_the_detector_lets_other_tests_be(source):
    assert page_drivers(source) == []
