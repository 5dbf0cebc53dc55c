"""The stored standings rows (TeamStanding): one per team per competition, kept by the services in
the same transaction that changes what the table is made of.

What changes a table: a match's result or whether it counts (every match service: a deal that
finishes the match, a correction, a walk over, a void, a submission or confirmation, a reopening),
a competition's settings (its points rules, whether results need confirmation), its teams, and its
byes (the schedule services). Each of them calls `standings_refresh()`, which works the rows out
again from the matches with the same aggregates a table after an earlier round uses
(selectors.standings.computed_team_records) and writes the rows that differ: a few indexed
queries over one competition's matches, in the writer's transaction, so the rows are never seen
out of step with the results. The match services call it only when the match's part in the table
changed (`standing_part`): a deal recorded in a match still being played changes nothing there.

With the rows it keeps each team's place after each round (RoundPlace) for the competitions whose
page draws the places chart (selectors.history.places_charted): ranked by the engine from the
counted results (selectors.standings.tables_by_round), three queries however many rounds, and only
the places that differ are written.
"""

from __future__ import annotations

from decimal import Decimal

from scoring.models import Competition, Match, RoundPlace, TeamStanding
from scoring.selectors.counting import counts


def standing_part(match: Match) -> tuple:
    """What a match gives the competition's table: whether its result counts (docs/rules.md, "Which
    results count", as selectors.counting says it), and the result. Byes count by their round's
    results, so the round is part of it."""
    if not counts(match):
        return (False, match.round_id)
    return (
        True, match.round_id, match.home_team_id, match.away_team_id, match.winner,
        match.home_points, match.away_points, match.home_for, match.home_against, match.away_for,
        match.away_against,
    )


def standings_refresh(*, competition: Competition) -> None:
    """Make the competition's stored rows equal to its table worked out from the matches. Runs in
    the caller's transaction (the services': atomic, the match or competition locked)."""
    from scoring.selectors.standings import COUNTED_FIGURES, computed_team_records

    records = {record.team_id: record for record in computed_team_records(competition)}
    stored = {row.team_id: row for row in TeamStanding.objects.filter(competition=competition)}
    changed, created = [], []
    for team_id, record in records.items():
        values = {name: getattr(record, name) for name in COUNTED_FIGURES}
        values["points"] = Decimal(str(record.points))  # the engine's float, the row's decimal
        row = stored.pop(team_id, None)
        if row is None:
            created.append(TeamStanding(competition=competition, team_id=team_id, **values))
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    if stored:  # a team that left the competition without a result
        TeamStanding.objects.filter(pk__in=[row.pk for row in stored.values()]).delete()
    if changed:
        TeamStanding.objects.bulk_update(changed, list(COUNTED_FIGURES))
    if created:
        TeamStanding.objects.bulk_create(created)
    _places_refresh(competition=competition)


def _places_refresh(*, competition: Competition) -> None:
    """Make the competition's stored places after each round equal to its tables after each round
    (none where no chart is drawn). Runs in the caller's transaction, as standings_refresh."""
    from scoring.selectors.history import places_charted
    from scoring.selectors.standings import tables_by_round

    places = RoundPlace.objects.filter(round__competition=competition)
    if not places_charted(competition):
        places.delete()
        return
    wanted = {
        (round_number, row.record.team_id): row.rank
        for round_number, rows in tables_by_round(competition).items()
        for row in rows
    }
    stored = {
        (round_number, team_id): (pk, place)
        for pk, round_number, team_id, place in places.values_list("pk", "round__number", "team_id", "place")
    }
    changed, created = [], []
    rounds = None
    for key, place in wanted.items():
        pk, stored_place = stored.pop(key, (None, None))
        if pk is None:
            if rounds is None:
                rounds = dict(competition.rounds.values_list("number", "id"))
            created.append(RoundPlace(round_id=rounds[key[0]], team_id=key[1], place=place))
        elif stored_place != place:
            changed.append(RoundPlace(pk=pk, place=place))
    if stored:  # a round no longer counted, or a team gone
        RoundPlace.objects.filter(pk__in=[pk for pk, _place in stored.values()]).delete()
    if changed:
        RoundPlace.objects.bulk_update(changed, ["place"])
    if created:
        RoundPlace.objects.bulk_create(created)
