"""What the services keep worked out from the results, made equal to them in one call: the stored
standings rows (services.standings), the stored ratings (services.rating) and the figures' stored
sums (services.figures). For a change that may move all three: a match moved to another round, a
competition's rules, a merge. A deal saved moves only what its match's part in each changed
(services.matches)."""

from __future__ import annotations

from collections.abc import Iterable

from scoring.models import Competition, Match

from .figures import figures_refresh
from .rating import rating_refresh
from .standings import standings_refresh


def derived_refresh(*, competitions: Iterable[Competition], matches: Iterable[int | Match]) -> None:
    """The standings and figure sums of `competitions`, and the ratings from the first of `matches`
    (ids or rows) on. Runs in the caller's transaction (the services': atomic, locked)."""
    competitions = list(competitions)
    for competition in competitions:
        standings_refresh(competition=competition)
    figures_refresh(competitions=competitions)
    rating_refresh(matches=matches)
