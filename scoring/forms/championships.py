"""Forms for a championship's organiser: the championship, its stages (who goes on, what is
carried), its heats, a pair's withdrawal and the confirmation of a stage's qualified list. They
check what is typed; the services (scoring.services.championships) check rights and write."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import Championship, ChampionshipStage, Competition
from scoring.selectors.championships import heat_choices

from .dates import DateInput


class ChampionshipForm(forms.ModelForm):
    class Meta:
        model = Championship
        fields = ["name", "season", "is_public"]
        error_messages = {
            "name": {"required": _("Give the championship a name.")},
            "season": {"required": _("Write the season, for example 2026/27.")},
        }


class StageForm(forms.ModelForm):
    class Meta:
        model = ChampionshipStage
        fields = ["name", "per_heat", "best_of_rest", "carry_points_percent", "carry_cards_percent", "starts_on"]
        widgets = {"starts_on": DateInput}
        error_messages = {"name": {"required": _("Give the stage a name, for example Club qualifier or Final.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["per_heat"].help_text = _("The first N of each heat's table go on. 0 in the final.")
        self.fields["best_of_rest"].help_text = _(
            "Then the best M of all the other pairs, every heat of the stage ranked together."
        )
        self.fields["carry_points_percent"].help_text = _(
            "A share of each qualified pair's match points that starts its next table. 0: none."
        )
        self.fields["carry_cards_percent"].help_text = _(
            "A share of its card points for and against, carried the same way. 0: none."
        )
        self.fields["starts_on"].help_text = _("The first day of the stage's schedule, made when the pairs are entered.")


class HeatForm(forms.Form):
    competition = forms.ModelChoiceField(
        queryset=Competition.objects.none(), label=_("Competition"),
        help_text=_("A league series or tournament of your club, of the championship's season, not yet a heat."),
        error_messages={"required": _("Choose the competition played as this heat.")},
    )  # fmt: skip

    def __init__(self, *args, championship: Championship, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["competition"].queryset = heat_choices(championship)


class WithdrawalForm(forms.Form):
    team = forms.TypedChoiceField(label=_("Pair"), coerce=int, error_messages={"required": _("Choose the pair that withdrew.")})
    reason = forms.CharField(
        label=_("Why"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept with the list and in the log."),
        error_messages={"required": _("Say why the pair withdrew.")},
    )  # fmt: skip

    def __init__(self, *args, pairs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [("", "—")] + [(line.team_id, line.team) for line in pairs]


class ConfirmForm(forms.Form):
    """The list as the organiser saw it: the confirmation is refused if it changed since."""

    expected = forms.CharField(widget=forms.HiddenInput, required=False)

    def expected_ids(self) -> list[int]:
        text = self.cleaned_data.get("expected") or ""
        try:
            return [int(part) for part in text.split(",") if part][:500]
        except ValueError:
            return []
