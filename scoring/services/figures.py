"""The stored sums of the Canasta figures (FigureSums): per competition, round and month, the
side-deals of its final results, and each pair's, kept by the services in the same transaction that changes them,
as the standings rows are (selectors.figures, "what the services keep", says why they are stored).

What changes them: which of a competition's results are final (a match's status or result, the
competition's confirmation), a final result's deals, the round or day a final result was played
on (its month), and matches deleted or stored in bulk. The services that change these call
`figures_refresh()` with the competitions; each competition's rows are worked out again from its
final results (three queries, selectors.figures.competition_sums) and the rows that differ written.
A change of one match works out again the part it was and is in alone (`figures_refresh_parts`: a
round, in a month), while its lock is held.
Whether a competition is public, its season, and a pair's players and club, are read with the rows:
changing them writes nothing here; pairs merged move their matches, and merging refreshes.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.models import Competition, FigureSums
from scoring.selectors.figures import competition_sums, parts_q, stored_values


def figures_refresh(*, competitions: Iterable[Competition | int]) -> None:
    """Make the stored figure sums of `competitions` (rows or ids) equal to their final results.
    Runs in the caller's transaction (the services': atomic, the match or competition locked)."""
    for pk in {getattr(competition, "pk", competition) for competition in competitions}:
        _write(pk, competition_sums(pk), FigureSums.objects.filter(competition_id=pk))


def figures_refresh_parts(*, competition_id: int, parts: set[tuple]) -> None:
    """Make the stored figure sums of a competition's `parts` (selectors.figures.match_figures_part:
    a round, in a month) equal to their final results: what a change of one match moves, the parts
    it was and is in. The competition's other rows add up other results and stay as they are (a
    federation's national competition: a few hundred results of a round instead of thousands)."""
    rows = FigureSums.objects.filter(parts_q(parts), competition_id=competition_id)
    stored = [row for row in rows if (row.round_id, row.month) in parts]  # the rounds' rows of other months out
    _write(competition_id, competition_sums(competition_id, parts), stored)


def _write(pk: int, sums: dict, stored_rows) -> None:
    """Write the rows of `sums` that differ from `stored_rows`, make the new ones and delete the
    stored ones no sum has."""
    stored = {(row.round_id, row.month, row.team_id): row for row in stored_rows}
    created = []
    for (round_id, month, team_id), figures in sums.items():
        values = stored_values(figures)
        row = stored.pop((round_id, month, team_id), None)
        if row is None:
            created.append(FigureSums(competition_id=pk, round_id=round_id, month=month, team_id=team_id, **values))
        elif any(getattr(row, name) != value for name, value in values.items()):
            FigureSums.objects.filter(pk=row.pk).update(**values)
    if stored:
        FigureSums.objects.filter(pk__in=[row.pk for row in stored.values()]).delete()
    FigureSums.objects.bulk_create(created)
