"""Downloads: PDF documents and Excel workbooks of a match, a round, the standings, a competition.

Who may download what:
- the protocol of a match, the standings, a round's results and the whole competition: anyone who
  may see the competition (a public one, or one the signed-in user organises; see
  scoring.selectors.public); the home club's secretary also gets their match's protocol. Anything
  else answers 404, so a private competition's existence is not revealed;
- blank protocols of a round: the secretaries who keep a protocol of the round
  (permissions.can_enter_protocol for one of its matches) and those who manage the competition.

PDFs open in the browser (ready to print); workbooks download as files. The exporters are imported
when a document is asked for: WeasyPrint is heavy, and most requests never need it.
"""

from __future__ import annotations

import time
from functools import cached_property

from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views import View

from scoring import permissions, services
from scoring.web.client_address import client_address
from scoring.web.converters import LARGEST_NUMBER
from scoring.exports import PDF, Export
from scoring.models import Competition, Match, Round
from scoring.selectors.protocols import document_rounds, documented_matches, round_matches_with_keepers
from scoring.selectors import editions
from scoring.selectors.public import get_visible_competition, get_visible_round, is_visible_competition
from scoring.site_address import site_url
from scoring.web.public_cache import validator


def export_response(export: Export) -> HttpResponse:
    response = HttpResponse(export.content, content_type=export.content_type)
    disposition = "inline" if export.content_type == PDF else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{export.filename}"'
    return response


# A document takes up to a few seconds to make (a competition PDF 2-3 s): a public one is stored.
# And everyone may ask for only so many documents a minute, so that a few clients asking again and
# again cannot slow every page down: a visitor who is not signed in DOCUMENTS_PER_MINUTE, counted by
# the client's real address; a signed-in person DOCUMENTS_PER_MINUTE_SIGNED_IN, counted by who
# they are. A conditional GET answered 304 (scoring.web.public_cache) is not counted: it costs nothing.
DOCUMENT_CACHE_SECONDS = 24 * 60 * 60
LARGEST_CACHED_DOCUMENT = 4 * 1024 * 1024
RATE_WINDOW_SECONDS = 60


