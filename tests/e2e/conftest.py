"""What the browser tests of the secretary's and captain's workflows share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves its screenshots: PROTOCOL_SCREENSHOTS to keep and look at them, else a
    temporary folder."""
    folder = Path(os.environ.get("PROTOCOL_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
