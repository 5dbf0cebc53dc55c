"""The audit log: every change to a match or its deals, with who, when, what, before and after."""

from __future__ import annotations

from datetime import datetime, timezone as dt_timezone
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from scoring.models import AuditEntry, Deal, Match

import json


class CommandLineActor:
    """Who acts when a management command changes data: an administrator without an account."""

    is_authenticated = True
    is_superuser = True
    is_staff = True
    is_active = True
    pk = None
    id = None
    username = "command line"

    def __str__(self) -> str:
        return self.username


COMMAND_LINE = CommandLineActor()


def person(user):
    """The user row to store (None for the command line or anonymous)."""
    return user if getattr(user, "is_authenticated", False) and getattr(user, "pk", None) else None


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def as_stored(value: Any) -> Any:
    """A time as the database gives it back (UTC), so that a row written, or a snapshot of a row in
    memory, reads the same as the row read back. Anything else as it is."""
    if not isinstance(value, datetime) or value.tzinfo is dt_timezone.utc or timezone.is_naive(value):
        return value
    return value.astimezone(dt_timezone.utc)


def deal_snapshot(deal: Deal) -> dict[str, Any]:
    return _jsonable(
        {
            field.attname: as_stored(getattr(deal, field.attname))
            for field in Deal._meta.concrete_fields
            if field.attname not in ("id", "match_id")
        }
    )


MATCH_AUDIT_FIELDS = (
    "status",
    "end",
    "clock_expired",
    "deal_count",
    "home_total",
    "away_total",
    "winner",
    "home_points",
    "away_points",
    "reason",
    "dispute_reason",
    "version",
    "scheduled_start",
    "started_at",
)


def match_snapshot(match: Match) -> dict[str, Any]:
    return _jsonable({name: as_stored(getattr(match, name)) for name in MATCH_AUDIT_FIELDS})


def audit_log(
    *,
    match: Match | None,
    user,
    action: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    object_type: str = "match",
    object_id: Any = "",
) -> AuditEntry:
    return AuditEntry.objects.create(
        match=match,
        user=person(user),
        # Who acts without an account says so: the command line, or a match's table link.
        action=action if person(user) or user is None else f"{action} ({getattr(user, 'audit_label', 'command line')})",
        before=_jsonable(before) if before is not None else None,
        after=_jsonable(after) if after is not None else None,
        reason=reason,
        object_type=object_type,
        object_id=str(object_id if object_id != "" else (match.pk if match else "")),
    )
