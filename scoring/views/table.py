"""Entry at the table: the pages behind a side code `/t/<code>/` (no account: each team has a code
of its own, which acts for that team only, and only while the match is played), and the service
worker that keeps the page's own files for a reload without a network.

Each team signs for itself (docs/rules.md, entry at the table): the code in the address acts for
its side; a phone both teams share also holds the other team's code (`with` in a page's address,
`other_code` in a post; table.js keeps it on the device), and only then shows a button per side.
The services check every code again (services.table.sides_of_codes): a post that claims the other
side without its code is refused.

The page works without JavaScript (each form posts and the page comes back). With it, htmx asks
`TableCheckView` for the live check as the deal is typed (server-drawn, as on the secretary's page)
and `TableStateView` for the state every few seconds with its validator; static/scoring/js/table.js
keeps only what lives on the device: the queue of what was typed without a connection, the drafts,
and the latest state seen. Posts carry Django's CSRF token like every other form of the site, so a
page on another site cannot post in a table's name even for someone who once opened the code.

Codes are guessed at a cost: each address may try a limited number of unknown, withdrawn or expired
codes in a window (`GUESS_LIMIT`), after which unknown codes answer 429 for a while; a code that
works keeps working for its table meanwhile (a guesser on a hall's shared network locks out no
table). docs/operations.md has the odds.
"""

from __future__ import annotations

import re
import uuid

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, get_conditional_response, patch_cache_control
from django.utils.decorators import method_decorator
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache

from scoring.adapters import deal_to_entry
from scoring.web.client_address import client_address
from scoring.web.converters import LARGEST_ID
from scoring.messages import problem_message
from scoring.forms.protocol import COUNT_FIELDS, SIDES, DealForm
from scoring.models import TableDeal, TableLink
from scoring.selectors import table as table_selectors
from scoring.services import DealProblemsError, DomainError
from scoring import services

from .secretary_base import place_problems, preview_deal

GUESS_LIMIT = getattr(settings, "TABLE_CODE_GUESSES", 20)
GUESS_WINDOW_SECONDS = 15 * 60
CODE_MAX_LENGTH = 16
# How often an open table page asks for the match's state (seconds), while something at its table
# is under way (poll_seconds). The other phone shows a proposal within 3 s at p95 (docs/speed.md,
# "The round night"): a proposal made waits for the other phone's next poll, up to one interval
# (0.95 of it at p95), and then for the answer. 2.5 s leaves 0.6 s for that answer, twice the
# 300 ms a live part may take on a loaded night; the poll's 304 is one read (TableStateView), about
# twice the minimal view's CPU.
POLL_SECONDS = 2.5
# At rest, between deals: a deal is played for minutes and typed for tens of seconds, and the
# other team's first live check while typing it brings the phone back to POLL_SECONDS within one
# rest interval, before the proposal is sent. Most of a night's polls are at rest.
REST_POLL_SECONDS = 6
# The fields the table's deal form shows, each with its slot for problems (page.html): the live
# check places the problems of any other field above the form.
FIELDS_WITH_SLOTS = (*(f"{side}_{name}" for side in SIDES for name in COUNT_FIELDS), "out", "concealed", "end",
                     "home_melded", "away_melded")  # fmt: skip
# What a post may carry: a device-made id, a deal number, a proposal's id.
CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
LARGEST_DEAL_NUMBER = 999
# A proposal's id is a primary key: the URLs' bound on them (scoring.web.converters).
LARGEST_ID_DIGITS = len(str(LARGEST_ID))


class BadInput(Exception):
    """A post no page of the site sends: answered 400 with a message, never a 500."""


def whole_number(value, *, low: int = 0, high: int = LARGEST_DEAL_NUMBER, required: bool = False) -> int | None:
    """A whole number as posted, within bounds; None when empty (BadInput if `required`)."""
    text = (value or "").strip()
    if not text:
        if required:
            raise BadInput
        return None
    if not text.isascii() or not text.isdigit() or len(text) > LARGEST_ID_DIGITS:
        raise BadInput
    number = int(text)
    if not low <= number <= high:
        raise BadInput
    return number


def record_id(value, *, required: bool = True) -> int | None:
    return whole_number(value, low=1, high=LARGEST_ID, required=required)


