"""Services for entry at the table: the table link, deals proposed and agreed at the table, the
clock's end and both sides' confirmation of the whole protocol (the photo of the signed paper:
services.photos).

Terms: a *table link* is `/t/<code>/`; who holds it acts for the players at that table, without an
account (`TableSide`, which the permissions know: scoring.permissions.holds_table_link). A
*proposal* (TableDeal) is what one side typed: the next deal, a correction of the last deal
(rule 35) or "time ran out between deals" (RULES.md, the end of a match). It changes the protocol
only when the other side agrees, and then through the deal services of scoring.services.matches
(deals_record, deal_correct, match_declare_clock), whose checks are the ones the secretary's page
gets: nothing is checked twice in two ways. A proposal carries an id made on the device
(`client_id`): sent twice, it is stored once.

Every function runs in one transaction, locks the match row first (as the match services do, so
one table's phones and the secretary's page are served one after the other) and logs what it did
with the link's code.

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
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.adapters import deal_to_entry, entry_to_fields
from scoring.engine import DealEntry, replay
from scoring.models import Match, Round, TableDeal, TableLink

from .audit import audit_log
from .errors import DealProblemsError, DomainError, MatchStateError
from .matches import deal_correct, deals_record, match_confirm, match_declare_clock, stored_deals
from .seasons import require_open

S = Match.Status
P = TableDeal.Status
SIDES = ("home", "away")

# Six characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B): 25⁶, about
# 244 million codes, against guessing throttled to a few dozen tries an hour per address.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
# The link works while the match is played, and until both sides confirmed the ended protocol.
LINK_STATUSES = (S.SCHEDULED, S.IN_PROGRESS, S.POSTPONED, S.FINISHED)


class TableSide:
    """Who acts through a table link: the players at the table, without an account. The
    permissions let it enter this match's deals (holds_table_link); it confirms the protocol in
    the captain's stead only when both sides did and the competition says so."""

    is_authenticated = False
    is_superuser = False
    is_staff = False
    is_active = True
    pk = None
    id = None
    audit_label = "table"

    def __init__(self, link: TableLink, *, both_sides_confirmed: bool = False):
        self.link = link
        self.table_match_id = link.match_id
        self.both_sides_confirmed = both_sides_confirmed

    def get_username(self) -> str:
        return _("table link %(code)s") % {"code": self.link.code}

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
    """The link works: not withdrawn, and its match not submitted, confirmed or void."""
    return link.withdrawn_at is None and link.match.status in LINK_STATUSES and not link.match.competition.archived


# -- the link, for the home secretary -------------------------------------------------------------


def _may_manage_link(user, match: Match) -> None:
    if not (permissions.can_enter_protocol(user, match) or permissions.can_manage_competition(user, match.competition)):
        raise PermissionDenied(_("You may not change this match."))
    if getattr(user, "table_match_id", None) is not None:
        raise PermissionDenied(_("You may not change this match."))


def _create_link(match: Match, user) -> TableLink:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return TableLink.objects.create(match=match, code=new_code(), created_by=user if user and user.pk else None)
        except IntegrityError:
            continue  # the code is taken (or another request made the link first)
    raise DomainError(_("No table link could be made; try again."))


def lock_match(match: Match) -> Match:
    """The match row, locked until the transaction ends (as the match services lock it), with what
    deciding who may act reads; refused in a closed season."""
    locked = Match.objects.select_for_update(of=("self",)).select_related("competition", "home_team", "away_team").get(pk=match.pk)
    require_open(locked.competition)
    return locked


@transaction.atomic
def table_link_issue(*, match: Match, user) -> TableLink | None:
    """The match's table link in use, made now if it has none. None when the match is no longer
    played (a link would open nothing)."""
    match = lock_match(match)
    _may_manage_link(user, match)
    link = TableLink.objects.filter(match=match, withdrawn_at__isnull=True).first()
    if link is not None or match.status not in LINK_STATUSES:
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
    for match in round.matches.filter(status__in=LINK_STATUSES).select_related("competition", "home_team", "away_team"):
        if permissions.can_enter_protocol(user, match) or permissions.can_manage_competition(user, match.competition):
            link = table_link_issue(match=match, user=user)
            if link is not None:
                links[match.pk] = link
    return links


@transaction.atomic
def table_link_withdraw(*, match: Match, user, renew: bool = False, reason: str = "") -> TableLink | None:
    """The home secretary withdraws the match's link (a code seen by the wrong people), and with
    `renew` gives a new one; the old code opens nothing from now on."""
    match = lock_match(match)
    _may_manage_link(user, match)
    old = TableLink.objects.filter(match=match, withdrawn_at__isnull=True).first()
    if old is None and not renew:
        raise MatchStateError(_("The match has no table link in use."))
    if old is not None:
        old.withdrawn_at = timezone.now()
        old.save(update_fields=["withdrawn_at"])
    new = None
    if renew:
        if match.status not in LINK_STATUSES:
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
    match = lock_match(link.match)
    link = TableLink.objects.select_for_update().get(pk=link.pk)
    link.match = match
    if not link_is_open(link):
        raise PermissionDenied(_("This table link no longer works. Ask the home club's secretary."))
    return link, match


