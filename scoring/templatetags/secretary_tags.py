"""Template helpers of the secretary's pages: the problems of one field, an input marked invalid,
and numbers formatted as on the public pages (5 120, −40, match points 0,5). Formatting only; the
engine computes the numbers."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()

# U+202F NARROW NO-BREAK SPACE between thousands, and a true minus sign: the site's number style.
THIN_SPACE = "\u202f"
MINUS = "\u2212"


@register.filter
def points(value) -> str:
    """Card points: 5 120, −40."""
    if value is None or value == "":
        return ""
    number = int(value)
    digits = f"{abs(number):,}".replace(",", THIN_SPACE)
    return MINUS + digits if number < 0 else digits


@register.filter
def match_points(value) -> str:
    """Match points: 1, 0,5 (Swedish) or 0.5 (English)."""
    if value is None or value == "":
        return ""
    number = Decimal(str(value))
    if number == number.to_integral_value():
        return str(int(number))
    return number_format(number.normalize(), use_l10n=True)


@register.simple_tag
def field_problems(placed, name: str) -> list[str]:
    """The messages for the field `name` (a protocol column such as "home_cards")."""
    if not placed:
        return []
    return placed.by_field.get(name, [])


@register.simple_tag
def invalid_widget(field):
    """The field's input with aria-invalid, for screen readers and the error styling."""
    return field.as_widget(attrs={"aria-invalid": "true"})
