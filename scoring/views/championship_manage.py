"""A championship's organiser pages: create it, add its stages (who goes on, what is carried) and
their heats, and confirm each stage's qualified list, replacing a pair that withdrew by the next in
line. The organiser's secretaries and site admins (permissions.can_manage_championship); the
services (scoring.services.championships) check again and write. A closed season's championship
is an archive: nothing is offered, and a post is refused with the reason (409), never a 500."""

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
from scoring.forms.championships import ChampionshipForm, ConfirmForm, HeatForm, StageForm, WithdrawalForm
from scoring.models import Championship, ChampionshipStage
from scoring.selectors import championships as reads
from scoring.selectors import manage as manage_selectors

from .championships import stage_page
from .manage import CONFLICT, ManageFormView


class ChampionshipFormMixin:
    """The form pages of a championship: its right, its archive, and the way back to its page."""

    def championship(self) -> Championship:
        owner = self.owner
        return owner if isinstance(owner, Championship) else getattr(owner, "championship", None) or self.object

    def allowed(self, user) -> bool:
        if isinstance(self.owner, (Championship, ChampionshipStage)):
            return permissions.can_manage_championship(user, self.championship())
        return super().allowed(user)

    def archive_refusal(self):
        championship = self.championship()
        return reads.archive_text(championship) if isinstance(championship, Championship) else None

    def back_url(self) -> str:
        championship = self.championship()
        if isinstance(championship, Championship) and championship.pk:
            return reverse("scoring:manage-championship", args=[championship.pk])
        return super().back_url()

    def success_url(self, saved) -> str:
        championship = saved if isinstance(saved, Championship) else self.championship()
        return reverse("scoring:manage-championship", args=[championship.pk])


class ChampionshipCreateView(ChampionshipFormMixin, ManageFormView):
    owner_rows = staticmethod(manage_selectors.clubs)
    form_class = ChampionshipForm

    def championship(self):
        return self.object

    def get_title(self):
        return _("New championship organised by %(club)s") % {"club": self.owner}

    def new_instance(self):
        return Championship(organiser=self.owner)

    def save(self, form):
        return services.championship_save(user=self.request.user, championship=form.save(commit=False))


class ChampionshipUpdateView(ChampionshipCreateView):
    object_rows = staticmethod(reads.championship_rows)

    def owner_of(self, obj):
        return obj.organiser

    def get_title(self):
        return _("Championship: %(name)s") % {"name": self.object}


class StageCreateView(ChampionshipFormMixin, ManageFormView):
    owner_rows = staticmethod(reads.championship_rows)
    form_class = StageForm

    def get_title(self):
        return _("New stage of %(championship)s") % {"championship": self.owner}

    def new_instance(self):
        return ChampionshipStage(championship=self.owner)

    def save(self, form):
        return services.championship_stage_save(user=self.request.user, stage=form.save(commit=False))


class StageUpdateView(StageCreateView):
    object_rows = staticmethod(reads.stage_rows)

    def owner_of(self, obj):
        return obj.championship

    def get_title(self):
        return _("Stage: %(name)s") % {"name": self.object}


class HeatAddView(ChampionshipFormMixin, ManageFormView):
    owner_rows = staticmethod(reads.stage_rows)
    form_class = HeatForm

    def get_title(self):
        return _("New heat of %(stage)s") % {"stage": self.owner}

    def form_kwargs(self):
        return {"championship": self.owner.championship}

    def save(self, form):
        return services.championship_heat_add(user=self.request.user, stage=self.owner,
                                              competition=form.cleaned_data["competition"])  # fmt: skip


class ChampionshipManageView(LoginRequiredMixin, View):
    """A championship as its organiser sees it: its stages, their rules and heats, and each stage's
    qualified list to confirm."""

    def get(self, request, pk):
        championship = get_object_or_404(reads.championship_rows(), pk=pk)
        if not permissions.can_manage_championship(request.user, championship):
            raise PermissionDenied
        road = reads.championship_road(championship)
        return render(request, "scoring/manage/championship.html", {
            "championship": championship, "road": road, "closed": reads.archive_text(championship),
            "stages": [{"road": stage, "rule": reads.stage_rule_text(stage.stage), "state": reads.stage_state_text(stage)}
                       for stage in road.stages],
        })  # fmt: skip


class StageQualifiedView(LoginRequiredMixin, View):
    """A stage's qualified list as the engine proposes it: a pair that withdrew is replaced by the
    next in line (with a reason), and the organiser confirms the list once every heat is complete."""

    template_name = "scoring/manage/stage_qualified.html"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.stage = get_object_or_404(reads.stage_rows(), pk=kwargs["pk"])
        if not permissions.can_manage_championship(request.user, self.stage.championship):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def page(self, *, withdrawal=None, error=None, status=200):
        road = reads.stage_road(self.stage)
        return render(self.request, self.template_name, {
            "stage": self.stage, "championship": self.stage.championship, "closed": reads.archive_text(self.stage.championship),
            "withdrawal_form": withdrawal or WithdrawalForm(pairs=road.going_on),
            "confirm_form": ConfirmForm(initial={"expected": ",".join(str(pk) for pk in road.expected)}),
            "error": error, **stage_page(road),
        }, status=status)  # fmt: skip

    def get(self, request, pk):
        return self.page()

    def refused(self, message, **kwargs):
        return self.page(error=message, status=CONFLICT, **kwargs)

    def post(self, request, pk):
        refusal = reads.archive_text(self.stage.championship)
        if refusal:
            return self.refused(refusal)
        form = ConfirmForm(request.POST)
        form.is_valid()
        try:
            services.stage_qualifiers_confirm(user=request.user, stage=self.stage, expected=form.expected_ids())
        except services.DomainError as error:
            return self.refused(error.message)
        messages.success(request, _("The qualified list is confirmed, and the pairs are entered into the next stage."))
        return HttpResponseRedirect(reverse("scoring:manage-championship", args=[self.stage.championship_id]))


class StageWithdrawalView(StageQualifiedView):
    """A pair withdraws before the list is confirmed: the next in line takes its place."""

    http_method_names = ["post"]

    def post(self, request, pk):
        refusal = reads.archive_text(self.stage.championship)
        if refusal:
            return self.refused(refusal)
        road = reads.stage_road(self.stage)
        form = WithdrawalForm(request.POST, pairs=road.going_on)
        if not form.is_valid():
            return self.page(withdrawal=form, error=_("Nothing was saved: correct the marked fields."), status=400)
        team = next(line for line in road.going_on if line.team_id == form.cleaned_data["team"])
        try:
            services.stage_withdrawal_add(user=request.user, stage=self.stage, team=reads.team_row(team.team_id),
                                          reason=form.cleaned_data["reason"])  # fmt: skip
        except services.DomainError as error:
            return self.refused(error.message, withdrawal=form)
        messages.success(request, _("%(team)s withdrew: the next in line takes its place.") % {"team": team.team})
        return HttpResponseRedirect(reverse("scoring:manage-stage-qualified", args=[pk]))
