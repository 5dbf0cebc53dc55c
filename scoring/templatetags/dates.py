"""Short dates in the reader's language: `{{ match.scheduled_start|short_date:"j M H:i" }}`.

Django's date format character "M" capitalises the month's abbreviation ("29 Nov"), which is how
English writes it, but Swedish writes it in lower case ("29 nov", "25 okt"). Django's "b" is the
same abbreviation uncapitalised, so for languages that write it so, the filter swaps "M" for "b"
and otherwise behaves exactly like Django's `date` filter (same format characters, same
escaping with a backslash, the value turned to local time first).
"""

from __future__ import annotations

import re

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.translation import get_language

register = template.Library()

# Languages whose short month names are written in lower case: "29 nov", not "29 Nov".
LOWERCASE_MONTH_ABBREVIATIONS = frozenset({"sv"})

# An "M" that is a format character, not an escaped letter: the same rule as Django's own
# parser (django.utils.dateformat.re_formatchars).
_MONTH_ABBREVIATION = re.compile(r"(?<!\\)M")


def month_case(format_string: str, language: str | None) -> str:
    """The date format `format_string` with month abbreviations in the case `language` writes."""
    if language and language.split("-")[0].lower() in LOWERCASE_MONTH_ABBREVIATIONS:
        return _MONTH_ABBREVIATION.sub("b", format_string)
    return format_string


@register.filter(expects_localtime=True, is_safe=False)
def short_date(value, format_string: str = "j M"):
    """Like `|date:"j M"`, but "29 nov" in Swedish and "29 Nov" in English."""
    return date_filter(value, month_case(format_string, get_language()))
