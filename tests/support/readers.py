"""Reading documents back with the programs a user has: poppler (pdftotext, pdfinfo, pdffonts)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from html import unescape
from pathlib import Path

# The documents print a true minus sign and a thin space between thousands; pdftotext reads the
# thin space as a space, as a user's program would. Tests write numbers the same way: number(5500).
_NORMALISE = str.maketrans({"\u202f": " ", "\u2009": " ", "\u2212": "-", "\xa0": " "})


def number(value: int) -> str:
    """5500 -> '5 500', -1780 -> '-1 780': a number as the documents print it, read back."""
    return f"{value:,}".replace(",", " ")


def squeeze(text: str) -> str:
    """Runs of spaces (the gaps between table columns) as one space."""
    return " ".join(text.split())


def row_line(text: str, first: int) -> str:
    """The printed line of a table row that starts with `first` (a deal or a rank), spaces squeezed."""
    for line in text.splitlines():
        if re.match(rf"\s*{first}(\s|$)", line):
            return squeeze(line)
    raise AssertionError(f"no row starting with {first} in:\n{text}")


def _run(program: str, data: bytes, *args: str) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "document.pdf"
        path.write_bytes(data)
        result = subprocess.run(
            [program, *args, str(path), *(["-"] if program == "pdftotext" else [])],
            capture_output=True,
            check=True,
            timeout=60,
        )
    return result.stdout.decode("utf-8")


def pdf_text(data: bytes, *, normalise: bool = True) -> str:
    """The text of every page, laid out as printed (one table row per line)."""
    text = _run("pdftotext", data, "-layout", "-enc", "UTF-8")
    return text.translate(_NORMALISE) if normalise else text


def pdf_words(data: bytes) -> list[tuple[str, float, float, float, float]]:
    """Every word of the first page with where it is printed: (word, x_min, y_min, x_max, y_max) in
    points from the top left, as pdftotext -bbox reads them."""
    html = _run("pdftotext", data, "-bbox", "-f", "1", "-l", "1", "-enc", "UTF-8")
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html)
    return [(unescape(word), float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1, word in found]


def overlapping_words(words) -> list[tuple[str, str]]:
    """The pairs of words (pdf_words) printed over each other: their boxes share more than half a
    point each way, more than neighbouring lines' boxes touch."""
    found = []
    for index, one in enumerate(words):
        for other in words[index + 1:]:
            across = min(one[3], other[3]) - max(one[1], other[1])
            down = min(one[4], other[4]) - max(one[2], other[2])
            if across > 0.5 and down > 0.5:
                found.append((one[0], other[0]))
    return found


def words_on_side(words, side: str, page_width: float = 595.3) -> str:
    """The words printed on one half of an A4 page ("home": left, "away": right), in reading order:
    what a team reads on its own side of a form."""
    middle = page_width / 2
    return " ".join(w[0] for w in words if (w[1] < middle) == (side == "home") and (w[3] <= middle) == (side == "home"))


def pdf_pages(data: bytes) -> list[str]:
    return pdf_text(data).split("\f")[: pdf_page_count(data)]


def pdf_page_count(data: bytes) -> int:
    for line in _run("pdfinfo", data).splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    raise AssertionError("pdfinfo printed no page count")


def pdf_info(data: bytes) -> dict[str, str]:
    info = {}
    for line in _run("pdfinfo", data).splitlines():
        key, _, value = line.partition(":")
        info[key.strip()] = value.strip()
    return info


def pdf_fonts(data: bytes) -> list[dict[str, str]]:
    """pdffonts' table: name, type, whether embedded."""
    lines = _run("pdffonts", data).splitlines()[2:]
    fonts = []
    for line in lines:
        parts = line.split()
        # name type [type2] encoding emb sub uni object ID
        fonts.append({"name": parts[0], "embedded": parts[-5], "line": line})
    return fonts
