"""Which results count in a competition's table, and which are preliminary (see the package's
docstring)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import BooleanField, Expression, ExpressionWrapper, Q, QuerySet, Value

from scoring.models import Competition, Match

S = Match.Status


# -- which results count ------------------------------------------------------------------------
#
# docs/rules.md, "Which results count", is stated once, in counting_statuses; the table
# (counted_q), a service's check of one match (counts), the results marked preliminary
# (preliminary_q) and the final results the rating, the rankings and a season's figures sum
# (final_q) are made from it.


def counting_statuses(requires_confirmation: bool, *, include_preliminary: bool = False) -> tuple[str, ...]:
    """The statuses of a match whose result enters its competition's table: confirmed, or also
    finished and submitted where the competition asks for no confirmation (or the table is a
    "preliminary table", `include_preliminary`).

    A void (abandoned) match is among them, but has a result only if its points rules, as they
    were when it was voided, count abandoned matches as played (services.match_void): a later
    change of the competition's setting does not rescore it. Whatever the status, only a match the
    services gave a result counts (`home_points`, see counted_q)."""
    if requires_confirmation and not include_preliminary:
        return Match.FINAL_STATUSES
    return Match.ENDED_STATUSES


def has_result(prefix: str = "") -> Q:
    """Only rows the services gave a result."""
    return Q(**{f"{prefix}home_points__isnull": False})


def counted_q(competition: Competition, *, include_preliminary: bool = False, prefix: str = "") -> Q:
    """A Q over Match rows of `competition` whose result enters its table.

    `include_preliminary`: also results that wait for confirmation (a "preliminary table").
    `prefix`: a lookup path to the match ("match__") when filtering related rows.
    """
    statuses = counting_statuses(competition.requires_confirmation, include_preliminary=include_preliminary)
    return Q(**{f"{prefix}status__in": statuses}) & has_result(prefix)


def counts(match: Match) -> bool:
    """Whether one match in hand (read with its competition) counts in its table: counted_q, asked
    of a row a service is changing, before and after the change."""
    statuses = counting_statuses(match.competition.requires_confirmation)
    return match.status in statuses and match.home_points is not None


def final_q(prefix: str = "") -> Q:
    """A Q over Match rows of any competition whose result counts for good in its competition's
    table (a *final* result): counted_q of every competition at once, each by its own setting,
    without the preliminary ones. Statuses that count whatever the setting, or only where no
    confirmation is asked."""
    always = counting_statuses(True)
    unconfirmed = tuple(status for status in counting_statuses(False) if status not in always)
    counted = Q(**{f"{prefix}status__in": always}) | Q(
        **{f"{prefix}status__in": unconfirmed, f"{prefix}competition__requires_confirmation": False}
    )
    return counted & has_result(prefix)


def preliminary_q(competition: Competition) -> Q:
    """Results shown but not counting yet: what a preliminary table counts and the table does not
    (finished or submitted, waiting for confirmation); none where no confirmation is asked."""
    waiting = waiting_statuses(competition)
    if not waiting:
        return Q(pk__in=[])
    return Q(status__in=waiting) & has_result()


def waiting_statuses(competition: Competition) -> tuple[str, ...]:
    """The statuses of results the competition's preliminary table counts and its table does not."""
    counted = counting_statuses(competition.requires_confirmation)
    preliminary = counting_statuses(competition.requires_confirmation, include_preliminary=True)
    return tuple(status for status in preliminary if status not in counted)


def preliminary_flag(competition: Competition) -> Expression:
    """preliminary_q as a column of a list of the competition's matches (`preliminary`)."""
    if not waiting_statuses(competition):
        return Value(False, output_field=BooleanField())
    return ExpressionWrapper(preliminary_q(competition), output_field=BooleanField())


def with_play(matches: QuerySet) -> QuerySet:
    """The matches in which something has happened: a deal recorded, or a state past scheduled or
    postponed (started, a result, void). A competition's schedule and a team's pair are fixed once
    any match has play."""
    return matches.filter(Q(deal_count__gt=0) | ~Q(status__in=Match.NOT_STARTED_STATUSES))


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
