"""A championship's public pages (no login): the list of championships and "Vägen till finalen",
each stage with its heats, the heats ranked together, who goes on and why, the next in line; and
each stage's qualified list as a PDF and a workbook. One read model
(selectors.championships.championship_road) serves them all."""

from __future__ import annotations

from functools import cached_property

from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.exports import Export
from scoring.selectors import championships as reads
from scoring.selectors import editions
from scoring.listings import CombinedStandingsTable, QualifiedTable, StandingsTable

from .exports import ExportView
from .public import PublicPageMixin


class ChampionshipListView(PublicPageMixin, TemplateView):
    template_name = "scoring/public/championship_list.html"
    drawn_from = editions.championships

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["championships"] = reads.championships_newest_first(self.request.user)
        return context


def stage_page(road: reads.StageRoad) -> dict:
    """What the page shows of one stage: the read model and its tables."""
    stage = road.stage
    carries = road.carries
    has_pairs = bool(road.combined)
    table = None
    if len(road.heats) > 1 and has_pairs:
        table = CombinedStandingsTable(road.combined, points_rules=road.heats[0].competition.points_rules,
                                       caption=_("All heats ranked together"))
    elif has_pairs:  # one heat: its own table
        heat = road.heats[0]
        table = StandingsTable(heat.rows, points_rules=heat.competition.points_rules, caption=heat.competition.name)
    return {
        "road": road,
        "has_pairs": has_pairs,
        "rule": reads.stage_rule_text(stage),
        "state": reads.stage_state_text(road),
        "combined": table,
        "going_on": QualifiedTable(road.going_on, carries=carries, entered=road.confirmed,
                                   caption=_("Going on to %(stage)s") % {"stage": road.next_stage.name})
        if road.sends_on and has_pairs else None,
        "next_in_line": QualifiedTable(road.next_in_line, caption=_("Next in line")) if road.next_in_line else None,
    }  # fmt: skip


class ChampionshipDetailView(PublicPageMixin, TemplateView):
    """Vägen till finalen: every stage in order, its heats, who goes on and why."""

    template_name = "scoring/public/championship_detail.html"
    drawn_from = editions.championship

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        championship = reads.get_visible_championship(kwargs["pk"], self.request.user)
        road = reads.championship_road(championship)
        context.update(championship=championship, road=road, stages=[stage_page(stage) for stage in road.stages])
        return context


class StageExportMixin:
    drawn_from = editions.stage

    def check_access(self) -> None:
        self.road  # noqa: B018 - 404 unless the visitor may see the championship

    @cached_property
    def road(self) -> reads.StageRoad:
        return reads.stage_for_documents(self.kwargs["pk"], self.request.user)


class StageQualifiedPdfView(StageExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import championships

        return championships.stage_qualified_pdf(self.road)


class StageQualifiedXlsxView(StageExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import championships

        return championships.stage_qualified_xlsx(self.road)
