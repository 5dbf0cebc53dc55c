"""The code's version, part of every public validator (scoring.web.public_cache), is made from what
the code says: app servers started from two copies of the same code give the same ETags, however
and whenever the copies were made, and a change to any file that draws pages gives new ones."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from django.conf import settings

from scoring.web.public_cache import code_version

# A few files of each kind that draws pages: code, settings, a template, a style sheet, a translation.
SAMPLE = [
    "scoring/models.py", "scoring/engine/deal.py", "canastaclub/settings.py", "templates/base.html",
    "static/scoring/css/table.css", "locale/sv/LC_MESSAGES/django.po",
]  # fmt: skip


def copy_of_the_code(target: Path, *, seconds: int) -> Path:
    """The sample copied under `target`, each file with its own time, as two deployments would
    leave them (a checkout, an unpacked archive, a copy made a minute later)."""
    for number, name in enumerate(SAMPLE):
        copied = target / name
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(settings.BASE_DIR) / name, copied)
        os.utime(copied, (seconds + number, seconds + number))
    # What a running process writes beside the code is not the code.
    (target / "scoring" / "__pycache__").mkdir()
    (target / "scoring" / "__pycache__" / f"models.{seconds}.pyc").write_bytes(os.urandom(16))
    return target


def test_two_copies_of_the_same_code_have_one_version(tmp_path):
    one = copy_of_the_code(tmp_path / "server-one", seconds=1_700_000_000)
    two = copy_of_the_code(tmp_path / "elsewhere" / "server-two", seconds=1_800_000_000)
    assert code_version(one) == code_version(two)


def test_a_changed_file_changes_the_version(tmp_path):
    one = copy_of_the_code(tmp_path / "one", seconds=1_700_000_000)
    two = copy_of_the_code(tmp_path / "two", seconds=1_700_000_000)
    three = copy_of_the_code(tmp_path / "three", seconds=1_700_000_000)
    template = two / "templates" / "base.html"
    template.write_text(template.read_text() + " ")
    # The same content under another name is another template.
    (three / "templates" / "base.html").rename(three / "templates" / "other.html")
    assert len({code_version(one), code_version(two), code_version(three)}) == 3
