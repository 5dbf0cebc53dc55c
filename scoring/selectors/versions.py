"""The versions each public page is drawn from (scoring.services.locking moves them): a page's
validator is made of these, the language, who looks, the day and the code's version
(scoring.web.public_cache).

A page of one competition (its standings, rounds, matches, live parts, tables, feed, embed and
documents) reads that competition's version; a match's own documents read the match's version
and what they print beside it (match_document_version). A page of several (a team's, a player's,
a club's, the lists, the rankings) reads the count and sum of their versions and the largest id:
a bump of any of them raises the sum, a competition added or removed changes the count or the
largest id. Private competitions count too, so a competition made private moves the pages that listed it.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Max, Q, Sum

from scoring.models import Club, Competition, Match, Player, Team


def versions_of(queryset) -> tuple:
    """The count, sum of versions and largest id of the rows of `queryset`."""
    row = queryset.aggregate(count=Count("pk"), versions=Sum("version"), last=Max("pk"))
    return (row["count"], row["versions"], row["last"])


def one_value(queryset):
    """The first value of a one-row query, unordered (a 304 is answered from it: no sorting)."""
    return next(iter(queryset.order_by()[:1]), None)


def read_one(sql: str, pk: int) -> tuple | None:
    """One row by primary key, in plain SQL: the live parts' 304s are answered from these two
    reads alone, and building the ORM's query took most of their time (a 304 must cost little
    more than the minimal view: conditional_get_vs_minimal_view, make bench)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    return tuple(row) if row else None


def competition_version(pk: int) -> tuple[int, bool] | None:
    """The competition's version and whether it is public (who may see its pages, which
    scoring.web.public_cache asks before it answers a 304); None when there is none."""
    row = read_one("SELECT version, is_public FROM scoring_competition WHERE id = %s", pk)
    return None if row is None else (row[0], bool(row[1]))


def match_version(pk: int) -> tuple[int, bool] | None:
    """A match's page shows its competition's names and rules beside the match: the competition's
    version, which every change to the match moves, and whether it is public, as above."""
    row = read_one(
        "SELECT c.version, c.is_public FROM scoring_match m JOIN scoring_competition c ON c.id = m.competition_id "
        "WHERE m.id = %s",
        pk,
    )
    return None if row is None else (row[0], bool(row[1]))


# What a match's documents (its protocol as PDF, workbook and CSV: scoring.exports) print beside
# the match row and its deals: the competition's names and the rules it is scored by (a match not
# yet played takes the competition's; docs/rules.md), its organiser, the round, each team's name,
# club, players and captain, the substitutes, and who confirmed the protocol.
def user_name_fields(path: str) -> tuple[str, ...]:
    return (f"{path}__first_name", f"{path}__last_name", f"{path}__username")


def team_fields(side: str) -> tuple[str, ...]:
    team = f"{side}_team"
    return (
        f"{team}__name", f"{team}__club__name", f"{team}__player_one__name", f"{team}__player_two__name",
        *user_name_fields(f"{team}__captain"), f"{side}_substitute__name",
    )  # fmt: skip


MATCH_DOCUMENT_FIELDS = (
    "competition__name", "competition__season", "competition__organiser__name",
    "competition__rules_key", "competition__rules_overrides", "competition__points_key",
    "competition__points_overrides", "competition__requires_confirmation",
    "round__number", "round__date",
    *team_fields("home"), *team_fields("away"), *user_name_fields("confirmed_by"),
)  # fmt: skip


def match_document_version(pk: int) -> tuple[tuple, bool] | None:
    """What a match's documents show, and whether the competition is public (as above); None when
    there is no such match. Not the competition's version, which a deal in any of its matches
    moves: on a round night a match's documents would be made again after every deal of every
    table (docs/architecture.md, "What is kept (caching)"). The match's own version instead,
    which every change of the match moves (scoring.services.matches locks the row and claims the
    next one), and the names and rules it prints as they are now, so a rename is seen whichever
    way it was made."""
    fields = ("version", "competition__is_public", *MATCH_DOCUMENT_FIELDS)
    row = one_value(Match.objects.filter(pk=pk).values_list(*fields))
    if row is None:
        return None
    version, is_public, *shown = row
    return ((version, tuple(shown)), bool(is_public))


def all_competitions_version() -> tuple:
    return versions_of(Competition.objects.all())


def all_clubs_version() -> tuple:
    return versions_of(Club.objects.all())


def rankings_version() -> tuple:
    """The ranking lists and the rating read every competition, and name players and clubs."""
    return (all_competitions_version(), all_clubs_version())


def team_version(pk: int) -> tuple:
    """A team's page: its club's version (the team's and its players' names) and its competitions'."""
    club = one_value(Team.objects.filter(pk=pk).values_list("club__version", flat=True))
    return (club, versions_of(Competition.objects.filter(teams=pk)))


def player_version(pk: int) -> tuple:
    """A player's page: its club's version and the competitions it played in, in a team, as a
    substitute or signed up alone."""
    club = one_value(Player.objects.filter(pk=pk).values_list("club__version", flat=True))
    teams = Team.objects.filter(Q(player_one=pk) | Q(player_two=pk)).values("pk")
    substitute = Match.objects.filter(Q(home_substitute=pk) | Q(away_substitute=pk)).values("competition_id")
    competitions = Competition.objects.filter(
        Q(pk__in=Competition.teams.through.objects.filter(team__in=teams).values("competition_id"))
        | Q(pk__in=substitute)
        | Q(entrants=pk)
    ).distinct()
    return (club, versions_of(Competition.objects.filter(pk__in=competitions.values("pk"))))


def club_version(pk: int) -> tuple:
    """A club's page: its own version (its players and teams) and the competitions it organises or
    its teams play in."""
    club = one_value(Club.objects.filter(pk=pk).values_list("version", flat=True))
    teams = Team.objects.filter(club=pk).values("pk")
    competitions = Competition.objects.filter(
        Q(organiser=pk) | Q(pk__in=Competition.teams.through.objects.filter(team__in=teams).values("competition_id"))
    )
    return (club, versions_of(Competition.objects.filter(pk__in=competitions.values("pk"))))


def start_page_version() -> tuple:
    """The start page shows no result, but moves with every competition all the same, so that its
    validator is never older than the site's news."""
    return all_competitions_version()
