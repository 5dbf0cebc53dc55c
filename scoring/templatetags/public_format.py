"""Number formatting for the public pages: card points with a thin space between thousands and a
true minus sign (5 120, −40), match points in the reader's language (0,5 in Swedish). The filters
are thin wrappers of scoring.formatting, the site's one formatter. Formatting only: the numbers
themselves come from the engine."""

from __future__ import annotations

from django import template

from scoring import messages
from scoring.selectors import protocols
from scoring.formatting import breakable_name, format_match_points, format_points

register = template.Library()


@register.filter
def breakable(name):
    """A pair's name that may break after its slash (scoring.formatting.breakable_name)."""
    return breakable_name(name)


@register.filter
def points(value) -> str:
    """Card points: 5 120, −40."""
    return format_points(value)


@register.filter
def match_points(value) -> str:
    """Match points: 1, 0,5 (Swedish) or 0.5 (English)."""
    return format_match_points(value)


# The protocol's columns (scoring.protocol_layout keys) that print a zero; the counts and bonuses
# (canastas, red threes, going out, penalty) stay empty when zero, as on the paper protocol.
ZERO_SHOWN_COLUMNS = frozenset({"min", "cards", "score", "total"})


@register.filter
def protocol_cell(value, key: str) -> str:
    """A number in the protocol column `key`, as the secretary's sheet and the printed protocol show it."""
    if value is None or value == "" or (value == 0 and key not in ZERO_SHOWN_COLUMNS):
        return ""
    return format_points(value)


@register.filter
def has_score(match) -> bool:
    """Whether the match has a score to show (selectors.protocols.has_score)."""
    return protocols.has_score(match)


@register.filter
def problem_message(problem, deal_number=None) -> str:
    """An engine Problem (a warning on a deal) as a sentence naming the deal and the side."""
    return messages.problem_message(problem, deal_number)
