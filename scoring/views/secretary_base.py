"""What the secretary's pages share: the match read with the user's rights (permissions.py says
who may see and do what), the protocol sheet as the engine replays it, the preview of a deal being typed, and engine problems placed by field.

Terms: the *sheet* is the deal-by-deal table of the paper protocol; a *preview* is the engine's
replay of the stored deals plus the deal being typed (or corrected), never written, asked of the
one home of a stored match replayed (selectors.protocols.deal_replayed); a problem's
*slot* is the element next to an input (id "problems-<field>") where its messages appear, the
field being a protocol-file column name such as "away_cards".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.utils import timezone

from scoring import permissions
from scoring.adapters import minutes_between
from scoring.engine import DealEntry, MatchState, Problem, ReplayedDeal
from scoring.messages import FIELD_LABELS, field_error_message, problem_message
from scoring.selectors.protocols import MatchProtocol, deal_replayed, match_protocol
from scoring.selectors.public import MATCH_PAGE_RELATED
from scoring.models import Match
from scoring.selectors.secretary import match_for_user, match_with

class MatchAccessMixin(LoginRequiredMixin):
    """Loads the match named by `pk`; anonymous users go to the login page, others without the
    `access` right ("view" or "enter") get 403."""

    access = "view"
    # What the match's pages show of it: one query, however many names the page prints.
    PAGE_RELATED = (*MATCH_PAGE_RELATED, "competition__organiser", "home_team__club", "away_team__club",
                    "entered_by", "confirmed_by", "disputed_by")  # fmt: skip
    # What deciding who may enter the protocol and saving need (the permissions read these rows'
    # ids only; the away team is read only if someone other than the protocol keeper posts).
    SAVE_RELATED = ("competition", "home_team")
    # A view whose POST saves and then redirects (POST-redirect-GET) reads only SAVE_RELATED for
    # it; a refusal that shows the page reads the rest through page_match().
    saves_then_redirects = False

    def match_related(self, request) -> tuple[str, ...]:
        """The related rows read with the match for this request."""
        if self.saves_then_redirects and request.method == "POST":
            return self.SAVE_RELATED
        return self.PAGE_RELATED

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        related = self.match_related(request)
        self.match = self.read_match(related, kwargs["pk"])
        self._match_has_page_rows = set(related) >= set(self.PAGE_RELATED)
        if not self.has_access(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def read_match(self, related: tuple[str, ...], pk: int) -> Match:
        """The match with `related`, or 404, and whether the user is a secretary of its home club
        and its organiser (permissions.secretary_flags), in one query."""
        return match_for_user(pk, self.request.user, related)

    def page_match(self) -> Match:
        """The match with everything its page shows (read again only if the request read less)."""
        if not getattr(self, "_match_has_page_rows", True):
            self.match = match_with(self.match.pk, self.PAGE_RELATED)
            self._match_has_page_rows = True
        return self.match

    def has_access(self, user) -> bool:
        if self.access == "enter":
            return permissions.can_enter_protocol(user, self.match)
        if self.access == "manage-result":
            return permissions.can_manage_result(user, self.match)
        return permissions.can_view_protocol(user, self.match)

    def reload_match(self) -> Match:
        self.match.refresh_from_db()
        return self.match


# -- reading the match as the engine sees it ----------------------------------------------------


def protocol_sheet(match: Match) -> MatchProtocol:
    """The protocol as the secretary's and the captain's pages show it (selectors.protocols)."""
    return match_protocol(match)


# -- the deal being typed -----------------------------------------------------------------------


@dataclass(frozen=True)
class SidePreview:
    before: int
    breakdown: object  # engine SideScore: cards, canastas, red_threes, going_out, penalties, score
    after: int
    min_before: int
    min_next: int


@dataclass(frozen=True)
class DealPreview:
    number: int
    home: SidePreview
    away: SidePreview
    problems: tuple[tuple[int, Problem], ...]
    warnings: tuple[tuple[int, Problem], ...]
    # The match's state with the deal (selectors.protocols.DealReplayed: when the engine went on
    # from the deal before, its deals start at this one).
    state: MatchState
    ends_match: bool
    correcting: bool

    @property
    def sides(self) -> tuple[SidePreview, SidePreview]:
        return (self.home, self.away)


def preview_deal(
    match: Match,
    entry: DealEntry,
    *,
    correct_number: int | None = None,
    dealt_at: datetime | None = None,
    protocol: MatchProtocol | None = None,
) -> DealPreview:
    """Replay the stored deals with the typed one (added, or replacing deal `correct_number`).
    `protocol`: the match's protocol when the page has read it already (selectors.protocols)."""
    protocol = protocol or match_protocol(match)
    count = len(protocol.deals)
    minute = minutes_between(match.started_at, dealt_at) if dealt_at else entry.dealt_minute
    if correct_number is not None and 1 <= correct_number <= count:
        number = correct_number
    else:
        correct_number = None
        number = count + 1
    with_deal = deal_replayed(match, protocol.state, replace(entry, number=number, dealt_minute=minute))
    state, replayed, before = with_deal.state, with_deal.deal, with_deal.before
    problems = [(number, p) for p in replayed.errors]
    if correct_number is not None:
        # A correction may end the match earlier: the deals after it are then refused too.
        problems += [(later.number, p) for later in with_deal.later for p in later.errors if p.code == "after-match-end"]
    rules = state.rules

    def side(name: str) -> SidePreview:
        total_before = before.total(name) if before else 0
        return SidePreview(
            before=total_before,
            breakdown=replayed.score.side(name),
            after=replayed.total(name),
            min_before=replayed.min_before(name),
            min_next=rules.opening_minimum(replayed.total(name)),
        )

    warnings = [(number, p) for p in replayed.warnings]
    if correct_number is not None:
        warnings += later_notes(protocol, with_deal.later)
    return DealPreview(
        number=number,
        home=side("home"),
        away=side("away"),
        problems=tuple(problems),
        warnings=tuple(warnings),
        state=state,
        ends_match=state.end_deal == number and state.end is not None,
        correcting=correct_number is not None,
    )


