"""PDF documents (WeasyPrint): the official protocol of a match, blank protocols for a round, the
standings (tabell) and a round's results.

Each document is a Django template under templates/scoring/pdf/ laid out by the print stylesheet
static/scoring/css/pdf.css (found through the static files finders): A4, DejaVu Sans embedded,
"Sida 1 av 2" in the page margins. Rendering fetches nothing over the network: the fetcher accepts
only file: and data: addresses, the QR code is an inline SVG data URI, fonts are the system's.

Every function returns an Export (filename, content_type, bytes).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import segno
import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from weasyprint.urls import URLFetcher

from scoring import selectors
from scoring.formatting import file_name, iso_date
from scoring.models import Competition, Match, Round
from scoring.selectors import history
from scoring.selectors.protocols import protocol_document_match, round_protocol_matches
from scoring.selectors.public import competition_rounds
from scoring.site_address import site_url

from . import PDF, Export
from .documents import blank_protocol, protocol_document, side_codes
from .federation import club_standings_listing, club_standings_note, individual_table
from .listings import RoundResultsExportTable, competition_facts, round_result_rows, standings_table

STYLESHEET = "scoring/css/pdf.css"
# The deal table's geometry, as pdf.css lays it out: A4 (210 mm) less the 13 mm side margins, the
# narrow deal-number and end columns, equal data columns, and the blank rows' height.
TABLE_WIDTH_MM = 184
NARROW_COLUMN_MM = 6.5
BLANK_ROW_MM = 6
THIN_MM, THICK_MM = 0.176, 0.494  # 0.5 pt and 1.4 pt, the table's rules


class OfflineURLFetcher(URLFetcher):
    """Fetches file: and data: addresses only; an http(s) address is refused, never requested."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols={"file", "data"}, timeout=1)


@lru_cache(maxsize=1)
def _stylesheet_path() -> str:
    path = finders.find(STYLESHEET)
    if not path:
        raise FileNotFoundError(STYLESHEET)
    return str(path)


@lru_cache(maxsize=4)
def _stylesheet(path: str, modified: float) -> weasyprint.CSS:
    # Parsed once per version of the file; `modified` makes an edited file load again.
    return weasyprint.CSS(filename=path, url_fetcher=OfflineURLFetcher())


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _page_number_css() -> weasyprint.CSS:
    """'Sida 1 av 2' in the bottom-right margin box, in the active language."""
    marker = "\x00"
    return _page_number_stylesheet(
        _("Page %(page)s of %(pages)s") % {"page": f"{marker}page{marker}", "pages": f"{marker}pages{marker}"}
    )


@lru_cache(maxsize=8)
def _page_number_stylesheet(label: str) -> weasyprint.CSS:
    marker = "\x00"
    tokens = []
    for index, part in enumerate(label.split(marker)):
        if index % 2:
            tokens.append(f"counter({part})")
        elif part:
            tokens.append(_css_string(part))
    content = " ".join(tokens)
    return weasyprint.CSS(
        string=f"@page {{ @bottom-right {{ content: {content}; font-family: 'DejaVu Sans', sans-serif; }} }}"
    )


def stylesheets() -> list[weasyprint.CSS]:
    path = _stylesheet_path()
    return [_stylesheet(path, Path(path).stat().st_mtime), _page_number_css()]


def base_url() -> str:
    return Path(settings.BASE_DIR).as_uri() + "/"


def html_to_pdf(html: str) -> bytes:
    document = weasyprint.HTML(string=html, base_url=base_url(), url_fetcher=OfflineURLFetcher())
    return document.write_pdf(stylesheets=stylesheets())


def render_html(template_name: str, context: dict) -> str:
    context = {
        "printed_at": iso_date(timezone.now()),
        "site_url": site_url(),
        **context,
    }
    return render_to_string(template_name, context)


