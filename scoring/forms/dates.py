"""The date and time fields of a round, stated once for every form that plans rounds: the round
form, a league schedule's first round and a tournament's next round. A browser's own date and time
pickers (ISO values), today as the date offered, and one wording for a date it cannot read."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

UNREADABLE_DATE = _("Write the date as 2026-09-14.")


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%H:%M")


def round_date_field(label, *, required: bool = True, help_text="", required_message=None) -> forms.DateField:
    """A round's date, today offered."""
    messages = {"invalid": UNREADABLE_DATE}
    if required_message:
        messages["required"] = required_message
    return forms.DateField(
        label=label, widget=DateInput(), required=required, help_text=help_text, initial=timezone.localdate,
        error_messages=messages,
    )


def start_time_field() -> forms.TimeField:
    """The time a round's matches start, where the secretary knows it."""
    return forms.TimeField(label=_("Start time"), required=False, widget=TimeInput(), help_text=_("Optional; for example 18:30."))
