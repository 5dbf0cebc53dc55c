"""The one read model of a match's protocol (protokoll): its deals (giv) read once and replayed once
through the engine, under the rules the match is played by; and the one home of a stored match
replayed (`replayed`, `match_state`, `next_deal_replayed`, `deal_replayed`), which the services,
the pages and the other selectors ask rather than calling the engine's replay themselves.

Every page and document that shows a played protocol takes it from `match_protocol()`: the public
match page, the secretary's protocol page, the captain's confirmation view, the PDF and the
workbook. Its *notes* (`MatchProtocol.notes`, `ProtocolDeal.notes`) are the one list of what the
engine found in the stored deals, each at the deal where it sits: the warnings of docs/rules.md, "Warnings" (an
arithmetic slip among them since revision 3) and any error a correction of an earlier deal has left
on a later one. Every view shows that list, worded by `scoring.messages.problem_message`. The numbers are raw (int, Decimal); how they look is the template filters' business
(scoring.templatetags.public_format over scoring.formatting, the one number formatter). `status_text()` is the one way a
match's state is put in words, and `has_score()` the one answer to "is there a score to show".

Terms: a *side* (lag) is home or away; each deal row carries both sides' line: what the protocol
says (cards, natural and mixed canastas, red threes, penalty) and the engine's numbers (the score
with its breakdown, the running total, the opening minimum before the deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet, Subquery
from django.utils.translation import gettext as _, gettext_lazy

from scoring.adapters import deal_to_entry, minutes_between
from scoring.engine import HOME, DealEntry, MatchState, Problem, ReplayedDeal, SideScore, replay, replay_next
from scoring.formatting import format_number
from scoring.messages import problem_message
from scoring.models import Competition, Deal, Match, Round

S = Match.Status


@dataclass(frozen=True)
class ProtocolSide:
    """One side's line of one deal: what the protocol says and the engine's numbers."""

    side: str
    cards: int
    natural: int
    mixed: int
    red3: int
    penalty: int
    melded: bool
    score: int
    total: int
    min_before: int
    breakdown: SideScore
    went_out: bool
    concealed: bool


@dataclass(frozen=True)
class ProtocolNote:
    """One note of a protocol: the engine's problem and the deal it sits at."""

    number: int
    problem: Problem

    @property
    def message(self) -> str:
        """The sentence every view shows: 'Giv 3, bortalaget, summa: …'."""
        return problem_message(self.problem, self.number)


@dataclass(frozen=True)
class ProtocolDeal:
    number: int
    deal_id: int
    dealt_at: datetime | None
    # The minute of the match it was dealt (docs/protocol-file.md, "Rows and columns": `dealt`).
    dealt_minute: float | None
    home: ProtocolSide
    away: ProtocolSide
    end: str  # "out", "stock" or "clock"
    out: str | None
    concealed: bool
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    ends_match: bool
    is_last: bool

    @property
    def sides(self) -> tuple[ProtocolSide, ProtocolSide]:
        return (self.home, self.away)

    @property
    def notes(self) -> tuple[ProtocolNote, ...]:
        """What the engine found in this deal, errors first, then warnings, each once."""
        return tuple(ProtocolNote(self.number, problem) for problem in (*self.errors, *self.warnings))


@dataclass(frozen=True)
class MatchProtocol:
    match: Match
    state: MatchState
    deals: tuple[ProtocolDeal, ...]

    @property
    def rows(self) -> tuple[ProtocolDeal, ...]:
        return self.deals

    @property
    def next_number(self) -> int:
        return len(self.deals) + 1

    @property
    def played(self) -> bool:
        return bool(self.state.finished or self.deals)

    @property
    def home_total(self) -> int:
        # A walk over has no deals: its award is what the match row stores.
        return self.state.home_total if self.played else self.match.home_total

    @property
    def away_total(self) -> int:
        return self.state.away_total if self.played else self.match.away_total

    @property
    def finished(self) -> bool:
        return bool(self.state.finished or self.match.end)

    @property
    def winner(self) -> str | None:
        """"home", "away", "draw", or None while there is no result."""
        if not self.finished:
            return None
        return self.match.winner or self.state.winner

    @property
    def has_score(self) -> bool:
        return has_score(self.match)

    @property
    def notes(self) -> tuple[ProtocolNote, ...]:
        """Every deal's notes in deal order: the list the pages, the PDF's remarks and the
        workbook show alike."""
        return tuple(note for deal in self.deals for note in deal.notes)

    @property
    def closing_reason(self) -> str:
        """The reason given when the match was abandoned or given as a walk over, else ""."""
        match = self.match
        if match.status == S.VOID or match.end in (Match.End.FORFEIT, Match.End.WARNINGS, Match.End.ABANDONED):
            return match.reason
        return ""


