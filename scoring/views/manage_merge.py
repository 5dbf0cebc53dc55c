"""Merging on the management pages, beside deleting (manage_delete): GET asks what a player or team
entered twice is to be merged into, then shows what moves (or why it cannot be done); POST does it
(services.merge)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views import View

from scoring import permissions, services
from scoring.models import Player, Team
from scoring.selectors.merging import merge_candidates, merge_choices, merge_subject

MODELS = {"player": Player, "team": Team}


class MergeForm(forms.Form):
    # The queryset is set from the candidates when the form is made.
    into = forms.ModelChoiceField(queryset=None, label=gettext_lazy("Merge into"))
    # Two players with different member numbers: the one the player kept keeps (the plan checks it
    # is one of the two). Asked on the confirmation, not with the choice of whom to keep.
    member_number = forms.CharField(required=False, max_length=30, widget=forms.HiddenInput)

    def __init__(self, *args, candidates: list, kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        model = MODELS[kind]
        field = self.fields["into"]
        # The choices in the selector's order; the queryset only checks what comes back.
        field.queryset = merge_choices(model, candidates)
        field.choices = [("", _("(choose)"))] + [(row.pk, self.label(row)) for row in candidates]
        field.error_messages["required"] = (
            _("Choose the player to keep.") if kind == "player" else _("Choose the team to keep.")
        )
        field.error_messages["invalid_choice"] = field.error_messages["required"]

    @staticmethod
    def label(row) -> str:
        if isinstance(row, Team):
            return f"{row.name} ({row.player_one.name} · {row.player_two.name})"
        return f"{row.name} ({_('member number')} {row.member_number})" if row.member_number else row.name


class MergeView(LoginRequiredMixin, View):
    template_name = "scoring/manage/confirm_merge.html"
    kind = ""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.object = merge_subject(MODELS[self.kind], kwargs["pk"])
        if not permissions.can_manage_club(request.user, self.object.club):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def back_url(self) -> str:
        return reverse("scoring:manage-club", args=[self.object.club_id])

    def form(self, data=None) -> MergeForm:
        return MergeForm(data, candidates=merge_candidates(self.object), kind=self.kind)

    def page(self, form, *, error=None, status=200):
        kept = form.cleaned_data["into"] if form.is_bound and form.is_valid() else None
        number = form.cleaned_data.get("member_number", "") if kept is not None else ""
        context = {
            "object": self.object,
            "kind": self.kind,
            "form": form,
            "kept": kept,
            "plan": services.merge_plan(self.object, kept, member_number=number) if kept is not None else None,
            "back_url": self.back_url(),
            "error": error,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        # Choosing the one to keep is a question, not a change: it comes back as ?into=…
        return self.page(self.form(request.GET if "into" in request.GET else None))

    def post(self, request, pk):
        form = self.form(request.POST)
        if not form.is_valid():
            return self.page(form)
        kept = form.cleaned_data["into"]
        try:
            plan = services.merge(
                user=request.user, duplicate=self.object, kept=kept, member_number=form.cleaned_data["member_number"]
            )
        except services.DomainError as refusal:
            return self.page(form, error=refusal.message, status=409)
        messages.success(request, _("Merged: %(name)s into %(into)s.") % {"name": plan.name, "into": plan.into})
        return HttpResponseRedirect(self.back_url())


class PlayerMergeView(MergeView):
    kind = "player"


class TeamMergeView(MergeView):
    kind = "team"
