"""Schedule tools for a competition's organiser: generate a league schedule (Berger tables), pair
the next round of a tournament (Monrad), import a fixture list (CSV).

Reached from the competition's manage page (templates/scoring/manage/_schedule_tools.html). Anonymous
users go to the login page; a signed-in user who may not manage the competition gets 403. The
services (scoring.services.schedules) check the right again and write; a refusal is shown above the
form with what was typed kept (409 when the competition's state forbids it, e.g. matches played).
"""

from __future__ import annotations

import random

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy, ngettext
from django.views import View

from scoring.forms.schedules import FixtureImportForm, LeagueScheduleForm, PairRoundForm
from scoring.selectors import manage as manage_selectors
from scoring.services import (
    FixtureImportError,
    ScheduleError,
    archive_refusal,
    fixtures_import,
    schedule_generate_league,
    schedule_pair_next_round,
)

from .manage import CompetitionManagerMixin

CONFLICT = 409


class CompetitionScheduleView(CompetitionManagerMixin, View):
    """A form page about one competition's schedule; `act(form)` calls the service."""

    template_name = "scoring/schedules/form.html"
    form_class = None
    title = ""
    intro = ""  # which explanation the template shows: "generate", "pair" or "import"
    submit_label = gettext_lazy("Save")

    def back_url(self) -> str:
        return reverse("scoring:manage-competition", args=[self.competition.pk])

    def page(self, form, *, error=None, problems=(), status=200):
        competition = self.competition
        context = {
            "competition": competition,
            "form": form,
            "title": self.title,
            "intro": self.intro,
            "submit_label": self.submit_label,
            "error": error,
            "problems": problems,
            # A closed season's competition: said instead of offering to write its schedule.
            "closed": archive_refusal([competition]),
            "back_url": self.back_url(),
            "match_count": manage_selectors.match_count(competition),
            "has_play": manage_selectors.competition_has_play(competition),
            "team_count": manage_selectors.team_count(competition),
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        return self.page(self.form_class())

    def post(self, request, pk):
        refusal = archive_refusal([self.competition])
        if refusal:
            # Before the form is checked: the page names the closed season, not fields to correct.
            return self.page(self.form_class(), error=refusal, status=CONFLICT)
        form = self.form_class(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form, error=_("Nothing was saved: correct the marked fields."))
        try:
            message = self.act(form)
        except FixtureImportError as refusal:
            return self.page(form, error=refusal.message, problems=refusal.problems)
        except ScheduleError as refusal:
            return self.page(form, error=refusal.message, status=CONFLICT)
        messages.success(request, message)
        return HttpResponseRedirect(self.back_url())

    def act(self, form) -> str:
        raise NotImplementedError


class ScheduleGenerateView(CompetitionScheduleView):
    form_class = LeagueScheduleForm
    title = gettext_lazy("Generate the league schedule")
    intro = "generate"
    submit_label = gettext_lazy("Generate the schedule")

    def act(self, form) -> str:
        data = form.cleaned_data
        rounds = schedule_generate_league(
            competition=self.competition,
            user=self.request.user,
            start_date=data["start_date"],
            interval_days=data["interval_days"],
            double=data["series"] == LeagueScheduleForm.DOUBLE,
            start_time=data["start_time"],
            seed=random.SystemRandom().randrange(1 << 30) if data["draw"] else None,
        )
        matches = manage_selectors.match_count(self.competition)
        return _("The schedule is ready: %(size)s.") % {"size": rounds_and_matches(len(rounds), matches)}


def rounds_and_matches(rounds: int, matches: int) -> str:
    """"1 round with 2 matches", each number with its own singular or plural."""
    return _("%(rounds)s with %(matches)s") % {
        "rounds": ngettext("%(count)s round", "%(count)s rounds", rounds) % {"count": rounds},
        "matches": ngettext("%(count)s match", "%(count)s matches", matches) % {"count": matches},
    }


class SchedulePairRoundView(CompetitionScheduleView):
    form_class = PairRoundForm
    title = gettext_lazy("Pair the next round")
    intro = "pair"
    submit_label = gettext_lazy("Pair the round")

    def act(self, form) -> str:
        first = not manage_selectors.has_rounds(self.competition)
        round_ = schedule_pair_next_round(
            competition=self.competition,
            user=self.request.user,
            on=form.cleaned_data["date"],
            start_time=form.cleaned_data["start_time"],
            seed=random.SystemRandom().randrange(1 << 30) if first else None,
        )
        message = _("Round %(number)s is paired.") % {"number": round_.number}
        bye = manage_selectors.round_bye(round_)
        if bye is not None:
            message += " " + _("%(team)s has a bye.") % {"team": bye.team}
        if getattr(round_, "rematches", 0):
            message += " " + _("No pairing without a rematch was possible; some teams meet again.")
        return message


class FixturesImportView(CompetitionScheduleView):
    form_class = FixtureImportForm
    title = gettext_lazy("Import a fixture list")
    intro = "import"
    submit_label = gettext_lazy("Import")

    def act(self, form) -> str:
        rounds = fixtures_import(
            competition=self.competition, user=self.request.user, data=form.cleaned_data["file"].read()
        )
        matches = manage_selectors.match_count(self.competition)
        return _("The fixture list is imported: %(size)s.") % {"size": rounds_and_matches(len(rounds), matches)}
