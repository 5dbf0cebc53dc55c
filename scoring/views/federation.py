"""Pages above and beside a competition's table: ranking lists of players and pairs, the matches
behind a ranking row, how the rating works, the club table of an inter-club series, and the
players' table of an individual competition with its organiser's page (sign-up, the draw).
Thin: the reads are scoring.selectors.rankings, .rating, .club_standings and .individual; the writes
scoring.services.individual."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from scoring.web.converters import LARGEST_ID
from scoring.engine.rating import ESTABLISHED_AFTER, K_ESTABLISHED, K_NEW, START, expected_score
from scoring.formatting import rating_text
from scoring.forms.individual import IndividualRoundForm, SignupForm
from scoring.models import Competition
from scoring.selectors import manage as manage_selectors
from scoring.selectors import rankings as ranking_selectors
from scoring.selectors.club_standings import club_standings
from scoring.selectors.individual import individual_standings
from scoring.selectors.rankings import PAIRS, PLAYERS, RankingFilter
from scoring.services import DomainError, individual_pair_round, individual_signup
from scoring.listings import paginate_bounded
from scoring.listings_federation import ClubStandingsTable, IndividualTable, RankingMatchesTable, RankingTable

from .manage import CompetitionManagerMixin
from .public import CompetitionMixin, PublicPageMixin


RANKING_PAGE_SIZE = 100


def ranking_filter(query, seasons: list[str] | None = None) -> RankingFilter:
    """The filters of a ranking list from the query string; anything unknown means "all". `seasons`:
    the seasons a list may be chosen by, when the caller has read them already."""
    season = query.get("season") or None
    if season not in (ranking_selectors.seasons() if seasons is None else seasons):
        season = None
    try:
        club = int(query.get("club") or 0) or None
    except ValueError:
        club = None
    if club is not None and not 0 < club <= LARGEST_ID:  # beyond what the database can look up
        club = None
    kind = query.get("kind") or None
    if kind not in Competition.Kind.values:
        kind = None
    return RankingFilter(season=season, club=club, kind=kind)


class RankingsView(PublicPageMixin, TemplateView):
    """`/rankings/`: players or pairs, chosen by season, club and competition kind."""

    template_name = "scoring/federation/rankings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        seasons = ranking_selectors.seasons()
        filter = ranking_filter(self.request.GET, seasons)
        list_kind = PAIRS if self.request.GET.get("list") == PAIRS else PLAYERS
        rows = ranking_selectors.rankings(filter, list_kind)
        caption = _("Pairs") if list_kind == PAIRS else _("Players")
        table = None
        if rows:
            table = RankingTable(rows, list_kind=list_kind, filter_query=filter.as_query(), caption=caption)
            # A federation's list has a thousand players: a hundred a page.
            paginate_bounded(self.request, table, per_page=RANKING_PAGE_SIZE)
        context.update(
            filter=filter,
            list_kind=list_kind,
            seasons=seasons,
            clubs=ranking_selectors.clubs(),
            kinds=Competition.Kind.choices,
            table=table,
        )
        return context


class RankingMatchesView(PublicPageMixin, TemplateView):
    """The matches behind a row of a ranking list (a player's or a pair's), with the same filters."""

    template_name = "scoring/federation/ranking_matches.html"
    list_kind = PLAYERS

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        filter = ranking_filter(self.request.GET)
        if self.list_kind == PAIRS:
            subject = get_object_or_404(ranking_selectors.teams(), pk=kwargs["pk"])
            rows = ranking_selectors.ranking_match_rows(filter, team=subject)
        else:
            subject = get_object_or_404(ranking_selectors.players(), pk=kwargs["pk"])
            rows = ranking_selectors.ranking_match_rows(filter, player=subject)
        ranked = [r for r in ranking_selectors.rankings(filter, self.list_kind) if r.id == subject.pk]
        context.update(
            subject=subject,
            list_kind=self.list_kind,
            filter=filter,
            row=ranked[0] if ranked else None,
            rating_text=rating_text(ranked[0].rating) if ranked else None,
            kind_label=Competition.Kind(filter.kind).label if filter.kind else None,
            club_name=ranking_selectors.club_name(filter.club),
            table=RankingMatchesTable(rows, show_rating=self.list_kind == PLAYERS, caption=_("Matches")) if rows else None,
        )
        return context


class RatingExplainedView(PublicPageMixin, TemplateView):
    """"How the rating works", with a worked example computed by the engine."""

    template_name = "scoring/federation/rating_explained.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # A pair of 1600 and 1500 (mean 1550) against one of 1450 and 1450 (mean 1450).
        expected = expected_score(1550, 1450)
        context.update(
            start=int(START), k_new=K_NEW, k_established=K_ESTABLISHED, established_after=ESTABLISHED_AFTER,
            example_expected=number_format(expected, 2),
            example_win=number_format(K_NEW * (1 - expected), 1),
            example_loss=number_format(K_NEW * (0 - expected), 1),
            example_draw=number_format(K_NEW * (0.5 - expected), 1),
        )
        return context


class CompetitionClubsView(CompetitionMixin, TemplateView):
    """`/competitions/<id>/clubs/`: the club table of a competition that has one."""

    template_name = "scoring/federation/competition_clubs.html"

    def get_context_data(self, **kwargs):
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        competition = self.competition
        if not competition.has_club_standings:
            raise Http404("This competition has no club table.")
        table = ClubStandingsTable(club_standings(competition), caption=_("Club table"))
        context.update(competition=competition, table=table, order=competition.get_club_standings_order_display())
        return context


# -- individual competitions (partners rotate) -------------------------------------------------


class CompetitionPlayersView(CompetitionMixin, TemplateView):
    """`/competitions/<id>/players/`: the individual table (match points, card points, Buchholz)."""

    template_name = "scoring/federation/competition_players.html"

    def get_context_data(self, **kwargs):
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        competition = self.competition
        if competition.kind != Competition.Kind.INDIVIDUAL:
            raise Http404("Not an individual competition.")
        context.update(
            competition=competition,
            table=IndividualTable(individual_standings(competition), caption=_("Players' table")),
            rounds=manage_selectors.rounds_with_sitting_out(competition),
        )
        return context


class IndividualManageView(CompetitionManagerMixin, View):
    """The organiser's page of an individual competition: sign players up, draw the next round."""

    template_name = "scoring/federation/individual_manage.html"

    def back_url(self) -> str:
        return reverse("scoring:manage-competition", args=[self.competition.pk])

    def page(self, signup=None, pairing=None, *, error=None, status=200):
        competition = self.competition
        last = manage_selectors.last_round(competition)
        context = {
            "competition": competition,
            "signup": signup or SignupForm(competition=competition),
            "pairing": pairing or IndividualRoundForm(first_round=last is None),
            "error": error,
            "back_url": self.back_url(),
            "entrant_count": manage_selectors.entrant_count(competition),
            "waiting_signups": list(manage_selectors.waiting_signups(competition)),
            "next_round": (last.number if last else 0) + 1,
            "first_round": last is None,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        return self.page()

    def post(self, request, pk):
        competition = self.competition
        try:
            if request.POST.get("action") == "pair":
                form = IndividualRoundForm(request.POST, first_round=not manage_selectors.has_rounds(competition))
                if not form.is_valid():
                    return self.page(pairing=form, error=_("Nothing was saved: correct the marked fields."))
                data = form.cleaned_data
                round_ = individual_pair_round(competition=competition, user=request.user, on=data["date"],
                                               start_time=data["start_time"], seed=data.get("seed"))
                message = _("Round %(number)s is drawn.") % {"number": round_.number}
                if round_.repeats:
                    message += " " + _("No draw without a repeat was possible; some players partner or meet again.")
            else:
                form = SignupForm(request.POST, competition=competition)
                if not form.is_valid():
                    return self.page(signup=form, error=_("Nothing was saved: correct the marked fields."))
                individual_signup(competition=competition, players=form.cleaned_data["players"], user=request.user)
                message = _("The players are saved.")
        except DomainError as refusal:
            signup = form if isinstance(form, SignupForm) else None
            pairing = form if isinstance(form, IndividualRoundForm) else None
            return self.page(signup, pairing, error=refusal.message, status=409)
        messages.success(request, message)
        return HttpResponseRedirect(self.back_url())
