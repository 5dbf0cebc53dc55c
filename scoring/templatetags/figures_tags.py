"""The Canasta figures' parts of the pages (templates/scoring/public/_figures.html and
_competition_figures.html): a figure as read, a score band's name, and the two charts, canastas per
deal over the season and the spread of the deal scores.

The figures are read by the page's view (scoring.selectors.figures) and handed in; a tag reads
nothing from the database. The charts are drawn by scoring.charts.svg; the templates give their
numbers as a table beside them.
"""

from __future__ import annotations

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from scoring.charts.svg import Chart, bar_chart, line_chart
from scoring.formatting import figure_text, format_decimal, format_number

register = template.Library()


@register.filter
def figure(value, kind: str) -> str:
    """{{ line.own|figure:line.figure.kind }}: 1,25 · 42 % · 1 230 · –"""
    return figure_text(value, kind)


@register.filter
def band_name(band) -> str:
    """A band of deal scores in words: "below 0", "500 to 995", "3 000 and more" (every score is
    a multiple of 5)."""
    if band.low is None:
        return _("below %(high)s") % {"high": format_number(band.high)}
    if band.high is None:
        return _("%(low)s and more") % {"low": format_number(band.low)}
    return _("%(low)s to %(high)s") % {"low": format_number(band.low), "high": format_number(band.high - 5)}


@register.simple_tag
def figure_rows(lines, field_heading=None) -> str:
    """The body rows of a table of figures (templates/scoring/figures/_figures_table.html): a row
    per FigureLine, and the field's value beside the subject's where the table has a column for it
    (`field_heading`). Drawn in one pass, as the site's other tables are (templatetags/listing_rows.py):
    thirteen rows a season, each cell's lookups and filter once."""
    rows = []
    for line in lines:
        figure = line.figure
        own = figure_text(line.own, figure.kind)
        if not field_heading:
            rows.append(format_html(ROW, figure.key, figure.label, own))
        else:
            field = figure_text(line.field, figure.kind) if figure.compared else ""
            rows.append(format_html(COMPARED_ROW, figure.key, figure.label, own, field))
    return format_html_join("\n", "{}", ((row,) for row in rows))


ROW = '<tr data-figure="{}"><th scope="row">{}</th><td class="num figures-table__own">{}</td></tr>'
COMPARED_ROW = ROW.replace("</tr>", '<td class="num">{}</td></tr>')


@register.simple_tag
def band_rows(bands, field_heading=None) -> str:
    """The body rows of the spread chart's numbers (templates/scoring/figures/_bands_table.html),
    in one pass: a band's name, its deals, their share and, where the table has a column for it
    (`field_heading`), the field's share."""
    rows = []
    for band in bands:
        cells = [band_name(band), band.deals, figure_text(band.share, "share")]
        if field_heading:
            cells.append(figure_text(band.field_share, "share"))
        rows.append(format_html(BAND_ROW if field_heading else BAND_ROW_ALONE, *cells))
    return format_html_join("\n", "{}", ((row,) for row in rows))


BAND_ROW_ALONE = (
    '<tr><th scope="row">{}</th><td class="num col-secondary">{}</td><td class="num figures-table__own">{}</td></tr>'
)
BAND_ROW = BAND_ROW_ALONE.replace("</tr>", '<td class="num">{}</td></tr>')


def _band_label(band) -> str:
    """A bar's short label: where its band starts ("<0" for the scores below 0)."""
    return "<0" if band.low is None else str(band.low)


@register.simple_tag
def canastas_chart(points, name: str, kind: str, pk: int, by: str = "month"):
    """Canastas (natural and mixed) per deal over the season: `points` are the selector's
    MonthFigures (`by` "month") or RoundFigures ("round"); None for fewer than two."""
    if by == "month":
        labels = [date_format(point.month, "b") for point in points]
        values = [point.own.canastas_per_deal for point in points]
        x_label = _("Month")
    else:
        labels = [str(point.number) for point in points]
        values = [point.figures.canastas_per_deal for point in points]
        x_label = _("Round")
    known = [value for value in values if value is not None]
    if len(known) < 2:
        return None
    return line_chart(
        Chart(
            title=_("Canastas per deal of %(name)s over the season") % {"name": name},
            description=(
                _("From %(first)s in the first month to %(last)s in the latest; lowest %(low)s, highest %(high)s.")
                if by == "month"
                else _("From %(first)s in the first round to %(last)s in the latest; lowest %(low)s, highest %(high)s.")
            ) % {
                "first": figure_text(known[0], "ratio"), "last": figure_text(known[-1], "ratio"),
                "low": figure_text(min(known), "ratio"), "high": figure_text(max(known), "ratio"),
            },
            x_label=x_label,
            y_label=_("Canastas per deal"),
            labels=labels,
            values=values,
            y_min=0,
            value_text=lambda value: format_decimal(value, 1),
            ident=f"canastas-{kind}-{pk}",
        )
    )


@register.simple_tag
def spread_chart(bands, name: str, kind: str, pk: int):
    """How the deal scores spread: the share of the deals in each band of scores, as bars."""
    if not sum(band.deals for band in bands):
        return None
    shares = [100 * (band.share or 0) for band in bands]
    widest = max(range(len(bands)), key=lambda index: shares[index])
    return bar_chart(
        Chart(
            title=_("How the deal scores of %(name)s spread") % {"name": name},
            description=_("The share of the deals in each band of deal scores; most often %(band)s (%(share)s).") % {
                "band": band_name(bands[widest]), "share": figure_text(bands[widest].share, "share"),
            },
            x_label=_("Deal score, from"),
            y_label=_("Share of deals, %"),
            labels=[_band_label(band) for band in bands],
            values=shares,
            value_format="{:.0f}",
            centred_labels=True,
            ident=f"spread-{kind}-{pk}",
        )
    )
