"""Services for entry at the table: the table link, deals proposed and agreed at the table, the
clock's end and both sides' confirmation of the whole protocol (the photo of the signed paper:
services.photos).

Terms: a *table link* is `/t/<code>/`; who holds it acts for the players at that table, without an
account (`TableSide`, which the permissions know: scoring.permissions.holds_table_link). A
*proposal* (TableDeal) is what one side typed: the next deal, a correction of the last deal
(rule 35) or "time ran out between deals" (docs/rules.md, "The end of a match"). It changes the protocol
only when the other side agrees, and then through the deal services of scoring.services.matches
(deals_record, deal_correct, match_declare_clock), whose checks are the ones the secretary's page
gets: nothing is checked twice in two ways. A proposal carries an id made on the device
(`client_id`): sent twice, it is stored once.

Every function runs in one transaction, locks the match row first (as the match services do, so
one table's phones and the secretary's page are served one after the other) and logs what it did
with the link's code. The row is locked once: the match services called here are handed the
locked row (`locked=True`). It is locked without moving a version (what the table proposes is on
no public page); the match service that changes the protocol claims the version then.

What the public pages show changes only through the match services called here (deals_record,
deal_correct, match_declare_clock, match_confirm): they keep the match's version, its standings
and whatever else marks a competition's pages as changed. The table's own rows (links, proposals,
photos) are shown on no public page, so writing them changes none.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.adapters import deal_to_entry, entry_to_fields, minutes_between
from scoring.engine import SIDES, DealEntry
from scoring.models import Deal, Match, Round, TableDeal, TableLink
from scoring.selectors.protocols import next_deal_replayed, replayed, row_standing, stored_entries, with_deal
from scoring.selectors.public import HallClock

from .audit import audit_log
from .errors import DealProblemsError, DomainError, MatchStateError
from . import locking
from .matches import deal_correct, deals_record, dealt_time, match_confirm, match_declare_clock

S = Match.Status
P = TableDeal.Status

# Eight characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B): 25⁸, about
# 1.5 × 10¹¹ codes, against guessing throttled per address (docs/operations.md, table codes, has
# the odds). Codes made before were six characters long and still work.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 8


class TableSide:
    """Who acts through a table link: the players of one side at the table, with that side's code
    and without an account. The permissions let it enter this match's deals (holds_table_link);
    it confirms the protocol in the captain's stead only when both sides did, each with its own
    code, and the competition says so. `side` is None for what either side may do (a photo)."""

    is_authenticated = False
    is_superuser = False
    is_staff = False
    is_active = True
    pk = None
    id = None
    audit_label = "table"

    def __init__(self, link: TableLink, side: str | None = None, *, both_sides_confirmed: bool = False):
        self.link = link
        self.side = side
        self.table_match_id = link.match_id
        self.both_sides_confirmed = both_sides_confirmed

    def get_username(self) -> str:
        if self.side is None:
            return _("table link %(code)s") % {"code": self.link.code}
        return _("table link %(code)s, %(team)s's code") % {"code": self.link.code, "team": self.link.match.team(self.side)}

    def get_full_name(self) -> str:
        return self.get_username()

    def __str__(self) -> str:
        return self.get_username()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _n in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """A code as typed: any case, spaces and dashes ignored."""
    return "".join(text.split()).replace("-", "").upper()


def link_is_open(link: TableLink) -> bool:
    """The link works: not withdrawn, its match not submitted, confirmed or void, and a postponed
    match's link not past the day it was to be played (a new day gets a new link)."""
    match = link.match
    if link.withdrawn_at is not None or match.status not in Match.OPEN_STATUSES or match.competition.archived:
        return False
    if match.status == S.POSTPONED:
        day = match_day(match)
        return day is None or day >= timezone.localdate()
    return True


def match_day(match: Match):
    """The day the match was to be played: its own start, else its round's date."""
    if match.scheduled_start is not None:
        return timezone.localdate(match.scheduled_start)
    return match.round.date if match.round_id else None


# -- the link, for the home secretary -------------------------------------------------------------


def _may_manage_link(user, match: Match) -> None:
    if not permissions.can_enter_or_manage(user, match):
        raise PermissionDenied(_("You may not change this match."))
    if getattr(user, "table_match_id", None) is not None:
        raise PermissionDenied(_("You may not change this match."))


