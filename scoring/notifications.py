"""E-mails about a protocol's confirmation: it waits for the other side's confirmation, it was
disputed (back to the home secretary, with the reason), it was confirmed.

Sent through Django's mail framework (the console backend unless SMTP is configured, README) once
the change is committed, so a refused or rolled-back change mails nobody. Each mail links to the
match's protocol page by its absolute address from SITE_URL. People without an e-mail address
are skipped: the protocol page and "My matches" say the same.
"""

from __future__ import annotations

import contextvars
import logging
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from scoring.models import Match
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


def _send(kind: str, match: Match, recipients: list[str], **context) -> None:
    if not recipients:
        return
    with translation.override(settings.LANGUAGE_CODE):
        context = {"match": match, "url": absolute_reverse("scoring:match-protocol", match.pk), **context}
        subject = render_to_string(f"scoring/email/{kind}_subject.txt", context).strip()
        body = render_to_string(f"scoring/email/{kind}.txt", context)
    try:
        send_mail(subject, body, None, recipients)
    except OSError:
        # The change is saved and shown on the site; a mail server that is down must not turn it
        # into an error page. The log says who was not told.
        logger.exception("protocol e-mail %s for match %s was not sent to %s", kind, match.pk, recipients)


def _after_commit(kind: str, match_pk: int, who, **context) -> None:
    def send():
        match = Match.objects.select_related(
            "competition", "round", "home_team__club", "home_team__captain", "away_team__club", "away_team__captain", "entered_by"
        ).get(pk=match_pk)
        recipients = _addresses(who(match))
        _send(kind, match, recipients, **context)

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
