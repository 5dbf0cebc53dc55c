"""How numbers, dates and names look wherever the site shows them: pages, messages, forms, template
tags, commands and documents. The one home of the site's formatting (docs/architecture.md, "The
places"); template tags are thin wrappers around these functions.

A thin no-break space groups thousands (5 120) and a true minus sign (−40) marks negative numbers,
as Swedish print does; match points keep their decimal (0,5). Spreadsheets get raw numbers, never
these strings (plain_number).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.formats import get_format
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

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


def format_points(value, *, signed: bool = False) -> str:
    """Card points, whole numbers as a template or a table hands them: 5 120, −40 (signed: +1 230);
    nothing for nothing."""
    if value is None or value == "":
        return ""
    number = int(value)
    return signed_number(number) if signed else format_number(number)


def format_match_points(value) -> str:
    """Match points: 1, 0,5 (Swedish) or 0.5 (English); nothing for nothing."""
    if value is None or value == "":
        return ""
    return format_number(Decimal(str(value)))


def rating_text(value) -> str:
    """A rating for reading: a whole number (the replay keeps the fractions), "–" for none."""
    return "–" if value is None else format_points(round(value))


def plain_number(value: float | Decimal | None) -> int | float | None:
    """A number for a spreadsheet cell: whole numbers as int, others as float (Decimal is not a cell type)."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def iso_date(value: date | datetime | None) -> str:
    """2026-05-01: the way Swedish forms write dates, unambiguous in every language."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        return value.strftime("%Y-%m-%d %H:%M")
    return value.isoformat()


def file_name(*parts: object, extension: str) -> str:
    """'protokoll-serie-a-2026-27-omgang-1-bord-3.pdf': ASCII, no spaces, safe in every browser."""
    slug = "-".join(filter(None, (slugify(str(part)) for part in parts if part not in (None, ""))))
    return f"{slug or 'export'}.{extension}"


def breakable_name(name) -> SafeString:
    """A pair's name ("Pettersson/Jonsson") may break after its slash on a narrow screen, rather
    than inside a surname or not at all (escaped HTML with <wbr> after each slash)."""
    return mark_safe("/<wbr>".join(conditional_escape(part) for part in str(name).split("/")))


def format_decimal(value: float, places: int) -> str:
    """A number with a fixed count of decimals: 1,25 (Swedish) or 1.25 (English), −0,50."""
    text = f"{abs(value):.{places}f}"
    whole, _, decimals = text.partition(".")
    result = format_number(int(whole)) + (get_format("DECIMAL_SEPARATOR") + decimals if decimals else "")
    return MINUS + result if value < 0 and float(text) != 0 else result


def figure_text(value: float | None, kind: str) -> str:
    """A Canasta figure (scoring.selectors.figures) as read: a share in whole per cent ("42 %"), a
    ratio with two decimals ("1,25" canastas per deal), points, counts and minutes whole ("1 230");
    "–" where there is nothing to count."""
    if value is None:
        return "–"
    if kind == "share":
        return format_number(round(100 * value)) + "\u00a0%"
    if kind == "ratio":
        return format_decimal(value, 2)
    return format_number(round(value))


def figure_number(value: float | None, kind: str) -> int | float | None:
    """A Canasta figure as a plain number for a spreadsheet cell or JSON: a share in per cent with
    one decimal (42.5), a ratio with two (1.25), counts whole, points and minutes with one."""
    if value is None:
        return None
    if kind == "share":
        return plain_number(round(100 * value, 1))
    if kind == "ratio":
        return plain_number(round(value, 2))
    if kind == "count":
        return int(value)
    return plain_number(round(value, 1))
