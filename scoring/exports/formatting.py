"""How dates, file names and spreadsheet numbers look in the documents. Numbers as text are the
site's (scoring.formatting: format_number, signed_number), imported here for the exporters."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.text import slugify

from scoring.formatting import GROUP_SEPARATOR, MINUS, format_number, signed_number

__all__ = ["GROUP_SEPARATOR", "MINUS", "file_name", "format_number", "iso_date", "plain_number", "signed_number"]


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
