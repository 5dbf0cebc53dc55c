"""Setting up a league: a club secretary manages their club's players and teams, the competitions
the club organises, their rounds and matches (added by hand; generated schedules come from the
schedule tools, included on the competition page). Site admins manage everything.

Anonymous users go to the login page; a signed-in user without the right gets 403. Forms validate,
the services in scoring.services.manage check rights again and write.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring import permissions, services
from scoring.forms.manage import CompetitionForm, MatchForm, PlayerForm, RoundForm, TeamForm
from scoring.models import Club, Competition, Invitation, Match, Player, Round, Team
from scoring.selectors import chores as chores_selectors, manage as manage_selectors
from scoring.selectors.manage import club_invitations
from scoring.selectors.merging import merge_archive
from scoring.selectors import championships as championship_selectors

CONFLICT = 409


class ManageHomeView(LoginRequiredMixin, TemplateView):
    """The clubs and competitions the user manages."""

    template_name = "scoring/manage/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["clubs"] = manage_selectors.managed_clubs_with_counts(user)
        context["competitions"] = manage_selectors.managed_competitions_with_counts(user)
        context["waiting_invitations"] = manage_selectors.waiting_invitation_count(user)
        context["championships"] = championship_selectors.managed_championships(user)
        return context


class ClubManageView(LoginRequiredMixin, TemplateView):
    template_name = "scoring/manage/club.html"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = get_object_or_404(manage_selectors.clubs(), pk=kwargs["pk"])
        if not permissions.can_manage_club(request.user, self.club):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        club = self.club
        context["club"] = club
        context["players"] = manage_selectors.club_players(club)
        context["teams"] = manage_selectors.club_teams(club)
        context["competitions"] = manage_selectors.club_competitions_with_counts(club)
        return context


class ManageFormView(LoginRequiredMixin, View):
    """A create or edit page: load the owner (club or competition) and the object, check the right,
    validate the form, save through a service; a refusal is shown above the form, input kept."""

    template_name = "scoring/manage/form.html"
    form_class = None
    title = ""
    # Selectors (scoring.selectors.manage) of the rows named by `pk`: editing reads the object,
    # creating reads its owner (a club or a competition).
    object_rows = None
    owner_rows = None

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if self.object_rows is not None:
            self.object = get_object_or_404(self.object_rows(), pk=kwargs["pk"])
            self.owner = self.owner_of(self.object)
        else:
            self.object = None
            self.owner = get_object_or_404(self.owner_rows(), pk=kwargs["pk"])
        if not self.allowed(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def owner_of(self, obj):
        raise NotImplementedError

    def allowed(self, user) -> bool:
        if isinstance(self.owner, Club):
            return permissions.can_manage_club(user, self.owner)
        return permissions.can_manage_competition(user, self.owner)

    def form_kwargs(self) -> dict:
        return {}

    def make_form(self, data=None):
        kwargs = self.form_kwargs()
        instance = self.object if self.object is not None else self.new_instance()
        if instance is not None:
            kwargs["instance"] = instance
        return self.form_class(data, **kwargs)

    def new_instance(self):
        return None

    def back_url(self) -> str:
        if isinstance(self.owner, Club):
            return reverse("scoring:manage-club", args=[self.owner.pk])
        return reverse("scoring:manage-competition", args=[self.owner.pk])

    def get_title(self) -> str:
        return str(self.title)

    def page(self, form, *, error=None, status=200):
        context = {
            "form": form,
            "title": self.get_title(),
            "owner": self.owner,
            "object": self.object,
            "error": error,
            "closed": self.archive_refusal(),
            "back_url": self.back_url(),
            "delete_url": self.delete_url(),
            "merge_url": self.merge_url(),
        }
        return render(self.request, self.template_name, context, status=status)

    def archive_refusal(self) -> str | None:
        """Why nothing can be saved here: the competition (the owner, or the round's or match's) is
        an archive of a closed season. The page says so instead of offering to save, and a post is
        refused with it before its form is checked, so the secretary is told of the closed season,
        not of fields to correct."""
        if isinstance(self.owner, Competition):
            return services.archive_refusal([self.owner])
        return None

    def delete_url(self) -> str | None:
        """Where a player, team, round or match is deleted (or archived), from its edit page."""
        names = {Player: "manage-player-delete", Team: "manage-team-delete", Round: "manage-round-delete",
                 Match: "manage-match-delete"}  # fmt: skip
        name = names.get(type(self.object))
        return reverse(f"scoring:{name}", args=[self.object.pk]) if name else None

    def merge_url(self) -> str | None:
        """Where a player or team entered twice is merged into its other row, from its edit page;
        none for one in a closed season's archive, which no merge may change (merge_archive)."""
        names = {Player: "manage-player-merge", Team: "manage-team-merge"}
        name = names.get(type(self.object))
        if name is None or merge_archive(self.object) is not None:
            return None
        return reverse(f"scoring:{name}", args=[self.object.pk])

    def get(self, request, pk):
        return self.page(self.make_form())

    def post(self, request, pk):
        refusal = self.archive_refusal()
        if refusal:
            return self.page(self.make_form(), error=refusal, status=CONFLICT)
        form = self.make_form(request.POST)
        if not form.is_valid():
            return self.page(form, error=_("Nothing was saved: correct the marked fields."))
        try:
            saved = self.save(form)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            return self.page(form, error=refusal.message, status=CONFLICT)
        except services.DomainError as refusal:
            return self.page(form, error=refusal.message, status=CONFLICT)
        messages.success(request, _("Saved: %(name)s.") % {"name": saved})
        return HttpResponseRedirect(self.success_url(saved))

    def save(self, form):
        raise NotImplementedError

    def success_url(self, saved) -> str:
        return self.back_url()


