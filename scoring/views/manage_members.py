"""The club's member list (docs/member-file.md), for the club's secretaries: the members as an Excel
workbook or a CSV file, and a list brought as such a file, read, shown as it would be saved and
saved all or nothing.

Reading a file keeps its rows (services.member_list_keep) until they are saved or discarded: the
page shows them, compared with the club's players as they are when the page is drawn
(selectors.members.member_list_preview), whoever of the club's secretaries opens it. The save form
carries the digest of the players it was drawn from, and the save refuses the list when they
changed since (services.members_import).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _, ngettext
from django.views import View

from scoring import permissions, services
from scoring.files.member_file import MemberFileError, problem_message, read_member_file, write_csv, write_xlsx
from scoring.forms.members import MemberFileForm, MemberListForm
from scoring.selectors import manage as manage_selectors
from scoring.selectors.members import member_list_draft, member_list_preview, members_to_export

CONFLICT = 409


class ClubMembersMixin(LoginRequiredMixin):
    """Loads the club named by `pk` for its secretaries and site admins; others get the login
    page (anonymous) or 403."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = get_object_or_404(manage_selectors.clubs(), pk=kwargs["pk"])
        if not permissions.can_keep_member_list(request.user, self.club):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def page(self, *, form=None, error=None, problems=(), status=200):
        club = self.club
        draft = member_list_draft(club)
        preview = member_list_preview(club, draft) if draft is not None else None
        context = {
            "club": club,
            "form": form or MemberFileForm(),
            "error": error,
            "problems": problems,
            "draft": draft,
            "preview": preview,
            "save_form": MemberListForm(initial={"draft": draft.pk, "digest": preview.digest}) if draft else None,
        }
        return render(self.request, "scoring/manage/members.html", context, status=status)


class MemberListView(ClubMembersMixin, View):
    """GET: the members' files, the form to bring one, and the list kept from the last file as it
    would be saved. POST: read a file and keep its list (nothing is saved to the players)."""

    def get(self, request, pk):
        return self.page()

    def post(self, request, pk):
        form = MemberFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form=form, error=_("The file was not read."))
        upload = form.cleaned_data["file"]
        try:
            member_file = read_member_file(upload.read(), upload.name)
        except MemberFileError as refusal:
            return self.page(
                error=_("The file could not be read. Nothing was kept or saved."),
                problems=[problem_message(problem) for problem in refusal.problems],
            )
        services.member_list_keep(user=request.user, club=self.club, file_name=upload.name, member_file=member_file)
        count = len(member_file.rows)
        messages.info(
            request,
            ngettext(
                "The file was read: %(count)s member. Check the list below and save it.",
                "The file was read: %(count)s members. Check the list below and save it.",
                count,
            ) % {"count": count},
        )
        return HttpResponseRedirect(reverse("scoring:manage-members", args=[self.club.pk]) + "#member-list-preview")


class MemberListSaveView(ClubMembersMixin, View):
    """POST: save the kept list all or nothing (services.members_import)."""

    def post(self, request, pk):
        form = MemberListForm(request.POST)
        if not form.is_valid():
            return self.page(error=_("Nothing was saved: the list to save was not named. Check it again."), status=400)
        try:
            counts = services.members_import(
                user=request.user, club=self.club, draft_id=form.cleaned_data["draft"],
                expected_digest=form.cleaned_data["digest"],
            )  # fmt: skip
        except services.DomainError as refusal:
            return self.page(error=refusal.message, status=CONFLICT)
        messages.success(
            request,
            _("The member list was saved: %(new)s new and %(changed)s changed players.") % counts,
        )
        return HttpResponseRedirect(reverse("scoring:manage-club", args=[self.club.pk]))


class MemberListDiscardView(ClubMembersMixin, View):
    """POST: let the kept list go; nothing of it is saved."""

    def post(self, request, pk):
        form = MemberListForm(request.POST)
        draft_id = form.cleaned_data["draft"] if form.is_valid() else None
        services.member_list_discard(user=request.user, club=self.club, draft_id=draft_id)
        messages.info(request, _("The list from the file was discarded; nothing of it was saved."))
        return HttpResponseRedirect(reverse("scoring:manage-members", args=[self.club.pk]))


class MemberFileView(ClubMembersMixin, View):
    """GET: the club's members as a file (`kind` "csv" or "xlsx"), headed in the page's language;
    read again, it changes nothing."""

    kind = "xlsx"

    def get(self, request, pk):
        language = translation.get_language() or "sv"
        members = members_to_export(self.club)
        prefix = _("members")
        name = f"{prefix}-{slugify(self.club.name) or self.club.pk}"
        if self.kind == "csv":
            response = HttpResponse(write_csv(members, language), content_type="text/csv; charset=utf-8")
        else:
            response = HttpResponse(
                write_xlsx(members, language, sheet_title=_("Members")),
                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
        response["Content-Disposition"] = f'attachment; filename="{name}.{self.kind}"'
        return response


__all__ = ["MemberFileView", "MemberListDiscardView", "MemberListSaveView", "MemberListView"]
