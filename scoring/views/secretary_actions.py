"""The match lifecycle on the protocol page: start, the clock ran out, walk over (or lost after
repeated warnings), postpone, void, submit, confirm or dispute, and reopen.

Each action is a small page (GET: what it does and its form; POST: the service). The protocol page
posts the actions that need nothing but a click (start, submit, confirm) straight here. A refusal
keeps what was typed: a stale version (someone changed the match meanwhile) or a state that no
longer allows the action answers 409 with the form refilled and the current version.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views import View

from scoring import notifications, permissions, services
from scoring.forms.dispute import DisputeForm
from scoring.forms.protocol import ForfeitForm, PostponeForm, ReasonForm, VersionForm

from .secretary_base import MatchAccessMixin, protocol_sheet

STALE_STATUS = 409


def tell_who_was_not_told(request, deliveries) -> None:
    """The change is saved; say whom its e-mail did not reach (notifications.delivery_report)."""
    for delivery in deliveries:
        if delivery.not_told:
            messages.warning(request, _(
                "The e-mail could not be sent to %(names)s: tell them yourself. The change is saved."
            ) % {"names": ", ".join(delivery.not_told)})
        if delivery.no_address and not delivery.told and not delivery.not_told:
            messages.info(request, _(
                "No e-mail was sent: nobody concerned has an e-mail address (%(names)s). Tell them yourself."
            ) % {"names": ", ".join(delivery.no_address)})
        elif delivery.no_address:
            messages.info(request, _(
                "%(names)s have no e-mail address and were not told by e-mail."
            ) % {"names": ", ".join(delivery.no_address)})
        elif not delivery.told and not delivery.not_told:
            messages.info(request, _("No e-mail was sent: nobody is concerned who could be told."))


class MatchActionView(MatchAccessMixin, View):
    """One lifecycle action. Subclasses name the form, the service call and the texts."""

    template_name = "scoring/secretary/match_action.html"
    form_class = VersionForm
    action = ""  # the attribute of permissions.Actions that says whether it is possible now
    title = ""
    explanation = ""
    button = ""
    done = ""
    danger = False
    access = "enter"
    # Whether the page lists the protocol's notes (selectors.protocols): the actions that hand the
    # protocol on or accept it, so nobody does so without having seen them.
    shows_notes = False

    def form_kwargs(self) -> dict:
        return {}

    def make_form(self, data=None):
        return self.form_class(data, initial={"version": self.match.version}, **self.form_kwargs())

    def perform(self, form):  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def page(self, form, *, error=None, status=200):
        match = self.match
        protocol = protocol_sheet(match)
        state = protocol.state
        context = {
            "match": match,
            "state": state,
            "shows_notes": self.shows_notes,
            "notes": protocol.notes if self.shows_notes else (),
            "form": form,
            "error": error,
            "possible": getattr(permissions.match_actions(self.request.user, match, state), self.action),
            "title": self.title,
            "explanation": self.explanation,
            "button": self.button,
            "danger": self.danger,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        return self.page(self.make_form())

    def post(self, request, pk):
        form = self.make_form(request.POST)
        if not form.is_valid():
            return self.page(form)
        try:
            with notifications.delivery_report() as deliveries:
                self.perform(form)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            data = request.POST.copy()
            data["version"] = str(self.match.version)
            return self.page(self.make_form(data), error=refusal.message, status=STALE_STATUS)
        messages.success(request, self.done)
        tell_who_was_not_told(request, deliveries)
        return HttpResponseRedirect(self.match_url())

    def match_url(self):
        from .secretary import protocol_url

        return protocol_url(self.match)

    def common(self, form) -> dict:
        return {
            "match": self.match,
            "user": self.request.user,
            "expected_version": form.cleaned_data["version"],
        }


class MatchStartView(MatchActionView):
    action = "start"
    title = _("Start the match")
    explanation = _("Marks the match as being played now. Recording the first deal starts it too.")
    button = _("Start the match")
    done = _("The match has started.")

    def perform(self, form):
        services.match_start(**self.common(form))


class MatchClockView(MatchActionView):
    action = "clock"
    title = _("The clock ran out")
    explanation = _(
        "The final signal came between deals: the match ends as it stands and the higher total wins. "
        "If the signal ended a deal in progress, record that deal with “The clock” as how it ended instead."
    )
    button = _("End the match by the clock")
    done = _("The match has ended by the clock.")
    danger = True

    def perform(self, form):
        services.match_declare_clock(**self.common(form))


class MatchForfeitView(MatchActionView):
    action = "forfeit"
    form_class = ForfeitForm
    title = _("Walk over or lost after warnings")
    explanation = _(
        "The match is decided without (more) play: the winner gets the competition's walk-over award, "
        "the other team the loser's award."
    )
    button = _("Record the result")
    done = _("The walk over is recorded.")
    danger = True

    def form_kwargs(self):
        return {"match": self.match}

    def perform(self, form):
        data = form.cleaned_data
        services.match_forfeit(
            **self.common(form),
            winner=data["winner"],
            reason=data.get("reason") or "",
            warnings=data.get("warnings") == "yes",
        )


class MatchPostponeView(MatchActionView):
    action = "postpone"
    form_class = PostponeForm
    title = _("Postpone the match")
    explanation = _("The match is not played as scheduled. Give the reason and, if known, the new time.")
    button = _("Postpone")
    done = _("The match is postponed.")

    def perform(self, form):
        data = form.cleaned_data
        services.match_postpone(**self.common(form), reason=data["reason"], new_start=data.get("new_start"))


class MatchVoidView(MatchActionView):
    action = "void"
    access = "manage-result"
    form_class = ReasonForm
    title = _("Void the match")
    explanation = _(
        "The match is closed without a result (abandoned). It counts in the standings only as the "
        "competition's rules say. It can be reopened later."
    )
    button = _("Void the match")
    done = _("The match is void.")
    danger = True

    def perform(self, form):
        services.match_void(**self.common(form), reason=form.cleaned_data["reason"])


class MatchSubmitView(MatchActionView):
    action = "submit"
    shows_notes = True
    title = _("Submit the protocol")
    explanation = _(
        "The protocol is complete. When the competition requires it, the other team's captain "
        "confirms it; until then it does not count in the standings."
    )
    button = _("Submit the protocol")
    done = _("The protocol is submitted.")

    def perform(self, form):
        services.match_submit(**self.common(form))


class MatchConfirmView(MatchActionView):
    action = "confirm"
    shows_notes = True
    title = _("Confirm the protocol")
    explanation = _(
        "You confirm, as the other team's captain, that the protocol agrees with what was played."
    )
    button = _("Confirm the protocol")
    done = _("The protocol is confirmed. Thank you!")

    def has_access(self, user) -> bool:
        return permissions.can_confirm(user, self.match)

    def perform(self, form):
        services.match_confirm(**self.common(form))


class MatchDisputeView(MatchActionView):
    action = "dispute"
    shows_notes = True
    form_class = DisputeForm
    title = _("Dispute the protocol")
    explanation = _(
        "The protocol goes back to the home team's secretary with what you write here. The "
        "secretary corrects it and submits it again, and you are asked to confirm it then. "
        "Until then the result does not count."
    )
    button = _("Send it back to the secretary")
    done = _("The protocol is sent back to the home team's secretary with your reason.")

    def has_access(self, user) -> bool:
        return permissions.can_dispute(user, self.match)

    def perform(self, form):
        services.match_dispute(**self.common(form), reason=form.cleaned_data["reason"])


class MatchReopenView(MatchActionView):
    action = "reopen"
    access = "manage-result"
    form_class = ReasonForm
    title = _("Reopen the match")
    explanation = _(
        "The match is opened for corrections; its result does not count until it is finished, "
        "submitted and confirmed again."
    )
    button = _("Reopen the match")
    done = _("The match is reopened.")
    danger = True

    def perform(self, form):
        services.match_reopen(**self.common(form), reason=form.cleaned_data["reason"])
