"""Number formatting for the public pages: card points with a thin space between thousands and a
true minus sign (5 120, −40), match points in the reader's language (0,5 in Swedish), and a signed
difference (+1 230). Formatting only: the numbers themselves come from the engine."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

from scoring import messages

register = template.Library()

# U+202F NARROW NO-BREAK SPACE: a thin space that never breaks a number over two lines.
THIN_SPACE = "\u202f"
MINUS = "\u2212"


def format_points(value, *, signed: bool = False) -> str:
    if value is None or value == "":
        return ""
    number = int(value)
    digits = f"{abs(number):,}".replace(",", THIN_SPACE)
    if number < 0:
        return MINUS + digits
    if signed and number > 0:
        return "+" + digits
    return digits


@register.filter
def points(value) -> str:
    """Card points: 5 120, −40."""
    return format_points(value)


@register.filter
def signed_points(value) -> str:
    """A difference: +1 230, −40, 0."""
    return format_points(value, signed=True)


def format_match_points(value) -> str:
    if value is None or value == "":
        return ""
    number = Decimal(str(value))
    if number == number.to_integral_value():
        return str(int(number))
    return number_format(number.normalize(), use_l10n=True)


@register.filter
def match_points(value) -> str:
    """Match points: 1, 0,5 (Swedish) or 0.5 (English)."""
    return format_match_points(value)


@register.filter
def problem_message(problem, deal_number=None) -> str:
    """An engine Problem (a warning on a deal) as a sentence naming the deal and the side."""
    return messages.problem_message(problem, deal_number)
