"""The secretary's pages: "my matches", the protocol page (enter a deal, live check, correct,
remove the last deal, upload a protocol file) and the match's audit log.

Views are thin: a form turns what was typed into the engine's DealEntry, the live check replays
the stored deals plus the typed one with the engine (never writing), and saving goes through the
services (deals_record, deal_correct, deal_delete_last, match_import_deals), whose refusals
re-render the page with what was typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.selectors import table as table_selectors
from scoring import permissions, services
from scoring.adapters import deal_to_entry
from scoring.engine import DealEntry, SideEntry
from scoring.forms.protocol import (
    CANASTA_MARKS,
    SIDES,
    DealCorrectForm,
    DealEntryForm,
    DealForm,
    ProtocolUploadForm,
    ReasonForm,
)
from scoring.models import Match
from scoring.selectors import chores as chores_selectors, secretary as secretary_selectors

from .secretary_base import (
    MatchAccessMixin,
    place_problems,
    planned_later_than_today,
    preview_deal,
    protocol_sheet,
)

S = Match.Status
STALE_STATUS = 409


def protocol_url(match: Match, anchor: str = "") -> str:
    url = reverse("scoring:match-protocol", args=[match.pk])
    return f"{url}#{anchor}" if anchor else url


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


# -- my matches ---------------------------------------------------------------------------------


class MyMatchesView(LoginRequiredMixin, TemplateView):
    """The matches the user keeps the protocol of or confirms, grouped by what is next. A closed
    season's matches are archives, not work to do: they are listed apart (the latest few), with
    no action but showing the protocol."""

    template_name = "scoring/secretary/my_matches.html"
    # Confirmed and void matches are history: the latest few are enough here.
    HISTORY_LIMIT = 20
    GROUP_LIMIT = 200

    GROUPS = (
        ("in_progress", (S.IN_PROGRESS,), False),
        ("to_confirm", Match.CONFIRMABLE_STATUSES, False),
        ("finished", (S.FINISHED,), False),
        ("submitted", (S.SUBMITTED,), False),
        ("scheduled", Match.NOT_STARTED_STATUSES, False),
        ("confirmed", (S.CONFIRMED,), True),
        ("void", (S.VOID,), True),
    )
    ARCHIVE = "archived"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        base = secretary_selectors.secretary_matches(user)
        groups = {}
        for key, statuses, history in self.GROUPS:
            if history:
                query = secretary_selectors.latest_changed_first(base, statuses, self.HISTORY_LIMIT)
            else:
                query = secretary_selectors.soonest_first(base, statuses, self.GROUP_LIMIT)
            rows = []
            for match in query:
                may_enter = permissions.can_enter_protocol(user, match)
                may_confirm = permissions.can_confirm(user, match)
                if key == "to_confirm" and not may_confirm:
                    continue
                if key in ("finished", "submitted") and may_confirm and not may_enter:
                    continue  # listed under "to confirm"
                rows.append({"match": match, "may_enter": may_enter, "may_confirm": may_confirm})
            groups[key] = rows
        archived = secretary_selectors.secretary_matches(user, archived=True)
        groups[self.ARCHIVE] = [
            {"match": match, "may_enter": False, "may_confirm": False}
            for match in secretary_selectors.latest_changed_first(archived, S.values, self.HISTORY_LIMIT)
        ]
        context["groups"] = groups
        # New dates proposed for a match, waiting for the user's answer or approval (services.moves).
        context["moves_to_decide"] = chores_selectors.moves_to_decide(user)
        context["is_anything"] = any(groups.values()) or bool(context["moves_to_decide"])
        context["history_limit"] = self.HISTORY_LIMIT
        return context


# -- the protocol page --------------------------------------------------------------------------


class ProtocolPageMixin(MatchAccessMixin):
    template_name = "scoring/secretary/protocol.html"

    def entry_form(self, data=None, *, autofocus=False) -> DealEntryForm:
        match = self.match
        return DealEntryForm(
            data,
            initial={"version": match.version},
            has_clock=match.rules.has_clock,
            autofocus=autofocus,
            rules=match.rules,
        )

    def page(self, *, form=None, problems=(), preview=None, error=None, status=200, autofocus=False):
        """The protocol page. `form` keeps what was typed; `problems` are the engine's refusals."""
        request, match = self.request, self.page_match()
        sheet = protocol_sheet(match)
        actions = permissions.match_actions(request.user, match, sheet.state)
        if form is None:
            form = self.entry_form(autofocus=autofocus)
        if preview is None and actions.enter and form.is_bound and form.is_valid():
            preview = preview_deal(match, form.entry(sheet.next_number), protocol=sheet)
        if preview is None and actions.enter and not form.is_bound:
            preview = preview_deal(match, DealEntry(sheet.next_number, SideEntry(), SideEntry()), protocol=sheet)
        placed = place_problems(
            form.fields,
            problems=problems or (preview.problems if preview and form.is_bound else ()),
            warnings=preview.warnings if preview else (),
            form_errors=form.errors if form.is_bound else None,
            deal_number=sheet.next_number,
        )
        context = {
            "match": match,
            "sheet": sheet,
            "state": sheet.state,
            "rules": match.rules,
            "actions": actions,
            "form": form,
            "preview": preview,
            # An empty deal is not "without problems": saving it is refused until something is typed.
            "nothing_typed": not form.is_bound,
            "placed": placed,
            "error": error,
            "upload_form": ProtocolUploadForm(
                initial={"version": match.version}, replaces_deals=bool(match.deal_count)
            ),
            "audit": secretary_selectors.match_audit_entries(match) if permissions.can_see_audit(request.user, match) else None,
            "check_url": reverse("scoring:match-protocol-check", args=[match.pk]),
            "planned_later": planned_later_than_today(match) if actions.enter and not match.deal_count else None,
            # What the players typed at the table that did not go onto the protocol, to settle.
            "table_conflicts": table_selectors.match_open_conflicts(match) if actions.enter else (),
        }
        return render(request, self.template_name, context, status=status)


