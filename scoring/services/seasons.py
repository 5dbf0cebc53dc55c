"""Seasons: closing a season makes its competitions read-only archives; every service refuses to
change an archived competition (`require_open`).

Terms: a *closed* season has `closed_at` set; its competitions (those whose `season` names it) are
*archived* (`Competition.archived`, stored so that a check costs no query). A competition cannot be
created in, or moved to, a closed season. Reopening a season (a mistake undone) makes its
competitions writable again. Both are logged.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import permissions
from scoring.models import Competition, Season

from . import locking
from .audit import audit_log
from .errors import DomainError


class SeasonClosedError(DomainError):
    default_message = _("The season is closed: its competitions are archives and cannot be changed.")


def season_closed(name: str) -> bool:
    return Season.objects.filter(name=name, closed_at__isnull=False).exists()


def archive_refusal(competitions) -> str | None:
    """Why a change to `competitions` is refused when one of them is of a closed season, or None."""
    for competition in competitions:
        if competition.archived:
            return _("The season %(season)s is closed: %(competition)s is an archive and cannot be changed.") % {
                "season": competition.season, "competition": competition.name}
    return None


def require_open(competition: Competition) -> None:
    """Refuse any change to a competition of a closed season."""
    refusal = archive_refusal([competition])
    if refusal:
        raise SeasonClosedError(refusal)


def require_open_season(name: str) -> None:
    """Refuse a competition created in, or moved to, a closed season."""
    if season_closed(name):
        raise SeasonClosedError(
            _("The season %(season)s is closed: no competition can be added to it or moved into it.") % {"season": name}
        )


def _require_admin(user) -> None:
    if not permissions.is_site_admin(user):
        raise PermissionDenied(_("Only an administrator may close or reopen a season."))


@transaction.atomic
def season_close(*, name: str, user) -> Season:
    """Close the season `name` (made if not there yet): its competitions become archives."""
    _require_admin(user)
    season = locking.lock(Season.objects.get_or_create(name=name)[0])
    if season.is_closed:
        raise DomainError(_("The season %(season)s is closed already.") % {"season": name})
    season.closed_at = timezone.now()
    season.closed_by = user if getattr(user, "pk", None) else None
    season.save()
    archived = list(Competition.objects.filter(season=name).values_list("id", flat=True))
    Competition.objects.filter(pk__in=archived).update(archived=True)
    audit_log(match=None, user=user, action="season_close", object_type="season", object_id=season.pk,
              after={"season": name, "competitions": archived})
    return season


@transaction.atomic
def season_reopen(*, name: str, user, reason: str) -> Season:
    """Open a closed season again (a mistake undone): its competitions can be changed again."""
    _require_admin(user)
    if not reason.strip():
        raise DomainError(_("Give a reason for reopening the season."))
    season = locking.lock(Season.objects.get(name=name))
    if not season.is_closed:
        raise DomainError(_("The season %(season)s is open already.") % {"season": name})
    season.closed_at = None
    season.closed_by = None
    season.save()
    reopened = list(Competition.objects.filter(season=name).values_list("id", flat=True))
    Competition.objects.filter(pk__in=reopened).update(archived=False)
    audit_log(match=None, user=user, action="season_reopen", object_type="season", object_id=season.pk,
              reason=reason, after={"season": name, "competitions": reopened})
    return season
