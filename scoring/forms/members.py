"""Forms of the club's member list (docs/member-file.md): choosing the file, and saving or
discarding the list it gave."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.files.member_file import MAX_FILE_BYTES


class MemberFileForm(forms.Form):
    file = forms.FileField(
        label=_("Member list (Excel xlsx or CSV)"),
        help_text=_(
            "One row per member under a header row: Name, Member number, and if you like Birth year and "
            "E-mail. At most 1 000 members and 1 MB."
        ),
        error_messages={"required": _("Choose a file."), "empty": _("The file is empty."), "missing": _("Choose a file.")},
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv,text/csv", "aria-describedby": "hint-member-file"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB; a member list is much smaller."))
        return upload


class MemberListForm(forms.Form):
    """Saving or discarding the kept list: which list (a newer file takes its place) and the digest
    of the club's members the preview was drawn from (a change since refuses the save)."""

    draft = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**62)
    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
