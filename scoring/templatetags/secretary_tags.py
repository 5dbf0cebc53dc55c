"""Template helpers of the secretary's pages: the problems of one field, an input marked invalid,
and numbers formatted as on the public pages (5 120, −40, match points 0,5). Formatting only; the
engine computes the numbers."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.formatting import format_match_points, format_points
from scoring.selectors.protocols import is_disputed, match_status_label
from scoring.selectors.secretary import deal_changes

from .public_format import has_score, protocol_cell

register = template.Library()


@register.filter
def points(value) -> str:
    """Card points: 5 120, −40 (scoring.formatting.format_points, as the public pages)."""
    return format_points(value)


@register.filter
def match_points(value) -> str:
    """Match points: 1, 0,5 (Swedish) or 0.5 (English)."""
    return format_match_points(value)


# Whether a match has a score to show: the public pages' filter (selectors.protocols.has_score).
register.filter("has_score", has_score)
register.filter("protocol_cell", protocol_cell)


@register.filter
def status_label(match) -> str:
    """The status a match's badge shows: a protocol the other side disputed is back with the
    home secretary as finished, and says it is disputed until it is submitted again."""
    return match_status_label(match)


@register.filter
def status_key(match) -> str:
    """The badge's style: the match's status, or "disputed" (status_label)."""
    return "disputed" if is_disputed(match) else match.status


@register.simple_tag
def field_problems(placed, name: str) -> list[str]:
    """The messages for the field `name` (a protocol column such as "home_cards")."""
    if not placed:
        return []
    return placed.by_field.get(name, [])


@register.simple_tag
def invalid_widget(field):
    """The field's input with aria-invalid, for screen readers and the error styling."""
    return field.as_widget(attrs={"aria-invalid": "true"})


# -- the protocol's columns (scoring.protocol_layout) ---------------------------------------------


@register.simple_tag
def protocol_columns(rules):
    """A side's columns of the protocol under `rules`, in the paper's order."""
    from scoring.protocol_layout import paper_columns

    return paper_columns(rules)


@register.simple_tag
def side_entry_fields(form, side: str):
    """The entry form's fields of one side, in the paper's order (scoring.protocol_layout)."""
    from scoring.protocol_layout import entry_field_names

    return [form[name] for name in entry_field_names(side) if name in form.fields]


@register.simple_tag
def canasta_points(form, side: str) -> dict:
    """A side's canasta points field and what the points came to (forms.protocol.CanastaPoints)."""
    return {"field": form[f"{side}_canasta_points"], "state": form.canastas[side]}


@register.filter
def paper_cell(side, key: str):
    """One side's value in the column `key` of a deal row (selectors.protocols.ProtocolSide), the
    same on the screen and the printed protocol: counts as typed, going out as its bonus and the
    penalty as the deduction the engine makes (docs/rules.md, "Scoring one deal"), the engine's
    numbers for the rest."""
    if key == "min":
        return side.min_before
    if key == "out":
        return side.breakdown.going_out
    if key == "penalty":
        return side.breakdown.penalties
    return getattr(side, key)


# What a correction of a deal changed, field by field (the log on the protocol page).
register.filter("deal_changes", deal_changes)


@register.simple_tag
def protocol_side_cells(side, columns):
    """One side's cells of a deal row of the public protocol (scoring/public/_match_live.html), in
    the columns of the paper protocol: drawn in one pass, not through an {% if %} per cell. The
    minimum starts the away side's half; a count or a bonus the paper leaves empty when there is
    none stays empty (paper_cell), card points are always written."""
    cells = []
    for column in columns:
        key = column.key
        if key == "min":
            start = " protocol__side-start" if side.side == "away" else ""
            cells.append(format_html('<td class="num protocol__min{}">{}</td>', start, format_points(side.min_before)))
        elif key == "score":
            cells.append(format_html('<td class="num protocol__score">{}</td>', format_points(side.score)))
        elif key == "total":
            cells.append(format_html('<td class="num protocol__total" data-side="{}">{}</td>', side.side,
                                     format_points(side.total)))  # fmt: skip
        else:
            value = paper_cell(side, key)
            shown = format_points(value) if key == "cards" or value else ""
            cells.append(format_html('<td class="num protocol__detail">{}</td>', shown))
    return mark_safe("".join(cells))  # noqa: S308 (each cell made by format_html)


@register.filter
def change_value(value) -> str:
    """A logged value as the protocol page shows it: 5 120, −40, yes/no, a time, or a dash for
    nothing written."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return format_points(value)
    if isinstance(value, datetime):
        return date_format(timezone.localtime(value), "H:i")
    return str(value)
