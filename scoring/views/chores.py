"""Pages of the season's chores: a match moved by agreement (the home side proposes, the away side
answers, the organiser approves where the competition asks), and who is present before the draw.

Each page checks the right through scoring.permissions and calls one service; a refusal of the
service (a closed season, a proposal answered meanwhile, a match begun) shows the page again with
the reason and 409, never a server error. A closed season's page offers no buttons.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View

from scoring import notifications, permissions, services
from scoring.forms.chores import CheckInForm, MoveAnswerForm, MoveProposeForm
from scoring.models import Competition, Match, MatchMove
from scoring.selectors import chores as chores_selectors

from .manage import CompetitionManagerMixin
from .secretary_actions import tell_who_was_not_told
from .secretary_base import MatchAccessMixin

REFUSED = 409


def move_url(match: Match) -> str:
    return reverse("scoring:match-move", args=[match.pk])


def can_be_moved(match: Match) -> bool:
    """Not begun, not an archive: a new date may still be agreed."""
    return not match.competition.archived and match.status in Match.NOT_STARTED_STATUSES and not match.deal_count


class MatchMoveView(MatchAccessMixin, View):
    """GET: the match's date, the proposal waiting (with the answer its reader may give) and the
    history; the home side's form to propose a new date. POST: the proposal."""

    template_name = "scoring/secretary/match_move.html"

    def has_access(self, user) -> bool:
        if self.request.method == "POST":
            return permissions.can_propose_move(user, self.match)
        return permissions.can_see_moves(user, self.match)

    def get(self, request, pk):
        return self.page(self.propose_form())

    def propose_form(self, data=None) -> MoveProposeForm:
        start = timezone.localtime(self.match.scheduled_start) if self.match.scheduled_start else None
        initial = {"version": self.match.version, "hall": self.match.hall}
        if start is not None:
            initial["new_time"] = start.time().replace(second=0, microsecond=0)
        return MoveProposeForm(data, initial=initial)

    def post(self, request, pk):
        form = self.propose_form(request.POST)
        if not form.is_valid():
            return self.page(form)
        try:
            with notifications.delivery_report() as deliveries:
                services.match_move_propose(
                    match=self.match, user=request.user, new_start=form.new_start(), hall=form.cleaned_data["hall"],
                    reason=form.cleaned_data["reason"], expected_version=form.cleaned_data["version"],
                )  # fmt: skip
        except services.DomainError as refusal:
            self.reload_match()
            return self.page(self.propose_form(), error=refusal.message, status=REFUSED)
        messages.success(request, _("The new date is proposed. The away team is asked to accept or decline it."))
        tell_who_was_not_told(request, deliveries)
        return HttpResponseRedirect(move_url(self.match))

    def page(self, form, *, error=None, status=200):
        match = self.page_match()
        user = self.request.user
        waiting = chores_selectors.open_move(match)
        movable = can_be_moved(match)
        context = {
            "match": match,
            "moves": chores_selectors.match_moves(match),
            "waiting": waiting,
            "archived": match.competition.archived,
            "movable": movable,
            "can_propose": movable and permissions.can_propose_move(user, match),
            "can_answer": movable and waiting is not None and waiting.status == MatchMove.Status.WAITING_AWAY
            and permissions.can_answer_move(user, match, waiting.proposed_by_id),
            "can_approve": movable and waiting is not None and waiting.status == MatchMove.Status.WAITING_ORGANISER
            and permissions.can_approve_move(user, match),
            "can_see_protocol": permissions.can_view_protocol(user, match),
            "form": form,
            "error": error,
        }
        return render(self.request, self.template_name, context, status=status)