# -- players and teams --------------------------------------------------------------------------


class PlayerCreateView(ManageFormView):
    owner_rows = staticmethod(manage_selectors.clubs)
    form_class = PlayerForm

    def get_title(self):
        return _("New player of %(club)s") % {"club": self.owner}

    def form_kwargs(self):
        return {"club": self.owner}

    def new_instance(self):
        return Player(club=self.owner)

    def save(self, form):
        return services.player_save(user=self.request.user, player=form.save(commit=False))


class PlayerUpdateView(PlayerCreateView):
    object_rows = staticmethod(manage_selectors.players)

    def owner_of(self, obj):
        return obj.club

    def get_title(self):
        return _("Player: %(name)s") % {"name": self.object}


class TeamCreateView(ManageFormView):
    owner_rows = staticmethod(manage_selectors.clubs)
    form_class = TeamForm

    def get_title(self):
        return _("New team of %(club)s") % {"club": self.owner}

    def form_kwargs(self):
        return {"club": self.owner}

    def new_instance(self):
        return Team(club=self.owner)

    def save(self, form):
        return services.team_save(user=self.request.user, team=form.save(commit=False),
                                  reserves=form.cleaned_data["reserves"])


class TeamUpdateView(TeamCreateView):
    object_rows = staticmethod(manage_selectors.teams)

    def owner_of(self, obj):
        return obj.club

    def get_title(self):
        return _("Team: %(name)s") % {"name": self.object}


# -- competitions -------------------------------------------------------------------------------


class CompetitionCreateView(ManageFormView):
    owner_rows = staticmethod(manage_selectors.clubs)
    form_class = CompetitionForm

    def get_title(self):
        return _("New competition organised by %(club)s") % {"club": self.owner}

    def new_instance(self):
        return Competition(organiser=self.owner)

    def save(self, form):
        competition = form.save(commit=False)
        return services.competition_save(
            user=self.request.user, competition=competition, teams=form.cleaned_data["teams"]
        )

    def success_url(self, saved):
        return reverse("scoring:manage-competition", args=[saved.pk])


class CompetitionUpdateView(CompetitionCreateView):
    object_rows = staticmethod(manage_selectors.competitions)

    def owner_of(self, obj):
        return obj

    def get_title(self):
        return _("Edit: %(name)s") % {"name": self.object}


