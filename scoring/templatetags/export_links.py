"""`{% download_links match=match %}` (or round=, competition=): the download buttons of a page.

The links a visitor may use: a match's protocol (PDF, Excel, CSV) once it has a result or deals; a
round's results (PDF, Excel) and, when the page's view says the viewer may print them
(`blank_protocols`, permissions.can_print_blank_protocols), the blank protocols; the standings
(after a round, if the page shows that) and the whole competition. The views in
scoring.views.exports check the same rules again. A tag reads nothing from the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from scoring.selectors.protocols import has_score

register = template.Library()


@dataclass(frozen=True)
class DownloadLink:
    url: str
    label: str
    format: str  # "PDF", "Excel" or "CSV"
    description: str = ""
    is_file: bool = False  # a workbook downloads; a PDF opens in the browser


def _pdf(url: str, label: str, description: str = "") -> DownloadLink:
    return DownloadLink(url, label, "PDF", description)


def _xlsx(url: str, label: str, description: str = "") -> DownloadLink:
    return DownloadLink(url, label, "Excel", description, is_file=True)


def match_links(match) -> list[DownloadLink]:
    if not has_score(match):
        return []
    return [
        _pdf(reverse("scoring:match-protocol-pdf", args=[match.pk]), _("Protocol to print and sign")),
        _xlsx(reverse("scoring:match-protocol-xlsx", args=[match.pk]), _("Protocol as a spreadsheet")),
        # The format the upload reads (docs/protocol-file.md), offered wherever the upload is.
        DownloadLink(
            reverse("scoring:match-protocol-csv", args=[match.pk]),
            _("Protocol in the upload file format"),
            "CSV",
            _("The protocol file's own columns; it can be uploaded again."),
            is_file=True,
        ),
    ]


def round_links(round, blank_protocols: bool) -> list[DownloadLink]:
    args = [round.competition_id, round.number]
    links = []
    if blank_protocols:
        links.append(
            _pdf(
                reverse("scoring:round-protocols-pdf", args=args),
                _("Blank protocols for the round"),
                _("One page per match, to print before the match night."),
            )
        )
    links += [
        _pdf(reverse("scoring:round-results-pdf", args=args), _("Results of the round")),
        _xlsx(reverse("scoring:round-results-xlsx", args=args), _("Results as a spreadsheet")),
    ]
    return links


def competition_links(competition, up_to_round=None) -> list[DownloadLink]:
    query = f"?{urlencode({'round': up_to_round})}" if up_to_round else ""
    label = (
        _("Standings after round %(number)s") % {"number": up_to_round} if up_to_round else _("Standings")
    )
    return [
        _pdf(reverse("scoring:standings-pdf", args=[competition.pk]) + query, label),
        _xlsx(reverse("scoring:standings-xlsx", args=[competition.pk]) + query, _("Standings as a spreadsheet")),
        _pdf(
            reverse("scoring:competition-pdf", args=[competition.pk]),
            _("Standings and all results"),
        ),
        _xlsx(
            reverse("scoring:competition-xlsx", args=[competition.pk]),
            _("The whole competition as a workbook"),
            _("Standings, every round's results and every deal."),
        ),
    ]


@register.inclusion_tag("scoring/exports/_downloads.html")
def download_links(*, match=None, round=None, competition=None, up_to_round=None, blank_protocols=False):
    if match is not None:
        links = match_links(match)
    elif round is not None:
        links = round_links(round, blank_protocols)
    elif competition is not None:
        links = competition_links(competition, up_to_round)
    else:
        links = []
    return {"links": links}
