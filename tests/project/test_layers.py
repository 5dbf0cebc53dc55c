"""The layers hold (docs/architecture.md): the import contracts in pyproject.toml, checked by
import-linter's `lint-imports`, and what import-linter cannot say because it sees Django as one
package: views, the pages' tables, template tags and documents do not import the ORM (django.db)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
NO_ORM = sorted(
    [
        *SCORING.glob("views/*.py"),
        *SCORING.glob("listings*.py"),
        *SCORING.glob("templatetags/*.py"),
        *SCORING.glob("exports/*.py"),
    ]
)


def test_the_import_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def orm_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[:2] == ["django", "db"]:
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.split(".")[:2] == ["django", "db"]]
    return found


@pytest.mark.parametrize("path", NO_ORM, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_pages_and_documents_do_not_import_the_orm(path):
    assert orm_imports(path.read_text(encoding="utf-8")) == []


def test_the_orm_detector_sees_orm_imports():
    assert orm_imports("from django.db.models import Q")
    assert orm_imports("from django.db import connection")
    assert orm_imports("import django.db.models")
    assert orm_imports("from django.http import HttpResponse\nfrom django.dbx import y") == []
