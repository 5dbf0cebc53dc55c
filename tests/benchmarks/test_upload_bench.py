"""Benchmark of the protocol upload's bounds: each hostile workbook is read by a fresh Python
process (the interpreter and the reader only), which reports the seconds the reading took and its
peak resident memory (VmHWM). One JSON line per file; targets: under 1 s and 200 MB. Nothing here
asserts on time; the asserts check that each file was refused as it must be."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.upload_files import HOSTILE_WORKBOOKS, empty_cells, one_wide_row
from tests.support.hostile_files import GOOD_ROWS, xlsx_bytes

ROOT = Path(__file__).resolve().parents[2]
SECONDS, MEGABYTES = 1.0, 200

READER = """
import sys, time
from scoring.files.protocol_file import ProtocolFileError, read_protocol
data = open(sys.argv[1], "rb").read()
start = time.perf_counter()
try:
    read_protocol(data, "p.xlsx")
    code = "accepted"
except ProtocolFileError as error:
    code = error.code
seconds = time.perf_counter() - start
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(code, seconds, peak / 1024)
"""


@pytest.mark.parametrize(
    ("name", "make", "expected"),
    [("empty_cells_44mb", empty_cells, "too-large"), ("one_row_2m_cells", one_wide_row, "too-large"),
     ("good_protocol", lambda: xlsx_bytes(GOOD_ROWS), "accepted"),
     *((name.replace("-", "_"), make, code) for name, (make, code) in HOSTILE_WORKBOOKS.items()
       if name not in ("empty-cells", "one-wide-row"))],
)  # fmt: skip
def test_upload_bounds(name, make, expected, tmp_path):
    path = tmp_path / "upload.xlsx"
    path.write_bytes(make())
    result = subprocess.run(
        [sys.executable, "-c", READER, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    code, seconds, megabytes = result.stdout.split()
    assert code == expected
    line = {
        "name": f"upload_{name}", "value": round(float(seconds), 3), "unit": "s", "target": SECONDS,
        "peak_mb": round(float(megabytes), 1), "peak_target_mb": MEGABYTES, "kb": path.stat().st_size // 1024,
        "ok": float(seconds) < SECONDS and float(megabytes) < MEGABYTES,
    }  # fmt: skip
    print()
    print(json.dumps(line))
