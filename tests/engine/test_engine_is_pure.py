"""The engine is pure Python (docs/architecture.md): no module in scoring/engine/ imports Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parents[2] / "scoring" / "engine"
ENGINE_FILES = sorted(ENGINE_DIR.glob("*.py"))


def django_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "django"]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.split(".")[0] == "django":
                found.append(node.module)
        elif isinstance(node, ast.Call):
            # importlib.import_module("django...") / __import__("django...")
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in {"import_module", "__import__"} and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and str(arg.value).split(".")[0] == "django":
                    found.append(str(arg.value))
    return found


def test_engine_files_found():
    names = {path.name for path in ENGINE_FILES}
    assert {"rules.py", "deal.py", "match.py", "problems.py", "standings.py", "pairing.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_no_django_import(path):
    assert django_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    ["import django", "from django.conf import settings", "import django.db as db",
     "import importlib\nimportlib.import_module('django.utils')"],
)
def test_the_detector_sees_django_imports(source):
    assert django_imports(source)
