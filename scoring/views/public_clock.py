"""The hall clock of a timed round: a page for a screen in the playing hall, readable across the
room, counting down to the main signal (no new deal after it) and the final signal, with a visible
and an audible signal at each. A secretary starts the clock (services.round_clock_start); anyone
may watch it. The countdown runs in the browser (static/scoring/js/hall-clock.js) from the server's
start time and the server's current time, so a wrong clock on the display computer does not matter.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring import permissions
from scoring.selectors import public as public_selectors
from scoring.selectors.protocols import round_matches_with_keepers
from scoring.services import DomainError, can_start_clock, round_clock_start

from .public import PublicPageMixin

# While the clock has not been started the page looks for the start this often (seconds); once it
# runs, only seldom (a restart by the secretary).
WAITING_POLL_SECONDS = 5
RUNNING_POLL_SECONDS = 60


class HallClockMixin:
    def dispatch(self, request, *args, **kwargs):
        self.competition = public_selectors.get_visible_competition(kwargs["pk"], request.user)
        self.round = public_selectors.get_visible_round(self.competition, kwargs["number"])
        self.clock = public_selectors.hall_clock(self.round)
        if self.clock is None:
            raise Http404("This competition is played without a clock.")
        return super().dispatch(request, *args, **kwargs)


class HallClockView(HallClockMixin, PublicPageMixin, TemplateView):
    template_name = "scoring/public/hall_clock.html"
    drawn_from = None  # not kept: the page carries the server's time, from which the display counts

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        clock = self.clock
        context.update(
            competition=self.competition,
            round=self.round,
            clock=clock,
            # Milliseconds since 1970 for the browser, which counts from the server's clock.
            server_now_ms=int(timezone.now().timestamp() * 1000),
            started_ms=int(clock.started_at.timestamp() * 1000) if clock.started_at else None,
            may_start=can_start_clock(self.request.user, self.round),
            # The round at a glance and the table cards: whoever those pages let in.
            may_see_tables=permissions.can_print_blank_protocols(
                self.request.user, self.round, round_matches_with_keepers(self.round)
            ),
            clock_poll_seconds=RUNNING_POLL_SECONDS if clock.started_at else WAITING_POLL_SECONDS,
        )
        return context


class HallClockPartialView(HallClockView):
    """The clock's figures and data, for htmx to pick up a start or a restart."""

    template_name = "scoring/public/_hall_clock.html"


class HallClockStartView(LoginRequiredMixin, HallClockMixin, View):
    """POST: start (or, with restart=1, restart) the round's hall clock."""

    def post(self, request, *args, **kwargs):
        if not can_start_clock(request.user, self.round):
            raise PermissionDenied(_("You may not start the clock of this round."))
        try:
            round_clock_start(round=self.round, user=request.user, restart=request.POST.get("restart") == "1")
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The clock has started."))
        return redirect("scoring:round-clock", pk=self.competition.pk, number=self.round.number)
