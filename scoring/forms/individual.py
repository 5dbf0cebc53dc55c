"""Forms of an individual competition's organiser: who plays, and the draw of the next round."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.standings import swedish_sort_key
from scoring.models import Invitation, Player

from .dates import round_date_field, start_time_field


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, player):
        return f"{player.name} ({player.club.name})"


class SignupForm(forms.Form):
    players = PlayerChoiceField(
        queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label=_("Players"),
        help_text=_("The players of the club night. A player of another club is signed up when their club accepts."),
    )

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        field.queryset = Player.objects.select_related("club")
        # By club, then name, the Swedish way (Å, Ä, Ö after Z); the organiser's club first.
        people = sorted(
            field.queryset,
            key=lambda p: (p.club_id != competition.organiser_id, swedish_sort_key(p.club.name), swedish_sort_key(p.name)),
        )
        field.choices = [(p.pk, field.label_from_instance(p)) for p in people]
        # Players asked for and not yet answered stay chosen: saving again does not withdraw them.
        field.initial = list(competition.entrants.values_list("pk", flat=True)) + list(
            competition.signup_invitations.filter(status=Invitation.Status.PENDING).values_list("player_id", flat=True)
        )


class IndividualRoundForm(forms.Form):
    date = round_date_field(
        _("Date of the round"), required=False, help_text=_("Empty: the date of the previous round, or today.")
    )
    start_time = start_time_field()
    seed = forms.IntegerField(
        label=_("Draw number"), required=False, min_value=0, max_value=2**62,
        help_text=_("Round one only. Empty: a new draw by lot. The same number drawn again gives the same pairs."),
    )

    def __init__(self, *args, first_round: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not first_round:
            del self.fields["seed"]  # later rounds follow the table, not a draw
