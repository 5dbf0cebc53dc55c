"""Entry at the table, for the secretary and the organiser: a match's table link (shown, renewed,
withdrawn), the round at a glance (every table live, beside the hall clock), the round's table
cards to print, and the photos of the signed paper protocol (shown only to the captains, the
clubs' secretaries and the organiser).

Thin views: the services (scoring.services.table) write, the selectors (scoring.selectors.table)
read.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View

from scoring import permissions
from scoring.exports.documents import side_codes
from scoring.exports.pdf import qr_code
from scoring.selectors import table as table_selectors
from scoring.selectors.protocols import document_rounds, round_matches_with_keepers
from scoring.selectors.public import hall_clock
from scoring.services import DomainError
from scoring import services

from .secretary_base import MatchAccessMixin

# How often the round at a glance asks for its rows (seconds). It shows a deal within 10 s at p95
# (docs/speed.md, "The round night"): a deal waits for the next poll, up to one interval (0.95 of
# it at p95), and then for the rows, drawn in full each time (no max-age, no validator: the page
# is an organiser's). At 10 s the rows would have 0.5 s; 8 s leaves 2.4 s for a round of
# hundreds of tables on a loaded night.
LIVE_POLL_SECONDS = 8


def _link_context(link, match):
    """The link and each team's own code (home, then away), with its address and QR code."""
    if link is None:
        return {"link": None, "codes": []}
    codes = side_codes(link, match)
    for code in codes:
        code.qr = qr_code(code.url)
    return {"link": link, "codes": codes}


class MatchTableLinkView(MatchAccessMixin, View):
    """GET: the match's table link, as text and QR code. POST: make it, renew it (the old code
    stops working) or withdraw it."""

    access = "manage-result"
    template_name = "scoring/table/link.html"

    def get(self, request, pk):
        match = self.match
        context = {
            "match": match,
            "proposals": table_selectors.match_open_proposals(match),
            **_link_context(table_selectors.match_table_link(match), match),
        }
        return render(request, self.template_name, context)

    def post(self, request, pk):
        match = self.match
        action = request.POST.get("action")
        try:
            if action == "issue":
                link = services.table_link_issue(match=match, user=request.user)
                if link is None:
                    raise DomainError(_("The match is no longer played at the table."))
            elif action in ("renew", "withdraw"):
                services.table_link_withdraw(match=match, user=request.user, renew=action == "renew")
            else:
                raise DomainError(_("Choose what to do with the table link."))
        except DomainError as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, {
                "issue": _("The table link is made."),
                "renew": _("The table link is renewed; the old codes no longer work."),
                "withdraw": _("The table link is withdrawn; its codes no longer work."),
            }[action])  # fmt: skip
        return HttpResponseRedirect(reverse("scoring:match-table-link", args=[match.pk]))


# -- photos of the signed protocol --------------------------------------------------------------------


class MatchPhotosView(MatchAccessMixin, View):
    """GET: the photos of the signed protocol. POST: the protocol keeper adds one."""

    template_name = "scoring/table/photos.html"

    def has_access(self, user) -> bool:
        return permissions.can_see_photos(user, self.match)

    def get(self, request, pk):
        match = self.match
        context = {
            "match": match,
            "photos": table_selectors.match_photos(match),
            "may_add": permissions.can_enter_or_manage(request.user, match),
            "photo_rules": services.photo_rules(),
        }
        return render(request, self.template_name, context)

    def post(self, request, pk):
        match = self.match
        upload = request.FILES.get("photo")
        try:
            if upload is None:
                raise DomainError(_("Choose a photo."))
            # The file itself: the service refuses one too large before reading it.
            services.match_photo_add(match=match, data=upload, user=request.user)
        except DomainError as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("The photo is kept with the match."))
        return HttpResponseRedirect(reverse("scoring:match-photos", args=[match.pk]))


class MatchPhotoView(MatchAccessMixin, View):
    """GET: one photo's image, for those who may see the photos; kept by no shared cache."""

    def has_access(self, user) -> bool:
        return permissions.can_see_photos(user, self.match)

    def get(self, request, pk, photo):
        found = table_selectors.match_photo(self.match, photo)
        if found is None:
            raise Http404
        response = HttpResponse(bytes(found.image), content_type=found.content_type)
        response["Cache-Control"] = "private, max-age=3600"
        response["Content-Disposition"] = f'inline; filename="protocol-{self.match.pk}-{found.pk}.{found.content_type.split("/")[1]}"'
        return response


# -- the round at a glance, and its table cards ---------------------------------------------------------


class RoundAccessMixin(LoginRequiredMixin):
    """The round named in the address, for its organiser's secretary and the secretaries who keep
    a protocol of it (as its blank protocols)."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.round = get_object_or_404(document_rounds(), competition_id=kwargs["pk"], number=kwargs["number"])
        if not permissions.can_print_blank_protocols(request.user, self.round, round_matches_with_keepers(self.round)):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class RoundTablesView(RoundAccessMixin, View):
    """Every table of the round, updating itself: deals and totals, what waits for the other team,
    rejected deals and conflicts, each table's last contact, matches ended; the hall clock beside."""

    template_name = "scoring/table/round.html"

    def context(self):
        round_ = self.round
        clock = hall_clock(round_)
        now = timezone.now()
        return {
            "round": round_,
            "competition": round_.competition,
            "rows": [(row, self.codes(row)) for row in table_selectors.round_tables(round_)],
            "clock": clock,
            "server_now_ms": int(now.timestamp() * 1000),
            "started_ms": int(clock.started_at.timestamp() * 1000) if clock and clock.started_at else None,
            "clock_poll_seconds": 60 if clock and clock.started_at else 5,
            "poll_seconds": LIVE_POLL_SECONDS,
            "now": now,
        }

    def codes(self, row) -> list:
        """The two teams' codes of a table, for those who see them on the match's table-link page
        (its protocol keeper and the organiser): a secretary keeping one match of the round sees
        no other match's codes."""
        match = row.match
        if row.link is None:
            return []
        if match.competition_id == self.round.competition_id:
            match.competition = self.round.competition  # read once with the round, not per table
        if not permissions.can_manage_result(self.request.user, match):
            return []
        return side_codes(row.link, match)

    def get(self, request, pk, number):
        return render(request, self.template_name, self.context())


class RoundTablesLiveView(RoundTablesView):
    template_name = "scoring/table/_round_rows.html"


class RoundTableCardsView(RoundAccessMixin, View):
    """A card per table to print for the round: the table link as text and QR code (links are
    made where missing, for the matches the secretary keeps)."""

    def get(self, request, pk, number):
        links = services.table_links_issue_for_round(round=self.round, user=request.user)
        cards = []
        for match in table_selectors.round_matches(self.round):
            link = links.get(match.pk)
            if link is not None:
                cards.append({"match": match, **_link_context(link, match)})
        return render(request, "scoring/table/cards.html", {"round": self.round, "competition": self.round.competition, "cards": cards})
