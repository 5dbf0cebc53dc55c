"""Services for a round (omgång): the hall clock of a timed round.

The hall clock is the room's common clock for a round played on time (docs/rules.md, "The end of a match": no new deal after
the main signal at 50 minutes, play stops at the final signal at 60). A secretary starts it when the
round begins; the public hall clock page counts down from `Round.clock_started_at`. Starting it is
logged in the audit log, as every change that bears on results is.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import Round

from .audit import audit_log
from .errors import DomainError
from .locking import lock
from .seasons import require_open


def can_start_clock(user, round_: Round) -> bool:
    """The organiser's secretary (or a site admin), or a secretary who keeps the protocol of a
    match in the round."""
    if not getattr(user, "is_authenticated", False):
        return False
    if permissions.can_manage_competition(user, round_.competition):
        return True
    matches = round_.matches.select_related("home_team", "competition")
    return any(permissions.can_enter_protocol(user, match) for match in matches)


@transaction.atomic
def round_clock_start(*, round: Round, user, restart: bool = False, at: datetime | None = None) -> Round:
    """Start the hall clock of a timed round (now, or `at`). A running clock is restarted only
    when asked to (`restart`), so a second secretary pressing the button changes nothing."""
    round_ = lock(round)
    if not can_start_clock(user, round_):
        raise PermissionDenied(_("You may not start the clock of this round."))
    require_open(round_.competition)
    if not round_.competition.rules.has_clock:
        raise DomainError(_("This competition is not played on the clock."))
    if round_.clock_started_at is not None and not restart:
        raise DomainError(_("The clock of this round has already been started."))
    before = {"clock_started_at": round_.clock_started_at}
    round_.clock_started_at = at or timezone.now()
    round_.save(update_fields=["clock_started_at"])
    audit_log(
        match=None,
        user=user,
        action="round_clock_restart" if before["clock_started_at"] else "round_clock_start",
        before=before,
        after={"clock_started_at": round_.clock_started_at},
        object_type="round",
        object_id=round_.pk,
    )
    return round_
