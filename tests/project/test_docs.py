"""The README stays a README (at most 250 lines; the rest is in docs/), and the documents point
only at files of this repository. The code cites them too: every `docs/<name>.md` a code file or a
document names exists, and a section it names (`docs/rules.md, "Scoring one deal"`) is a heading
of that document. The rules the code follows are in the repository (docs/rules.md), never in a
file beside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The code that cites the documents: Python, templates and scripts.
CODE_ROOTS = ("scoring", "templates", "static/scoring/js", "tests")
CODE_SUFFIXES = (".py", ".html", ".js")
# Files of the specification that once lived beside the repository; the repository's own
# documents took their place (docs/rules.md, docs/architecture.md).
OUTSIDE_SPECIFICATION = re.compile(r"\b(?:RULES|DESIGN)\.md\b")

CITATION = re.compile(r"(?<![\w./-])docs/([\w-]+\.md)\b")
# What a line of code starts with before its text: indentation and a comment's mark.
LINE_START = re.compile(r"\s*\n\s*(?:#|//|/?\*+|\{#)?[ \t]*")
# A citation's sections: quoted headings after the document, `, "A"`, `, "A", "B"`, `, "A" and "B"`.
QUOTED_SECTIONS = re.compile(r'`?,\s*("[^"]+"(?:(?:,\s*|\s+and\s+|\s+or\s+)"[^"]+")*)')
# docs/rules.md is cited as "docs/rules.md, <section>": after the comma, its text names a heading.
UNQUOTED_SECTION = re.compile(r"`?,\s+(?![\"\s])")
SECTIONED_DOCUMENTS = ("rules.md",)


def code_files() -> list[Path]:
    return sorted(
        path
        for root in CODE_ROOTS
        for path in (ROOT / root).rglob("*")
        if path.suffix in CODE_SUFFIXES and path.is_file() and not path.name.endswith(".min.js")
        # This file's own examples of wrong citations are wrong on purpose.
        and path != Path(__file__).resolve()
    )


def normalise(text: str) -> str:
    """Text as a reader takes it: headings without their code marks, a phrase broken across lines
    of a comment or docstring joined again, any case."""
    return " ".join(text.replace("`", "").split()).casefold()


def headings(document: Path) -> set[str]:
    found, fenced = set(), False
    for line in document.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)):
            found.add(normalise(match.group(1)))
    return found


def citation_problems(path: Path, text: str) -> list[str]:
    """What is wrong with the citations of documents in one file's text: a document that does not
    exist, a section that is not one of its headings."""
    problems = []
    name = path.relative_to(ROOT)
    for match in CITATION.finditer(text):
        document = ROOT / "docs" / match.group(1)
        line = text.count("\n", 0, match.start()) + 1
        where = f"{name}:{line}: docs/{match.group(1)}"
        if not document.is_file():
            problems.append(f"{where} does not exist")
            continue
        # The text that follows, with the lines of a comment or docstring joined again.
        after = LINE_START.sub(" ", text[match.end() : match.end() + 300])
        known = headings(document)
        if quoted := QUOTED_SECTIONS.match(after):
            for section in re.findall(r'"([^"]+)"', quoted.group(1)):
                if normalise(section) not in known:
                    problems.append(f'{where}, "{section}" is not a heading of it')
        elif match.group(1) in SECTIONED_DOCUMENTS and (unquoted := UNQUOTED_SECTION.match(after)):
            phrase = normalise(after[unquoted.end() :])
            if not any(re.match(re.escape(heading) + r"(?!\w)", phrase) for heading in known):
                problems.append(f"{where}, {after[unquoted.end():][:40]!r}… names no heading of it")
    return problems


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


def test_every_document_and_section_the_code_cites_exists():
    problems = []
    for path in [*code_files(), *DOCUMENTS]:
        problems += citation_problems(path, path.read_text(encoding="utf-8"))
    assert problems == []


def test_nothing_cites_the_specification_outside_the_repository():
    files = [*code_files(), *DOCUMENTS, *sorted((ROOT / "locale").rglob("*.po"))]
    mentions = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE_SPECIFICATION.search(line)
    ]
    assert mentions == []


def test_the_citation_check_finds_what_it_should(tmp_path):
    """The check itself: a missing document, a missing section (quoted, or unquoted after
    docs/rules.md) and a section broken across the lines of a comment."""
    path = ROOT / "tests" / "example.py"
    good = (
        '# docs/rules.md, "Scoring one deal" and "Warnings"; docs/rules.md, the end of a match: the clock.\n'
        '# (docs/rules.md, "The end of a\n#  match"); docs/architecture.md, "What is kept (caching)".\n'
        "# docs/protocol-file.md: the columns; docs/rules.md.\n"
    )
    assert citation_problems(path, good) == []
    bad = (
        "# docs/nowhere.md\n"
        '# docs/rules.md, "Scoring two deals"\n'
        '# docs/architecture.md, "Entry at the table", "No such part"\n'
        "# docs/rules.md, how a game ends\n"
    )
    assert len(citation_problems(path, bad)) == 4
    assert OUTSIDE_SPECIFICATION.search("see " + "RULES" + ".md, warnings")
