"""No module in scoring/ uses a name that starts with "_" from another module: a leading underscore
says "this module's own"; what another module needs is made public and documented there (e.g.
services.matches_record_played for example data). That holds for imports, for the methods a class
overrides (a subclass of a Django or library class overrides its public hooks, not its internals:
the next release may rename those) and for the attributes code reads or calls on objects (x._name).
Model._meta is the one exception: Django documents it as the "Model _meta API"."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
MODULES = sorted(SCORING.rglob("*.py"))
# Private names that a library documents as public API.
DOCUMENTED = {"_meta"}


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in DOCUMENTED


def module_name(path: Path) -> str:
    parts = path.relative_to(SCORING.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def defined_private_names(source: str) -> set[str]:
    """The "_" names a module gives a meaning to: its functions, classes, methods and the
    attributes and variables it assigns."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "object.__setattr__" and len(node.args) > 1:
            if isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                names.add(node.args[1].value)
    return {name for name in names if is_private(name)}


def used_private_attributes(source: str) -> set[str]:
    """Every x._name that a module reads or calls."""
    return {
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and is_private(node.attr)
    }


def class_body_names(source: str) -> dict[str, set[str]]:
    """The "_" names each class of a module defines in its own body (methods and class
    attributes), by the class's qualified name; what a metaclass adds (Enum, ABC) is not there."""
    found: dict[str, set[str]] = {}

    def visit(body, prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                qualname = f"{prefix}{node.name}"
                names = set()
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.add(item.name)
                    elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                        targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                        names |= {target.id for target in targets if isinstance(target, ast.Name)}
                found[qualname] = {name for name in names if is_private(name)}
                visit(node.body, f"{qualname}.")

    visit(ast.parse(source).body, "")
    return found


def overridden_internals(cls: type, names) -> list[str]:
    """Those of `names` (defined by the class) that one of its bases from outside scoring (Django,
    a library, Python) already has: an override of someone else's internals."""
    return [
        f"{cls.__qualname__}.{name} overrides {base.__module__}.{base.__qualname__}.{name}"
        for name in sorted(names)
        for base in cls.__mro__[1:]
        if not base.__module__.startswith("scoring") and name in vars(base)
    ]


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


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(SCORING).as_posix())
def test_no_class_overrides_an_internal_of_django_or_a_library(path):
    module = importlib.import_module(module_name(path))
    found = []
    for qualname, names in class_body_names(path.read_text(encoding="utf-8")).items():
        cls = module
        for part in qualname.split("."):
            cls = getattr(cls, part, None)
        if inspect.isclass(cls):
            found += overridden_internals(cls, names)
    assert found == []


def test_every_private_attribute_used_is_one_that_scoring_defines():
    """x._name is read or called only where scoring itself defines _name (its own helpers); any
    other is an internal of Django or a library."""
    defined = set().union(*(defined_private_names(path.read_text(encoding="utf-8")) for path in MODULES))
    used = {
        f"{path.relative_to(SCORING).as_posix()}: {name}"
        for path in MODULES
        for name in used_private_attributes(path.read_text(encoding="utf-8")) - defined
    }
    assert sorted(used) == []


def test_the_detectors_see_overrides_and_calls_of_internals():
    from django import forms
    from django.core.serializers.json import Serializer

    class Overriding(forms.ModelForm):
        def _post_clean(self):
            pass

    class OverridingSerializer(Serializer):
        def _init_options(self):
            pass

    assert overridden_internals(Overriding, {"_post_clean"})
    assert overridden_internals(OverridingSerializer, {"_init_options"})
    source = "class Form(ModelForm):\n    def _post_clean(self):\n        pass\n    def clean(self):\n        pass"
    assert class_body_names(source) == {"Form": {"_post_clean"}}
    assert used_private_attributes("token = request.META['CSRF_COOKIE']\nform._errors.clear()") == {"_errors"}
    assert used_private_attributes("fields = Match._meta.get_fields()") == set()
    assert defined_private_names("def _own(): pass\nself._cache = {}") == {"_own", "_cache"}


def test_the_detectors_let_public_hooks_be():
    from django.core.serializers.json import Serializer

    class Public(Serializer):
        def serialize(self, queryset, **options):
            return super().serialize(queryset, **options)

        def _own_helper(self):
            pass

    assert overridden_internals(Public, {"_own_helper"}) == []