class CompetitionManagerMixin(LoginRequiredMixin):
    """Loads the competition named by `pk` for its organiser's secretaries and admins; others get
    the login page (anonymous) or 403."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.competition = get_object_or_404(manage_selectors.competitions_with_organiser(), pk=kwargs["pk"])
        if not permissions.can_manage_competition(request.user, self.competition):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class CompetitionManageView(CompetitionManagerMixin, TemplateView):
    """A competition as its organiser sees it: teams, rounds with their matches, and the tools."""

    template_name = "scoring/manage/competition.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        competition = self.competition
        context["competition"] = competition
        context["teams"] = manage_selectors.competition_teams(competition)
        context["rounds"] = rounds = manage_selectors.competition_rounds_with_matches(competition)
        # The round at a glance and its table cards, linked under each round for whoever those
        # pages let in (the check of scoring.views.table_manage.RoundAccessMixin).
        context["rounds_with_tables"] = manage_selectors.rounds_with_tables(self.request.user, rounds)
        context["loose_matches"] = manage_selectors.matches_without_round(competition)
        context["rules"] = competition.rules
        context["invitations"] = manage_selectors.open_invitations(competition)
        context["schedule"] = manage_selectors.schedule_state(competition)
        # The season's chores: what is overdue for a reminder, and the moves still to be decided.
        context["overdue"] = chores_selectors.overdue_matches(timezone.now(), competition)
        context["open_moves"] = chores_selectors.competition_open_moves(competition)
        return context


# -- rounds and matches -------------------------------------------------------------------------


class RoundCreateView(ManageFormView):
    owner_rows = staticmethod(manage_selectors.competitions)
    form_class = RoundForm

    def get_title(self):
        return _("New round of %(competition)s") % {"competition": self.owner}

    def form_kwargs(self):
        return {"competition": self.owner}

    def new_instance(self):
        last = manage_selectors.last_round(self.owner)
        return Round(competition=self.owner, number=(last.number + 1) if last else 1)

    def make_form(self, data=None):
        form = super().make_form(data)
        if data is None and self.object is None:
            form.initial["number"] = form.instance.number
        return form

    def save(self, form):
        return services.round_save(user=self.request.user, round=form.save(commit=False))


class RoundUpdateView(RoundCreateView):
    object_rows = staticmethod(manage_selectors.rounds)

    def owner_of(self, obj):
        return obj.competition

    def get_title(self):
        return _("Round %(number)s of %(competition)s") % {"number": self.object.number, "competition": self.owner}


class MatchCreateView(ManageFormView):
    owner_rows = staticmethod(manage_selectors.competitions)
    form_class = MatchForm

    def get_title(self):
        return _("New match in %(competition)s") % {"competition": self.owner}

    def make_form(self, data=None):
        form = self.form_class(data, competition=self.owner, match=self.object)
        if data is None and self.object is None and self.request.GET.get("round"):
            form.initial["round"] = self.request.GET["round"]
        return form

    def save(self, form):
        data = form.cleaned_data
        return services.match_create(
            user=self.request.user,
            competition=self.owner,
            round=data.get("round"),
            table=data.get("table"),
            home_team=data["home_team"],
            away_team=data["away_team"],
            scheduled_start=data.get("scheduled_start"),
        )


class MatchUpdateView(MatchCreateView):
    object_rows = staticmethod(manage_selectors.matches)

    def owner_of(self, obj):
        return obj.competition

    def get_title(self):
        return _("Match: %(match)s") % {"match": self.object}

    def save(self, form):
        data = form.cleaned_data
        return services.match_schedule_update(
            user=self.request.user,
            match=self.object,
            expected_version=data.get("version"),
            round=data.get("round"),
            table=data.get("table"),
            home_team=data["home_team"],
            away_team=data["away_team"],
            scheduled_start=data.get("scheduled_start"),
        )


__all__ = [
    "ClubManageView",
    "CompetitionCreateView",
    "CompetitionManageView",
    "CompetitionUpdateView",
    "ManageHomeView",
    "MatchCreateView",
    "MatchUpdateView",
    "PlayerCreateView",
    "PlayerUpdateView",
    "RoundCreateView",
    "RoundUpdateView",
    "TeamCreateView",
    "TeamUpdateView",
]


# -- invitations: another club's competition asks for one of the club's teams ---------------------


class InvitationListView(LoginRequiredMixin, View):
    """The invitations of the user's clubs' teams: accept or decline the waiting ones."""

    template_name = "scoring/manage/invitations.html"

    def page(self, request, *, error=None, status=200):
        invitations = list(club_invitations(request.user)[:200])
        pending = [i for i in invitations if i.status == Invitation.Status.PENDING]
        answered = [i for i in invitations if i.status != Invitation.Status.PENDING]
        # Club nights asking for the club's players (an individual competition's sign-up).
        players = list(manage_selectors.club_signup_invitations(request.user)[:200])
        context = {
            "pending": pending, "answered": answered, "error": error,
            "pending_players": [i for i in players if i.status == Invitation.Status.PENDING],
            "answered_players": [i for i in players if i.status != Invitation.Status.PENDING],
        }
        return render(request, self.template_name, context, status=status)

    def get(self, request):
        return self.page(request)

    def post(self, request):
        answer = request.POST.get("answer")
        raw = request.POST.get("invitation", "")
        if answer not in ("accept", "decline") or not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
            return self.page(request, error=_("Choose to accept or decline an invitation."), status=400)
        if request.POST.get("kind") == "player":
            return self.answer_for_player(request, int(raw), accept=answer == "accept")
        invitation = get_object_or_404(manage_selectors.invitations(), pk=int(raw))
        if not permissions.can_manage_club(request.user, invitation.team.club):
            raise PermissionDenied
        try:
            invitation = services.invitation_answer(user=request.user, invitation=invitation, accept=answer == "accept")
        except services.DomainError as refusal:
            return self.page(request, error=refusal.message, status=CONFLICT)
        names = {"team": invitation.team.name, "competition": str(invitation.competition)}
        if invitation.status == Invitation.Status.ACCEPTED:
            messages.success(request, _("%(team)s now takes part in %(competition)s.") % names)
        else:
            messages.success(request, _("You declined: %(team)s does not take part in %(competition)s.") % names)
        return HttpResponseRedirect(reverse("scoring:manage-invitations"))

    def answer_for_player(self, request, pk: int, *, accept: bool):
        invitation = get_object_or_404(manage_selectors.signup_invitations(), pk=pk)
        if not permissions.can_manage_club(request.user, invitation.player.club):
            raise PermissionDenied
        try:
            invitation = services.signup_invitation_answer(user=request.user, invitation=invitation, accept=accept)
        except services.DomainError as refusal:
            return self.page(request, error=refusal.message, status=CONFLICT)
        names = {"player": invitation.player.name, "competition": str(invitation.competition)}
        if invitation.status == Invitation.Status.ACCEPTED:
            messages.success(request, _("%(player)s is now signed up for %(competition)s.") % names)
        else:
            messages.success(request, _("You declined: %(player)s is not signed up for %(competition)s.") % names)
        return HttpResponseRedirect(reverse("scoring:manage-invitations"))
