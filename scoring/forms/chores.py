"""Forms of the season's chores: a new date proposed for a match and the answers to it, and who is
present before the draw. They validate what is typed; scoring.services.moves and .checkin check and
write."""

from __future__ import annotations

from datetime import datetime

from django import forms
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.formatting import breakable_name
from scoring.models import Competition

from .dates import UNREADABLE_DATE, DateInput, TimeInput


class MoveProposeForm(forms.Form):
    """The home side's proposal: a new day and time, perhaps another hall, and why."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    new_date = forms.DateField(
        label=_("New date"), widget=DateInput(),
        error_messages={"required": _("Give the new date."), "invalid": UNREADABLE_DATE},
    )  # fmt: skip
    new_time = forms.TimeField(
        label=_("Start time"), widget=TimeInput(),
        error_messages={"required": _("Give the start time, for example 18:30."),
                        "invalid": _("Write the time as 18:30.")},
    )  # fmt: skip
    hall = forms.CharField(
        label=_("Hall"), required=False, max_length=150,
        help_text=_("Only if the match moves to another hall than the home club's usual one."),
    )  # fmt: skip
    reason = forms.CharField(
        label=_("Why"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("The away team and the organiser read it with the proposal."),
    )  # fmt: skip

    def new_start(self) -> datetime:
        return timezone.make_aware(datetime.combine(self.cleaned_data["new_date"], self.cleaned_data["new_time"]))


class MoveAnswerForm(forms.Form):
    """The away team's answer, or the organiser's decision: yes or no, with a note."""

    YES, NO = "yes", "no"

    move = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    answer = forms.ChoiceField(choices=[(YES, YES), (NO, NO)])
    note = forms.CharField(label=_("Note (optional)"), required=False, max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 2}))  # fmt: skip

    @property
    def agrees(self) -> bool:
        return self.cleaned_data["answer"] == self.YES


class CheckInForm(forms.Form):
    """Who is present on a day: the competition's teams, or a club night's players."""

    day = forms.DateField(
        label=_("Day"), widget=DateInput(),
        error_messages={"required": _("Give the day."), "invalid": UNREADABLE_DATE},
    )  # fmt: skip
    present = forms.TypedMultipleChoiceField(
        label=_("Present"), required=False, coerce=int, widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, *args, competition: Competition, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        # A pair's name may break after its slash on a phone (formatting.breakable_name).
        self.fields["present"].choices = [
            (row.pk, format_html("{} ({})", breakable_name(row.name), row.club)
             if row.club_id != competition.organiser_id else breakable_name(row.name))
            for row in candidates
        ]  # fmt: skip
        if competition.kind == Competition.Kind.INDIVIDUAL:
            self.fields["present"].label = _("Players present")
        else:
            self.fields["present"].label = _("Teams present")
