"""Forms of the schedule tools: generate a league schedule, pair a tournament round, import a
fixture list. They validate what a secretary types; scoring.services.schedules checks and writes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.files.fixture_file import MAX_FILE_BYTES

from .dates import round_date_field, start_time_field


class LeagueScheduleForm(forms.Form):
    SINGLE, DOUBLE = "single", "double"

    series = forms.ChoiceField(
        label=_("How often the teams meet"),
        choices=[
            (SINGLE, _("Once: a single round robin")),
            (DOUBLE, _("Twice, home and away: a double round robin")),
        ],
        initial=DOUBLE,
        widget=forms.RadioSelect,
    )
    start_date = round_date_field(_("Date of round 1"), required_message=_("Give the date of round 1."))
    interval_days = forms.IntegerField(
        label=_("Days between rounds"), min_value=1, max_value=90, initial=7,
        help_text=_("7 for a round every week, 14 for every other week."),
    )
    start_time = start_time_field()
    draw = forms.BooleanField(
        label=_("Draw the order of the teams at random"), required=False, initial=True,
        help_text=_("Without a draw the teams are taken in alphabetical order."),
    )


class PairRoundForm(forms.Form):
    date = round_date_field(
        _("Date of the round"), required=False, help_text=_("Empty: the date of the previous round, or today.")
    )
    start_time = start_time_field()


class FixtureImportForm(forms.Form):
    file = forms.FileField(
        label=_("Fixture list (CSV file)"),
        help_text=_("Columns round, date, table, home and away (or omgång, datum, bord, hemma, borta)."),
        error_messages={"required": _("Choose the file to import.")},
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(_("The file is too large (more than 1 MB)."))
        return upload
