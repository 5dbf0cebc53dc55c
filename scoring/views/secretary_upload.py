"""Uploading a CSV or xlsx protocol on the match page: the file replaces the match's deals, all or
nothing (services.match_import_deals). A file that cannot be read gets the file error's message
(scoring.messages.file_error_message); a file whose deals break the rules saves nothing and lists
every problem by deal. Files are limited to 1 MB (forms.protocol.UPLOAD_LIMIT_BYTES).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from scoring import services
from scoring.engine.protocol_file import ProtocolFileError, read_protocol
from scoring.forms.protocol import ProtocolUploadForm
from scoring.messages import file_error_message, problem_message

from .secretary_base import MatchAccessMixin, match_actions, protocol_sheet

STALE_STATUS = 409


class ProtocolUploadView(MatchAccessMixin, View):
    """A CSV or xlsx protocol replaces the match's deals: all or nothing (match_import_deals)."""

    access = "enter"
    template_name = "scoring/secretary/upload.html"

    def page(self, form, *, error=None, file_errors=(), deal_problems=(), status=200):
        match = self.match
        grouped: dict[int, list[str]] = {}
        for number, problem in deal_problems:
            grouped.setdefault(number, []).append(problem_message(problem, number))
        context = {
            "match": match,
            "form": form,
            "error": error,
            "file_errors": file_errors,
            "deal_problems": sorted(grouped.items()),
            "may_upload": match_actions(self.request.user, match, protocol_sheet(match).state).upload,
        }
        return render(self.request, self.template_name, context, status=status)

    def make_form(self, data=None, files=None):
        return ProtocolUploadForm(
            data, files, initial={"version": self.match.version}, replaces_deals=bool(self.match.deal_count)
        )

    def get(self, request, pk):
        return self.page(self.make_form())

    def post(self, request, pk):
        match = self.match
        form = self.make_form(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form, error=_("The file was not imported."))
        upload = form.cleaned_data["file"]
        try:
            entries = read_protocol(upload.read(), upload.name)
        except ProtocolFileError as problem:
            return self.page(
                self.make_form(request.POST),
                error=_("The file could not be read. Nothing was saved."),
                file_errors=[file_error_message(problem)],
            )
        try:
            services.match_import_deals(
                match=match,
                user=request.user,
                entries=entries,
                expected_version=form.cleaned_data["version"],
                reason=form.cleaned_data.get("reason") or "",
            )
        except services.DealProblemsError as refusal:
            return self.page(self.make_form(request.POST), error=refusal.message, deal_problems=refusal.problems)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            data = request.POST.copy()
            data["version"] = str(match.version)
            return self.page(self.make_form(data), error=refusal.message, status=STALE_STATUS)
        messages.success(
            request, _("The protocol file was imported: %(count)s deals.") % {"count": len(entries)}
        )
        return HttpResponseRedirect(reverse("scoring:match-protocol", args=[match.pk]))
