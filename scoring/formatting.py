"""How numbers and names look wherever the site shows them: pages, messages, forms and documents.

A thin no-break space groups thousands (5 120) and a true minus sign (−40) marks negative numbers,
as Swedish print does; match points keep their decimal (0,5). Spreadsheets get raw numbers, never
these strings (exports.formatting.plain_number).
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import get_format
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

MINUS = "\u2212"
# NARROW NO-BREAK SPACE: a thin space that never splits a number across lines.
GROUP_SEPARATOR = "\u202f"


def format_number(value: int | float | Decimal | None, *, blank_zero: bool = False) -> str:
    """5120 -> '5 120', -40 -> '−40', 0.5 -> '0,5'; None -> ''."""
    if value is None or (blank_zero and value == 0):
        return ""
    if isinstance(value, (float, Decimal)) and value == int(value):
        value = int(value)
    negative = value < 0
    if isinstance(value, int):
        digits, decimals = str(abs(value)), ""
    else:
        text = f"{abs(Decimal(str(value))).normalize():f}"
        digits, _, decimals = text.partition(".")
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    text = GROUP_SEPARATOR.join(groups)
    if decimals:
        text += get_format("DECIMAL_SEPARATOR") + decimals
    return MINUS + text if negative else text


def signed_number(value: int | float | Decimal | None) -> str:
    """A difference: +1 230, −40, 0."""
    text = format_number(value)
    return "+" + text if value is not None and value > 0 else text


def breakable_name(name) -> SafeString:
    """A pair's name ("Pettersson/Jonsson") may break after its slash on a narrow screen, rather
    than inside a surname or not at all (escaped HTML with <wbr> after each slash)."""
    return mark_safe("/<wbr>".join(conditional_escape(part) for part in str(name).split("/")))
