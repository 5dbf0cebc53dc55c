"""The stored rating rows (PlayerRating): each player's Canasta rating before and after each rated
match, kept by the services in the same transaction that changes what the rating is made of.

What changes the rating: whether a match is rated (selectors.rating.rated_matches: a final result of
a public competition played at the table), its result, its sides, and its place in the order the
history is replayed in (when it was played). The match services call `rating_refresh()` with the
match when what the rating reads of it changed (`rating_part`): a deal recorded in a match still
being played changes nothing there. Matches stored in bulk, a competition's settings (public,
confirmation), a round moved, a merge or a deletion call it too.

The engine replays the history in order, so a changed result changes every later rating: the rows
are worked out again from the first place in the order the change touches (the changed matches'
old and new places), going on from each player's rating and rated matches before it, and only the
rows that differ are written. A result of tonight's round replays tonight's tail, not the season.
The rows are one history for the whole federation: a refresh takes the rating's lock
(`lock_rating`), so two results stored at once are replayed one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Count, Max, OuterRef, Subquery

from scoring.engine.rating import RatedMatch, Ratings, rate
from scoring.models import Match, Player, PlayerRating
from scoring.selectors.rating import rated_matches

# The key of the rating's lock (PostgreSQL's transaction-level advisory lock): any number no other
# lock of the project uses.
RATING_LOCK = 7_240_601


def rating_part(match: Match) -> tuple:
    """What the rating reads of a match (read with its competition): whether it is rated, its
    result and sides, and what orders it among the others (selectors.rating.in_played_order)."""
    competition = match.competition
    return (
        match.status, match.home_points is None, match.end, match.winner, match.home_team_id,
        match.away_team_id, match.started_at, match.scheduled_start, match.submitted_at,
        match.confirmed_at, match.round_id, competition.is_public, competition.requires_confirmation,
    )


def lock_rating() -> None:
    """The rating's lock, held until the transaction ends. On SQLite a transaction that writes is
    served alone already (settings.py opens them IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATING_LOCK])


def rated_sequence() -> list[RatedMatch]:
    """Every rated match in the order the rating replays them: one query."""
    rows = rated_matches().values_list(
        "id",
        "home_team__player_one_id",
        "home_team__player_two_id",
        "away_team__player_one_id",
        "away_team__player_two_id",
        "winner",
    )
    return [RatedMatch(pk, (h1, h2), (a1, a2), winner) for pk, h1, h2, a1, a2, winner in rows]


def rating_refresh(*, matches: Iterable[int | Match] = (), everything: bool = False) -> None:
    """Make the stored rating rows equal to the history replayed with `matches` (ids or rows) as
    they are now, or the whole history (`everything`: after matches were deleted, say). Runs in
    the caller's transaction (the services': atomic)."""
    ids = {getattr(match, "pk", match) for match in matches}
    if not ids and not everything:
        return
    lock_rating()
    old_start = None
    if not everything:
        old_start = min(PlayerRating.objects.filter(match_id__in=ids).values_list("seq", flat=True), default=None)
        if old_start is None and not rated_matches().filter(pk__in=ids).exists():
            return  # neither rated before nor now
    sequence = rated_sequence()
    if everything:
        start = 0
    else:
        new_places = [index for index, rated in enumerate(sequence) if rated.match_id in ids]
        start = min([place for place in (old_start, *new_places) if place is not None])
    replay_from(sequence, start)


def replay_from(sequence: list[RatedMatch], start: int) -> None:
    """Replay `sequence` from its place `start` on, from each player's stored rating before it,
    and write the rows that differ from those stored from `start` on."""
    tail = sequence[start:]
    players = {pid for rated in tail for pid in (*rated.home, *rated.away)}
    earlier = PlayerRating.objects.filter(player=OuterRef("pk"), seq__lt=start).order_by("-seq")
    ratings = Ratings()
    before_start = (
        Player.objects.filter(pk__in=players)
        .annotate(last=Subquery(earlier.values("after")[:1]), count=Subquery(earlier.values("played")[:1]))
        .exclude(last=None)
        .values_list("pk", "last", "count")
    )
    for pk, after, count in before_start if start else ():
        ratings.rating[pk], ratings.matches[pk] = after, count
    played = dict(ratings.matches)  # rate() counts on in `ratings`; each row keeps its own count
    seq_of = {rated.match_id: start + index for index, rated in enumerate(tail)}
    wanted = {}
    for change in rate(tail, ratings).changes:
        played[change.player_id] = played.get(change.player_id, 0) + 1
        wanted[(change.match_id, change.player_id)] = (
            seq_of[change.match_id], change.before, change.after, played[change.player_id],
        )
    stored = {
        (match_id, player_id): (pk, (seq, before, after, count))
        for pk, match_id, player_id, seq, before, after, count in PlayerRating.objects.filter(
            seq__gte=start
        ).values_list("pk", "match_id", "player_id", "seq", "before", "after", "played")
    }
    # A changed row is written anew: a result early in the order moves every later row's place,
    # and one DELETE and one INSERT cost less than an UPDATE per row.
    gone, created = [], []
    for key, values in wanted.items():
        pk, old = stored.pop(key, (None, None))
        if old == values:
            continue
        if pk is not None:
            gone.append(pk)
        seq, before, after, count = values
        created.append(
            PlayerRating(match_id=key[0], player_id=key[1], seq=seq, before=before, after=after, played=count)
        )
    gone += [pk for pk, _values in stored.values()]  # a match no longer rated, a side changed
    for index in range(0, len(gone), 2000):
        PlayerRating.objects.filter(pk__in=gone[index:index + 2000]).delete()
    if created:
        PlayerRating.objects.bulk_create(created, batch_size=2000)


def rating_refresh_after_deleting() -> None:
    """After matches were deleted (their rows went with them): the whole history replayed when a
    rated match was among them, which leaves a gap in the places (`seq`). Runs in the caller's
    transaction."""
    lock_rating()
    places = PlayerRating.objects.aggregate(last=Max("seq"), matches=Count("match", distinct=True))
    if places["last"] is not None and places["last"] + 1 != places["matches"]:
        rating_refresh(everything=True)
