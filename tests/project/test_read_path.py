"""Every read is a selector (docs/architecture.md, "Selectors are the only readers"): the modules of
scoring/views/, the pages' listings (scoring/listings.py, scoring/listings_federation.py),
scoring/exports/ and the commands (scoring/management/) call selectors (scoring/selectors/) and
services, never the ORM; the template tags (scoring/templatetags/) read nothing at all: they draw
what the view hands them.

The check reads the source (AST), so it needs no database. It finds, in one of those modules:
- a model manager (`Team.objects`);
- a QuerySet or related-manager method (`.filter(`, `.order_by(`, `competition.rounds.all()`, ...);
- a query expression imported from django.db.models (Q, F, Count, Prefetch, ...);
- get_object_or_404 on anything but a call (a selector's queryset): `get_object_or_404(Club, pk=1)`
  reads the model directly.
Constants of a model (`Match.Status.VOID`), building an unsaved instance and isinstance are fine.

ALLOWED lists the few functions and classes that may still read directly, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
MODULES = sorted(
    [
        *SCORING.glob("views/*.py"),
        *SCORING.glob("listings*.py"),
        *SCORING.glob("exports/*.py"),
        *SCORING.glob("templatetags/*.py"),
        *SCORING.glob("management/**/*.py"),
    ]
)

# Methods of QuerySet and of related managers that read (or shape a read). `get`, `values` and
# `update` are left out: dicts and forms have them too. Methods listed in NO_ARGUMENT count only
# when called without arguments (`list.count(x)`, `next(iterator).first` are not queries).
QUERY_METHODS = {
    "filter", "exclude", "order_by", "select_related", "prefetch_related", "annotate", "aggregate",
    "values_list", "only", "defer", "distinct", "in_bulk", "iterator", "latest", "earliest",
    "get_or_create", "update_or_create", "bulk_create", "bulk_update", "union",
}  # fmt: skip
NO_ARGUMENT = {"all", "count", "exists", "first", "last", "none"}
QUERY_EXPRESSIONS_MODULE = "django.db.models"

# (module path under scoring/, the outermost class or function) -> why it may still read directly.
ALLOWED: dict[tuple[str, str], str] = {}


def owner_names(tree: ast.Module) -> dict[ast.AST, str]:
    """Every node of the module -> the name of the top-level class or function it is in ("" for
    module level)."""
    owners: dict[ast.AST, str] = {}
    for statement in tree.body:
        name = statement.name if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        for node in ast.walk(statement):
            owners[node] = name
    return owners


def direct_reads(source: str) -> list[tuple[str, int, str]]:
    """(owner, line, what) for each direct read in the source."""
    tree = ast.parse(source)
    owners = owner_names(tree)
    found: dict[tuple[str, int], str] = {}

    def add(node, what):
        # One finding a line: the outermost call of a chain (ast.walk meets it first).
        found.setdefault((owners.get(node, ""), node.lineno), what)

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            add(node, f"{ast.unparse(node)} (a model manager)")
        elif isinstance(node, ast.ImportFrom) and node.module == QUERY_EXPRESSIONS_MODULE:
            add(node, f"from {node.module} import {', '.join(alias.name for alias in node.names)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            has_arguments = bool(node.args or node.keywords)
            if ast.unparse(node.func.value) == "register":  # a template library's register.filter()
                continue
            if method in QUERY_METHODS or (method in NO_ARGUMENT and not has_arguments):
                add(node, f"{ast.unparse(node.func)}() (a query)")
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("get_object_or_404", "get_list_or_404"):
            if node.args and not isinstance(node.args[0], ast.Call):
                add(node, f"{ast.unparse(node.func)}({ast.unparse(node.args[0])}, ...) reads a model directly")
    return [(owner, line, what) for (owner, line), what in found.items()]


def module_key(path: Path) -> str:
    return path.relative_to(SCORING).as_posix()


def test_modules_found():
    keys = {module_key(path) for path in MODULES}
    assert {"views/public.py", "views/manage.py", "listings.py", "exports/pdf.py", "management/commands/export.py"} <= keys


@pytest.mark.parametrize("path", MODULES, ids=module_key)
def test_pages_documents_and_commands_read_through_selectors(path):
    key = module_key(path)
    reads = [
        f"{key}:{line} in {owner or 'module'}: {what}"
        for owner, line, what in direct_reads(path.read_text(encoding="utf-8"))
        if (key, owner) not in ALLOWED
    ]
    assert reads == [], "Read through a selector in scoring/selectors/ instead:\n" + "\n".join(reads)


def test_every_allowance_is_still_needed():
    """An entry of ALLOWED whose code no longer reads directly goes (the list stays short)."""
    used = set()
    for path in MODULES:
        key = module_key(path)
        used |= {(key, owner) for owner, _line, _what in direct_reads(path.read_text(encoding="utf-8"))}
    assert sorted(set(ALLOWED) - used) == []


@pytest.mark.parametrize(
    "source",
    [
        "Team.objects.all()",
        "def view(club):\n    return club.teams.order_by('name')",
        "competition.rounds.exists()",
        "matches.count()",
        "from django.db.models import Q",
        "get_object_or_404(Club, pk=1)",
        "get_object_or_404(MODELS[kind], pk=1)",
        "class V:\n    def get(self):\n        return self.competition.matches.filter(table=1)",
    ],
)
def test_the_detector_sees_direct_reads(source):
    assert direct_reads(source)


@pytest.mark.parametrize(
    "source",
    [
        "get_object_or_404(selectors.clubs(), pk=1)",
        "Match.Status.VOID",
        "Player(club=club)",
        "isinstance(owner, Club)",
        "words.count('x')",
        "request.GET.get('round')",
        "', '.join(filter(None, parts))",
        "register.filter('has_score', has_score)",
    ],
)
def test_the_detector_lets_plain_code_be(source):
    assert direct_reads(source) == []
