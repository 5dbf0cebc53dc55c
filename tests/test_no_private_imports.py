"""No module in scoring/ imports a name that starts with "_" from another module (DESIGN.md, "Plain
Django beats clever Django"): a leading underscore says "this module's own"; what another module
needs is made public and documented there (e.g. services.matches_record_played for example data)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[1] / "scoring"
MODULES = sorted(SCORING.rglob("*.py"))


def private_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            found += [
                f"from {'.' * node.level}{node.module or ''} import {alias.name}"
                for alias in node.names
                if alias.name.startswith("_")
            ]
        elif isinstance(node, ast.Import):
            found += [
                f"import {alias.name}"
                for alias in node.names
                if any(part.startswith("_") for part in alias.name.split("."))
            ]
    return found


def test_modules_found():
    assert len(MODULES) > 50


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(SCORING).as_posix())
def test_no_private_name_is_imported_from_another_module(path):
    assert private_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "from scoring.services.matches import _apply_state",
        "from .counting import number, _in_rounds",
        "from django.middleware.csrf import _unmask_cipher_token",
        "import django.db.models._private",
    ],
)
def test_the_detector_sees_private_imports(source):
    assert private_imports(source)


def test_the_detector_lets_public_imports_be():
    assert private_imports("from __future__ import annotations\nfrom scoring.services import deals_record") == []