class MatchProtocolView(ProtocolPageMixin, View):
    """GET: the protocol page. POST: record the next deal (deals_record)."""

    saves_then_redirects = True  # a POST reads less of the match; a refusal reads the rest

    def get(self, request, pk):
        return self.page(autofocus=bool(request.GET.get("saved")))

    def post(self, request, pk):
        match = self.match
        if not permissions.can_enter_protocol(request.user, match):
            raise PermissionDenied
        form = self.entry_form(request.POST)
        if not form.is_valid():
            return self.page(form=form, error=_("The deal was not saved: correct the marked fields."))
        number = match.deal_count + 1
        try:
            match = services.deals_record(
                match=match,
                user=request.user,
                entry=form.entry(number),
                expected_version=form.cleaned_data["version"],
            )
        except services.DealProblemsError as refusal:
            return self.page(form=form, problems=refusal.problems, error=refusal.message)
        except services.StaleMatchError as refusal:
            return self.refused(form, refusal)
        except services.MatchStateError as refusal:
            return self.refused(form, refusal)
        messages.success(request, _("Deal %(number)s saved.") % {"number": number})
        if match.status != S.IN_PROGRESS:
            return HttpResponseRedirect(protocol_url(match, "result"))
        return HttpResponseRedirect(f"{protocol_url(match)}?saved={number}#entry")

    def refused(self, form, refusal):
        """Someone changed the match meanwhile: show it as it is now, with the typed deal kept and
        the form carrying the current version, so saving again is a deliberate act."""
        match = self.reload_match()
        data = form.data.copy()
        data["version"] = str(match.version)
        kept = self.entry_form(data)
        return self.page(form=kept, error=refusal.message, status=STALE_STATUS)


class DealLiveCheckView(ProtocolPageMixin, View):
    """The engine's verdict on the deal being typed: the score breakdown per side, the new running
    totals, the next opening minimums and every problem by field. Never writes.

    htmx asks for the partial; without JavaScript the "Check" button posts here and gets the whole
    page (protocol or correction) with the typed values kept.
    """

    access = "enter"

    def post(self, request, pk):
        match = self.match
        correct_number = _int_or_none(request.POST.get("correct_number"))
        form_class = DealCorrectForm if correct_number else DealEntryForm
        rules = match.rules
        form = form_class(request.POST, initial={"version": match.version}, has_clock=rules.has_clock, rules=rules)
        deal_form = DealForm(request.POST, has_clock=rules.has_clock, rules=rules)
        preview = None
        if deal_form.is_valid():
            preview = preview_deal(
                match,
                deal_form.entry(correct_number or match.deal_count + 1),
                correct_number=correct_number,
            )
        if not is_htmx(request):
            if correct_number:
                return DealCorrectView.as_page(request, match, correct_number, form=form, preview=preview)
            return self.page(form=form, preview=preview)
        placed = place_problems(
            deal_form.fields,
            problems=preview.problems if preview else (),
            warnings=preview.warnings if preview else (),
            form_errors=deal_form.errors,
            deal_number=correct_number or match.deal_count + 1,
        )
        context = {
            "match": match,
            "preview": preview,
            "placed": placed,
            # Every field has its slot but the counts its canasta points came to: they have theirs.
            "slots": [(name, placed.by_field.get(name, [])) for name in deal_form.fields if name not in CANASTA_MARKS],
            "canastas": [deal_form.canastas[side] for side in SIDES],
            "oob": True,
        }
        return render(request, "scoring/secretary/_live_check.html", context)


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# -- correcting and removing deals --------------------------------------------------------------


