"""Charts drawn on the server as SVG: a line chart (a rating's history, a team's place round by
round) and a bar chart (a club's match points per season).

Accessible by construction: the <svg> is an image (`role="img"`) named by its <title> and described
by its <desc> (what it shows and its range, in words); both axes carry a label and tick labels in
text; every point is marked with a shape as well as a colour, so nothing depends on colour alone.
The numbers themselves are always given in a table beside the chart too (the templates do that).
No script and no library: the same markup works on the pages, in print and in WeasyPrint's PDFs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 480, 280
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 58
FONT = 17
# The y axis's name, turned on its side, stands in a band along the left edge (its baseline at
# FONT); the tick labels end 6 left of the axis and start clear of that band, so the chart's left
# margin is as wide as its widest tick label needs (LEFT at least). DejaVu Sans's digits are
# 0.636 em wide.
Y_NAME_BAND = FONT + 12
DIGIT_WIDTH = 0.64 * FONT
# A second line of x labels (a date's year) makes the chart this much taller below its plot.
SECOND_LINE = FONT + 2
# Dark enough on white for text and lines (contrast above 4.5:1).
INK, GRID, LINE = "#1a1a1a", "#c8c8c8", "#0b5a3c"


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    x_label: str
    y_label: str
    labels: list[str]  # one per point (x)
    values: list[float | None]  # one per point; None leaves a gap
    invert: bool = False  # places: 1 at the top
    y_min: float | None = None
    y_max: float | None = None
    value_format: str = "{:.0f}"
    # Writes a value where the format string cannot (a decimal comma: the caller's formatting).
    value_text: Callable[[float], str] | None = None
    ident: str = "chart"
    # A second line under the x labels, one per point ("" for none): a date's year, written under
    # the first label shown and wherever it differs from the one written before, so dates across
    # a new year read in order ("26 dec 2025", then "16 okt 2026").
    x_sublabels: list[str] = field(default_factory=list)
    # Every x label centred on its point: a bar stands half a slot in from each edge, so a label
    # at either end fits without leaning inwards (and then not onto its neighbour).
    centred_labels: bool = False
    extra: dict = field(default_factory=dict)

    def text_of(self, value: float) -> str:
        return self.value_text(value) if self.value_text is not None else self.value_format.format(value)


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering low..high."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step / 2:
        ticks.append(round(value, 6))
        value += step
    return ticks


@dataclass(frozen=True)
class Box:
    """A chart's own measures: its left margin (the tick labels' width) and its height (a second
    line of x labels)."""

    left: float
    height: float


def _box(chart: Chart, y_ticks: list[float]) -> Box:
    widest = max((len(chart.text_of(tick)) for tick in y_ticks), default=1)
    left = max(LEFT, math.ceil(Y_NAME_BAND + widest * DIGIT_WIDTH + 6))
    return Box(left=left, height=HEIGHT + (SECOND_LINE if any(chart.x_sublabels) else 0))


def _x_positions(count: int, box: Box) -> list[float]:
    inner = WIDTH - box.left - RIGHT
    if count == 1:
        return [box.left + inner / 2]
    return [box.left + inner * i / (count - 1) for i in range(count)]


def _label_every(count: int) -> int:
    """Show at most about eight x labels, so they do not overlap."""
    return max(1, math.ceil(count / 8))


def _frame(chart: Chart, box: Box, y_of, y_ticks: list[float]) -> list[str]:
    ident = escape(chart.ident)
    left = box.left
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {box.height:g}" class="chart" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" font-family="DejaVu Sans, sans-serif" font-size="{FONT}">',
        f'<title id="{ident}-title">{escape(chart.title)}</title>',
        f'<desc id="{ident}-desc">{escape(chart.description)}</desc>',
    ]
    for tick in y_ticks:
        y = y_of(tick)
        parts.append(f'<line x1="{left}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}" stroke-width="1"/>')
        parts.append(
            f'<text x="{left - 6}" y="{y + FONT / 3:.1f}" text-anchor="end" fill="{INK}">'
            f"{escape(chart.text_of(tick))}</text>"
        )
    parts.append(f'<line x1="{left}" x2="{left}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" stroke="{INK}" stroke-width="1.5"/>')
    parts.append(
        f'<line x1="{left}" x2="{WIDTH - RIGHT}" y1="{HEIGHT - BOTTOM}" y2="{HEIGHT - BOTTOM}" stroke="{INK}" stroke-width="1.5"/>'
    )
    # Axis names: x under the tick labels, y along the left edge, in its band (Y_NAME_BAND).
    parts.append(
        f'<text x="{(left + WIDTH - RIGHT) / 2:.1f}" y="{box.height - 8:g}" text-anchor="middle" fill="{INK}" '
        f'font-weight="bold">{escape(chart.x_label)}</text>'
    )
    middle = (TOP + HEIGHT - BOTTOM) / 2
    parts.append(
        f'<text x="{FONT}" y="{middle:.1f}" text-anchor="middle" fill="{INK}" font-weight="bold" '
        f'transform="rotate(-90 {FONT} {middle:.1f})">{escape(chart.y_label)}</text>'
    )
    return parts


def _x_labels(chart: Chart, xs: list[float]) -> list[str]:
    every = _label_every(len(xs))
    # Longer labels (dates: "22 okt") need more room each: fewer of them, about 40 characters in all.
    longest = max((len(label) for label in chart.labels), default=1)
    every = max(every, math.ceil(len(xs) / max(2, 40 // (longest + 1))))
    last = len(xs) - 1
    sublabels = chart.x_sublabels or [""] * len(xs)
    written = ""  # the second line written last
    parts = []
    for i, (x, label, sublabel) in enumerate(zip(xs, chart.labels, sublabels)):
        # The last point is always labelled; a regular label too near it gives way.
        if (i % every == 0 and (i == last or last - i >= every)) or i == last:
            # A word or a date at either end ("start", "3 dec") would reach past the edge if
            # centred on its point: it ends there (the last) or starts there (the first).
            anchor = "middle"
            if len(label) > 2 and len(xs) > 1 and not chart.centred_labels:
                anchor = "start" if i == 0 else "end" if i == len(xs) - 1 else "middle"
            parts.append(
                f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + FONT + 6}" text-anchor="{anchor}" fill="{INK}">{escape(label)}</text>'
            )
            if sublabel and sublabel != written:
                written = sublabel
                parts.append(
                    f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 2 * FONT + 8}" text-anchor="{anchor}" fill="{INK}" '
                    f'class="chart__sublabel">{escape(sublabel)}</text>'
                )
    return parts


def _y_scale(chart: Chart):
    present = [v for v in chart.values if v is not None]
    low = chart.y_min if chart.y_min is not None else min(present, default=0)
    high = chart.y_max if chart.y_max is not None else max(present, default=1)
    if high == low:
        low, high = low - 1, high + 1
    if chart.invert:
        # Places: whole numbers from the first down, the first always shown.
        step = max(1, math.ceil((high - low) / 6))
        ticks = list(range(int(low), int(high) + 1, step))
    else:
        ticks = _ticks(low, high)
        low, high = min(low, ticks[0]), max(high, ticks[-1])
    inner = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        share = (value - low) / (high - low)
        return TOP + inner * share if chart.invert else TOP + inner * (1 - share)

    return y_of, ticks


def line_chart(chart: Chart) -> SafeString:
    y_of, y_ticks = _y_scale(chart)
    box = _box(chart, y_ticks)
    xs = _x_positions(len(chart.values), box)
    parts = _frame(chart, box, y_of, y_ticks)
    parts += _x_labels(chart, xs)
    path, points = [], []
    for x, value in zip(xs, chart.values):
        if value is None:
            path.append(None)
            continue
        path.append((x, y_of(value)))
        points.append((x, y_of(value)))
    segment: list[str] = []
    for point in path + [None]:
        if point is None:
            if len(segment) > 1:
                parts.append(f'<polyline points="{" ".join(segment)}" fill="none" stroke="{LINE}" stroke-width="3"/>')
            segment = []
        else:
            segment.append(f"{point[0]:.1f},{point[1]:.1f}")
    for x, y in points:
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="#ffffff" stroke="{LINE}" stroke-width="2.5"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def bar_chart(chart: Chart) -> SafeString:
    chart = Chart(**{**chart.__dict__, "y_min": 0 if chart.y_min is None else chart.y_min})
    y_of, y_ticks = _y_scale(chart)
    box = _box(chart, y_ticks)
    count = len(chart.values)
    inner = WIDTH - box.left - RIGHT
    slot = inner / max(count, 1)
    xs = [box.left + slot * (i + 0.5) for i in range(count)]
    parts = _frame(chart, box, y_of, y_ticks)
    parts += _x_labels(chart, xs)
    base = y_of(0)
    for x, value in zip(xs, chart.values):
        if value is None:
            continue
        top = y_of(value)
        width = min(slot * 0.6, 60)
        parts.append(
            f'<rect x="{x - width / 2:.1f}" y="{min(top, base):.1f}" width="{width:.1f}" height="{abs(base - top):.1f}" '
            f'fill="{LINE}"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{min(top, base) - 6:.1f}" text-anchor="middle" fill="{INK}">'
            f"{escape(chart.text_of(value))}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
