"""Reminders about overdue protocols: a protocol waiting for the other side's confirmation, or a
match whose day has passed with nothing recorded, gets one reminder e-mail after the number of days
its competition sets (`Competition.reminder_days`; none when empty). Each is sent once: a Reminder
row says it was (and to whom), and a later run skips it.

Sent by `manage.py send_reminders`, run from cron (docs/operations.md); never by a page. The
organiser's page lists what is overdue (selectors.chores.overdue_matches).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import notifications
from scoring.models import Match, Reminder
from scoring.selectors.chores import overdue_matches

from .locking import lock_matches

__all__ = ["reminders_send"]


@transaction.atomic
def reminders_send(*, now: datetime | None = None) -> list[Reminder]:
    """Send the reminders due at `now` (the present by default) that were not sent before; the
    mails go once the rows are committed. Returns the reminders sent."""
    now = now or timezone.now()
    due = [item for item in overdue_matches(now) if item.reminded_at is None]
    # A reminder shows on no public page: the matches are locked moving no version or edition,
    # so a second run at the same time waits and then finds them reminded.
    locked = {match.pk for match in lock_matches(Match.objects.filter(pk__in=[item.match.pk for item in due]), shown=False)}
    sent = []
    for item in due:
        if item.match.pk not in locked:
            continue
        try:
            with transaction.atomic():
                reminder = Reminder.objects.create(
                    match=item.match, kind=item.kind, recipients=notifications.reminder_recipients(item.match, item.kind)
                )
        except IntegrityError:
            continue  # sent by a run that committed meanwhile
        notifications.overdue_reminder(item.match, item.kind)
        sent.append(reminder)
    return sent
