"""Reads for the secretary's pages: "my matches", a match with the rows its pages show, its deals
and its audit log. Who may do what is scoring.permissions; a match's protocol is
selectors.protocols."""

from __future__ import annotations

from django.db.models import F, QuerySet
from django.http import Http404

from scoring import permissions
from scoring.models import AuditEntry, Deal, Match

# How many audit entries the protocol page lists (the newest).
AUDIT_LIMIT = 200


# -- my matches ---------------------------------------------------------------------------------


def secretary_matches(user, *, archived: bool = False) -> QuerySet[Match]:
    """The matches the user keeps the protocol of, confirms or captains a team in
    (permissions.concerned_matches); every match for a site admin. `archived`: those of closed
    seasons' competitions (history, nothing to do) instead of the others (services.seasons)."""
    matches = Match.objects.select_related("competition", "round", "home_team__club", "away_team__club", "entered_by")
    matches = matches.filter(competition__archived=archived)
    concerned = permissions.concerned_matches(user)
    return matches if concerned is None else matches.filter(concerned)


def soonest_first(matches: QuerySet[Match], statuses, limit: int) -> QuerySet[Match]:
    """The first `limit` of `matches` in `statuses`, the soonest first; matches without a time after
    those with one."""
    return matches.filter(status__in=statuses).order_by(
        F("scheduled_start").asc(nulls_last=True),
        F("round__date").asc(nulls_last=True),
        "round__number",
        "table",
        "pk",
    )[:limit]


def latest_changed_first(matches: QuerySet[Match], statuses, limit: int) -> QuerySet[Match]:
    """The `limit` of `matches` in `statuses` changed last, the latest first."""
    return matches.filter(status__in=statuses).order_by("-updated_at")[:limit]


# -- one match ----------------------------------------------------------------------------------


def match_for_user(pk: int, user, related: tuple[str, ...]) -> Match:
    """The match with `related`, or 404, and whether the user is a secretary of its home club and
    its organiser (permissions.secretary_flags), in one query; remembered for the permissions."""
    try:
        match = Match.objects.select_related(*related).annotate(**permissions.secretary_flags(user.pk)).get(pk=pk)
    except Match.DoesNotExist:
        raise Http404("No match with that number.") from None
    permissions.remember_secretary_flags(user, match)
    return match


def match_with(pk: int, related: tuple[str, ...]) -> Match:
    return Match.objects.select_related(*related).get(pk=pk)


def match_audit_entries(match: Match, limit: int = AUDIT_LIMIT) -> QuerySet[AuditEntry]:
    """The newest entries of the match's audit log, with who made them."""
    return match.audit_entries.select_related("user")[:limit]


def match_deal(match: Match, number: int) -> Deal | None:
    return match.deals.filter(number=number).first()
