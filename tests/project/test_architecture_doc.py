"""docs/architecture.md says what the code does: its table of places ("The places") names every
module and package of scoring/ on the floor where the layers contract of pyproject.toml puts it, so
neither can change without the other, and every file the document names is in the repository
(also those it names from inside scoring/, `views/table.py`, which tests/project/test_docs.py
leaves aside)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
DOCUMENT = ROOT / "docs" / "architecture.md"


def places_section(text: str) -> str:
    start = text.index("\n## The places\n")
    following = re.search(r"\n#{2,3} ", text[start + 1 :])
    return text[start : start + 1 + following.start()] if following else text[start:]


def table_floors(text: str) -> dict[str, int]:
    """Each place of scoring/ the table names -> the floor of its row."""
    floors: dict[str, int] = {}
    for line in places_section(text).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        for path in re.findall(r"`scoring/([\w.]+?)(?:\.py|/)`", cells[2]):
            assert path not in floors, f"{path} has two rows in the table"
            floors[path] = int(cells[0])
    return floors


def contract_floors() -> dict[str, int]:
    """Each child of scoring -> its floor in the layers contract (the ground floor is 1)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert contract["containers"] == ["scoring"] and contract["exhaustive"]
    layers = contract["layers"]
    return {
        name.strip().strip("()"): len(layers) - index
        for index, layer in enumerate(layers)
        for name in re.split(r"[|:]", layer)
    }


def places_of_scoring() -> set[str]:
    packages = {path.parent.name for path in SCORING.glob("*/__init__.py")}
    modules = {path.stem for path in SCORING.glob("*.py") if path.name != "__init__.py"}
    return packages | modules


def named_files(text: str) -> list[str]:
    """The paths the document writes in code marks: a word with a slash or ending in .py, no
    spaces, no address of the site (`/rules/<key>/`) and no pattern (`*.po`)."""
    return [
        path
        for path in re.findall(r"`([^`\s]+)`", text)
        if ("/" in path or path.endswith(".py"))
        and not path.startswith("/")
        and not any(mark in path for mark in "*<>:=…")
        and re.fullmatch(r"[\w./-]+", path)
    ]


def test_the_table_names_every_place_of_scoring():
    named = set(table_floors(DOCUMENT.read_text(encoding="utf-8")))
    assert sorted(places_of_scoring() - named) == [], "not in the table of docs/architecture.md"
    assert sorted(named - places_of_scoring()) == [], "named in the table, but not in scoring/"


def test_the_tables_floors_are_the_layers_contract():
    assert table_floors(DOCUMENT.read_text(encoding="utf-8")) == contract_floors()


def test_every_file_the_document_names_exists():
    missing = [
        path
        for path in named_files(DOCUMENT.read_text(encoding="utf-8"))
        if not (ROOT / path.rstrip("/")).exists() and not (SCORING / path.rstrip("/")).exists()
    ]
    assert missing == []


def test_the_checks_read_what_they_should():
    text = (
        "# T\n\n## The places\n\n| floor | what | where | uses |\n|---|---|---|---|\n"
        "| 2 | **Pages** | `scoring/views/`, `templates/scoring/` | x |\n"
        "| 1 | **Rules** | `scoring/engine/` (`engine/rules.py`) | y |\n\n### Next\n\n| 3 | a | `scoring/urls.py` | z |\n"
    )
    assert table_floors(text) == {"views": 2, "engine": 1}
    assert named_files("`views/table.py`, `/t/<code>/`, `locale/sv/parts/*.po`, `make test`, `a.py`") == [
        "views/table.py",
        "a.py",
    ]