def form_fields_of(values: dict) -> list[tuple[str, str]]:
    """A proposal's stored values as the deal form posts them, to send them again unchanged."""
    initial = DealForm.initial_from_deal(values)
    # Not `in (None, "", False)`: 0 == False, and 0 card points are written.
    unset = [name for name, value in initial.items() if value is None or value is False or value == ""]
    return [(name, "on" if value is True else str(value)) for name, value in initial.items() if name not in unset]


def poll_seconds(state, typing) -> float:
    """How soon the page asks for its state again: often while something at the table is under way
    (a proposal or a conflict waits, the other team is typing a deal) and after the hall clock's
    main signal (the time running out between deals is proposed with one tap, nothing typed before
    it); less often at rest."""
    busy = state.waiting or state.conflicts or typing or state.main_signal_passed
    return POLL_SECONDS if busy else REST_POLL_SECONDS


def state_context(link: TableLink, state, sides_held) -> dict:
    """What the changing part of the table's page shows: each waiting proposal with the engine's
    preview of it (as the secretary's page would score it) and the buttons of the sides this
    device holds a code for that have not answered; the table's open conflicts with the players'
    numbers beside the stored ones; the protocol's deals with their notes; which team another
    device is typing a deal for, and when the page asks again."""
    match = link.match
    teams = {"home": match.home_team, "away": match.away_team}
    typing = table_selectors.sides_typing(link, state.now) - frozenset(sides_held)
    waiting = []
    for proposal in state.waiting:
        proposal.team = teams[proposal.proposed_by]
        unanswered = [side for side in SIDES if getattr(proposal, f"{side}_agreed_at") is None]
        proposal.to_answer = [(side, teams[side]) for side in unanswered if side in sides_held]
        proposal.answered_elsewhere = [teams[side] for side in unanswered if side not in sides_held]
        proposal.preview = None
        proposal.messages = []
        if proposal.values:
            correcting = proposal.number if proposal.kind == TableDeal.Kind.CORRECTION else None
            preview = preview_deal(match, deal_to_entry(proposal.values), correct_number=correcting, protocol=state.protocol)
            proposal.preview = preview
            proposal.messages = [problem_message(p, n) for n, p in (*preview.problems, *preview.warnings)]
        waiting.append(proposal)
    stored = {deal.number: deal for deal in state.protocol.deals}
    for proposal in (*state.settled, *state.conflicts):
        proposal.team = teams[proposal.proposed_by]
        # A deal's numbers as the form posts them: a conflict's sent again with one tap, and a
        # rejected deal's or a conflict's put back into the form of the phone that sent it (table.js).
        proposal.form_fields = form_fields_of(proposal.values) if proposal.values else []
        proposal.typed = urlencode(proposal.form_fields)
    for proposal in state.conflicts:
        proposal.stored = stored.get(proposal.number)
        proposal.resend_side = proposal.proposed_by if proposal.proposed_by in sides_held else next(iter(sorted(sides_held)), None)
        proposal.resend_id = uuid.uuid4().hex
    rows = [(deal, [note.message for note in deal.notes]) for deal in reversed(state.protocol.deals)]
    return {
        "link": link,
        "match": match,
        "state": state,
        "waiting": waiting,
        "settled": state.settled,
        "conflicts": state.conflicts,
        "protocol_rows": rows,
        "sides_held": [(side, teams[side]) for side in SIDES if side in sides_held],
        "confirmations": [(side, teams[side], getattr(link, f"{side}_confirmed_at"), side in sides_held) for side in SIDES],
        "time_up_client_id": uuid.uuid4().hex,
        "rendered_ms": int(state.now.timestamp() * 1000),
        "typing": [teams[side] for side in SIDES if side in typing],
        "poll_seconds": poll_seconds(state, typing),
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


def _working_link(code: str, find) -> TableLink | None:
    if not code or len(code) > CODE_MAX_LENGTH or not code.isascii():
        return None
    link = find(services.normalise_code(code))
    return link if link is not None and services.link_is_open(link) else None


def open_table_link(request, code: str, find=table_selectors.table_link_by_code) -> TableLink:
    """The link one of whose side codes is in the address, if it works; 404 otherwise (unknown,
    withdrawn, or its match submitted): the same answer for each, so a guesser learns nothing. A
    working code is answered whatever others on the same address guessed; unknown codes are
    counted, and past the limit answered 429 without being looked up. `find` looks a normalised
    code up (the state's poll reads less: TableStateView)."""
    link = _working_link(code, find)
    if link is not None:
        return link
    if caches["default"].get(_guess_key(request), 0) >= GUESS_LIMIT:
        raise TooManyGuesses
    _count_guess(request)
    raise Http404("No table link with this code is in use.")


def too_many_guesses(request) -> HttpResponse:
    response = render(request, "scoring/table/guesses.html", {"minutes": GUESS_WINDOW_SECONDS // 60}, status=429)
    response["Retry-After"] = str(GUESS_WINDOW_SECONDS)
    return response


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


class TableLinkMixin(View):
    """Opens the table link of the address (404 when it does not work), learns which sides the
    device holds a code for, and answers every refusal of the services in the page's language with
    a 4xx status."""

    def dispatch(self, request, *args, **kwargs):
        try:
            self.link = open_table_link(request, kwargs["code"], self.find_link)
        except TooManyGuesses:
            response = too_many_guesses(request)
            add_never_cache_headers(response)
            return response
        self.code = services.normalise_code(kwargs["code"])
        self.side = self.link.side_of(self.code)
        self.codes = [self.code]
        try:
            self.other_code(request)
            response = super().dispatch(request, *args, **kwargs)
        except BadInput:
            response = self.refused(_("The form is incomplete or damaged; reload the page."), 400)
        except PermissionDenied as refusal:
            response = self.refused(str(refusal) or _("This table link no longer works. Ask the home club's secretary."), 403)
        # The code is in the address: no search engine, no shared cache, no referrer. Nothing
        # is kept but what a view says may be kept by the phone itself (the state's validator).
        if not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
        return response

    def find_link(self, code: str) -> TableLink | None:
        """The link of a normalised side code, with what the view needs (table_link_by_code)."""
        return table_selectors.table_link_by_code(code)

    def other_code(self, request) -> None:
        """The other team's code on a phone both teams share (`with` in the address, `other_code`
        in a post): it must be this table's other side's, else the device is told (403) and the
        try counts as a guess."""
        text = (request.POST.get("other_code") if request.method == "POST" else None) or request.GET.get("with") or ""
        text = services.normalise_code(text[: CODE_MAX_LENGTH + 8])
        if not text or text == self.code:
            return
        if not text.isascii() or self.link.side_of(text) not in SIDES:
            _count_guess(request)
            raise PermissionDenied(_("That is not the other team's code at this table."))
        self.codes.append(text)

    @property
    def sides_held(self) -> frozenset[str]:
        return services.sides_of_codes(self.link, self.codes)

    @property
    def other_held(self) -> str:
        return self.codes[1] if len(self.codes) > 1 else ""

    def refused(self, message: str, status: int, **extra) -> HttpResponse:
        if wants_json(self.request):
            return JsonResponse({"result": "refused", "message": str(message), **extra}, status=status)
        return render(self.request, "scoring/table/refused.html", {"message": message, "link": self.link, "code": self.code}, status=status)

    def state(self):
        return table_selectors.table_state(self.link)

    def state_tag(self) -> str:
        """The state's validator, which the page's htmx poll sends back (If-None-Match). Read before
        the state is drawn: a change meanwhile makes the next poll draw it again."""
        poll = table_selectors.table_poll(link=self.link.pk)
        return table_selectors.table_state_tag(poll, self.sides_held) if poll else ""

    def context(self, state, tag: str) -> dict:
        return {
            **state_context(self.link, state, self.sides_held),
            "state_tag": tag,
            "code": self.code,
            "side": self.side,
            "other_code": self.other_held,
        }

    def deal_form(self, data=None, *, state=None) -> DealForm:
        rules = self.link.match.rules
        return DealForm(data, has_clock=rules.has_clock, rules=rules)

    def page(self, *, form=None, placed=None, error="", status=200, correct=None):
        tag = self.state_tag()
        state = self.state()
        correcting = None
        if correct is not None and state.correctable and state.correctable.number == correct and form is None:
            # Rule 35: the last deal, prefilled, for the other team to agree to again.
            correcting = correct
            deal = table_selectors.match_deal(self.link.match, correct)
            form = DealForm(initial=DealForm.initial_from_deal(deal, self.link.match.started_at),
                            has_clock=self.link.match.rules.has_clock, rules=self.link.match.rules)  # fmt: skip
        elif form is not None and form.data.get("kind") == TableDeal.Kind.CORRECTION:
            try:
                correcting = whole_number(form.data.get("number"))
            except BadInput:
                correcting = None
        form = form or self.deal_form(state=state)
        context = {
            **self.context(state, tag),
            "correcting": correcting,
            "form": form,
            "placed": placed or place_problems(form.fields),
            "error": error,
            "client_id": uuid.uuid4().hex,
            "sides": SIDES,
            "count_fields": COUNT_FIELDS,
            "rules": self.link.match.rules,
            "photo_rules": services.photo_rules(),
        }
        return render(self.request, "scoring/table/page.html", context, status=status)

    def back_to_page(self) -> HttpResponse:
        address = reverse("scoring:table", args=[self.code])
        if self.other_held:
            address += "?" + urlencode({"with": self.other_held})
        return HttpResponseRedirect(address, status=303)


class TablePageView(TableLinkMixin):
    """GET: the table's page: the next deal's fields, what waits, the protocol so far."""

    def get(self, request, code):
        table_selectors.table_contact_note(self.link)
        correct = None
        try:
            correct = whole_number(request.GET.get("correct"))
        except BadInput:
            correct = None
        return self.page(correct=correct)


class TableStateView(TableLinkMixin):
    """GET: the part of the page that changes (protocol, totals, minimums, what waits, the end)."""

    def find_link(self, code: str) -> TableLink | None:
        """The poll's one read (table_selectors.table_poll): the link as far as its checks and the
        validator need it. The whole link is loaded only to draw the state."""
        self.poll = table_selectors.table_poll(code=code)
        return self.poll.link if self.poll else None

    def get(self, request, code):
        """Asked by every open table page every few seconds: answered 304 while nothing the
        device sees has changed, from one read that writes nothing (the last contact goes to the
        cache); the engine runs only to draw."""
        table_selectors.table_contact_note(self.link)
        bare = table_selectors.table_state_tag(self.poll, self.sides_held)
        tag = f'"{bare}"'
        response = get_conditional_response(request, etag=tag)
        if response is None:
            link = table_selectors.table_link_by_code(self.code)
            if link is None or link.pk != self.link.pk:
                raise Http404("No table link with this code is in use.")
            self.link = link
            response = render(request, "scoring/table/_state.html", self.context(self.state(), bare))
        response["ETag"] = tag
        # Kept by the phone's own browser only, and asked again each time with its validator.
        patch_cache_control(response, private=True, no_cache=True)
        return response


def problems_fragment(request, placed, *, preview=None, message: str = "") -> str:
    """The live check's fragment (scoring/table/_check.html), whose parts htmx swaps into the deal
    form out of band: each field's problems (those of a field without a slot above the form, after
    `message`), the deal score, the running total and the next opening minimum per side."""
    elsewhere = [text for name, texts in placed.by_field.items() if name not in FIELDS_WITH_SLOTS for text in texts]
    context = {
        "preview": preview,
        "placed": placed,
        "slots": [(name, placed.by_field.get(name, [])) for name in FIELDS_WITH_SLOTS],
        "general": [*([message] if message else []), *elsewhere, *placed.general],
        "sides": [(side, getattr(preview, side, None)) for side in SIDES],
    }
    return render_to_string("scoring/table/_check.html", context, request)


class TableCheckView(TableLinkMixin):
    """POST: the engine's verdict on the deal being typed, as the secretary's live check gives it
    (views.secretary_base.preview_deal, place_problems), as a fragment (problems_fragment). Writes
    nothing of the protocol: only that this device's sides are typing a deal (poll_seconds)."""

    def post(self, request, code):
        match = self.link.match
        form = self.deal_form(request.POST)
        correcting = whole_number(request.POST.get("correct_number"), low=1)
        if correcting is not None and correcting > match.deal_count:
            correcting = None
        number = correcting or match.deal_count + 1
        # The other team's phone asks more often while this one types (poll_seconds).
        services.table_typing_note(link=self.link, codes=self.codes)
        preview = preview_deal(match, form.entry(number), correct_number=correcting) if form.is_valid() else None
        placed = place_problems(
            form.fields,
            problems=preview.problems if preview else (),
            warnings=preview.warnings if preview else (),
            form_errors=form.errors,
            deal_number=number,
        )
        return HttpResponse(problems_fragment(request, placed, preview=preview))


class TableProposeView(TableLinkMixin):
    """POST: one side proposes the next deal, a correction of the last deal, or that the time ran
    out between deals (services.table.table_deal_propose). Sent again with the same device-made
    id, it is stored once."""

    def post(self, request, code):
        data = request.POST
        kind = data.get("kind") or TableDeal.Kind.DEAL
        client_id = (data.get("client_id") or "").strip()
        if kind not in TableDeal.Kind.values or not CLIENT_ID.fullmatch(client_id):
            raise BadInput
        side = data.get("side") or self.side
        if side not in SIDES:
            raise BadInput
        match = self.link.match
        number = whole_number(data.get("number"), low=1 if kind == TableDeal.Kind.CORRECTION else 0) or 0
        resend_of = record_id(data.get("resend_of"), required=False)
        entry = None
        form = None
        if kind != TableDeal.Kind.TIME_UP:
            form = self.deal_form(data)
            if not form.is_valid():
                return self.with_problems(form, number or match.deal_count + 1, form_errors=form.errors)
            entry = form.entry(number or match.deal_count + 1)
        try:
            proposal = services.table_deal_propose(
                link=self.link, codes=self.codes, client_id=client_id, side=side, kind=kind,
                number=number or match.deal_count + 1, entry=entry, agreed_by_both=data.get("both") == "yes",
                resend_of=resend_of,
            )  # fmt: skip
        except DealProblemsError as refusal:
            return self.with_problems(form or self.deal_form(), number, problems=refusal.problems, message=refusal.message)
        except DomainError as refusal:
            if form is None:
                return self.refused(refusal.message, 422)
            return self.with_problems(form, number, message=refusal.message)
        return self.answered(proposal)

    def with_problems(self, form, number, *, problems=(), form_errors=None, message=None):
        """A deal refused: the page again with the problems placed, or for table.js the message and
        the problems as the live check draws them (problems_fragment), shown when the deal is put
        right, with or without a network."""
        placed = place_problems(form.fields, problems=problems, form_errors=form_errors, deal_number=number)
        message = str(message or _("The deal was not saved: correct the marked fields."))
        if wants_json(self.request):
            fragment = problems_fragment(self.request, placed, message=message)
            return JsonResponse({"result": "refused", "message": message, "problems": fragment}, status=422)
        return self.page(form=form, placed=placed, error=message, status=422)

    def answered(self, proposal: TableDeal) -> HttpResponse:
        if wants_json(self.request):
            return JsonResponse(
                {"result": proposal.status, "proposal": proposal.pk, "number": proposal.number, "message": proposal.note}
            )
        return self.back_to_page()


class TableAnswerView(TableProposeView):
    """POST: the other side agrees to what waits, or rejects it (with a reason), with its own code."""

    def post(self, request, code):
        data = request.POST
        proposal_id = record_id(data.get("proposal"))
        side = data.get("side") or self.side
        if side not in SIDES:
            raise BadInput
        try:
            proposal = services.table_deal_answer(
                link=self.link, codes=self.codes, proposal_id=proposal_id, side=side, agree=data.get("agree") == "yes",
                reason=(data.get("reason") or "")[:2000],
            )  # fmt: skip
        except DomainError as refusal:
            return self.refused(refusal.message, 422)
        return self.answered(proposal)


class TableConfirmView(TableLinkMixin):
    """POST: one side confirms the whole protocol of the ended match, with its own code."""

    def post(self, request, code):
        side = request.POST.get("side") or self.side
        if side not in SIDES:
            raise BadInput
        try:
            services.table_protocol_confirm(link=self.link, codes=self.codes, side=side)
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
        try:
            # The file itself: the service refuses one too large before reading it, and a photo
            # beyond the bounds of a photo or of the match's photos.
            services.match_photo_add(match=self.link.match, data=upload, link=self.link)
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