def later_notes(protocol: MatchProtocol, later: tuple[ReplayedDeal, ...]) -> list[tuple[int, Problem]]:
    """The notes a correction gives the deals after it that the protocol as stored does not have:
    a deal's written total that no longer adds up from the corrected one (rule 35 b), shown while
    the correction is typed as it will be listed once saved. The end of the match is the
    correction's own problem (after-match-end, above)."""
    stored = {
        (note.number, note.problem.code, note.problem.side, note.problem.field, repr(note.problem.params))
        for note in protocol.notes
    }
    return [
        (deal.number, problem)
        for deal in later
        for problem in (*deal.errors, *deal.warnings)
        if problem.code != "after-match-end"
        and (deal.number, problem.code, problem.side, problem.field, repr(problem.params)) not in stored
    ]


# -- problems placed by field -------------------------------------------------------------------


@dataclass
class PlacedProblems:
    """Messages by field slot, and those that name no field of the form (shown above the form)."""

    by_field: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.by_field or self.general)

    @property
    def count(self) -> int:
        return sum(len(m) for m in self.by_field.values()) + len(self.general)


def _is_deal_field(name: str) -> bool:
    return (name.split("_", 1)[1] if name.startswith(("home_", "away_")) else name) in FIELD_LABELS


def place_problems(
    field_names,
    *,
    problems=(),
    warnings=(),
    form_errors=None,
    deal_number: int | None = None,
) -> PlacedProblems:
    """Engine problems (pairs of deal number and Problem) and form errors, by field slot. A form
    error on a deal's field names the deal, side and field as an engine problem does."""
    names = set(field_names)
    placed = PlacedProblems()
    if form_errors:
        for name, errors in form_errors.items():
            if deal_number is not None and (name == NON_FIELD_ERRORS or (name in names and _is_deal_field(name))):
                where = "deal" if name == NON_FIELD_ERRORS else name
                messages = [field_error_message(where, str(error), deal_number) for error in errors]
            else:
                messages = [str(error) for error in errors]
            if name in names:
                placed.by_field.setdefault(name, []).extend(messages)
            else:
                placed.general.extend(messages)
    for number, problem in problems:
        message = problem_message(problem, number)
        if problem.field in names:
            placed.by_field.setdefault(problem.field, []).append(message)
        else:
            placed.general.append(message)
    placed.warnings = [problem_message(problem, number) for number, problem in warnings]
    return placed


def planned_later_than_today(match: Match):
    """The day a match not yet begun is planned for, when that is after today: the secretary may
    have opened next week's match by mistake (both are listed in "My matches")."""
    if match.scheduled_start:
        day = timezone.localdate(match.scheduled_start)
    elif match.round_id and match.round.date:
        day = match.round.date
    else:
        return None
    return day if day > timezone.localdate() else None
