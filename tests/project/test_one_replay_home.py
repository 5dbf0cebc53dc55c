"""A stored match is replayed in one place (docs/architecture.md, "The flow of a deal"):
scoring/selectors/protocols.py is the only module of the site that calls the engine's replay
(`replay`, `replay_next`) for a match; the services, the pages and the other selectors ask it. The
engine itself, and the few modules that replay deals no match row holds (a protocol file checked
on the command line, the example data's plans), are named below with why.

The check reads the source (AST): a module that imports `replay` or `replay_next` from the engine,
or calls them through `scoring.engine`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
ENGINE_REPLAYS = frozenset({"replay", "replay_next"})
HOME = "selectors/protocols.py"
# Modules that replay deals of no stored match, each with what it replays.
NOT_A_STORED_MATCH = {
    "management/commands/protocol.py": "checks a protocol file on the command line, for no match",
    "devdata/federation.py": "plays the example data's planned matches before they are stored",
}
MODULES = sorted(path for path in SCORING.rglob("*.py") if "engine" not in path.relative_to(SCORING).parts)


def module_key(path: Path) -> str:
    return path.relative_to(SCORING).as_posix()


def engine_replays(source: str) -> list[tuple[int, str]]:
    """(line, code) of each use of the engine's replay the source makes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scoring.engine"):
            found += [(node.lineno, f"imports {a.name}") for a in node.names if a.name in ENGINE_REPLAYS]
        elif isinstance(node, ast.Attribute) and node.attr in ENGINE_REPLAYS and "engine" in ast.unparse(node.value):
            found.append((node.lineno, ast.unparse(node)))
    return found


@pytest.mark.parametrize("path", MODULES, ids=module_key)
def test_a_stored_match_is_replayed_by_its_one_home(path):
    key = module_key(path)
    if key == HOME or key in NOT_A_STORED_MATCH:
        return
    found = [f"{key}:{line}: {code}" for line, code in engine_replays(path.read_text(encoding="utf-8"))]
    assert found == [], f"Ask {HOME} (replayed, match_state, deal_replayed, next_deal_replayed) instead:\n" + "\n".join(found)


def test_the_home_and_the_exceptions_still_replay():
    for key in (HOME, *NOT_A_STORED_MATCH):
        assert engine_replays((SCORING / key).read_text(encoding="utf-8")), key


@pytest.mark.parametrize(
    "source",
    [
        "from scoring.engine import DealEntry, replay",
        "from scoring.engine.match import replay_next",
        "import scoring.engine\nstate = scoring.engine.replay(rules, deals)",
        "from scoring import engine\nstate = engine.replay_next(rules, deal, totals=(0, 0), deals_before=0)",
    ],
)
def test_the_detector_sees_a_replay(source):
    assert engine_replays(source)


def test_the_detector_lets_the_home_be_asked():
    assert engine_replays("from scoring.selectors.protocols import replayed\nstate = replayed(match, entries)") == []
