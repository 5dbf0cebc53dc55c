"""Forms of an individual competition's organiser: who plays, and the draw of the next round."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Player

from .schedules import DateInput, TimeInput


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, player):
        return f"{player.name} ({player.club.name})"


class SignupForm(forms.Form):
    players = PlayerChoiceField(
        queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label=_("Players"), help_text=_("The players of the club night, from any club."),
    )

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.select_related("club").order_by("club__name", "name")
        self.fields["players"].initial = list(competition.entrants.values_list("pk", flat=True))


class IndividualRoundForm(forms.Form):
    date = forms.DateField(
        label=_("Date of the round"), widget=DateInput(), required=False,
        help_text=_("Empty: the date of the previous round, or today."),
        error_messages={"invalid": _("Write the date as 2026-09-14.")},
    )
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=TimeInput(),
                                 help_text=_("Optional; for example 18:30."))
    seed = forms.IntegerField(
        label=_("Seed of the draw"), required=False, min_value=0,
        help_text=_("Round one only. Empty: a new random draw. The same seed gives the same draw."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()