def _touch(link: TableLink, now: datetime) -> None:
    link.last_contact_at = now
    link.save(update_fields=["last_contact_at"])


def table_contact(*, link: TableLink) -> None:
    """The table asked for the match's state: its last contact, for the round at a glance. At most
    one write a minute per table (as read with the link): a poll every few seconds must not become
    a write, which on SQLite would take the database's write lock each time."""
    now = timezone.now()
    if link.last_contact_at is not None and link.last_contact_at > now - timedelta(minutes=1):
        return
    TableLink.objects.filter(pk=link.pk).update(last_contact_at=now)
    link.last_contact_at = now


def _check_next(match: Match, entry: DealEntry, number: int, *, correcting: bool) -> None:
    """The engine's errors for the deal as the protocol would stand with it (nothing written)."""
    entries = [deal_to_entry(deal, match.started_at) for deal in stored_deals(match)]
    entry = replace(entry, number=number)
    if correcting:
        entries[number - 1] = entry
    else:
        entries.append(entry)
    state = replay(match.rules, entries, points=match.points_rules, clock_expired=match.clock_expired)
    problems = [(number, problem) for problem in state.deals[number - 1].errors]
    if problems:
        raise DealProblemsError(problems)


@transaction.atomic
def table_deal_propose(
    *, link: TableLink, client_id: str, side: str, kind: str = TableDeal.Kind.DEAL, number: int,
    entry: DealEntry | None = None, agreed_by_both: bool = False,
) -> TableDeal:  # fmt: skip
    """One side proposes the next deal (or a correction of the last deal, or the time running out
    between deals). `agreed_by_both`: the other side agreed on the same device (a button per
    side), so the proposal is applied at once. Sent again with the same `client_id`, the proposal
    stored the first time is answered, unchanged."""
    if side not in SIDES:
        raise MatchStateError(_("Say which team you are."))
    link, match = lock_open_link(link)
    now = timezone.now()
    _touch(link, now)
    known = TableDeal.objects.filter(match=match, client_id=client_id).first()
    if known is not None:
        return known
    proposal = TableDeal(
        match=match, link=link, client_id=client_id, kind=kind, number=number, proposed_by=side,
        values=entry_to_fields(entry) if entry is not None else {},
    )  # fmt: skip
    setattr(proposal, f"{side}_agreed_at", now)
    if kind == TableDeal.Kind.DEAL and number > match.deal_count + 1:
        raise MatchStateError(_("Deal %(number)s must be agreed first.") % {"number": match.deal_count + 1})
    conflict = _conflict(match, proposal, entry)
    if conflict:
        # Never overwritten: kept and shown, for the players and the secretary to settle.
        proposal.status = P.CONFLICT
        proposal.note = conflict
        proposal.decided_at = now
        proposal.save()
        audit_log(match=match, user=TableSide(link), action="table_deal_conflict", after=_logged(proposal, link), reason=conflict,
                  object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return proposal
    if entry is not None:
        _check_next(match, entry, number, correcting=kind == TableDeal.Kind.CORRECTION)
    proposal.save()
    audit_log(match=match, user=TableSide(link), action="table_deal_propose", after=_logged(proposal, link),
              object_type="table_deal", object_id=proposal.pk)  # fmt: skip
    if agreed_by_both:
        other = "away" if side == "home" else "home"
        _agree(proposal, link, match, other, now)
    return proposal


def _conflict(match: Match, proposal: TableDeal, entry: DealEntry | None) -> str:
    """Why the proposal cannot stand beside what is stored or waiting (empty: it can)."""
    kind, number = proposal.kind, proposal.number
    if kind == TableDeal.Kind.DEAL:
        if entry is None:
            return _("The deal has no values.")
        if match.status not in (S.SCHEDULED, S.IN_PROGRESS, S.POSTPONED):
            return _("The match has ended; deal %(number)s was not added.") % {"number": number}
        if number != match.deal_count + 1:
            return _(
                "Deal %(number)s is on the protocol already (entered meanwhile, perhaps by the secretary); "
                "this one was not added. Compare the two and correct the protocol if they differ."
            ) % {"number": number}
    elif kind == TableDeal.Kind.CORRECTION:
        if entry is None:
            return _("The deal has no values.")
        # Rule 35: a deal's score may be corrected only until the next deal is dealt.
        if number != match.deal_count or number < 1 or match.status not in (S.IN_PROGRESS, S.FINISHED):
            return _("Only the last deal can be corrected at the table, before the next deal is dealt.")
    elif kind == TableDeal.Kind.TIME_UP:
        if match.status != S.IN_PROGRESS or not match.deal_count:
            return _("The match is not in progress; the time cannot run out.")
    # One thing at a time at a table: what waits is answered before the next is proposed.
    if TableDeal.objects.filter(match=match, status=P.WAITING).exists():
        return _("Another proposal waits for an answer already; answer it first.")
    return ""


def _logged(proposal: TableDeal, link: TableLink) -> dict:
    return {
        "link": link.code, "client_id": proposal.client_id, "kind": proposal.kind, "number": proposal.number,
        "proposed_by": proposal.proposed_by, "values": proposal.values, "status": proposal.status,
        "home_agreed_at": proposal.home_agreed_at, "away_agreed_at": proposal.away_agreed_at,
    }  # fmt: skip


@transaction.atomic
def table_deal_answer(*, link: TableLink, proposal_id: int, side: str, agree: bool, reason: str = "") -> TableDeal:
    """The other side agrees to a proposal (it is then applied) or rejects it (it is marked, and
    the secretary sees it). Answering again is answered with the proposal as it is."""
    if side not in SIDES:
        raise MatchStateError(_("Say which team you are."))
    link, match = lock_open_link(link)
    now = timezone.now()
    _touch(link, now)
    proposal = TableDeal.objects.select_for_update(of=("self",)).filter(match=match, pk=proposal_id).order_by("pk").first()
    if proposal is None:
        raise MatchStateError(_("There is no such proposal at this table."))
    if proposal.status != P.WAITING:
        return proposal
    if getattr(proposal, f"{side}_agreed_at") is not None:
        if agree:
            return proposal
        raise MatchStateError(_("Your side proposed this; the other side answers it."))
    if not agree:
        proposal.status = P.REJECTED
        proposal.note = reason.strip()
        proposal.decided_at = now
        proposal.save(update_fields=["status", "note", "decided_at"])
        audit_log(match=match, user=TableSide(link), action="table_deal_reject", after={**_logged(proposal, link), "by": side},
                  reason=proposal.note, object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return proposal
    _agree(proposal, link, match, side, now)
    return proposal


def _agree(proposal: TableDeal, link: TableLink, match: Match, side: str, now: datetime) -> None:
    """Both sides agreed: the proposal goes onto the protocol through the deal services."""
    setattr(proposal, f"{side}_agreed_at", now)
    actor = TableSide(link)
    conflict = _conflict_at_agreement(match, proposal)
    if conflict:
        proposal.status, proposal.note, proposal.decided_at = P.CONFLICT, conflict, now
        proposal.save()
        audit_log(match=match, user=actor, action="table_deal_conflict", after=_logged(proposal, link), reason=conflict,
                  object_type="table_deal", object_id=proposal.pk)  # fmt: skip
        return
    entry = deal_to_entry(proposal.values) if proposal.values else None
    if proposal.kind == TableDeal.Kind.DEAL:
        deals_record(match=match, user=actor, entry=entry, expected_version=None)
    elif proposal.kind == TableDeal.Kind.CORRECTION:
        deal_correct(
            match=match, user=actor, number=proposal.number, entry=entry, expected_version=None,
            reason=_("Corrected at the table; both sides agreed (table link %(code)s).") % {"code": link.code},
        )  # fmt: skip
    else:
        match_declare_clock(match=match, user=actor, expected_version=None)
    proposal.status, proposal.decided_at = P.AGREED, now
    proposal.save()
    audit_log(match=match, user=actor, action="table_deal_agree", after=_logged(proposal, link),
              object_type="table_deal", object_id=proposal.pk)  # fmt: skip


def _conflict_at_agreement(match: Match, proposal: TableDeal) -> str:
    """What changed on the protocol since the proposal was made (the secretary's page)."""
    match.refresh_from_db()
    if proposal.kind == TableDeal.Kind.DEAL and proposal.number != match.deal_count + 1:
        return _(
            "Deal %(number)s is on the protocol already (entered meanwhile, perhaps by the secretary); "
            "this one was not added. Compare the two and correct the protocol if they differ."
        ) % {"number": proposal.number}
    if proposal.kind == TableDeal.Kind.DEAL and match.status not in (S.SCHEDULED, S.IN_PROGRESS, S.POSTPONED):
        return _("The match has ended; deal %(number)s was not added.") % {"number": proposal.number}
    if proposal.kind == TableDeal.Kind.CORRECTION and proposal.number != match.deal_count:
        return _("Only the last deal can be corrected at the table, before the next deal is dealt.")
    if proposal.kind == TableDeal.Kind.TIME_UP and match.status != S.IN_PROGRESS:
        return _("The match is not in progress; the time cannot run out.")
    return ""


# -- the end of the match -----------------------------------------------------------------------------


@transaction.atomic
def table_protocol_confirm(*, link: TableLink, side: str) -> TableLink:
    """One side confirms the whole protocol of the ended match at the table. When both have, and
    the competition lets that stand for the captain's confirmation, the match is confirmed
    (match_confirm); otherwise the home secretary submits it as before."""
    if side not in SIDES:
        raise MatchStateError(_("Say which team you are."))
    link, match = lock_open_link(link)
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
        audit_log(match=match, user=TableSide(link), action="table_protocol_confirm",
                  after={"link": link.code, "side": side, "at": now, "home_total": match.home_total,
                         "away_total": match.away_total, "deals": match.deal_count},
                  object_type="table_link", object_id=link.pk)  # fmt: skip
    if link.home_confirmed_at and link.away_confirmed_at and match.competition.table_confirmation:
        match_confirm(match=match, user=TableSide(link, both_sides_confirmed=True), expected_version=None)
        return link
