"""Entry at the table: the pages behind a match's table link `/t/<code>/` (no account: the code is
the right to enter and confirm this match's deals while it is played, and nothing else), and the
service worker that keeps the page's own files for a reload without a network.

The page works without JavaScript (each form posts and the page comes back); static/scoring/js/
table.js adds the live check as the deal is typed (the engine, through `TableCheckView`: the same
preview and messages as the secretary's page), a queue on the device for deals typed without a
connection, and a state that refreshes itself. The code travels in the address and nowhere else:
no cookie or session is involved, so the table's forms need no CSRF token (a foreign site cannot
post without knowing the code) and the pages are never kept by a shared cache.

Codes are guessed at a cost: each address may open a limited number of unknown, withdrawn or
expired codes in a window (`GUESS_LIMIT`), then every code answers 429 for a while.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from scoring.adapters import deal_to_entry
from scoring.web.client_address import client_address
from scoring.messages import problem_message
from scoring.exports.formatting import format_number
from scoring.forms.protocol import COUNT_FIELDS, SIDES, DealForm
from scoring.models import TableDeal, TableLink
from scoring.selectors import table as table_selectors
from scoring.services import DealProblemsError, DomainError
from scoring import services

from .secretary_base import place_problems, preview_deal

GUESS_LIMIT = getattr(settings, "TABLE_CODE_GUESSES", 30)
GUESS_WINDOW_SECONDS = 15 * 60
CODE_MAX_LENGTH = 16
# How often an open table page asks for the match's state (seconds).
POLL_SECONDS = 10


def state_context(link: TableLink, state) -> dict:
    """What the changing part of the table's page shows: each waiting proposal with the engine's
    preview of it (as the secretary's page would score it) and the buttons of the side that has
    not answered; the protocol's deals with their notes (the same messages everywhere)."""
    match = link.match
    teams = {"home": match.home_team, "away": match.away_team}
    waiting = []
    for proposal in state.waiting:
        proposal.team = teams[proposal.proposed_by]
        proposal.to_answer = [(side, teams[side]) for side in SIDES if getattr(proposal, f"{side}_agreed_at") is None]
        proposal.preview = None
        proposal.messages = []
        if proposal.values:
            correcting = proposal.number if proposal.kind == TableDeal.Kind.CORRECTION else None
            preview = preview_deal(match, deal_to_entry(proposal.values), correct_number=correcting, protocol=state.protocol)
            proposal.preview = preview
            proposal.messages = [problem_message(p, n) for n, p in (*preview.problems, *preview.warnings)]
        waiting.append(proposal)
    for proposal in state.settled:
        proposal.team = teams[proposal.proposed_by]
    rows = [(deal, [note.message for note in deal.notes]) for deal in reversed(state.protocol.deals)]
    return {
        "link": link,
        "match": match,
        "state": state,
        "waiting": waiting,
        "settled": state.settled,
        "protocol_rows": rows,
        "confirmations": [(side, teams[side], getattr(link, f"{side}_confirmed_at")) for side in SIDES],
        "time_up_client_id": uuid.uuid4().hex,
    }


class TooManyGuesses(Exception):
    pass


def _guess_key(request) -> str:
    return f"table-guesses:{client_address(request)}"


def _count_guess(request) -> None:
    counter = caches["default"]
    key = _guess_key(request)
    counter.add(key, 0, GUESS_WINDOW_SECONDS)
    try:
        counter.incr(key)
    except ValueError:
        counter.set(key, 1, GUESS_WINDOW_SECONDS)


def open_table_link(request, code: str) -> TableLink:
    """The link named in the address, if it works; 404 otherwise (unknown, withdrawn, or its match
    submitted): the same answer for each, so a guesser learns nothing."""
    if caches["default"].get(_guess_key(request), 0) >= GUESS_LIMIT:
        raise TooManyGuesses
    link = None
    if len(code) <= CODE_MAX_LENGTH:
        link = table_selectors.table_link_by_code(services.normalise_code(code))
    if link is None or not services.link_is_open(link):
        _count_guess(request)
        raise Http404("No table link with this code is in use.")
    return link


def too_many_guesses(request) -> HttpResponse:
    response = render(request, "scoring/table/guesses.html", {"minutes": GUESS_WINDOW_SECONDS // 60}, status=429)
    response["Retry-After"] = str(GUESS_WINDOW_SECONDS)
    return response


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@method_decorator([csrf_exempt, never_cache], name="dispatch")
class TableLinkMixin(View):
    """Opens the table link of the address (404 when it does not work) and answers every refusal
    of the services in the page's language with a 4xx status."""

    def dispatch(self, request, *args, **kwargs):
        try:
            self.link = open_table_link(request, kwargs["code"])
        except TooManyGuesses:
            return too_many_guesses(request)
        try:
            response = super().dispatch(request, *args, **kwargs)
        except PermissionDenied as refusal:
            return self.refused(str(refusal) or _("This table link no longer works. Ask the home club's secretary."), 403)
        # The code is in the address: no search engine, no shared cache, no referrer.
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
        return response

    def refused(self, message: str, status: int, **extra) -> HttpResponse:
        if wants_json(self.request):
            return JsonResponse({"result": "refused", "message": str(message), **extra}, status=status)
        return render(self.request, "scoring/table/refused.html", {"message": message, "link": self.link}, status=status)

    def state(self):
        return table_selectors.table_state(self.link)

    def deal_form(self, data=None, *, state=None) -> DealForm:
        rules = self.link.match.rules
        return DealForm(data, has_clock=rules.has_clock, rules=rules)

    def page(self, *, form=None, placed=None, error="", status=200, correct=None):
        state = self.state()
        correcting = None
        if correct is not None and state.correctable and state.correctable.number == correct and form is None:
            # Rule 35: the last deal, prefilled, for the other team to agree to again.
            correcting = correct
            deal = table_selectors.match_deal(self.link.match, correct)
            form = DealForm(initial=DealForm.initial_from_deal(deal, self.link.match.started_at),
                            has_clock=self.link.match.rules.has_clock, rules=self.link.match.rules)  # fmt: skip
        elif form is not None and form.data.get("kind") == TableDeal.Kind.CORRECTION:
            correcting = _int(form.data.get("number"))
        form = form or self.deal_form(state=state)
        context = {
            **state_context(self.link, state),
            "correcting": correcting,
            "form": form,
            "placed": placed or place_problems(form.fields),
            "error": error,
            "client_id": uuid.uuid4().hex,
            "sides": SIDES,
            "count_fields": COUNT_FIELDS,
            "poll_seconds": POLL_SECONDS,
            "rules": self.link.match.rules,
        }
        return render(self.request, "scoring/table/page.html", context, status=status)

    def back_to_page(self) -> HttpResponse:
        return HttpResponseRedirect(reverse("scoring:table", args=[self.link.code]), status=303)


class TablePageView(TableLinkMixin):
    """GET: the table's page: the next deal's fields, the protocol so far, what waits."""

    def get(self, request, code):
        services.table_contact(link=self.link)
        return self.page(correct=_int(request.GET.get("correct")))


class TableStateView(TableLinkMixin):
    """GET: the part of the page that changes (protocol, totals, minimums, what waits, the end)."""

    def get(self, request, code):
        services.table_contact(link=self.link)
        return render(request, "scoring/table/_state.html", state_context(self.link, self.state()))


class TableCheckView(TableLinkMixin):
    """POST: the engine's verdict on the deal being typed, as the secretary's live check gives it
    (views.secretary_base.preview_deal, place_problems); JSON for table.js. Never writes."""

    def post(self, request, code):
        match = self.link.match
        form = self.deal_form(request.POST)
        correcting = _int(request.POST.get("correct_number"))
        number = correcting or match.deal_count + 1
        preview = preview_deal(match, form.entry(number), correct_number=correcting) if form.is_valid() else None
        placed = place_problems(
            form.fields,
            problems=preview.problems if preview else (),
            warnings=preview.warnings if preview else (),
            form_errors=form.errors,
            deal_number=number,
        )
        answer = {
            "number": number,
            "ok": preview is not None and not placed,
            "fields": placed.by_field,
            "general": placed.general,
            "warnings": placed.warnings,
            "preview": None,
        }
        if preview is not None:
            answer["preview"] = {
                f"{side}_{name}": format_number(value)
                for side, figures in (("home", preview.home), ("away", preview.away))
                for name, value in (("score", figures.breakdown.score), ("total", figures.after), ("min", figures.min_before))
            }
            answer["ends_match"] = preview.ends_match
        return JsonResponse(answer)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class TableProposeView(TableLinkMixin):
    """POST: one side proposes the next deal, a correction of the last deal, or that the time ran
    out between deals (services.table.table_deal_propose). Sent again with the same device-made
    id, it is stored once."""

    def post(self, request, code):
        data = request.POST
        kind = data.get("kind") or TableDeal.Kind.DEAL
        client_id = (data.get("client_id") or "").strip()[:64]
        side = data.get("side", "")
        if kind not in TableDeal.Kind.values or not client_id:
            return self.refused(_("The form is incomplete; reload the page."), 400)
        match = self.link.match
        number = _int(data.get("number")) or 0
        entry = None
        form = None
        if kind != TableDeal.Kind.TIME_UP:
            form = self.deal_form(data)
            if not form.is_valid():
                return self.with_problems(form, number or match.deal_count + 1, form_errors=form.errors)
            entry = form.entry(number)
        else:
            number = match.deal_count
        try:
            proposal = services.table_deal_propose(
                link=self.link, client_id=client_id, side=side, kind=kind, number=number, entry=entry,
                agreed_by_both=data.get("both") == "yes",
            )  # fmt: skip
        except DealProblemsError as refusal:
            return self.with_problems(form or self.deal_form(), number, problems=refusal.problems, message=refusal.message)
        except DomainError as refusal:
            return self.refused(refusal.message, 422)
        return self.answered(proposal)

    def with_problems(self, form, number, *, problems=(), form_errors=None, message=None):
        placed = place_problems(form.fields, problems=problems, form_errors=form_errors, deal_number=number)
        message = message or _("The deal was not saved: correct the marked fields.")
        if wants_json(self.request):
            return JsonResponse(
                {"result": "refused", "message": str(message), "fields": placed.by_field, "general": placed.general},
                status=422,
            )
        return self.page(form=form, placed=placed, error=message, status=422)

    def answered(self, proposal: TableDeal) -> HttpResponse:
        if wants_json(self.request):
            return JsonResponse(
                {"result": proposal.status, "proposal": proposal.pk, "number": proposal.number, "message": proposal.note}
            )
        return self.back_to_page()


class TableAnswerView(TableProposeView):
    """POST: the other side agrees to what waits, or rejects it (with a reason)."""

    def post(self, request, code):
        data = request.POST
        proposal_id = _int(data.get("proposal"))
        if proposal_id is None:
            return self.refused(_("The form is incomplete; reload the page."), 400)
        try:
            proposal = services.table_deal_answer(
                link=self.link, proposal_id=proposal_id, side=data.get("side", ""), agree=data.get("agree") == "yes",
                reason=(data.get("reason") or "")[:2000],
            )  # fmt: skip
        except DealProblemsError as refusal:
            return self.refused(refusal.message, 422)
        except DomainError as refusal:
            return self.refused(refusal.message, 422)
        return self.answered(proposal)


class TableConfirmView(TableLinkMixin):
    """POST: one side confirms the whole protocol of the ended match."""

    def post(self, request, code):
        try:
            services.table_protocol_confirm(link=self.link, side=request.POST.get("side", ""))
        except DomainError as refusal:
            return self.refused(refusal.message, 422)
        if wants_json(request):
            return JsonResponse({"result": "confirmed"})
        return self.back_to_page()


class TablePhotoView(TableLinkMixin):
    """POST: a photo of the signed paper protocol, from the table."""

    def post(self, request, code):
        upload = request.FILES.get("photo")
        if upload is None:
            return self.refused(_("Choose a photo."), 400)
        if upload.size > services.PHOTO_MAX_BYTES:
            return self.refused(_("The photo is larger than 8 MB."), 413)
        try:
            services.match_photo_add(match=self.link.match, data=upload.read(), link=self.link)
        except DomainError as refusal:
            return self.refused(refusal.message, 422)
        if wants_json(request):
            return JsonResponse({"result": "stored"})
        return self.back_to_page()


@method_decorator(never_cache, name="dispatch")
class TableServiceWorkerView(View):
    """GET /t/sw.js: the service worker of the table pages (its address puts them in its scope).
    It names the page's own static files with their stored (hashed) names."""

    def get(self, request):
        response = render(request, "scoring/table/sw.js", {}, content_type="text/javascript; charset=utf-8")
        return response
