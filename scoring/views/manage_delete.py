"""Deleting on the management pages: GET a confirmation page saying what goes with the thing (or
that it is archived, or why it cannot be deleted); POST does it (services.delete_or_archive)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from scoring import permissions, services
from scoring.selectors import manage as manage_selectors

# The rows each kind of delete page may name (selectors.manage).
ROWS = {
    "player": manage_selectors.players,
    "team": manage_selectors.teams,
    "round": manage_selectors.rounds,
    "match": manage_selectors.matches,
}


class DeleteView(LoginRequiredMixin, View):
    template_name = "scoring/manage/confirm_delete.html"
    kind = ""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.object = get_object_or_404(ROWS[self.kind](), pk=kwargs["pk"])
        if not self.allowed(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def allowed(self, user) -> bool:
        if self.kind in ("player", "team"):
            return permissions.can_manage_club(user, self.object.club)
        return permissions.can_manage_competition(user, self.object.competition)

    def back_url(self) -> str:
        if self.kind in ("player", "team"):
            return reverse("scoring:manage-club", args=[self.object.club_id])
        return reverse("scoring:manage-competition", args=[self.object.competition_id])

    def page(self, *, error=None, status=200):
        context = {
            "object": self.object,
            "plan": services.deletion_plan(self.object),
            "back_url": self.back_url(),
            "error": error,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        return self.page()

    def post(self, request, pk):
        back = self.back_url()
        try:
            plan = services.delete_or_archive(user=request.user, obj=self.object)
        except services.DomainError as refusal:
            return self.page(error=refusal.message, status=409)
        if plan.archives:
            messages.success(request, _("Archived: %(name)s.") % {"name": plan.name})
        else:
            messages.success(request, _("Deleted: %(name)s.") % {"name": plan.name})
        return HttpResponseRedirect(back)


class PlayerDeleteView(DeleteView):
    kind = "player"


class TeamDeleteView(DeleteView):
    kind = "team"


class RoundDeleteView(DeleteView):
    kind = "round"


class MatchDeleteView(DeleteView):
    kind = "match"