class DealCorrectView(MatchAccessMixin, View):
    """An earlier deal, prefilled, with a required reason -> deal_correct."""

    access = "enter"
    template_name = "scoring/secretary/deal_correct.html"

    @classmethod
    def as_page(cls, request, match, number, *, form, preview=None, problems=(), error=None, status=200):
        view = cls()
        view.request = request
        view.match = match
        return view.page(number, form=form, preview=preview, problems=problems, error=error, status=status)

    def deal_or_404(self, number):
        deal = secretary_selectors.match_deal(self.match, number)
        if deal is None:
            raise Http404
        return deal

    def page(self, number, *, form, preview=None, problems=(), error=None, status=200):
        match = self.match
        deal = self.deal_or_404(number)
        sheet = protocol_sheet(match)  # read once: the preview goes on from it
        if preview is None and form.is_bound:
            # The deal is checked even when the reason is missing, so every problem shows at once.
            deal_part = DealForm(form.data, has_clock=match.rules.has_clock, rules=match.rules)
            if deal_part.is_valid():
                preview = preview_deal(match, deal_part.entry(number), correct_number=number, protocol=sheet)
        elif preview is None and not form.is_bound:
            preview = preview_deal(
                match, deal_to_entry(deal), correct_number=number, dealt_at=deal.dealt_at, protocol=sheet
            )
        placed = place_problems(
            form.fields,
            problems=problems or (preview.problems if preview and form.is_bound else ()),
            warnings=preview.warnings if preview else (),
            form_errors=form.errors if form.is_bound else None,
            deal_number=number,
        )
        context = {
            "match": match,
            "deal": deal,
            "number": number,
            "form": form,
            "preview": preview,
            "placed": placed,
            "error": error,
            "sheet": sheet,
            "state": sheet.state,
            "rules": match.rules,
            "may_correct": permissions.match_actions(self.request.user, match, sheet.state).correct,
            "check_url": reverse("scoring:match-protocol-check", args=[match.pk]),
        }
        return render(self.request, self.template_name, context, status=status)

    def form(self, data=None, number=None):
        match = self.match
        initial = {"version": match.version}
        if data is None:
            initial.update(DealForm.initial_from_deal(self.deal_or_404(number), match.started_at))
        return DealCorrectForm(data, initial=initial, has_clock=match.rules.has_clock, rules=match.rules)

    def get(self, request, pk, number):
        return self.page(number, form=self.form(number=number))

    def post(self, request, pk, number):
        match = self.match
        self.deal_or_404(number)
        form = self.form(request.POST)
        if not form.is_valid():
            return self.page(number, form=form, error=_("The correction was not saved: correct the marked fields."))
        try:
            services.deal_correct(
                match=match,
                user=request.user,
                number=number,
                entry=form.entry(number),
                reason=form.cleaned_data["reason"],
                expected_version=form.cleaned_data["version"],
            )
        except services.DealProblemsError as refusal:
            return self.page(number, form=form, problems=refusal.problems, error=refusal.message)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            data = form.data.copy()
            data["version"] = str(match.version)
            return self.page(number, form=self.form(data), error=refusal.message, status=STALE_STATUS)
        messages.success(request, _("Deal %(number)s corrected; the later totals are recomputed.") % {"number": number})
        return HttpResponseRedirect(protocol_url(match, f"deal-{number}"))


class DealDeleteLastView(MatchAccessMixin, View):
    """Remove the last deal (one typed by mistake), with a reason -> deal_delete_last."""

    access = "enter"
    template_name = "scoring/secretary/deal_delete_last.html"

    def page(self, form, *, error=None, status=200):
        match = self.match
        sheet = protocol_sheet(match)
        context = {
            "match": match,
            "form": form,
            "error": error,
            "last": sheet.rows[-1] if sheet.rows else None,
            "may_remove": permissions.match_actions(self.request.user, match, sheet.state).correct,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        return self.page(ReasonForm(initial={"version": self.match.version}))

    def post(self, request, pk):
        match = self.match
        form = ReasonForm(request.POST, initial={"version": match.version})
        if not form.is_valid():
            return self.page(form)
        number = match.deal_count
        try:
            services.deal_delete_last(
                match=match,
                user=request.user,
                reason=form.cleaned_data["reason"],
                expected_version=form.cleaned_data["version"],
            )
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            data = form.data.copy()
            data["version"] = str(match.version)
            return self.page(ReasonForm(data), error=refusal.message, status=STALE_STATUS)
        messages.success(request, _("Deal %(number)s removed.") % {"number": number})
        return HttpResponseRedirect(protocol_url(match, "entry"))


class TableConflictSetAsideView(MatchAccessMixin, View):
    """POST: the secretary has compared a conflict at the table with the protocol (and corrected
    the protocol where they differ) and sets it aside."""

    access = "enter"

    def post(self, request, pk, proposal):
        try:
            services.table_conflict_set_aside(match=self.match, user=request.user, proposal_id=proposal)
        except services.DomainError as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("The conflict at the table is set aside."))
        return HttpResponseRedirect(reverse("scoring:match-protocol", args=[self.match.pk]) + "#table-conflicts")