def _create_link(match: Match, user) -> TableLink:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                home_code, away_code = new_code(), new_code()
                if home_code == away_code or TableLink.objects.filter(
                    Q(code__in=(home_code, away_code)) | Q(away_code__in=(home_code, away_code))
                ).exists():
                    continue
                return TableLink.objects.create(
                    match=match, code=home_code, away_code=away_code, created_by=user if user and user.pk else None
                )
        except IntegrityError:
            continue  # the code is taken (or another request made the link first)
    raise DomainError(_("No table link could be made; try again."))


@transaction.atomic
def table_link_issue(*, match: Match, user) -> TableLink | None:
    """The match's table link in use, made now if it has none. None when the match is no longer
    played (a link would open nothing)."""
    match = locking.lock_match(match, shown=False)
    _may_manage_link(user, match)
    link = TableLink.objects.filter(match=match, withdrawn_at__isnull=True).first()
    if link is not None or match.status not in Match.OPEN_STATUSES:
        return link
    link = _create_link(match, user)
    audit_log(match=match, user=user, action="table_link_issue", after={"link": link.code}, object_type="table_link", object_id=link.pk)
    return link


def table_links_issue_for_round(*, round: Round, user) -> dict[int, TableLink]:
    """Every played match of the round with its table link (made where missing), by match id:
    for the round's blank protocols and table cards."""
    links = {}
    if round.competition.archived:
        return links  # a closed season's round is played no more
    for match in round.matches.filter(status__in=Match.OPEN_STATUSES).select_related("competition", "home_team", "away_team"):
        if permissions.can_enter_or_manage(user, match):
            link = table_link_issue(match=match, user=user)
            if link is not None:
                links[match.pk] = link
    return links


@transaction.atomic
def table_link_withdraw(*, match: Match, user, renew: bool = False, reason: str = "") -> TableLink | None:
    """The home secretary withdraws the match's link (a code seen by the wrong people), and with
    `renew` gives a new one; the old code opens nothing from now on."""
    match = locking.lock_match(match, shown=False)
    _may_manage_link(user, match)
    old = TableLink.objects.filter(match=match, withdrawn_at__isnull=True).first()
    if old is None and not renew:
        raise MatchStateError(_("The match has no table link in use."))
    if old is not None:
        old.withdrawn_at = timezone.now()
        old.save(update_fields=["withdrawn_at"])
    new = None
    if renew:
        if match.status not in Match.OPEN_STATUSES:
            raise MatchStateError(_("The match is no longer played at the table."))
        new = _create_link(match, user)
    audit_log(
        match=match, user=user, action="table_link_renew" if renew else "table_link_withdraw",
        before={"link": old.code if old else None}, after={"link": new.code if new else None}, reason=reason,
        object_type="table_link", object_id=(new or old).pk,
    )  # fmt: skip
    return new


# -- at the table -----------------------------------------------------------------------------------


def lock_open_link(link: TableLink) -> tuple[TableLink, Match]:
    """The link and its match, both rows locked until the transaction ends; refused
    (PermissionDenied) when the link no longer works."""
    match = locking.lock_match(link.match, shown=False)
    link = TableLink.objects.select_for_update().get(pk=link.pk)
    link.match = match
    if not link_is_open(link):
        raise PermissionDenied(_("This table link no longer works. Ask the home club's secretary."))
    return link, match


def sides_of_codes(link: TableLink, codes) -> frozenset[str]:
    """The sides a device may act for: one per side code it holds (docs/rules.md, entry at the
    table: each team signs for itself). A code of another table gives nothing."""
    return frozenset(side for side in (link.side_of(normalise_code(code or "")) for code in codes) if side)


def _require_side(link: TableLink, side: str, codes) -> None:
    if side not in SIDES:
        raise MatchStateError(_("Say which team you are."))
    if side not in sides_of_codes(link, codes):
        team = link.match.team(side)
        raise PermissionDenied(
            _("Only %(team)s's own code acts for %(team)s. Add that team's code on this device, or let that team answer on its own phone.")
            % {"team": team}
        )


def _require_not_confirmed(link: TableLink) -> None:
    """A confirmation closes the protocol at the table (docs/rules.md, the end of a match)."""
    if link.home_confirmed_at or link.away_confirmed_at:
        raise MatchStateError(
            _("The protocol has been confirmed at the table; nothing more is added or corrected here. Ask the home club's secretary.")
        )


