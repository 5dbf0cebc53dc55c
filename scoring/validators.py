"""Validators of what people type into names: a name is one line of printable text.

A name travels into e-mail subjects (where a line break is a header injection and the mail
library refuses it), CSV and xlsx files, PDFs and calendar feeds; a control character there is
never meant and breaks each of them differently, so it is refused where the name is typed.
"""

from __future__ import annotations

import unicodedata
from datetime import date

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def no_control_characters(value: str) -> None:
    """Refuse line breaks, tabs and other control or format characters (Unicode categories C*,
    and the line and paragraph separators Zl, Zp)."""
    if any(unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp") for char in value or ""):
        raise ValidationError(
            _("Write the name on one line, without tabs, line breaks or other control characters."),
            code="control-characters",
        )


# The oldest birth year a member list holds: a club's eldest members were born in the 1920s.
EARLIEST_BIRTH_YEAR = 1900


def birth_year_in_the_past(value: int | None) -> None:
    """A member's birth year: from EARLIEST_BIRTH_YEAR up to this year (a year still to come is a
    slip of the keyboard)."""
    if value is None:
        return
    if not EARLIEST_BIRTH_YEAR <= value <= date.today().year:
        raise ValidationError(
            _("Write a birth year from %(first)s to %(last)s.") % {"first": EARLIEST_BIRTH_YEAR, "last": date.today().year},
            code="birth-year",
        )
