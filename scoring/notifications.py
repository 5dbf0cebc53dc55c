"""E-mails about a protocol's confirmation: it waits for the other side's confirmation, it was
disputed (back to the home secretary, with the reason), it was confirmed.

Sent through Django's mail framework (the console backend unless SMTP is configured, README) once
the change is committed, so a refused or rolled-back change mails nobody. Each mail links to the
match's protocol page by its absolute address from SITE_URL. People without an e-mail address
are skipped: the protocol page and "My matches" say the same.

A mail that fails (a server down, a header the mail library refuses) never turns the committed
change into an error: it is logged, and a view that asked for a `delivery_report()` learns who was
told, who could not be, and who has no address, to say so on the page.
"""

from __future__ import annotations

import contextvars
import logging
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from scoring.models import Match, MatchMove, Reminder
from scoring.site_address import absolute_reverse

logger = logging.getLogger(__name__)


def _addresses(users) -> list[str]:
    seen: list[str] = []
    for user in users:
        address = (getattr(user, "email", "") or "").strip()
        if address and address not in seen:
            seen.append(address)
    return seen


def protocol_keepers(match: Match) -> list:
    """Who keeps the protocol: the home club's secretaries and whoever entered it."""
    people = list(match.home_team.club.secretaries.all())
    if match.entered_by is not None:
        people.append(match.entered_by)
    return people


def confirmers(match: Match) -> list:
    """Who confirms: the away team's captain, or its club's secretaries when it has none."""
    if match.away_team.captain is not None:
        return [match.away_team.captain]
    return list(match.away_team.club.secretaries.all())


@dataclass
class Delivery:
    """What became of one notice: the names of those told, of those it could not reach, and of
    those without an e-mail address."""

    kind: str
    told: list[str] = field(default_factory=list)
    not_told: list[str] = field(default_factory=list)
    no_address: list[str] = field(default_factory=list)


_reports: ContextVar[list[Delivery] | None] = ContextVar("scoring_delivery_reports", default=None)


@contextmanager
def delivery_report():
    """Collect the Delivery of every notice sent while the block runs (the services send theirs
    when their transaction commits, before they return)."""
    reports: list[Delivery] = []
    token = _reports.set(reports)
    try:
        yield reports
    finally:
        _reports.reset(token)


def _send(kind: str, match: Match, recipients: list[str], **context) -> bool:
    """Send the notice; False when it failed (logged)."""
    if not recipients:
        return True
    try:
        with translation.override(settings.LANGUAGE_CODE):
            context = {"match": match, "url": absolute_reverse("scoring:match-protocol", match.pk), **context}
            # One line: a name with a line break must not end the subject header.
            subject = " ".join(render_to_string(f"scoring/email/{kind}_subject.txt", context).split())
            body = render_to_string(f"scoring/email/{kind}.txt", context)
        send_mail(subject, body, None, recipients)
    except Exception:  # noqa: BLE001 - any failure of mailing, after the change was committed
        # The change is saved and shown on the site; a mail that fails (server down, a header
        # refused) must not turn it into an error page. The log and the page say who was not told.
        logger.exception("protocol e-mail %s for match %s was not sent to %s", kind, match.pk, recipients)
        return False
    return True


def _after_commit(kind: str, match_pk: int, who, **context) -> None:
    reports = _reports.get()

    def send():
        match = Match.objects.select_related(
            "competition", "round", "home_team__club", "home_team__captain", "away_team__club", "away_team__captain", "entered_by"
        ).get(pk=match_pk)
        people = list({person.pk: person for person in who(match)}.values())
        reached = [person for person in people if (person.email or "").strip()]
        sent = _send(kind, match, _addresses(reached), **context)
        if reports is not None:
            delivery = Delivery(kind, no_address=[_name(person) for person in people if person not in reached])
            (delivery.told if sent else delivery.not_told).extend(_name(person) for person in reached)
            reports.append(delivery)

    # Run in the context it was scheduled in: in debug without SITE_URL the link follows the
    # address of the request that made the change (scoring.site_address), even where the commit's
    # callbacks run after that request has been answered.
    transaction.on_commit(partial(contextvars.copy_context().run, send))


def _name(user) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def protocol_awaits_confirmation(match: Match) -> None:
    _after_commit("awaits_confirmation", match.pk, confirmers)


def protocol_disputed(match: Match, *, user, reason: str) -> None:
    _after_commit("disputed", match.pk, protocol_keepers, by=_name(user), reason=reason)


def protocol_confirmed(match: Match, *, user) -> None:
    def concerned(match):
        return [*protocol_keepers(match), *([match.home_team.captain] if match.home_team.captain_id else [])]

    _after_commit("confirmed", match.pk, concerned, by=_name(user))


# -- the season's chores: a match moved by agreement, reminders about overdue protocols ----------


def organisers(match: Match) -> list:
    """The organising club's secretaries."""
    return list(match.competition.organiser.secretaries.all())


def _move_context(match: Match, move) -> dict:
    return {"move_step": move.status, "new_start": move.new_start, "old_start": move.old_start, "hall": move.hall,
            "note": move.note, "url": absolute_reverse("scoring:match-move", match.pk)}  # fmt: skip


def move_proposed(match: Match, move) -> None:
    """The away side is asked to accept or decline a new date."""
    _after_commit("move", match.pk, confirmers, **_move_context(match, move))


def move_to_approve(match: Match, move) -> None:
    """Both teams agreed: the organiser is asked to approve."""
    _after_commit("move", match.pk, organisers, **_move_context(match, move))


def move_decided(match: Match, move) -> None:
    """Moved, declined or refused: the home side hears; when it moved, the away side too."""

    def concerned(match):
        people = [*protocol_keepers(match), *([move.proposed_by] if move.proposed_by_id else [])]
        if move.status == MatchMove.Status.MOVED:
            people += [*confirmers(match), *([match.home_team.captain] if match.home_team.captain_id else [])]
        return people

    _after_commit("move", match.pk, concerned, **_move_context(match, move))


def _reminded(kind: str):
    """Who a reminder of `kind` (Reminder.Kind) goes to: the confirmers of a protocol waiting for
    confirmation, the protocol's keepers of a match without a protocol."""
    return confirmers if kind == Reminder.Kind.CONFIRMATION else protocol_keepers


def reminder_recipients(match: Match, kind: str) -> list[str]:
    """The names of those a reminder of `kind` goes to, as the reminder's row keeps them."""
    match = Match.objects.select_related("home_team__club", "away_team__club", "away_team__captain", "entered_by").get(
        pk=match.pk)
    return [_name(person) for person in {person.pk: person for person in _reminded(kind)(match)}.values()]


def overdue_reminder(match: Match, kind: str) -> None:
    """The reminder e-mail of `kind` about an overdue match."""
    _after_commit("reminder", match.pk, _reminded(kind), reminder_kind=kind)