def _side(replayed: ReplayedDeal, side: str) -> ProtocolSide:
    entry = replayed.entry
    side_entry = entry.side(side)
    return ProtocolSide(
        side=side,
        cards=side_entry.cards,
        natural=side_entry.natural,
        mixed=side_entry.mixed,
        red3=side_entry.red3,
        penalty=side_entry.penalty,
        melded=entry.melded(side),
        score=replayed.score.side(side).score,
        total=replayed.total(side),
        min_before=replayed.min_before(side),
        breakdown=replayed.score.side(side),
        went_out=entry.out == side,
        concealed=entry.out == side and entry.concealed,
    )


# -- the stored match replayed ----------------------------------------------------------------------


def stored_deals(match: Match) -> list[Deal]:
    """The match's deals in order."""
    return list(Deal.objects.filter(match_id=match.pk).order_by("number"))


def stored_entries(match: Match, deals: Sequence[Deal] | None = None) -> list[DealEntry]:
    """The match's stored deals (`deals`, when read already) as the engine reads them."""
    return [deal_to_entry(deal, match.started_at) for deal in (stored_deals(match) if deals is None else deals)]


def replayed(match: Match, entries: Sequence[DealEntry]) -> MatchState:
    """`entries` replayed from the first deal as the match is played: under its rules, counted
    with its points, ended by its clock if the final signal came between deals."""
    return replay(match.rules, list(entries), points=match.points_rules, clock_expired=match.clock_expired)


def match_state(match: Match) -> MatchState:
    """The engine's view of the match as stored (its minimums, problems, end and outcome)."""
    return replayed(match, stored_entries(match))


def with_deal(entries: Sequence[DealEntry], entry: DealEntry) -> list[DealEntry]:
    """`entries` with `entry` in place of the deal of its number, or after them."""
    changed = list(entries)
    if 1 <= entry.number <= len(changed):
        changed[entry.number - 1] = entry
    else:
        changed.append(entry)
    return changed


@dataclass(frozen=True)
class Standing:
    """Where a match stands before a deal, all the engine needs to go on from there
    (engine.replay_next) instead of replaying the deals before it: the computed totals, how many
    deals came before, the totals as written on the last of them (rule 35 b; None where not
    written) and the minute the last deal with a time was dealt (deals-out-of-order)."""

    totals: tuple[int, int]
    deals: int
    written: tuple[int | None, int | None] = (None, None)
    last_minute: float | None = None


def next_deal_replayed(match: Match, entry: DealEntry, standing: Standing) -> MatchState:
    """The deal `entry` replayed after the deals `standing` stands for: equal to the last deal of the
    whole match replayed with it, for a match the deals before it have not ended. The state holds
    this deal only."""
    return replay_next(
        match.rules,
        entry,
        totals=standing.totals,
        deals_before=standing.deals,
        written_before=standing.written,
        previous_minute=standing.last_minute,
        points=match.points_rules,
        clock_expired=match.clock_expired,
    )


def row_standing(match: Match, entry: DealEntry, started_at: datetime | None = None) -> Standing:
    """Where the match row says the match stands before its next deal `entry`: the running totals and
    deal count it keeps, and the last deal as written read only when the deal's checks need it (a
    written minimum or total, a time). `started_at`: when the match's minutes count from, if the
    row does not say yet (the hall clock's start at the table)."""
    home, away = entry.home, entry.away
    needs_last = match.deal_count and (
        entry.dealt_minute is not None
        or home.written_min is not None
        or home.written_total is not None
        or away.written_min is not None
        or away.written_total is not None
    )
    last = _last_deal_as_written(match) if needs_last else None
    if last is None:
        return Standing((match.home_total, match.away_total), match.deal_count)
    return Standing(
        (match.home_total, match.away_total),
        match.deal_count,
        (last["home_total_written"], last["away_total_written"]),
        minutes_between(match.started_at or started_at, last["last_dealt_at"]),
    )


def _last_deal_as_written(match: Match) -> dict[str, object] | None:
    """The running totals as written on the last deal and when the last deal with a time was dealt."""
    last_dealt = Deal.objects.filter(match_id=match.pk, dealt_at__isnull=False).order_by("-number").values("dealt_at")[:1]
    return (
        Deal.objects.filter(match_id=match.pk)
        .order_by("-number")
        .annotate(last_dealt_at=Subquery(last_dealt))
        .values("home_total_written", "away_total_written", "last_dealt_at")
        .first()
    )


