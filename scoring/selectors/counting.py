"""Which results count in a competition's table, and which are preliminary (see the package's
docstring)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from scoring.models import Competition, Match

S = Match.Status
PLAYED_STATUSES = (S.FINISHED, S.SUBMITTED, S.CONFIRMED)


# -- which results count ------------------------------------------------------------------------


def counted_q(competition: Competition, *, include_preliminary: bool = False, prefix: str = "") -> Q:
    """A Q over Match rows of `competition` whose result enters its table.

    `include_preliminary`: also results that wait for confirmation (a "preliminary table").
    `prefix`: a lookup path to the match ("match__") when filtering related rows.
    """
    if competition.requires_confirmation and not include_preliminary:
        statuses: tuple[str, ...] = (S.CONFIRMED,)
    else:
        statuses = PLAYED_STATUSES
    # A void (abandoned) match has a result only if its points rules, as they were when it was
    # voided, count abandoned matches as played (services.match_void): a later change of the
    # competition's setting does not rescore it.
    q = Q(**{f"{prefix}status__in": statuses + (S.VOID,)})
    # Only rows the services gave a result.
    return q & Q(**{f"{prefix}home_points__isnull": False})


def with_play(matches: QuerySet) -> QuerySet:
    """The matches in which something has happened: a deal recorded, or a state past scheduled or
    postponed (started, a result, void). A competition's schedule and a team's pair are fixed once
    any match has play."""
    return matches.filter(Q(deal_count__gt=0) | ~Q(status__in=(S.SCHEDULED, S.POSTPONED)))


def preliminary_q(competition: Competition) -> Q:
    """Results shown but not counting yet: finished or submitted, waiting for confirmation."""
    if not competition.requires_confirmation:
        return Q(pk__in=[])
    return Q(status__in=(S.FINISHED, S.SUBMITTED), home_points__isnull=False)


def in_rounds(up_to_round: int | None, prefix: str = "") -> Q:
    """A Q over matches (or rows through `prefix`) of rounds up to `up_to_round`; None: every round."""
    if up_to_round is None:
        return Q()
    return Q(**{f"{prefix}round__number__lte": up_to_round})


def number(value: Any) -> int | float:
    """Match points as a plain number: 1, 0.5, 2 (an int when integral)."""
    if value is None:
        return 0
    if isinstance(value, Decimal):
        value = float(value)
    return int(value) if float(value).is_integer() else float(value)