def _touch(link: TableLink, now: datetime, *, proposed_by=()) -> None:
    """The table's last contact; a proposal also ends its sides' typing notes (table_typing_note)."""
    link.last_contact_at = now
    fields = ["last_contact_at"]
    for side in proposed_by:
        setattr(link, f"{side}_typing_at", None)
        fields.append(f"{side}_typing_at")
    link.save(update_fields=fields)


# A typing note lasts selectors.table.TYPING_SECONDS; a side's is written again at most this often.
TYPING_NOTE_EVERY_SECONDS = 30


def table_typing_note(*, link: TableLink, codes) -> None:
    """The device holding `codes` is typing a deal (its live check): noted for each side it holds,
    so that the other side's phone asks for the state more often until the proposal comes
    (views.table.poll_seconds). A note, not the protocol: no lock, no audit entry, and at most one
    write per side every TYPING_NOTE_EVERY_SECONDS."""
    now = timezone.now()
    due = now - timedelta(seconds=TYPING_NOTE_EVERY_SECONDS)
    fields = {}
    for side in sides_of_codes(link, codes):
        noted = getattr(link, f"{side}_typing_at")
        if noted is None or noted < due:
            fields[f"{side}_typing_at"] = now
    if fields:
        TableLink.objects.filter(pk=link.pk).update(**fields)


# -- the hall clock at the table ----------------------------------------------------------------------


def running_clock(match: Match) -> HallClock | None:
    """The hall clock of the match's round as it stands for a table, when the match's rule set is
    timed and the clock was started (docs/rules.md, "The end of a match": at the table the site
    knows when each signal came)."""
    rules = match.rules
    if not rules.has_clock or match.round_id is None or match.round.clock_started_at is None:
        return None
    return HallClock(
        started_at=match.round.clock_started_at,
        main_minutes=rules.clock_main_minutes,
        extra_minutes=rules.clock_extra_minutes,
    )


def _in_progress_at_main_signal(match: Match, clock: HallClock) -> bool:
    """The next deal was dealt before the main signal: the deal before it was proposed before the
    signal (its stored minute says so), so this is the deal in progress at the signal, which may
    be played to its end (docs/rules.md, the end of a match)."""
    last = Deal.objects.filter(match=match).order_by("-number").values("dealt_at").first()
    return bool(last and last["dealt_at"] and last["dealt_at"] < clock.main_signal_at)


def _clock_problem(match: Match, kind: str, entry: DealEntry | None, now: datetime) -> str:
    """Why the clock forbids the proposal now (empty: it does not). Without a running hall clock
    the typed minutes and choices are taken as written; an untimed rule set has no clock at all."""
    rules = match.rules
    wants_clock_end = entry is not None and entry.end == "clock"
    if not rules.has_clock:
        if kind == TableDeal.Kind.TIME_UP or wants_clock_end:
            return _("This match is not played on the clock.")
        return ""
    clock = running_clock(match)
    if clock is None:
        return ""
    if kind == TableDeal.Kind.TIME_UP:
        if not clock.main_signal_passed(now):
            return _("The time has not run out: the signal comes at %(time)s.") % {"time": _clock_time(clock.main_signal_at)}
        return ""
    if wants_clock_end and not clock.final_signal_passed(now):
        return _("A deal is ended by the final signal only once it has been given (at %(time)s).") % {
            "time": _clock_time(clock.final_signal_at)
        }
    if kind == TableDeal.Kind.DEAL and clock.main_signal_passed(now) and not _in_progress_at_main_signal(match, clock):
        return _(
            "No new deal may be dealt after the signal at %(time)s (%(minutes)s minutes): deal %(number)s was not added. "
            "If the time ran out between deals, say so."
        ) % {"time": _clock_time(clock.main_signal_at), "minutes": rules.clock_main_minutes, "number": match.deal_count + 1}
    return ""