def replayed_standing(state: MatchState, deals: int) -> Standing:
    """Where a replayed match stood after its first `deals` deals."""
    earlier = state.deals[:deals]
    if not earlier:
        return Standing((0, 0), 0)
    last = earlier[-1]
    minutes = [deal.entry.dealt_minute for deal in earlier if deal.entry.dealt_minute is not None]
    return Standing(
        (last.home_total, last.away_total),
        deals,
        (last.entry.home.written_total, last.entry.away.written_total),
        minutes[-1] if minutes else None,
    )


@dataclass(frozen=True)
class DealReplayed:
    """One deal replayed where it stands in a match: the engine's `deal`, the deal before it (None
    for the first), the deals after it replayed again (a correction of an earlier deal) and the
    state the match reaches with it. When the engine went on from the deals before it, `state`
    holds this deal and those after it only."""

    deal: ReplayedDeal
    before: ReplayedDeal | None
    later: tuple[ReplayedDeal, ...]
    state: MatchState


def deal_replayed(match: Match, stored: MatchState, entry: DealEntry) -> DealReplayed:
    """The match replayed (`stored`: as stored) with `entry` in place of the deal of its number, or
    after the last. The engine goes on from the deal before it when nothing follows it and the
    deals before it have not ended the match (the answer is then the same, and one deal is
    replayed instead of all); otherwise the whole match is replayed."""
    number = entry.number
    count = len(stored.deals)
    before = stored.deals[number - 2] if 1 < number <= count + 1 else None
    ended_before = stored.end_deal is not None and stored.end_deal < number
    if number >= count and not ended_before:
        state = next_deal_replayed(match, entry, replayed_standing(stored, number - 1))
        return DealReplayed(state.deals[0], before, (), state)
    state = replayed(match, with_deal([deal.entry for deal in stored.deals], entry))
    return DealReplayed(state.deals[number - 1], before, state.deals[number:], state)


# -- the protocol ----------------------------------------------------------------------------------


def match_protocol(match: Match) -> MatchProtocol:
    """The match's deals, read once and replayed once: scores, breakdowns, running totals,
    opening minimums, problems, how the match ended."""
    stored = stored_deals(match)
    return _protocol(match, stored_entries(match, stored), stored)


def protocol_preview(match: Match, entries: list[DealEntry]) -> MatchProtocol:
    """Deals not saved (a protocol file being checked) as the match's protocol would be with them:
    the same model, so the page shows them exactly as it will once they are saved."""
    return _protocol(match, list(entries), [None] * len(entries))


def _protocol(match: Match, entries: list[DealEntry], stored: list[Deal | None]) -> MatchProtocol:
    state = replayed(match, entries)
    last = len(stored) - 1
    deals = tuple(
        ProtocolDeal(
            number=replayed.number,
            deal_id=deal.pk if deal is not None else 0,
            dealt_at=deal.dealt_at if deal is not None else None,
            dealt_minute=replayed.entry.dealt_minute,
            home=_side(replayed, HOME),
            away=_side(replayed, "away"),
            end=replayed.entry.effective_end,
            out=replayed.entry.out,
            concealed=replayed.entry.concealed,
            errors=tuple(replayed.errors),
            warnings=tuple(replayed.warnings),
            ends_match=state.end_deal == replayed.number and state.end is not None,
            is_last=index == last,
        )
        for index, (replayed, deal) in enumerate(zip(state.deals, stored))
    )
    return MatchProtocol(match=match, state=state, deals=deals)


# -- the matches a protocol document prints ---------------------------------------------------------

# The related rows a protocol's header reads (teams, players, captains, who confirmed), in one query.
PROTOCOL_DOCUMENT_RELATED = (
    "competition__organiser",
    "round",
    "home_team__club",
    "home_team__player_one",
    "home_team__player_two",
    "home_team__captain",
    "away_team__club",
    "away_team__player_one",
    "away_team__player_two",
    "away_team__captain",
    "home_substitute",
    "away_substitute",
    "confirmed_by",
)


def protocol_document_match(pk: int) -> Match:
    """The match with everything its printed protocol names."""
    return Match.objects.select_related(*PROTOCOL_DOCUMENT_RELATED).get(pk=pk)


def round_protocol_matches(round: Round) -> QuerySet[Match]:
    """The matches of a round that get a blank protocol (not the abandoned ones), by table."""
    return (
        round.matches.exclude(status=S.VOID).select_related(*PROTOCOL_DOCUMENT_RELATED).order_by("table", "id")
    )


def document_rounds() -> QuerySet[Round]:
    """Rounds with their competition and its organiser, which every round document names."""
    return Round.objects.select_related("competition__organiser")


