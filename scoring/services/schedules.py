"""Services for schedules: writing a competition's rounds, matches and byes (frironder).

- `schedule_generate_league`: a league series by Berger tables (scoring.engine.pairing.round_robin),
  single or double, rounds dated from a start date every `interval_days`, tables numbered.
- `schedule_pair_next_round`: the next round of a tournament by Monrad (scoring.engine.pairing
  .swiss_pairings), only once the previous round is complete.
- `fixtures_import`: a fixture list from a CSV file (scoring.files.fixture_file), all or nothing.

A schedule is (re)written only while no match of the competition has been played: no deal
recorded and no result (walk over, void). A bye is a `Bye` row (no Match row); it scores as the
competition's points rules say (see scoring.selectors). Every write is logged in the audit log
against the competition.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime, time

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from scoring import permissions
from scoring.engine.standings import swedish_sort_key
from scoring.files.fixture_file import FixtureProblem, read_fixtures
from scoring.models import Bye, Competition, Match, Round, Team
from scoring.engine.pairing import round_dates, round_robin, swiss_pairings
from scoring.selectors import competition_standings, counted_q
from scoring.selectors.chores import present_teams
from scoring.selectors.manage import competition_has_play

from .audit import audit_log
from .errors import DomainError
from .locking import lock_competition
from .standings import standings_refresh

__all__ = [
    "FixtureImportError",
    "ScheduleError",
    "fixtures_import",
    "schedule_generate_league",
    "schedule_pair_next_round",
]

S = Match.Status


class ScheduleError(DomainError):
    default_message = _("The schedule could not be changed.")


def last_round_complete(competition: Competition) -> Round | None:
    """The competition's last round, refused (ScheduleError) unless every match of it has a
    result that counts or is void: the next round is paired from its results."""
    last = competition.rounds.order_by("-number").first()
    if last is not None:
        open_count = last.matches.exclude(counted_q(competition)).exclude(status=S.VOID).count()
        if open_count:
            raise ScheduleError(
                ngettext(
                    "Round %(number)s is not complete: %(count)s match has no result that counts yet.",
                    "Round %(number)s is not complete: %(count)s matches have no result that counts yet.",
                    open_count,
                ) % {"number": last.number, "count": open_count}
            )
    return last


class FixtureImportError(ScheduleError):
    """The fixture file has problems; nothing was saved. `problems`: FixtureProblem list."""

    def __init__(self, problems: list[FixtureProblem], message=None):
        self.problems = problems
        super().__init__(message or _("The fixture list was not imported: it has errors. Nothing was saved."))


# -- reads --------------------------------------------------------------------------------------


# -- helpers ------------------------------------------------------------------------------------


def _require_manager(user, competition: Competition) -> None:
    if not permissions.can_manage_competition(user, competition):
        raise PermissionDenied(_("You may not change the schedule of this competition."))


def _refuse_if_played(competition: Competition) -> None:
    if competition_has_play(competition):
        raise ScheduleError(
            _("The schedule cannot be replaced: matches of this competition have already been "
              "played (deals or results are recorded). Change single matches instead.")
        )


def _fixture_list(competition: Competition) -> list[dict]:
    return [
        {"round": number, "table": table, "home": home, "away": away}
        for number, table, home, away in competition.matches.values_list(
            "round__number", "table", "home_team__name", "away_team__name"
        ).order_by("round__number", "table", "id")
    ]


def _clear(competition: Competition) -> list[dict]:
    before = _fixture_list(competition)
    Bye.objects.filter(round__competition=competition).delete()
    competition.matches.all().delete()
    competition.rounds.all().delete()
    return before


def _start(on: date | None, at: time | None) -> datetime | None:
    if on is None or at is None:
        return None
    return timezone.make_aware(datetime.combine(on, at))


# -- league -------------------------------------------------------------------------------------


@transaction.atomic
def schedule_generate_league(
    *,
    competition: Competition,
    user,
    start_date: date | None = None,
    interval_days: int = 7,
    double: bool = False,
    start_time: time | None = None,
    seed: int | None = None,
    teams: Sequence[Team] | None = None,
) -> list[Round]:
    """Write a league series' rounds and matches, replacing any schedule not yet played.

    The teams are the competition's, in Swedish name order, or drawn at random with `seed`.
    """
    _require_manager(user, competition)
    competition = lock_competition(competition)
    _refuse_if_played(competition)
    if interval_days < 1:
        raise ScheduleError(_("The days between rounds must be 1 or more."))
    field = list(teams) if teams is not None else list(competition.teams.all())
    field.sort(key=lambda team: swedish_sort_key(team.name))
    if seed is not None:
        random.Random(seed).shuffle(field)
    if len(field) < 2:
        raise ScheduleError(_("A schedule needs at least two teams in the competition."))
    before = _clear(competition)
    planned = round_robin(field, double=double)
    dates = round_dates(start_date, len(planned), interval_days)
    rounds = Round.objects.bulk_create(
        [Round(competition=competition, number=item.number, date=day) for item, day in zip(planned, dates)]
    )
    rounds = list(competition.rounds.order_by("number"))
    matches, byes = [], []
    for round_, item in zip(rounds, planned):
        for pairing in item.pairings:
            matches.append(
                Match(
                    competition=competition, round=round_, table=pairing.table,
                    home_team=pairing.home, away_team=pairing.away,
                    scheduled_start=_start(round_.date, start_time),
                )
            )
        if item.bye is not None:
            byes.append(Bye(round=round_, team=item.bye))
    Match.objects.bulk_create(matches)
    Bye.objects.bulk_create(byes)
    standings_refresh(competition=competition)  # a bye may score (docs/rules.md, "Byes")
    audit_log(
        match=None, user=user, action="schedule_generate", object_type="competition",
        object_id=competition.pk, before={"matches": before},
        after={"kind": "double round robin" if double else "round robin", "rounds": len(rounds),
               "matches": _fixture_list(competition), "byes": len(byes)},
    )
    return rounds


# -- tournament ---------------------------------------------------------------------------------


@transaction.atomic
def schedule_pair_next_round(
    *,
    competition: Competition,
    user,
    on: date | None = None,
    start_time: time | None = None,
    seed: int | None = None,
) -> Round:
    """Pair the next round by Monrad: match points, then card points; no rematch where avoidable.

    Round 1 is drawn at random with `seed` (or in Swedish name order without it). A later round is
    paired only when the previous one is complete.
    """
    _require_manager(user, competition)
    competition = lock_competition(competition)
    last = last_round_complete(competition)
    day = on or (last.date if last and last.date else timezone.localdate())
    # Only the teams checked in that day, when any is (services.checkin).
    field = present_teams(competition, day)
    if len(field) < 2:
        raise ScheduleError(_("Pairing needs at least two teams in the competition."))
    by_id = {team.pk: team for team in field}
    if last is None:
        order = sorted(by_id, key=lambda pk: swedish_sort_key(by_id[pk].name))
        if seed is not None:
            random.Random(seed).shuffle(order)
    else:
        order = [row.record.team_id for row in competition_standings(competition) if row.record.team_id in by_id]
    previous = list(competition.matches.values_list("home_team_id", "away_team_id"))
    byes = Counter(Bye.objects.filter(round__competition=competition).values_list("team_id", flat=True))
    balance: Counter = Counter()
    for home_id, away_id in previous:
        balance[home_id] += 1
        balance[away_id] -= 1
    plan = swiss_pairings(order, previous=previous, byes=byes, home_balance=balance)
    number = (last.number if last else 0) + 1
    round_ = Round.objects.create(competition=competition, number=number, date=day)
    Match.objects.bulk_create(
        [
            Match(
                competition=competition, round=round_, table=pairing.table,
                home_team=by_id[pairing.home], away_team=by_id[pairing.away],
                scheduled_start=_start(day, start_time),
            )
            for pairing in plan.pairings
        ]
    )
    if plan.bye is not None:
        Bye.objects.create(round=round_, team=by_id[plan.bye])
    audit_log(
        match=None, user=user, action="schedule_pair_round", object_type="competition",
        object_id=competition.pk,
        after={"round": number, "matches": [m for m in _fixture_list(competition) if m["round"] == number],
               "bye": by_id[plan.bye].name if plan.bye is not None else None, "rematches": plan.rematches},
    )
    round_.rematches = plan.rematches
    return round_


# -- import -------------------------------------------------------------------------------------


def _team_names(competition: Competition) -> dict[str, Team | None]:
    names: dict[str, Team | None] = {}
    for team in competition.teams.all():
        key = team.name.casefold()
        names[key] = None if key in names else team
    return names


@transaction.atomic
def fixtures_import(*, competition: Competition, user, data: bytes | str) -> list[Round]:
    """Replace the schedule with a fixture file's: all or nothing (FixtureImportError)."""
    _require_manager(user, competition)
    competition = lock_competition(competition)
    _refuse_if_played(competition)
    rows, problems = read_fixtures(data, _team_names(competition))
    if problems:
        raise FixtureImportError(problems)
    before = _clear(competition)
    by_round: dict[int, list] = {}
    for row in rows:
        by_round.setdefault(row.round, []).append(row)
    Round.objects.bulk_create(
        [Round(competition=competition, number=number, date=group[0].date) for number, group in sorted(by_round.items())]
    )
    rounds = {round_.number: round_ for round_ in competition.rounds.all()}
    matches, byes = [], []
    field = list(competition.teams.all())
    for number, group in sorted(by_round.items()):
        used = {row.table for row in group if row.table is not None}
        free = (table for table in range(1, len(group) + len(used) + 1) if table not in used)
        playing = set()
        for row in group:
            table = row.table if row.table is not None else next(free)
            matches.append(Match(competition=competition, round=rounds[number], table=table,
                                 home_team=row.home, away_team=row.away))
            playing |= {row.home.pk, row.away.pk}
        byes.extend(Bye(round=rounds[number], team=team) for team in field if team.pk not in playing)
    Match.objects.bulk_create(matches)
    Bye.objects.bulk_create(byes)
    standings_refresh(competition=competition)  # a bye may score (docs/rules.md, "Byes")
    audit_log(
        match=None, user=user, action="fixtures_import", object_type="competition",
        object_id=competition.pk, before={"matches": before},
        after={"rounds": len(rounds), "matches": _fixture_list(competition), "byes": len(byes)},
    )
    return sorted(rounds.values(), key=lambda round_: round_.number)
