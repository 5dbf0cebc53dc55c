"""The README stays a README (at most 250 lines; the rest is in docs/), and the documents point
only at files of this repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_at_most_250_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_every_file_a_document_names_is_in_the_repository():
    missing = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        assert "shared/" not in text, f"{document.name} points outside the repository"
        for path in re.findall(r"`((?:docs|scoring|tests|deploy|templates|locale|canastaclub)/[\w./@-]+)`", text):
            if "*" not in path and not (ROOT / path.rstrip("/")).exists():
                missing.append(f"{document.name}: {path}")
    assert missing == []