def qr_code(url: str) -> str:
    """The address as a QR code: an SVG data URI, drawn by segno, no network."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=0, dark="#000")


# -- protocols ----------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def blank_grid_svg(columns_per_side: int, rows: int) -> str:
    """The empty deal rows of a blank protocol as one drawing: the grid the table's cells would
    draw (thin rules, a heavy rule after each side, the totals shaded), right of the deal numbers.
    WeasyPrint lays out hundreds of empty cells slowly; one SVG per page prints the same."""
    columns = 2 * columns_per_side
    width = (TABLE_WIDTH_MM - 2 * NARROW_COLUMN_MM) / columns
    total_width = columns * width + NARROW_COLUMN_MM
    height = rows * BLANK_ROW_MM
    parts = []
    for side in range(2):
        x = (side * columns_per_side + columns_per_side - 1) * width
        parts.append(f'<rect x="{x:.3f}" y="0" width="{width:.3f}" height="{height}" fill="#f4f4f4" stroke="none"/>')
    for row in range(1, rows):
        y = row * BLANK_ROW_MM
        parts.append(f'<line x1="0" y1="{y}" x2="{total_width:.3f}" y2="{y}" stroke-width="{THIN_MM}"/>')
    for column in range(1, columns + 1):
        x = column * width
        thick = column % columns_per_side == 0
        parts.append(
            f'<line x1="{x:.3f}" y1="0" x2="{x:.3f}" y2="{height}" stroke-width="{THICK_MM if thick else THIN_MM}"/>'
        )
    right = total_width - THIN_MM / 2
    parts.append(f'<line x1="{right:.3f}" y1="0" x2="{right:.3f}" y2="{height}" stroke-width="{THIN_MM}"/>')
    return mark_safe(  # only numbers made here, no user text
        f'<svg class="deals__grid-svg" xmlns="http://www.w3.org/2000/svg" width="{total_width:.3f}mm" '
        f'height="{height}mm" viewBox="0 0 {total_width:.3f} {height}" stroke="#000">{"".join(parts)}</svg>'
    )



def match_protocol_html(match: Match) -> str:
    match = protocol_document_match(match.pk)
    protocol = protocol_document(match)
    protocol.qr_code = qr_code(protocol.record_url)
    title = _("Match protocol: %(home)s – %(away)s") % {"home": match.home_team.name, "away": match.away_team.name}
    return render_html(
        "scoring/pdf/match_protocol.html",
        {"protocol": protocol, "document_title": title, "author": protocol.header.organiser},
    )


def match_protocol_pdf(match: Match) -> Export:
    """The official protocol of a match: every deal, the result, signature lines, the online record."""
    html = match_protocol_html(match)
    round_part = _("round %(number)s") % {"number": match.round.number} if match.round_id else ""
    name = file_name(
        _("protocol"), match.competition.name, match.competition.season, round_part,
        _("table %(number)s") % {"number": match.table} if match.table else "", match.pk,
        extension="pdf",
    )
    return Export(name, PDF, html_to_pdf(html))


def round_blank_protocols_html(round: Round, table_links: dict | None = None) -> str:
    """`table_links`: the table links to print, by match id (those of the matches the secretary
    printing keeps; none by default)."""
    matches = round_protocol_matches(round)
    protocols = []
    links = table_links or {}
    for match in matches:
        protocol = blank_protocol(match)
        protocol.qr_code = qr_code(protocol.record_url)
        if match.pk in links:
            # Each team's own code on its own side of the header: a team signs with its code only.
            for team, code in zip(protocol.header.teams, side_codes(links[match.pk], match)):
                code.qr = qr_code(code.url)
                team.table_code = code
        protocol.grid_svg = blank_grid_svg(len(protocol.columns), len(protocol.rows) - 1)
        protocols.append(protocol)
    competition = round.competition
    title = _("Protocols, %(competition)s, round %(number)s") % {
        "competition": competition,
        "number": round.number,
    }
    return render_html(
        "scoring/pdf/blank_protocols.html",
        {"protocols": protocols, "document_title": title, "author": competition.organiser.name},
    )


def round_blank_protocols_pdf(round: Round, table_links: dict | None = None) -> Export:
    """One blank protocol per match of the round, header filled in, to print before a match night,
    with the table links given (`table_links`, by match id)."""
    html = round_blank_protocols_html(round, table_links)
    competition = round.competition
    name = file_name(
        _("protocols"), competition.name, competition.season, _("round %(number)s") % {"number": round.number},
        extension="pdf",
    )
    return Export(name, PDF, html_to_pdf(html))


# -- standings and results ----------------------------------------------------------------------


def standings_context(competition: Competition, up_to_round: int | None = None) -> dict:
    rows = selectors.competition_standings(competition, up_to_round=up_to_round)
    return {
        "standings_table": standings_table(competition, rows),
        "up_to_round": up_to_round,
        "preliminary_count": selectors.standings_preliminary_count(competition, up_to_round),
    }


def round_context(round: Round, matches=None) -> dict:
    if matches is None:
        matches = selectors.round_results(round)
    return {
        "round": round,
        "round_date": iso_date(round.date),
        "results_table": RoundResultsExportTable(round_result_rows(matches)),
        "byes": [bye.team.name for bye in selectors.round_byes(round)],
    }


def standings_html(competition: Competition, up_to_round: int | None = None) -> str:
    title = _("Standings, %(competition)s") % {"competition": competition}
    return render_html(
        "scoring/pdf/standings.html",
        {
            **competition_facts(competition),
            **standings_context(competition, up_to_round),
            "document_title": title,
            "author": competition.organiser.name,
        },
    )


def standings_pdf(competition: Competition, up_to_round: int | None = None) -> Export:
    round_part = _("after round %(number)s") % {"number": up_to_round} if up_to_round else ""
    name = file_name(_("standings"), competition.name, competition.season, round_part, extension="pdf")
    return Export(name, PDF, html_to_pdf(standings_html(competition, up_to_round)))


def round_results_html(round: Round) -> str:
    competition = round.competition
    title = _("Results, %(competition)s, round %(number)s") % {"competition": competition, "number": round.number}
    return render_html(
        "scoring/pdf/round_results.html",
        {
            **competition_facts(competition),
            "rounds": [round_context(round)],
            "document_title": title,
            "author": competition.organiser.name,
        },
    )


def round_results_pdf(round: Round) -> Export:
    competition = round.competition
    name = file_name(
        _("results"), competition.name, competition.season, _("round %(number)s") % {"number": round.number},
        extension="pdf",
    )
    return Export(name, PDF, html_to_pdf(round_results_html(round)))


def competition_html(competition: Competition) -> str:
    rounds = competition_rounds(competition)
    results = selectors.competition_results(competition)
    title = _("Standings and results, %(competition)s") % {"competition": competition}
    return render_html(
        "scoring/pdf/competition.html",
        {
            **competition_facts(competition),
            **standings_context(competition),
            "club_standings_listing": club_standings_listing(competition),
            "club_standings_note": club_standings_note(competition),
            "individual_table": individual_table(competition),
            "rounds": [round_context(round, results.get(round.pk, [])) for round in rounds],
            "places": history.places_by_round(competition),
            "document_title": title,
            "author": competition.organiser.name,
        },
    )


def competition_pdf(competition: Competition) -> Export:
    """The standings and every round's results in one document."""
    name = file_name(_("standings and results"), competition.name, competition.season, extension="pdf")
    return Export(name, PDF, html_to_pdf(competition_html(competition)))
