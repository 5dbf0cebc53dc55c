"""Services for a match and its deals: the only code that writes them.

Every function is keyword-only, runs in one transaction, locks the match row, checks the version
the form carried (a stale version is refused, never overwritten), re-checks with the engine,
writes the deals and the denormalised match totals, keeps the competition's stored standings rows
when the match's part in the table changed (services.standings), and logs the change in the audit
log.

Locking: one style for every service, a pessimistic row lock (services.locking.lock_match). It
reads the match with SELECT ... FOR UPDATE, compares its version with the one the form carried and
claims the next version; the row stays locked until the transaction commits, so two secretaries
saving at once are served one after the other and the second is told the protocol changed
(StaleMatchError). It is the plain choice: the same code path for a deal and for a confirmation, no
second UPDATE that must repeat the version check, and the standings rows written in the same
transaction are written by one transaction at a time. A service of the table, which has locked the
match already, hands the deal services its row (`locked=True`): the row is locked once per change.

The engine runs once per change, through the one home of a stored match replayed
(scoring.selectors.protocols): the next deal goes on from the running state on the match row; a
correction, a removal, a file and the clock's end replay the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import notifications, permissions
from scoring.adapters import COMPUTED_FIELDS, computed_fields, entry_to_fields, minutes_between
from scoring.engine import DealEntry, MatchState, forfeit_outcome, played_outcome
from scoring.engine.rules import PointsRules, RuleSet
from scoring.models import Deal, Match, TableLink
from scoring.selectors.counting import counts
from scoring.selectors.figures import match_figures_part
from scoring.selectors.protocols import next_deal_replayed, replayed, row_standing, stored_entries

from .audit import as_stored, audit_log, deal_snapshot, match_snapshot, person
from .errors import DealProblemsError, MatchStateError, StaleMatchError
from .figures import figures_refresh, figures_refresh_parts
from .locking import lock_match, move_editions, show_change
from .rating import rating_part, rating_refresh
from .standings import standing_part, standings_refresh

S = Match.Status


# -- helpers ------------------------------------------------------------------------------------


def _lock(match: Match, expected_version: int | None, *, locked: bool = False) -> Match:
    """The match locked (services.locking.lock_match), or `match` itself when the calling service
    locked it in this transaction (`locked`), its next version claimed."""
    if not locked:
        match = lock_match(match, expected_version, shown=False)
    show_change(match)
    # What the match gave the table and the rating when locked: _save() compares, and keeps them.
    match.standing_part_when_locked = standing_part(match)
    match.rating_part_when_locked = rating_part(match)
    match.counted_when_locked = counts(match)  # whether its deals are in the figures' sums
    match.figures_part_when_locked = match_figures_part(match)  # and in which of them
    return match


def _keep_standings(match: Match) -> None:
    """The competition's stored standings rows follow a change of the match's part in the table,
    the stored ratings a change of its part in the rating, and the stored figure sums any change
    of a final result, in this transaction (services.standings, services.rating, services.figures)."""
    if standing_part(match) != getattr(match, "standing_part_when_locked", None):
        standings_refresh(competition=match.competition)
        match.standing_part_when_locked = standing_part(match)
    if rating_part(match) != getattr(match, "rating_part_when_locked", None):
        rating_refresh(matches=[match])
        match.rating_part_when_locked = rating_part(match)
    # A final result, before or after the change, is in its competition's stored figure sums: any
    # change of it (its deals, its day, whether it counts) is worked out again (services.figures),
    # in the parts it was and is in.
    if counts(match) or getattr(match, "counted_when_locked", False):
        part = match_figures_part(match)
        figures_refresh_parts(competition_id=match.competition_id,
                              parts={getattr(match, "figures_part_when_locked", part), part})  # fmt: skip
        match.counted_when_locked = counts(match)
        match.figures_part_when_locked = part


def _save(match: Match) -> None:
    match.save()
    _keep_standings(match)


def _withdraw_table_confirmations(match: Match, user) -> None:
    """The protocol changed after a side confirmed it at the table (only the secretary can change
    it then): every confirmation given before is withdrawn, in the log (docs/rules.md, the end of
    a match)."""
    link = (
        TableLink.objects.filter(match=match, withdrawn_at__isnull=True)
        .filter(Q(home_confirmed_at__isnull=False) | Q(away_confirmed_at__isnull=False))
        .order_by()
        .first()
    )
    if link is None:
        return
    before = {"link": link.code, "home_confirmed_at": link.home_confirmed_at, "away_confirmed_at": link.away_confirmed_at}
    link.home_confirmed_at = link.away_confirmed_at = None
    link.save(update_fields=["home_confirmed_at", "away_confirmed_at"])
    audit_log(match=match, user=user, action="table_confirmations_withdraw", before=before,
              after={"link": link.code, "home_confirmed_at": None, "away_confirmed_at": None},
              object_type="table_link", object_id=link.pk)  # fmt: skip


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You may not change this match."))


def _decimal(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def _apply_state(match: Match, state: MatchState, *, deals_before: int = 0) -> None:
    """Copy the engine's result onto the match row (not saved). `deals_before`: deals not in the
    state because it was replayed from the running state after them (replay_next)."""
    match.deal_count = deals_before + len(state.deals)
    match.home_total = state.home_total
    match.away_total = state.away_total
    if state.finished:
        outcome = state.outcome
        match.end = state.end or ""
        match.winner = state.winner or ""
        match.home_points = _decimal(outcome.home_points)
        match.away_points = _decimal(outcome.away_points)
        match.home_for, match.home_against = outcome.home_for, outcome.home_against
        match.away_for, match.away_against = outcome.away_for, outcome.away_against
        if match.status in Match.DEAL_STATUSES:
            match.status = S.FINISHED
    else:
        match.end = ""
        match.winner = ""
        match.home_points = match.away_points = None
        match.home_for = match.home_against = match.away_for = match.away_against = None
        # A match played out, or not started, whose deals no longer end it is being played again
        # (a void match keeps its status, and one in progress stays so without deals).
        if match.status in Match.PLAYED_STATUSES or match.status in Match.NOT_STARTED_STATUSES:
            match.status = S.IN_PROGRESS if state.deals else S.SCHEDULED


def _snapshot_rules(match: Match) -> None:
    """The rules a match is played and counted under, taken when it starts (docs/rules.md, "Rule-set presets": changing a
    competition's rules must not silently rescore finished matches)."""
    if not match.rules_snapshot:
        match.rules_snapshot = match.competition.rules.to_dict()
    if not match.points_snapshot:
        match.points_snapshot = match.competition.points_rules.to_dict()


def _write_deals(match: Match, state: MatchState, *, replace_from: int = 1) -> None:
    """Write deals numbered >= replace_from anew and the computed numbers of all deals."""
    existing = {deal.number: deal for deal in match.deals.all()}
    to_update = []
    to_create = []
    for replayed in state.deals:
        values = computed_fields(replayed)
        deal = existing.pop(replayed.number, None)
        if deal is None:
            to_create.append(Deal(match=match, **entry_to_fields(replayed.entry), **values))
            continue
        if replayed.number >= replace_from:
            values = {**entry_to_fields(replayed.entry), **values}
            if replayed.entry.dealt_minute is None:
                values["dealt_at"] = None
        # Only deals whose values change are written: correcting a deal leaves those before it as
        # they are.
        changed = False
        for name, value in values.items():
            if getattr(deal, name) != value:
                setattr(deal, name, value)
                changed = True
        if changed:
            to_update.append(deal)
    if existing:
        Deal.objects.filter(pk__in=[deal.pk for deal in existing.values()]).delete()
    if to_update:
        fields = sorted(set(COMPUTED_FIELDS) | (set(entry_to_fields(state.deals[0].entry)) - {"number"}) | {"dealt_at"})
        Deal.objects.bulk_update(to_update, fields)
    if to_create:
        Deal.objects.bulk_create(to_create)


def _field_values(match: Match) -> dict[str, object]:
    """The match row's values as they are in memory (to save only what a service changed)."""
    return {field.attname: getattr(match, field.attname) for field in Match._meta.concrete_fields}


def _save_changed(match: Match, before: dict[str, object]) -> None:
    """Save the fields changed since `before`, the version claimed by _lock and `updated_at`.

    The row was read under the lock, so the other fields hold what the database holds already.
    """
    changed = [name for name, value in before.items() if getattr(match, name) != value]
    fields = {Match._meta.get_field(name).name for name in changed} | {"version", "updated_at"}
    match.save(update_fields=sorted(fields))
    _keep_standings(match)


def _errors_of(state: MatchState, numbers: Sequence[int] | None = None):
    return [
        (replayed.number, problem)
        for replayed in state.deals
        if numbers is None or replayed.number in numbers
        for problem in replayed.errors
    ]


# -- lifecycle ----------------------------------------------------------------------------------


@transaction.atomic
def match_start(*, match: Match, user, expected_version: int | None = None, started_at: datetime | None = None) -> Match:
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.NOT_STARTED_STATUSES:
        raise MatchStateError(_("The match has already started."))
    before = match_snapshot(match)
    match.status = S.IN_PROGRESS
    match.started_at = started_at or timezone.now()
    match.entered_by = match.entered_by or person(user)
    _snapshot_rules(match)
    _save(match)
    audit_log(match=match, user=user, action="match_start", before=before, after=match_snapshot(match))
    return match


@transaction.atomic
def deals_record(
    *, match: Match, user, entry: DealEntry, expected_version: int | None, dealt_at: datetime | None = None,
    locked: bool = False,
) -> Match:  # fmt: skip
    """Record the next deal of a match. Refused, with the problems, if the engine finds errors.

    The engine scores the deal from the running state stored on the match row (totals, deal
    count), so no earlier deal is read: saving deal 12 costs what saving deal 2 does.
    `locked`: `match` is the row the calling service locked in this transaction.
    """
    match = _lock(match, expected_version, locked=locked)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.DEAL_STATUSES:
        raise MatchStateError(_("The match is finished; it accepts no further deal."))
    as_read = _field_values(match)
    if match.status != S.IN_PROGRESS:
        match.status = S.IN_PROGRESS
        match.started_at = match.started_at or timezone.now()
    _snapshot_rules(match)
    deals_before = match.deal_count
    number = deals_before + 1
    entry = _with_number(entry, number, match.started_at, dealt_at)
    if dealt_at is None:
        dealt_at = dealt_time(match.started_at, entry.dealt_minute)
    state = next_deal_replayed(match, entry, row_standing(match, entry))
    problems = _errors_of(state)
    if problems:
        raise DealProblemsError(problems)
    before = match_snapshot(match)
    if match.entered_by_id is None:
        match.entered_by = person(user)
    _apply_state(match, state, deals_before=deals_before)
    replayed = state.deals[0]
    # The deal before the match row: a deal that ends a match whose result counts at once is in
    # the figure sums the save works out again (services.figures).
    new_deal = Deal.objects.create(
        match=match, **entry_to_fields(replayed.entry), **computed_fields(replayed), dealt_at=as_stored(dealt_at)
    )
    _save_changed(match, as_read)
    if dealt_at is not None and timezone.is_naive(dealt_at):
        new_deal.refresh_from_db(fields=["dealt_at"])  # logged as stored
    audit_log(
        match=match,
        user=user,
        action="deal_record",
        before=before,
        after={"deal": deal_snapshot(new_deal), "match": match_snapshot(match)},
        object_type="deal",
        object_id=new_deal.pk,
    )
    return match


def dealt_time(started_at: datetime | None, minute: float | None) -> datetime | None:
    """The time a deal was dealt, from the minute of the match the protocol gives."""
    if started_at is None or minute is None:
        return None
    return started_at + timedelta(minutes=minute)


def _with_number(entry: DealEntry, number: int, started_at, dealt_at) -> DealEntry:
    from dataclasses import replace

    minute = minutes_between(started_at, dealt_at) if dealt_at else entry.dealt_minute
    return replace(entry, number=number, dealt_minute=minute)


@transaction.atomic
def deal_correct(
    *,
    match: Match,
    user,
    number: int,
    entry: DealEntry,
    reason: str,
    expected_version: int | None,
    dealt_at: datetime | None = None,
    locked: bool = False,
) -> Match:
    """Correct an earlier deal; every later total is recomputed. A reason is required.
    `locked`: `match` is the row the calling service locked in this transaction."""
    match = _lock(match, expected_version, locked=locked)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.CORRECTABLE_STATUSES:
        raise MatchStateError(
            _("Only a match in progress or finished and not yet submitted can be corrected; reopen it first.")
        )
    if not reason.strip():
        raise MatchStateError(_("Give a reason for the correction."))
    if match.end in (Match.End.FORFEIT, Match.End.WARNINGS, Match.End.ABANDONED):
        raise MatchStateError(_("The match was closed without play; reopen it first."))
    entries = stored_entries(match)
    if not 1 <= number <= len(entries):
        raise MatchStateError(_("There is no deal %(number)s to correct.") % {"number": number})
    old_deal = match.deals.get(number=number)
    entries[number - 1] = _with_number(entry, number, match.started_at, dealt_at)
    if dealt_at is None:
        dealt_at = dealt_time(match.started_at, entries[number - 1].dealt_minute)
    state = replayed(match, entries)
    problems = _errors_of(state, [number]) + [
        (n, p) for n, p in _errors_of(state) if p.code == "after-match-end"
    ]
    if problems:
        raise DealProblemsError(problems)
    before = {"deal": deal_snapshot(old_deal), "match": match_snapshot(match)}
    _write_deals(match, state, replace_from=number)
    if dealt_at is not None:
        Deal.objects.filter(match=match, number=number).update(dealt_at=dealt_at)
    _apply_state(match, state)
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(
        match=match,
        user=user,
        action="deal_correct",
        before=before,
        after={"deal": deal_snapshot(match.deals.get(number=number)), "match": match_snapshot(match)},
        reason=reason,
        object_type="deal",
        object_id=old_deal.pk,
    )
    return match


@transaction.atomic
def deal_delete_last(*, match: Match, user, reason: str, expected_version: int | None) -> Match:
    """Remove the last deal (a deal typed by mistake), with a reason."""
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.CORRECTABLE_STATUSES:
        raise MatchStateError(_("Only a match in progress or finished and not yet submitted can be corrected; reopen it first."))
    if not reason.strip():
        raise MatchStateError(_("Give a reason for the correction."))
    last = match.deals.order_by("-number").first()
    if last is None:
        raise MatchStateError(_("The match has no deal to remove."))
    before = {"deal": deal_snapshot(last), "match": match_snapshot(match)}
    last.delete()
    match.clock_expired = False
    state = replayed(match, stored_entries(match))
    _write_deals(match, state)
    _apply_state(match, state)
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(match=match, user=user, action="deal_delete", before=before,
              after={"match": match_snapshot(match)}, reason=reason, object_type="deal", object_id=last.number)
    return match


@transaction.atomic
def match_declare_clock(*, match: Match, user, expected_version: int | None, locked: bool = False) -> Match:
    """The final signal came between deals: the match ends as it stands (docs/rules.md, "The end of a match").
    `locked`: `match` is the row the calling service locked in this transaction."""
    match = _lock(match, expected_version, locked=locked)
    _require(permissions.can_enter_protocol(user, match))
    if not match.rules.has_clock:
        raise MatchStateError(_("This match is not played on the clock."))
    if match.status not in Match.PLAYING_STATUSES:
        raise MatchStateError(_("The match is not in progress."))
    before = match_snapshot(match)
    _snapshot_rules(match)
    match.clock_expired = True
    state = replayed(match, stored_entries(match))
    _apply_state(match, state)
    if match.status == S.SCHEDULED or not state.finished:
        raise MatchStateError(_("No deal has been played; record a walk over instead."))
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(match=match, user=user, action="match_clock", before=before, after=match_snapshot(match))
    return match


@transaction.atomic
def match_forfeit(
    *, match: Match, user, winner: str, reason: str = "", warnings: bool = False, expected_version: int | None
) -> Match:
    """Walk over (or lost after repeated warnings): the competition's forfeit award."""
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if winner not in ("home", "away"):
        raise MatchStateError(_("Choose the team that wins."))
    if match.status not in Match.OPEN_STATUSES:
        raise MatchStateError(_("The match is closed; reopen it first."))
    before = match_snapshot(match)
    _snapshot_rules(match)
    outcome = forfeit_outcome(match.points_rules, winner)
    match.status = S.FINISHED
    match.end = Match.End.WARNINGS if warnings else Match.End.FORFEIT
    match.winner = winner
    match.reason = reason
    match.home_points = _decimal(outcome.home_points)
    match.away_points = _decimal(outcome.away_points)
    match.home_for, match.home_against = outcome.home_for, outcome.home_against
    match.away_for, match.away_against = outcome.away_for, outcome.away_against
    if not match.deal_count:
        match.home_total, match.away_total = outcome.home_for, outcome.away_for
    match.entered_by = match.entered_by or person(user)
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(match=match, user=user, action="match_forfeit", before=before, after=match_snapshot(match), reason=reason)
    return match


@transaction.atomic
def match_postpone(
    *, match: Match, user, reason: str, new_start: datetime | None = None, expected_version: int | None
) -> Match:
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.NOT_STARTED_STATUSES or match.deal_count:
        raise MatchStateError(_("Only a match that has not started can be postponed."))
    before = match_snapshot(match)
    match.status = S.POSTPONED
    match.reason = reason
    if new_start is not None:
        match.scheduled_start = new_start
    _save(match)
    audit_log(match=match, user=user, action="match_postpone", before=before, after=match_snapshot(match), reason=reason)
    return match


@transaction.atomic
def match_void(*, match: Match, user, reason: str, expected_version: int | None) -> Match:
    """Close the match without a result (abandoned); it counts as the competition says."""
    match = _lock(match, expected_version)
    _require(permissions.can_manage_result(user, match))
    if not reason.strip():
        raise MatchStateError(_("Give a reason for voiding the match."))
    if match.status == S.VOID:
        raise MatchStateError(_("The match is already void."))
    before = match_snapshot(match)
    match.status = S.VOID
    match.end = Match.End.ABANDONED
    match.reason = reason
    _snapshot_rules(match)
    points = match.points_rules
    # Whether it counts is settled now and stored as a result or none (counting.counted_q).
    if points.abandoned == "as-played" and match.deal_count:
        outcome = played_outcome(points, match.home_total, match.away_total)
        match.winner = outcome.winner
        match.home_points, match.away_points = _decimal(outcome.home_points), _decimal(outcome.away_points)
        match.home_for, match.home_against = outcome.home_for, outcome.home_against
        match.away_for, match.away_against = outcome.away_for, outcome.away_against
    else:
        match.winner = ""
        match.home_points = match.away_points = None
        match.home_for = match.home_against = match.away_for = match.away_against = None
    _save(match)
    audit_log(match=match, user=user, action="match_void", before=before, after=match_snapshot(match), reason=reason)
    return match


@transaction.atomic
def match_submit(*, match: Match, user, expected_version: int | None) -> Match:
    """The protocol is complete: hand it to the other captain for confirmation."""
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if match.status != S.FINISHED:
        raise MatchStateError(_("Only a finished match can be submitted."))
    before = match_snapshot(match)
    match.status = S.SUBMITTED if match.competition.requires_confirmation else S.CONFIRMED
    match.submitted_at = timezone.now()
    # Submitted again after a dispute: the objection was answered (the audit log keeps it).
    match.disputed_by = None
    match.disputed_at = None
    match.dispute_reason = ""
    _save(match)
    audit_log(match=match, user=user, action="match_submit", before=before, after=match_snapshot(match))
    if match.status == S.SUBMITTED:
        notifications.protocol_awaits_confirmation(match)
    return match


@transaction.atomic
def match_dispute(*, match: Match, user, reason: str, expected_version: int | None) -> Match:
    """The other side does not agree with the protocol: it goes back to the home secretary, with
    the reason, to be corrected and submitted again. Its result does not count meanwhile."""
    match = _lock(match, expected_version)
    _require(permissions.can_dispute(user, match))
    if match.status not in Match.CONFIRMABLE_STATUSES:
        raise MatchStateError(_("Only a finished protocol that is not yet confirmed can be disputed."))
    if not reason.strip():
        raise MatchStateError(_("Say what is wrong with the protocol, so the secretary can correct it."))
    before = match_snapshot(match)
    match.status = S.FINISHED
    match.submitted_at = None
    match.disputed_by = person(user)
    match.disputed_at = timezone.now()
    match.dispute_reason = reason.strip()
    _save(match)
    audit_log(match=match, user=user, action="match_dispute", before=before, after=match_snapshot(match), reason=reason)
    notifications.protocol_disputed(match, user=user, reason=match.dispute_reason)
    return match


@transaction.atomic
def match_confirm(*, match: Match, user, expected_version: int | None, locked: bool = False) -> Match:
    """The other team's captain confirms the protocol; never the user who entered it.
    `locked`: `match` is the row the calling service locked in this transaction."""
    match = _lock(match, expected_version, locked=locked)
    if match.entered_by_id is not None and match.entered_by_id == user.pk:
        raise PermissionDenied(_("You entered this protocol; the other team's captain confirms it."))
    _require(permissions.can_confirm(user, match))
    if match.status not in Match.CONFIRMABLE_STATUSES:
        raise MatchStateError(_("Only a finished protocol can be confirmed."))
    before = match_snapshot(match)
    match.status = S.CONFIRMED
    match.confirmed_by = person(user)
    match.confirmed_at = timezone.now()
    match.submitted_at = match.submitted_at or match.confirmed_at
    match.disputed_by = None
    match.disputed_at = None
    match.dispute_reason = ""
    _save(match)
    audit_log(match=match, user=user, action="match_confirm", before=before, after=match_snapshot(match))
    notifications.protocol_confirmed(match, user=user)
    return match


@transaction.atomic
def match_reopen(*, match: Match, user, reason: str, expected_version: int | None) -> Match:
    """A secretary reopens a closed match for corrections; its result no longer counts until finished again."""
    match = _lock(match, expected_version)
    _require(permissions.can_manage_result(user, match))
    if match.status not in Match.REOPENABLE_STATUSES:
        raise MatchStateError(_("The match is open already."))
    if not reason.strip():
        raise MatchStateError(_("Give a reason for reopening the match."))
    before = match_snapshot(match)
    match.status = S.IN_PROGRESS if match.deal_count else S.SCHEDULED
    match.confirmed_by = None
    match.confirmed_at = None
    match.submitted_at = None
    match.clock_expired = False
    match.reason = reason
    state = replayed(match, stored_entries(match))
    _apply_state(match, state)
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(match=match, user=user, action="match_reopen", before=before, after=match_snapshot(match), reason=reason)
    return match


@transaction.atomic
def matches_record_played(
    *, played: Sequence[tuple[Match, MatchState]], status: str = S.CONFIRMED, batch_size: int = 2000
) -> tuple[list[Match], int]:
    """Store matches played to the end elsewhere, many at a time (example data, a past season):
    each unsaved Match row gets the engine's result as deals_record would store it (totals, end,
    winner, points, card points) and the `status` it closed with; its deals are written with their
    protocol values and the engine's numbers, dealt at started_at plus the deal's minute.

    For rows no one else sees yet: no version check, no row lock, no audit entry, no notification.
    The caller refreshes the competitions' stored standings (standings_refresh) when done; the
    stored ratings and figure sums follow here (services.rating, services.figures).
    Returns the saved matches and the number of deals written. A state with a check error or not
    finished is refused (ValueError): the engine must have accepted every deal.
    """
    for match, state in played:
        if state.errors or not state.finished:
            raise ValueError(f"match {match} is not a finished, accepted protocol")
        _apply_state(match, state)
        match.status = status
    matches = Match.objects.bulk_create([match for match, _state in played], batch_size=batch_size)
    deals = []
    for match, (_unsaved, state) in zip(matches, played):
        for replayed in state.deals:
            values = entry_to_fields(replayed.entry)
            values.update(computed_fields(replayed))
            values["dealt_at"] = dealt_time(match.started_at, replayed.entry.dealt_minute)
            deals.append(Deal(match_id=match.pk, **values))
    Deal.objects.bulk_create(deals, batch_size=batch_size)
    move_editions(*matches)
    rating_refresh(matches=matches)
    figures_refresh(competitions={match.competition_id for match in matches})
    return matches, len(deals)


@transaction.atomic
def match_import_deals(
    *,
    match: Match,
    user,
    entries: Sequence[DealEntry],
    expected_version: int | None,
    reason: str = "",
    checked_under: tuple[RuleSet, PointsRules] | None = None,
) -> Match:
    """Replace a match's deals with those of a protocol file: all or nothing. `checked_under`: the
    rules the file was checked and shown under; the file is refused if the match would now count
    it under others (the competition's rules changed before the match's were taken)."""
    match = _lock(match, expected_version)
    _require(permissions.can_enter_protocol(user, match))
    if match.status not in Match.OPEN_STATUSES:
        raise MatchStateError(_("The match is closed; reopen it first."))
    if match.end in (Match.End.FORFEIT, Match.End.WARNINGS):
        raise MatchStateError(_("The match was closed without play; reopen it first."))
    _snapshot_rules(match)
    if checked_under is not None and checked_under != (match.rules, match.points_rules):
        checked, now = checked_under[0].name, match.rules.name
        raise StaleMatchError(
            _(
                "The competition's rules changed after the file was checked (checked under %(checked)s, "
                "now %(now)s). Nothing was saved: check the file again."
            ) % {"checked": checked, "now": now}
            if checked != now
            else _("The competition's rules changed after the file was checked. Nothing was saved: check the file again.")
        )
    if not match.started_at:
        match.started_at = timezone.now()
    before = {"deals": [deal_snapshot(deal) for deal in match.deals.all()], "match": match_snapshot(match)}
    entries = list(entries)
    # `time_up` on the last deal: the time ran out between deals, as the page's "time ran out"
    # records it (docs/rules.md, "The end of a match"); on an earlier deal the deals after it are refused
    # (after-match-end).
    match.clock_expired = bool(entries) and entries[-1].time_up and match.rules.has_clock
    state = replayed(match, entries)
    problems = _errors_of(state)
    if problems:
        raise DealProblemsError(problems, _("The file was not imported: it has errors. Nothing was saved."))
    match.deals.all().delete()
    if state.deals:
        Deal.objects.bulk_create(
            [
                Deal(
                    match=match,
                    **entry_to_fields(replayed.entry),
                    **computed_fields(replayed),
                    dealt_at=dealt_time(match.started_at, replayed.entry.dealt_minute),
                )
                for replayed in state.deals
            ]
        )
    match.entered_by = match.entered_by or person(user)
    if match.status in Match.NOT_STARTED_STATUSES and state.deals:
        match.status = S.IN_PROGRESS
    _apply_state(match, state)
    _save(match)
    _withdraw_table_confirmations(match, user)
    audit_log(
        match=match,
        user=user,
        action="deals_import",
        before=before,
        after={"deals": [deal_snapshot(deal) for deal in match.deals.all()], "match": match_snapshot(match)},
        reason=reason,
    )
    return match