def rate_window() -> int:
    """The number of the current minute: each client's allowance is counted per minute."""
    return int(time.time() // RATE_WINDOW_SECONDS)


def too_many_documents(request) -> bool:
    """Count this request against its client's allowance of the current minute."""
    window = rate_window()
    if request.user.is_authenticated:
        key, allowance = f"documents-asked:user:{request.user.pk}:{window}", settings.DOCUMENTS_PER_MINUTE_SIGNED_IN
    else:
        key, allowance = f"documents-asked:{client_address(request)}:{window}", settings.DOCUMENTS_PER_MINUTE
    counter = caches["default"]
    counter.add(key, 0, RATE_WINDOW_SECONDS * 2)
    try:
        asked = counter.incr(key)
    except ValueError:  # the entry was evicted between add and incr: count this one as the first
        counter.set(key, 1, RATE_WINDOW_SECONDS * 2)
        asked = 1
    return asked > allowance


def too_many_documents_response(request) -> HttpResponse:
    seconds = RATE_WINDOW_SECONDS - int(time.time()) % RATE_WINDOW_SECONDS
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class ExportView(View):
    """GET returns the document made by `export()`; a public one (`drawn_from`, as a public page's)
    is stored under what it is drawn from and `parameters_read()`."""

    http_method_names = ["get", "head"]
    drawn_from = None

    def export(self) -> Export:
        raise NotImplementedError

    def check_access(self) -> None:
        """Raise 404 unless the visitor may see the document (before a stored copy is handed out)."""

    def parameters_read(self) -> tuple:
        """The query parameters the document reads, as it reads them (checked; 404 if wrong)."""
        return ()

    def get(self, request, *args, **kwargs):
        if too_many_documents(request):
            return too_many_documents_response(request)
        self.check_access()
        if self.drawn_from is None:
            return export_response(self.export())
        # Not who asks: each sees the same. The address holds the language; site_url the links printed.
        key = validator(type(self).drawn_from(**kwargs), self.parameters_read(), request.path, site_url())
        stored = caches["documents"].get(key)
        export = Export(*stored) if stored else self.export()
        if not stored and len(export.content) <= LARGEST_CACHED_DOCUMENT:
            caches["documents"].set(key, tuple(export), DOCUMENT_CACHE_SECONDS)
        return export_response(export)


# -- a match ------------------------------------------------------------------------------------


class MatchExportMixin:
    drawn_from = editions.match_documents

    def check_access(self) -> None:
        self.get_match()

    def get_match(self) -> Match:
        return self.visible_match

    @cached_property
    def visible_match(self) -> Match:
        match = get_object_or_404(documented_matches(), pk=self.kwargs["pk"])
        user = self.request.user
        visible = is_visible_competition(match.competition_id, user)
        if not (visible or permissions.can_enter_protocol(user, match)):
            raise Http404("No such match.")
        return match


class MatchProtocolPdfView(MatchExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import pdf

        return pdf.match_protocol_pdf(self.get_match())


class MatchProtocolXlsxView(MatchExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import xlsx

        return xlsx.match_protocol_xlsx(self.get_match())


class MatchProtocolCsvView(MatchExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import xlsx

        return xlsx.match_protocol_csv(self.get_match())


# -- a competition and its rounds ---------------------------------------------------------------


class CompetitionExportMixin:
    drawn_from = editions.competition

    def check_access(self) -> None:
        self.get_competition()

    def get_competition(self) -> Competition:
        return self.visible_competition

    @cached_property
    def visible_competition(self) -> Competition:
        return get_visible_competition(self.kwargs["pk"], self.request.user)

    def get_round(self) -> Round:
        return get_visible_round(self.get_competition(), self.kwargs["number"])

    def up_to_round(self) -> int | None:
        """?round=N: the standings after round N, one of the competition's rounds (so the stored
        copies of a competition's standings are at most one per round)."""
        raw = self.request.GET.get("round", "").strip()
        if not raw:
            return None
        # A number beyond any round (a round number is a small integer column) is no round either.
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 5 or not 1 <= int(raw) <= LARGEST_NUMBER:
            raise Http404("No such round.")
        return get_visible_round(self.get_competition(), int(raw)).number


class StandingsPdfView(CompetitionExportMixin, ExportView):
    def parameters_read(self) -> tuple:
        return (self.up_to_round(),)

    def export(self) -> Export:
        from scoring.exports import pdf

        return pdf.standings_pdf(self.get_competition(), up_to_round=self.up_to_round())


class StandingsXlsxView(CompetitionExportMixin, ExportView):
    def parameters_read(self) -> tuple:
        return (self.up_to_round(),)

    def export(self) -> Export:
        from scoring.exports import xlsx

        return xlsx.standings_xlsx(self.get_competition(), up_to_round=self.up_to_round())


class RoundResultsPdfView(CompetitionExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import pdf

        return pdf.round_results_pdf(self.get_round())


class RoundResultsXlsxView(CompetitionExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import xlsx

        return xlsx.round_results_xlsx(self.get_round())


class CompetitionPdfView(CompetitionExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import pdf

        return pdf.competition_pdf(self.get_competition())


class CompetitionXlsxView(CompetitionExportMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import xlsx

        return xlsx.competition_xlsx(self.get_competition())


# -- blank protocols: secretaries only ----------------------------------------------------------


class RoundBlankProtocolsPdfView(LoginRequiredMixin, ExportView):
    def export(self) -> Export:
        from scoring.exports import pdf

        round = get_object_or_404(document_rounds(), competition_id=self.kwargs["pk"], number=self.kwargs["number"])
        if not permissions.can_print_blank_protocols(self.request.user, round, round_matches_with_keepers(round)):
            raise PermissionDenied
        # Each match the secretary keeps gets its table link, printed on its protocol (and only
        # those: another club's links are not theirs to hand out).
        links = services.table_links_issue_for_round(round=round, user=self.request.user)
        return pdf.round_blank_protocols_pdf(round, table_links=links)