def _clock_time(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _dealt_at(match: Match, kind: str, entry: DealEntry | None, now: datetime) -> str | None:
    """The minute a table deal was dealt, kept with the proposal: with a running hall clock the
    minute it is proposed (docs/rules.md), except the deal in progress at the main signal, whose
    minute the site does not know; without one, the minute as typed, if any."""
    if kind != TableDeal.Kind.DEAL or entry is None:
        return None
    clock = running_clock(match)
    if clock is not None:
        return None if clock.main_signal_passed(now) else now.isoformat()
    dealt = dealt_time(match.started_at, entry.dealt_minute)
    return dealt.isoformat() if dealt else None


# -- what a proposal can stand beside -----------------------------------------------------------------


def proposal_conflict(match: Match, kind: str, number: int, has_values: bool, *, waiting_other: bool) -> str:
    """Why a proposal cannot stand beside what is stored or waiting (empty: it can). The one
    statement of it, asked when a proposal is made and again when it is agreed (the secretary may
    have changed the protocol in between)."""
    if kind in (TableDeal.Kind.DEAL, TableDeal.Kind.CORRECTION) and not has_values:
        return _("The deal has no values.")
    if kind == TableDeal.Kind.DEAL:
        if match.status not in Match.DEAL_STATUSES:
            return _("The match has ended; deal %(number)s was not added.") % {"number": number}
        if number != match.deal_count + 1:
            return _(
                "Deal %(number)s is on the protocol already (entered meanwhile, perhaps by the secretary); "
                "this one was not added. Compare the two and correct the protocol if they differ."
            ) % {"number": number}
    elif kind == TableDeal.Kind.CORRECTION:
        # Rule 35: a deal's score may be corrected only until the next deal is dealt.
        if number != match.deal_count or number < 1 or match.status not in Match.CORRECTABLE_STATUSES:
            return _("Only the last deal can be corrected at the table, before the next deal is dealt.")
    elif kind == TableDeal.Kind.TIME_UP:
        if match.status != S.IN_PROGRESS or not match.deal_count:
            return _("The match is not in progress; the time cannot run out.")
    # One thing at a time at a table: what waits is answered before the next is proposed.
    if waiting_other:
        return _("Another proposal waits for an answer already; answer it first.")
    return ""


def _check_next(match: Match, entry: DealEntry, number: int, *, correcting: bool, dealt_at: str | None) -> None:
    """The engine's errors for the deal as the protocol would stand with it (nothing written): the
    next deal from where the match row stands, as deals_record will score it; a correction of the
    last deal in the whole match replayed, as deal_correct will."""
    started = match.started_at
    clock = running_clock(match)
    if clock is not None and started is None:
        started = clock.started_at
    minute = minutes_between(started, datetime.fromisoformat(dealt_at)) if dealt_at else None
    entry = replace(entry, number=number, dealt_minute=minute if minute is not None else (None if clock else entry.dealt_minute))
    if correcting:
        entries = stored_entries(match)
        entry = replace(entry, dealt_minute=entries[number - 1].dealt_minute)
        checked = replayed(match, with_deal(entries, entry)).deals[number - 1]
    else:
        checked = next_deal_replayed(match, entry, row_standing(match, entry, started)).deals[0]
    problems = [(number, problem) for problem in checked.errors]
    if problems:
        raise DealProblemsError(problems)


def _logged(proposal: TableDeal, link: TableLink, by: str) -> dict:
    return {
        "link": link.code, "code_of": by, "client_id": proposal.client_id, "kind": proposal.kind,
        "number": proposal.number, "proposed_by": proposal.proposed_by, "values": proposal.values,
        "status": proposal.status, "home_agreed_at": proposal.home_agreed_at, "away_agreed_at": proposal.away_agreed_at,
    }  # fmt: skip


def _settle_resent(match: Match, link: TableLink, resend_of: int | None, proposal: TableDeal, side: str, now: datetime) -> None:
    """A conflict's numbers sent again as the next deal: the conflict is settled by it."""
    if resend_of is None:
        return
    conflict = TableDeal.objects.filter(match=match, pk=resend_of, status=P.CONFLICT, settled_at__isnull=True).first()
    if conflict is None:
        return
    conflict.settled_at = now
    conflict.save(update_fields=["settled_at"])
    audit_log(match=match, user=TableSide(link, side), action="table_conflict_settle",
              after={"link": link.code, "code_of": side, "conflict": conflict.pk, "resent_as": proposal.pk},
              object_type="table_deal", object_id=conflict.pk)  # fmt: skip


@transaction.atomic
def table_deal_propose(
    *, link: TableLink, codes, client_id: str, side: str, kind: str = TableDeal.Kind.DEAL, number: int,
    entry: DealEntry | None = None, agreed_by_both: bool = False, resend_of: int | None = None,
) -> TableDeal:  # fmt: skip
    """One side proposes the next deal (or a correction of the last deal, or the time running out
    between deals), with the side codes the device holds (`codes`): a code acts for its own side
    only. `agreed_by_both`: the device holds both codes and the other side agreed on it too, so the
    proposal is applied at once. Sent again with the same `client_id`, the proposal stored the
    first time is answered, unchanged. `resend_of`: a conflict whose numbers these are."""
    link, match = lock_open_link(link)
    _require_side(link, side, codes)
    other = "away" if side == "home" else "home"
    if agreed_by_both:
        _require_side(link, other, codes)
    known = TableDeal.objects.filter(match=match, client_id=client_id).first()
    if known is not None:
        return known
    _require_not_confirmed(link)
    now = timezone.now()
    _touch(link, now, proposed_by=(side, other) if agreed_by_both else (side,))
    if kind == TableDeal.Kind.DEAL and number > match.deal_count + 1:
        raise MatchStateError(_("Deal %(number)s must be agreed first.") % {"number": match.deal_count + 1})
    if kind == TableDeal.Kind.TIME_UP:
        number = match.deal_count
    values = entry_to_fields(entry) if entry is not None else {}
    proposal = TableDeal(match=match, link=link, client_id=client_id, kind=kind, number=number, proposed_by=side, values=values)
    setattr(proposal, f"{side}_agreed_at", now)
    waiting = TableDeal.objects.filter(match=match, status=P.WAITING).exists()
    conflict = proposal_conflict(match, kind, number, entry is not None, waiting_other=waiting)
    if conflict:
        # Never overwritten: kept with the players' numbers and shown, for them and the secretary to settle.
        proposal.status, proposal.note, proposal.decided_at = P.CONFLICT, conflict, now
        proposal.save()
        audit_log(match=match, user=TableSide(link, side), action="table_deal_conflict", after=_logged(proposal, link, side),
                  reason=conflict, object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return proposal
    problem = _clock_problem(match, kind, entry, now)
    if problem:
        raise MatchStateError(problem)
    dealt_at = _dealt_at(match, kind, entry, now)
    if entry is not None:
        _check_next(match, entry, number, correcting=kind == TableDeal.Kind.CORRECTION, dealt_at=dealt_at)
    if dealt_at:
        proposal.values["dealt_at"] = dealt_at
    proposal.save()
    audit_log(match=match, user=TableSide(link, side), action="table_deal_propose", after=_logged(proposal, link, side),
              object_type="table_deal", object_id=proposal.pk)  # fmt: skip
    _settle_resent(match, link, resend_of, proposal, side, now)
    if agreed_by_both:
        _agree(proposal, link, match, other, now)
    return proposal


@transaction.atomic
def table_deal_answer(*, link: TableLink, codes, proposal_id: int, side: str, agree: bool, reason: str = "") -> TableDeal:
    """The other side agrees to a proposal (it is then applied) or rejects it (it is marked, and
    the secretary sees it), with its own code. Answering again is answered with the proposal as it is."""
    link, match = lock_open_link(link)
    _require_side(link, side, codes)
    proposal = TableDeal.objects.select_for_update(of=("self",)).filter(match=match, pk=proposal_id).order_by("pk").first()
    if proposal is None:
        raise MatchStateError(_("There is no such proposal at this table."))
    if proposal.status != P.WAITING:
        return proposal
    if getattr(proposal, f"{side}_agreed_at") is not None:
        if agree:
            return proposal
        raise MatchStateError(_("Your side proposed this; the other side answers it."))
    now = timezone.now()
    _touch(link, now)
    if not agree:
        proposal.status = P.REJECTED
        proposal.note = reason.strip()
        proposal.decided_at = now
        proposal.save(update_fields=["status", "note", "decided_at"])
        audit_log(match=match, user=TableSide(link, side), action="table_deal_reject",
                  after={**_logged(proposal, link, side), "by": side},
                  reason=proposal.note, object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return proposal
    _require_not_confirmed(link)
    _agree(proposal, link, match, side, now)
    return proposal


def _agree(proposal: TableDeal, link: TableLink, match: Match, side: str, now: datetime) -> None:
    """Both sides agreed: the proposal goes onto the protocol through the deal services."""
    setattr(proposal, f"{side}_agreed_at", now)
    actor = TableSide(link, side)
    conflict = proposal_conflict(match, proposal.kind, proposal.number, bool(proposal.values), waiting_other=False)
    if conflict:
        proposal.status, proposal.note, proposal.decided_at = P.CONFLICT, conflict, now
        proposal.save()
        audit_log(match=match, user=actor, action="table_deal_conflict", after=_logged(proposal, link, side), reason=conflict,
                  object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return
    values = dict(proposal.values)
    dealt_at = values.pop("dealt_at", None)
    entry = deal_to_entry(values) if values else None
    if proposal.kind == TableDeal.Kind.DEAL:
        clock = running_clock(match)
        if clock is not None and match.started_at is None:
            # At the table the match runs on the hall clock: its minutes count from the clock's start.
            match.started_at = clock.started_at
            match.save(update_fields=["started_at"])
        deals_record(match=match, user=actor, entry=entry, expected_version=None, locked=True,
                     dealt_at=datetime.fromisoformat(dealt_at) if dealt_at else None)  # fmt: skip
    elif proposal.kind == TableDeal.Kind.CORRECTION:
        deal_correct(
            match=match, user=actor, number=proposal.number, entry=entry, expected_version=None, locked=True,
            reason=_("Corrected at the table; both sides agreed (table link %(code)s).") % {"code": link.code},
        )  # fmt: skip
    else:
        match_declare_clock(match=match, user=actor, expected_version=None, locked=True)
    proposal.status, proposal.decided_at = P.AGREED, now
    proposal.save()
    audit_log(match=match, user=actor, action="table_deal_agree", after=_logged(proposal, link, side),
              object_type="table_deal", object_id=proposal.pk)  # fmt: skip


@transaction.atomic
def table_conflict_set_aside(*, match: Match, user, proposal_id: int) -> TableDeal:
    """The secretary has compared a conflict at the table with the protocol and sets it aside."""
    match = locking.lock_match(match, shown=False)
    if not permissions.can_enter_or_manage(user, match):
        raise PermissionDenied(_("You may not change this match."))
    conflict = TableDeal.objects.filter(match=match, pk=proposal_id, status=P.CONFLICT).first()
    if conflict is None:
        raise MatchStateError(_("There is no such conflict at this table."))
    if conflict.settled_at is None:
        conflict.settled_at = timezone.now()
        conflict.save(update_fields=["settled_at"])
        audit_log(match=match, user=user, action="table_conflict_settle", after={"conflict": conflict.pk, "values": conflict.values},
                  object_type="table_deal", object_id=conflict.pk)  # fmt: skip
    return conflict


# -- the end of the match -----------------------------------------------------------------------------


@transaction.atomic
def table_protocol_confirm(*, link: TableLink, codes, side: str) -> TableLink:
    """One side confirms the whole protocol of the ended match at the table, with its own code.
    When both have, and the competition lets that stand for the captain's confirmation, the match
    is confirmed (match_confirm); otherwise the home secretary submits it as before. From the first
    confirmation nothing is added or corrected at the table."""
    link, match = lock_open_link(link)
    _require_side(link, side, codes)
    if match.status != S.FINISHED or match.end not in (Match.End.TARGET, Match.End.CLOCK):
        raise MatchStateError(_("The match has not ended yet."))
    if TableDeal.objects.filter(match=match, status=P.WAITING).exists():
        raise MatchStateError(_("A proposal still waits for an answer."))
    now = timezone.now()
    field = f"{side}_confirmed_at"
    if getattr(link, field) is None:
        setattr(link, field, now)
        link.last_contact_at = now
        link.save(update_fields=[field, "last_contact_at"])
        audit_log(match=match, user=TableSide(link, side), action="table_protocol_confirm",
                  after={"link": link.code, "code_of": side, "side": side, "at": now, "home_total": match.home_total,
                         "away_total": match.away_total, "deals": match.deal_count},
                  object_type="table_link", object_id=link.pk)  # fmt: skip
    if link.home_confirmed_at and link.away_confirmed_at and match.competition.table_confirmation:
        match_confirm(match=match, user=TableSide(link, side, both_sides_confirmed=True), expected_version=None, locked=True)
    return link

