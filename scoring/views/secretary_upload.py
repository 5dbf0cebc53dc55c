"""Uploading a CSV or xlsx protocol on the match page, in two steps: the file is checked and shown
as it would be saved (the deals with their scores and totals, the problems and warnings, the notice
for a match planned for a later day, as typing gives), and it is saved only when the secretary
confirms. Saving replaces the match's deals, all or nothing (services.match_import_deals).

Between the two steps the file travels with the confirmation form, signed (django.core.signing)
together with the match and the version it was checked against: nothing is kept on the server,
the file cannot be changed on the way, and a match changed meanwhile refuses it as stale. A file
that cannot be read gets the file error's message (scoring.messages.file_error_message); files
are limited to 1 MB (forms.protocol.UPLOAD_LIMIT_BYTES).
"""

from __future__ import annotations

import base64

from django import forms
from django.contrib import messages
from django.core import signing
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views import View

from scoring import permissions, services
from scoring.engine.protocol_file import ProtocolFileError, read_protocol
from scoring.forms.protocol import ProtocolUploadForm, ReasonField, VersionForm
from scoring.messages import file_error_message, problem_message
from scoring.selectors.protocols import protocol_preview

from .secretary_base import MatchAccessMixin, planned_later_than_today, protocol_sheet

STALE_STATUS = 409
SIGNING_SALT = "scoring.protocol-upload"
# A checked file is saved within a working evening, or checked again.
CHECKED_FILE_MAX_AGE = 12 * 60 * 60


class UploadSaveForm(VersionForm):
    """The second step: the checked file (signed) and the reason, carried over from the first."""

    checked = forms.CharField(widget=forms.HiddenInput)
    reason = ReasonField(required=False, label=gettext_lazy("Reason (needed when deals are replaced)"))

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.match = match

    def clean_checked(self):
        try:
            payload = signing.loads(self.cleaned_data["checked"], salt=SIGNING_SALT, max_age=CHECKED_FILE_MAX_AGE)
        except signing.BadSignature:
            raise forms.ValidationError(_("The checked file has expired. Choose the file and check it again.")) from None
        if payload.get("match") != self.match.pk:
            raise forms.ValidationError(_("The checked file belongs to another match. Check it again."))
        return payload


def sign_checked_file(match, data: bytes, name: str) -> str:
    payload = {"match": match.pk, "name": name, "data": base64.b64encode(data).decode("ascii")}
    return signing.dumps(payload, salt=SIGNING_SALT, compress=True)


class UploadPageMixin(MatchAccessMixin):
    access = "enter"
    template_name = "scoring/secretary/upload.html"

    def page(self, form, *, error=None, file_errors=(), checked=None, status=200):
        """`checked`: (file name, entries) of a file read without error, shown as it would be saved."""
        match = self.match
        context = {
            "match": match,
            "form": form,
            "error": error,
            "file_errors": file_errors,
            "may_upload": permissions.match_actions(self.request.user, match, protocol_sheet(match).state).upload,
            "planned_later": planned_later_than_today(match) if not match.deal_count else None,
        }
        if checked is not None:
            name, entries, save_form = checked
            sheet = protocol_preview(match, entries)
            grouped: dict[int, list[str]] = {}
            for replayed in sheet.state.deals:
                for problem in replayed.errors:
                    grouped.setdefault(replayed.number, []).append(problem_message(problem, replayed.number))
            if grouped:
                context["error"] = _("The file has errors. Nothing was saved; correct the file and check it again.")
            context.update(
                checked_name=name,
                sheet=sheet,
                deal_problems=sorted(grouped.items()),
                save_form=None if grouped else save_form,
                actions=None,
            )
        return render(self.request, self.template_name, context, status=status)

    def make_form(self, data=None, files=None):
        return ProtocolUploadForm(
            data, files, initial={"version": self.match.version}, replaces_deals=bool(self.match.deal_count)
        )

    def fresh_form(self, data):
        """The choose-a-file form again after a refusal: the reason kept, no complaint about a file
        that was in fact chosen."""
        return ProtocolUploadForm(
            initial={"version": self.match.version, "reason": data.get("reason", "")},
            replaces_deals=bool(self.match.deal_count),
        )


class ProtocolUploadView(UploadPageMixin, View):
    """GET: choose a file. POST: check it and show it as it would be saved; nothing is written."""

    def get(self, request, pk):
        return self.page(self.make_form())

    def post(self, request, pk):
        match = self.match
        form = self.make_form(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form, error=_("The file was not checked."))
        upload = form.cleaned_data["file"]
        data = upload.read()
        try:
            entries = read_protocol(data, upload.name)
        except ProtocolFileError as problem:
            return self.page(
                self.fresh_form(request.POST),
                error=_("The file could not be read. Nothing was saved."),
                file_errors=[file_error_message(problem)],
            )
        save_form = UploadSaveForm(
            initial={
                "version": form.cleaned_data["version"],
                "reason": form.cleaned_data.get("reason") or "",
                "checked": sign_checked_file(match, data, upload.name),
            },
            match=match,
        )
        return self.page(self.fresh_form(request.POST), checked=(upload.name, entries, save_form))


class ProtocolUploadSaveView(UploadPageMixin, View):
    """POST: save the file checked in the first step (services.match_import_deals)."""

    def post(self, request, pk):
        match = self.match
        save_form = UploadSaveForm(request.POST, match=match)
        if not save_form.is_valid():
            errors = [message for field in save_form for message in field.errors]
            return self.page(self.fresh_form(request.POST), error=_("Nothing was saved."), file_errors=errors)
        payload = save_form.cleaned_data["checked"]
        reason = save_form.cleaned_data.get("reason") or ""
        if match.deal_count and not reason.strip():
            return self.page(
                self.fresh_form(request.POST),
                error=_("The match already has deals; the file replaces them all. Write a reason for the log."),
            )
        entries = read_protocol(base64.b64decode(payload["data"]), payload["name"])
        try:
            services.match_import_deals(
                match=match,
                user=request.user,
                entries=entries,
                expected_version=save_form.cleaned_data["version"],
                reason=reason,
            )
        except services.DealProblemsError as refusal:
            return self.page(self.fresh_form(request.POST), error=refusal.message)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            return self.page(self.fresh_form(request.POST), error=refusal.message, status=STALE_STATUS)
        messages.success(
            request, _("The protocol file was imported: %(count)s deals.") % {"count": len(entries)}
        )
        return HttpResponseRedirect(reverse("scoring:match-protocol", args=[match.pk]))
