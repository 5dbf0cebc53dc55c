"""The match's life is stated once (docs/architecture.md, "The places"): which statuses let a match
take a deal, start, be confirmed, reopened, and so on are the named groups of scoring/models.py
(`Match.DEAL_STATUSES`, `Match.NOT_STARTED_STATUSES`, ...). Everywhere else the code asks a group;
it never writes two or more statuses side by side, so a change of the life is made in one place.

The check reads the source (AST). A match status is `<...>.Status.X` or an alias of
`Match.Status` (`S.X`) with X one of Match.Status's names; a group is a name ending in
`_STATUSES`. It finds a tuple, list or set of two or more statuses (a group spread into it,
`*Match.DEAL_STATUSES`, counts as two), and a group added to statuses
(`Match.PLAYED_STATUSES + (S.VOID,)`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scoring.models import Match

SCORING = Path(__file__).resolve().parents[2] / "scoring"
# The home of the groups, and the migrations, which use historical models without them.
HOME = SCORING / "models.py"
MODULES = sorted(path for path in SCORING.rglob("*.py") if path != HOME and "migrations" not in path.parts)
STATUS_NAMES = frozenset(Match.Status.names)


def status_aliases(tree: ast.Module) -> set[str]:
    """Names the module gives Match.Status (`S = Match.Status`), and `S`, the usual one, imported."""
    aliases = {"S"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and ast.unparse(node.value).endswith("Match.Status"):
            aliases |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return aliases


def statuses_in(node: ast.expr, aliases: set[str]) -> int:
    """How many match statuses an element of a collection stands for."""
    if isinstance(node, ast.Starred):
        return 2 if is_group(node.value) else 0
    if isinstance(node, ast.Attribute) and node.attr in STATUS_NAMES:
        owner = ast.unparse(node.value)
        return 1 if owner.endswith("Status") or owner in aliases else 0
    return 0


def is_group(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name.endswith("_STATUSES")


def written_groups(source: str) -> list[tuple[int, str]]:
    """(line, code) of each group of statuses written in the source."""
    tree = ast.parse(source)
    aliases = status_aliases(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            if sum(statuses_in(element, aliases) for element in node.elts) >= 2:
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            sides = (node.left, node.right)
            collections = [side for side in sides if isinstance(side, (ast.Tuple, ast.List))]
            if any(is_group(side) for side in sides) and any(
                statuses_in(element, aliases) for side in collections for element in side.elts
            ):
                found.append((node.lineno, ast.unparse(node)))
    return found


def module_key(path: Path) -> str:
    return path.relative_to(SCORING).as_posix()


@pytest.mark.parametrize("path", MODULES, ids=module_key)
def test_the_match_life_is_asked_of_its_groups(path):
    written = [f"{module_key(path)}:{line}: {code}" for line, code in written_groups(path.read_text(encoding="utf-8"))]
    assert written == [], "Ask a named group of Match (scoring/models.py) instead:\n" + "\n".join(written)


def test_the_groups_are_the_models():
    groups = {name for name in vars(Match) if name.endswith("_STATUSES")}
    assert {"DEAL_STATUSES", "CORRECTABLE_STATUSES", "NOT_STARTED_STATUSES", "PLAYED_STATUSES"} <= groups
    for name in groups:
        statuses = getattr(Match, name)
        assert len(statuses) >= 2 and set(statuses) <= set(Match.Status.values), name


@pytest.mark.parametrize(
    "source",
    [
        "if match.status in (S.SCHEDULED, S.POSTPONED): pass",
        "x = match.status not in (Match.Status.FINISHED, Match.Status.SUBMITTED)",
        "q = Q(status__in=[S.CONFIRMED, S.VOID])",
        "OPEN = {Match.Status.SCHEDULED, Match.Status.IN_PROGRESS}",
        "LINK = (*Match.DEAL_STATUSES, S.FINISHED)",
        "ALL = PLAYED_STATUSES + (S.VOID,)",
        "MS = Match.Status\nx = (MS.VOID, MS.CONFIRMED)",
        "x = (self.Status.SCHEDULED, self.Status.IN_PROGRESS)",
    ],
)
def test_the_detector_sees_written_groups(source):
    assert written_groups(source)


@pytest.mark.parametrize(
    "source",
    [
        "if match.status in Match.DEAL_STATUSES: pass",
        "GROUPS = (('in_progress', (S.IN_PROGRESS,), False), ('void', (S.VOID,), True))",
        "x = match.status == S.SCHEDULED or match.deal_count",
        "x = match.end in (Match.End.FORFEIT, Match.End.WARNINGS)",
        "x = (Invitation.Status.PENDING, Invitation.Status.ACCEPTED)",
    ],
)
def test_the_detector_lets_the_groups_be_asked(source):
    assert written_groups(source) == []
