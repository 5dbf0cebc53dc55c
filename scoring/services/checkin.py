"""Check-in before the draw (tournaments and club nights): the organiser marks who is present on a
day, and that day's Monrad draw (services.schedules) or club-night draw (services.individual) pairs
only those; a late arrival is checked in before the next round is drawn. Nobody checked in: the
draw pairs every team or player as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.models import CheckIn, Competition
from scoring.selectors.chores import checked_in_ids

from .audit import audit_log
from .errors import DomainError
from .locking import lock_competition

__all__ = ["check_in_save"]


@transaction.atomic
def check_in_save(*, competition: Competition, user, day: date, present: Iterable[int]) -> set[int]:
    """Mark the teams (a tournament) or players (a club night) whose ids are `present` as the ones
    there on `day`, and no others. Returns who is checked in now."""
    if not permissions.can_manage_competition(user, competition):
        raise PermissionDenied(_("You may not change this competition."))
    # Who is present shows on no public page: the competition's lock moves its edition all the same.
    competition = lock_competition(competition)
    if competition.kind == Competition.Kind.LEAGUE:
        raise DomainError(_("Only a tournament or a club night is drawn from who is present."))
    individual = competition.kind == Competition.Kind.INDIVIDUAL
    allowed = set((competition.entrants if individual else competition.teams).values_list("pk", flat=True))
    present = set(present)
    if present - allowed:
        raise DomainError(_("Only the competition's own teams or players can be checked in."))
    before = checked_in_ids(competition, day)
    column = "player_id" if individual else "team_id"
    CheckIn.objects.filter(competition=competition, day=day).exclude(**{f"{column}__in": present}).delete()
    CheckIn.objects.bulk_create([CheckIn(competition=competition, day=day, **{column: pk}) for pk in sorted(present - before)])
    audit_log(match=None, user=user, action="check_in", object_type="competition", object_id=competition.pk,
              before={"day": day, "present": sorted(before)}, after={"day": day, "present": sorted(present)})  # fmt: skip
    return present
