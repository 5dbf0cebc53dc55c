"""The records pages of the federation, a competition and a club (`/records/`,
`/competitions/<pk>/records/`, `/clubs/<pk>/records/`); a competition's also has every pair's
Canasta figures beside the competition's. Public, no login. Thin: the reads are
scoring.selectors.records and scoring.selectors.figures; the figures sections of the player, pair,
club and competition pages are read by those pages' views (scoring.views.public)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.selectors import figures as figures_selectors
from scoring.selectors import public as public_selectors
from scoring.selectors import records as records_selectors
from scoring.selectors import editions
from scoring.listings import paginate_bounded
from scoring.listings_federation import RecordsTable, TeamFiguresTable

from .public import PublicPageMixin

# A national competition has hundreds of pairs: a hundred a page.
PAIRS_PAGE_SIZE = 100


class RecordsPageMixin(PublicPageMixin):
    template_name = "scoring/figures/records.html"

    def records_context(self, records, *, title: str, scope: str) -> dict:
        return {
            "title": title,
            "scope": scope,
            "records": RecordsTable(records, caption=_("Records")) if records else None,
        }


class FederationRecordsView(RecordsPageMixin, TemplateView):
    """The records of every public competition."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.records_context(
            records_selectors.federation_records(), title=_("The federation's records"), scope="federation",
        ))  # fmt: skip
        return context


class ClubRecordsView(RecordsPageMixin, TemplateView):
    """The records of a club's pairs, in public competitions."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        club = get_object_or_404(public_selectors.clubs(), pk=kwargs["pk"])
        context["club"] = club
        context.update(self.records_context(
            records_selectors.club_records(club), title=_("Records of %(club)s") % {"club": club.name}, scope="club",
        ))  # fmt: skip
        return context


class CompetitionRecordsView(RecordsPageMixin, TemplateView):
    """A competition's records and every pair's figures beside the whole competition's."""

    drawn_from = editions.competition

    def dispatch(self, request, *args, **kwargs):
        self.competition = public_selectors.get_visible_competition(kwargs["pk"], request.user)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        competition = self.competition
        title = _("Records and figures of %(competition)s") % {"competition": f"{competition.name} {competition.season}"}
        context.update(competition=competition, **self.records_context(
            records_selectors.competition_records(competition), title=title, scope="competition",
        ))  # fmt: skip
        figures = figures_selectors.competition_figures(competition, teams=True)
        if figures.has_deals:
            whole = figures_selectors.TeamFigures(team_id=None, name=_("The whole competition"), figures=figures.total)
            pairs = TeamFiguresTable([whole, *figures.teams], caption=_("Every pair's figures"))
            paginate_bounded(self.request, pairs, per_page=PAIRS_PAGE_SIZE)
            context["pairs"] = pairs
        context["figure_definitions"] = figures.definitions
        return context
