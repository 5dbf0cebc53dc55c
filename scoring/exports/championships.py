"""A championship stage's qualified list as a PDF (WeasyPrint, as the other documents) and a
workbook (openpyxl): the same read model as the championship page (selectors.championships
.stage_road), who goes on and why, the next in line, the pairs that withdrew."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.formatting import file_name, format_match_points, format_points, iso_date
from scoring.selectors.championships import StageRoad, stage_rule_text, stage_state_text

from . import PDF, XLSX, Export


def _carries(road: StageRoad) -> bool:
    return bool(road.stage.carry_points_percent or road.stage.carry_cards_percent)


def qualified_rows(road: StageRoad) -> list[list[Any]]:
    """The list as rows: a header, then one row per pair going on (plain numbers)."""
    header = [_("No."), _("Pair"), _("Heat"), _("Place in the heat"), _("Why")]
    if _carries(road):
        header += [_("Match points carried"), _("Card points for carried"), _("Card points against carried")]
    if road.confirmed:
        header.append(_("Entered in"))
    rows = [header]
    for line in road.going_on:
        row = [line.order, line.team, line.heat.name, line.heat_rank_label, line.reason]
        if _carries(road):
            row += [float(line.carried.points), line.carried.card_points_for, line.carried.card_points_against]
        if road.confirmed:
            row.append(line.entered.name if line.entered else "")
        rows.append(row)
    return rows


def next_in_line_rows(road: StageRoad) -> list[list[Any]]:
    rows = [[_("No."), _("Pair"), _("Heat"), _("Place in the heat")]]
    rows += [[line.order, line.team, line.heat.name, line.heat_rank_label] for line in road.next_in_line]
    return rows


def _title(road: StageRoad) -> str:
    championship = road.stage.championship
    return _("Qualified from %(stage)s, %(championship)s") % {"stage": road.stage.name, "championship": championship}


def _file_name(road: StageRoad, extension: str) -> str:
    championship = road.stage.championship
    return file_name(_("qualified"), championship.name, championship.season, road.stage.name, extension=extension)


def stage_qualified_pdf(road: StageRoad) -> Export:
    from .pdf import html_to_pdf, render_html

    stage = road.stage
    html = render_html("scoring/pdf/stage_qualified.html", {
        "document_title": _title(road), "author": stage.championship.organiser.name, "road": road,
        "championship": stage.championship, "stage": stage, "rule": stage_rule_text(stage),
        "state": stage_state_text(road), "carries_points": road.carries[0], "carries_cards": road.carries[1],
        "confirmed_on": iso_date(stage.confirmed_at) if stage.confirmed_at else "",
        "lines": [
            {"line": line, "points": format_match_points(line.carried.points),
             "card_for": format_points(line.carried.card_points_for),
             "card_against": format_points(line.carried.card_points_against)}
            for line in road.going_on
        ],
    })  # fmt: skip
    return Export(_file_name(road, "pdf"), PDF, html_to_pdf(html))


def stage_qualified_xlsx(road: StageRoad) -> Export:
    from .xlsx import new_workbook, save, write_sheet

    stage = road.stage
    heading = [
        [_title(road)],
        [stage_rule_text(stage)],
        [stage_state_text(road)],
        [_("Organiser"), stage.championship.organiser.name],
        [_("Printed"), iso_date(timezone.now())],
        [],
    ]
    workbook = new_workbook()
    write_sheet(workbook, _("Qualified"), qualified_rows(road), heading=heading)
    if road.next_in_line:
        write_sheet(workbook, _("Next in line"), next_in_line_rows(road))
    return Export(_file_name(road, "xlsx"), XLSX, save(workbook))