def round_matches_with_keepers(round: Round) -> QuerySet[Match]:
    """The matches of a round with what deciding who keeps each protocol reads
    (permissions.can_enter_protocol)."""
    return round.matches.select_related("competition", "home_team")


def documented_matches() -> QuerySet[Match]:
    """Matches with the competition and teams a document's name and access check read."""
    return Match.objects.select_related("competition", "home_team", "away_team")


def competition_deal_values(competition: Competition, fields: tuple[str, ...], chunk_size: int = 2000):
    """Every stored deal of the competition as a tuple of `fields` (Deal fields and lookups through
    the match), by round, table, match and deal number, read in chunks."""
    return (
        Deal.objects.filter(match__competition=competition)
        .order_by("match__round__number", "match__table", "match_id", "number")
        .values_list(*fields)
        .iterator(chunk_size=chunk_size)
    )


# -- a match's state in words ---------------------------------------------------------------------

STATUS_TEXT = {
    S.SCHEDULED: gettext_lazy("Not started"),
    S.IN_PROGRESS: gettext_lazy("In progress"),
    S.FINISHED: gettext_lazy("Finished, not yet submitted"),
    S.SUBMITTED: gettext_lazy("Awaiting confirmation"),
    S.CONFIRMED: gettext_lazy("Confirmed"),
    S.POSTPONED: gettext_lazy("Postponed"),
    S.VOID: gettext_lazy("Abandoned"),
}


def is_disputed(match: Match) -> bool:
    """Whether the other side disputed the protocol and it has not been submitted again since
    (services.match_dispute sends it back as finished, with the reason)."""
    return match.status == S.FINISHED and match.disputed_at is not None


def match_status_label(match: Match) -> str:
    """The match's status in a word or two, as its badge shows it: a disputed protocol says so."""
    if is_disputed(match):
        return _("Disputed")
    return match.get_status_display()


def status_text(match: Match) -> str:
    """The match's state as the pages, tables and documents say it (the match's competition read)."""
    if is_disputed(match):
        return _("Disputed, back with the home team's secretary")
    if match.status == S.IN_PROGRESS:
        return _("In progress, deal %(number)s") % {"number": match.deal_count + 1}
    if match.status == S.FINISHED and not match.competition.requires_confirmation:
        return _("Finished")
    return str(STATUS_TEXT.get(match.status, match.get_status_display()))


def end_text(protocol: MatchProtocol) -> str:
    """How the match ended, or where it stands, in one sentence: the page and the printed protocol
    say it alike. Who won is result_text(); only a walk over names the winner here, its award being
    the way it ended (docs/rules.md, "Forfeits")."""
    match, state = protocol.match, protocol.state
    End = Match.End
    if match.status == S.VOID or match.end == End.ABANDONED:
        return _("The match was abandoned.")
    if match.end in (End.FORFEIT, End.WARNINGS):
        winner = match.team(match.winner).name if match.winner in ("home", "away") else ""
        if match.end == End.FORFEIT:
            return _("Walk over: %(team)s wins by the forfeit award.") % {"team": winner}
        return _("Lost after repeated warnings: %(team)s wins by the forfeit award.") % {"team": winner}
    if state.end == "target":
        return _("The match ended after deal %(number)s: %(target)s was reached.") % {
            "number": state.end_deal,
            "target": format_number(state.rules.target),
        }
    if state.end == "clock":
        # The final signal either stopped a deal being played or came between two deals.
        if match.clock_expired and (not protocol.deals or protocol.deals[-1].end != "clock"):
            return _("The match ended by the clock: the final signal came after deal %(number)s.") % {
                "number": state.end_deal
            }
        return _("The match ended by the clock: the final signal ended deal %(number)s.") % {
            "number": state.end_deal
        }
    if match.status == S.IN_PROGRESS:
        return _("In progress: deal %(number)s is being played.") % {"number": match.deal_count + 1}
    if match.status == S.POSTPONED:
        return _("The match has been postponed.")
    if match.status == S.SCHEDULED:
        return _("The match has not started yet.")
    return _("The match is not finished.")


def result_text(protocol: MatchProtocol) -> str:
    """Who won: "Draw", "<team> won", or "No result yet"."""
    winner = protocol.winner
    if winner == "draw":
        return _("Draw")
    if winner in ("home", "away"):
        return _("%(team)s won") % {"team": protocol.match.team(winner).name}
    return _("No result yet")


def has_score(match: Match) -> bool:
    """Whether the match has a score to show: a deal played, or a walk over's award."""
    return match.deal_count > 0 or match.end in (Match.End.FORFEIT, Match.End.WARNINGS)
