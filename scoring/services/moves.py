"""A match moved by agreement: the home club's secretary proposes a new date and time (and perhaps
another hall), the away team accepts or declines, and where the competition says so
(`Competition.moves_need_approval`) its organiser approves. Only then does the match move: its
start (and hall) change, and with them its pages, printed protocols and the teams' calendar feeds.

Who may take each step is scoring.permissions' (can_propose_move, can_answer_move,
can_approve_move): each party acts for itself. Every step is a MatchMove row and an audit entry
against the match, and mails the party whose turn it is (scoring.notifications). A match that has
begun, or a closed season's, cannot be moved (the lock refuses an archive).
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import notifications, permissions
from scoring.models import Match, MatchMove

from .audit import audit_log, match_snapshot
from .errors import DomainError, MatchStateError
from .locking import lock_match

__all__ = ["match_move_answer", "match_move_approve", "match_move_propose"]

M = MatchMove.Status


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You may not change this."))


def _require_not_begun(match: Match) -> None:
    if match.status not in Match.NOT_STARTED_STATUSES or match.deal_count:
        raise MatchStateError(_("The match has begun or been played: it can no longer be moved."))


def _move_snapshot(move: MatchMove) -> dict:
    return {"move": move.pk, "status": move.status, "old_start": move.old_start, "new_start": move.new_start,
            "hall": move.hall}  # fmt: skip


@transaction.atomic
def match_move_propose(
    *, match: Match, user, new_start: datetime, hall: str = "", reason: str = "", expected_version: int | None = None
) -> MatchMove:
    """The home side proposes to play the match at `new_start` (and in `hall`). A proposal still
    waiting is withdrawn by the new one."""
    # Nothing public changes until the move is agreed: the match's version stays.
    match = lock_match(match, expected_version, shown=False)
    _require(permissions.can_propose_move(user, match))
    _require_not_begun(match)
    if new_start <= timezone.now():
        raise DomainError(_("Choose a new date and time that is still to come."))
    hall = hall.strip()
    if new_start == match.scheduled_start and hall in ("", match.hall):
        raise DomainError(_("The match is already set for that date and time."))
    for waiting in MatchMove.objects.select_for_update(of=("self",)).filter(match=match, status__in=MatchMove.OPEN_STATUSES).order_by("pk"):
        waiting.status = M.WITHDRAWN
        waiting.save(update_fields=["status"])
        audit_log(match=match, user=user, action="match_move_withdraw", object_type="match_move",
                  object_id=waiting.pk, after=_move_snapshot(waiting))  # fmt: skip
    move = MatchMove.objects.create(match=match, old_start=match.scheduled_start, new_start=new_start, hall=hall,
                                    reason=reason.strip(), proposed_by=user if getattr(user, "pk", None) else None)  # fmt: skip
    audit_log(match=match, user=user, action="match_move_propose", object_type="match_move", object_id=move.pk,
              after=_move_snapshot(move), reason=move.reason)  # fmt: skip
    notifications.move_proposed(match, move)
    return move


def _lock_open(move: MatchMove, *, shown: bool) -> tuple[Match, MatchMove]:
    """The move's match and the move, locked (the match first, as every service takes it)."""
    match = lock_match(move.match, shown=shown)
    locked = MatchMove.objects.select_for_update(of=("self",)).order_by().get(pk=move.pk)
    return match, locked


@transaction.atomic
def match_move_answer(*, move: MatchMove, user, accept: bool, note: str = "") -> MatchMove:
    """The away team accepts or declines a proposed move. Accepted, the match moves now, or once
    the organiser approves where the competition asks for that."""
    # Accepted, the match may move now: its pages' editions move (harmless if it waits for approval).
    match, move = _lock_open(move, shown=accept)
    _require(permissions.can_answer_move(user, match, move.proposed_by_id))
    if move.status != M.WAITING_AWAY:
        raise MatchStateError(_("This proposal has been answered already."))
    move.answered_by = user if getattr(user, "pk", None) else None
    move.answered_at = timezone.now()
    move.note = note.strip()
    if not accept:
        move.status = M.DECLINED
        move.save()
        audit_log(match=match, user=user, action="match_move_decline", object_type="match_move", object_id=move.pk,
                  after=_move_snapshot(move), reason=move.note)  # fmt: skip
        notifications.move_decided(match, move)
        return move
    _require_not_begun(match)
    audit_action = "match_move_accept"
    if match.competition.moves_need_approval:
        move.status = M.WAITING_ORGANISER
        move.save()
        audit_log(match=match, user=user, action=audit_action, object_type="match_move", object_id=move.pk,
                  after=_move_snapshot(move), reason=move.note)  # fmt: skip
        notifications.move_to_approve(match, move)
        return move
    move.save()
    audit_log(match=match, user=user, action=audit_action, object_type="match_move", object_id=move.pk,
              after=_move_snapshot(move), reason=move.note)  # fmt: skip
    _apply(match, move, user)
    return move


@transaction.atomic
def match_move_approve(*, move: MatchMove, user, approve: bool, note: str = "") -> MatchMove:
    """The organiser approves a move both teams agreed to (the match moves), or refuses it."""
    match, move = _lock_open(move, shown=approve)
    _require(permissions.can_approve_move(user, match))
    if move.status != M.WAITING_ORGANISER:
        raise MatchStateError(_("This proposal is not waiting for the organiser's approval."))
    move.approved_by = user if getattr(user, "pk", None) else None
    move.approved_at = timezone.now()
    if note.strip():
        move.note = "\n".join(part for part in (move.note, note.strip()) if part)
    if not approve:
        move.status = M.REFUSED
        move.save()
        audit_log(match=match, user=user, action="match_move_refuse", object_type="match_move", object_id=move.pk,
                  after=_move_snapshot(move), reason=note.strip())  # fmt: skip
        notifications.move_decided(match, move)
        return move
    _require_not_begun(match)
    move.save()
    audit_log(match=match, user=user, action="match_move_approve", object_type="match_move", object_id=move.pk,
              after=_move_snapshot(move), reason=note.strip())  # fmt: skip
    _apply(match, move, user)
    return move


def _apply(match: Match, move: MatchMove, user) -> None:
    """The agreed move made: the match's start and hall change; a postponed match has its day."""
    before = {**match_snapshot(match), "hall": match.hall}
    match.scheduled_start = move.new_start
    if move.hall:
        match.hall = move.hall
    if match.status == Match.Status.POSTPONED:
        match.status = Match.Status.SCHEDULED
    match.save(update_fields=["scheduled_start", "hall", "status", "version", "updated_at"])
    move.status = M.MOVED
    move.save(update_fields=["status"])
    audit_log(match=match, user=user, action="match_move", before=before,
              after={**match_snapshot(match), "hall": match.hall}, reason=move.reason)  # fmt: skip
    notifications.move_decided(match, move)