class MoveDecisionView(MatchMoveView):
    """POST: a yes or no to the proposal waiting: the away team's answer, or the organiser's."""

    def has_access(self, user) -> bool:
        return permissions.can_see_moves(user, self.match)

    def get(self, request, pk):
        return HttpResponseRedirect(move_url(self.match))

    def allowed(self, user, move: MatchMove) -> bool:  # pragma: no cover - each subclass says
        raise NotImplementedError

    def decide(self, move: MatchMove, form: MoveAnswerForm):  # pragma: no cover - each subclass says
        raise NotImplementedError

    def post(self, request, pk):
        form = MoveAnswerForm(request.POST)
        if not form.is_valid():
            return self.page(self.propose_form(), error=_("Choose yes or no."), status=400)
        move = next((move for move in chores_selectors.match_moves(self.match) if move.pk == form.cleaned_data["move"]), None)
        if move is None:
            raise Http404("No such proposal for this match.")
        if not self.allowed(request.user, move):
            raise PermissionDenied
        try:
            with notifications.delivery_report() as deliveries:
                move = self.decide(move, form)
        except services.DomainError as refusal:
            self.reload_match()
            return self.page(self.propose_form(), error=refusal.message, status=REFUSED)
        messages.success(request, {
            MatchMove.Status.MOVED: _("The match is moved to its new date."),
            MatchMove.Status.WAITING_ORGANISER: _("Accepted. The organiser is asked to approve the new date."),
            MatchMove.Status.DECLINED: _("Declined. The match stays as it was."),
            MatchMove.Status.REFUSED: _("Not approved. The match stays as it was."),
        }[move.status])
        tell_who_was_not_told(request, deliveries)
        return HttpResponseRedirect(move_url(self.match))


class MoveAnswerView(MoveDecisionView):
    """The away team accepts or declines."""

    def allowed(self, user, move: MatchMove) -> bool:
        return permissions.can_answer_move(user, self.match, move.proposed_by_id)

    def decide(self, move, form):
        return services.match_move_answer(move=move, user=self.request.user, accept=form.agrees,
                                          note=form.cleaned_data["note"])  # fmt: skip


class MoveApproveView(MoveDecisionView):
    """The organiser approves or refuses a move both teams agreed to."""

    def allowed(self, user, move: MatchMove) -> bool:
        return permissions.can_approve_move(user, self.match)

    def decide(self, move, form):
        return services.match_move_approve(move=move, user=self.request.user, approve=form.agrees,
                                           note=form.cleaned_data["note"])  # fmt: skip


# -- check-in before the draw ----------------------------------------------------------------------


class CheckInView(CompetitionManagerMixin, View):
    """The organiser ticks who is present on a day; that day's draw pairs only those."""

    template_name = "scoring/manage/check_in.html"

    def make_form(self, data=None, day=None):
        competition = self.competition
        day = day or timezone.localdate()
        present = chores_selectors.checked_in_ids(competition, day)
        return CheckInForm(data, competition=competition, candidates=chores_selectors.check_in_candidates(competition),
                           initial={"day": day, "present": sorted(present)})  # fmt: skip

    def get(self, request, pk):
        try:
            day = CheckInForm.base_fields["day"].clean(request.GET.get("day", "")[:10]) if request.GET.get("day") else None
        except ValidationError:
            day = None  # an address typed wrong: today's
        return self.page(self.make_form(day=day))

    def post(self, request, pk):
        form = self.make_form(request.POST)
        if not form.is_valid():
            return self.page(form, status=400)
        try:
            present = services.check_in_save(competition=self.competition, user=request.user,
                                             day=form.cleaned_data["day"], present=form.cleaned_data["present"])  # fmt: skip
        except services.DomainError as refusal:
            return self.page(form, error=refusal.message, status=REFUSED)
        messages.success(request, _("Saved: %(count)s present.") % {"count": len(present)})
        return HttpResponseRedirect(
            reverse("scoring:manage-check-in", args=[self.competition.pk]) + f"?day={form.cleaned_data['day']:%Y-%m-%d}"
        )

    def page(self, form, *, error=None, status=200):
        competition = self.competition
        draw_url = reverse("scoring:manage-individual" if competition.kind == Competition.Kind.INDIVIDUAL
                           else "scoring:manage-schedule-pair", args=[competition.pk])  # fmt: skip
        context = {"competition": competition, "form": form, "error": error, "draw_url": draw_url,
                   "individual": competition.kind == Competition.Kind.INDIVIDUAL,
                   "league": competition.kind == Competition.Kind.LEAGUE}  # fmt: skip
        return render(self.request, self.template_name, context, status=status)
