"""The versions each public page is drawn from (scoring.services.versions moves them): a page's
validator is made of these, the language, who looks, the day and the code's version
(scoring.public_cache).

A page of one competition (its standings, rounds, matches, live parts, tables, feed, embed and
documents) reads that competition's version. A page of several (a team's, a player's, a club's,
the lists, the rankings) reads the count and sum of their versions and the largest id: a bump of
any of them raises the sum, a competition added or removed changes the count or the largest id.
Private competitions count too, so a competition made private moves the pages that listed it.
"""

from __future__ import annotations

from django.db.models import Count, Max, Q, Sum

from scoring.models import Club, Competition, Match, Player, Team


def versions_of(queryset) -> tuple:
    """The count, sum of versions and largest id of the rows of `queryset`."""
    row = queryset.aggregate(count=Count("pk"), versions=Sum("version"), last=Max("pk"))
    return (row["count"], row["versions"], row["last"])


def competition_version(pk: int) -> int | None:
    return Competition.objects.filter(pk=pk).values_list("version", flat=True).first()


def match_version(pk: int) -> int | None:
    """A match's page shows its competition's names and rules beside the match: the competition's
    version, which every change to the match moves."""
    return Match.objects.filter(pk=pk).values_list("competition__version", flat=True).first()


def all_competitions_version() -> tuple:
    return versions_of(Competition.objects.all())


def all_clubs_version() -> tuple:
    return versions_of(Club.objects.all())


def rankings_version() -> tuple:
    """The ranking lists and the rating read every competition, and name players and clubs."""
    return (all_competitions_version(), all_clubs_version())


def team_version(pk: int) -> tuple:
    """A team's page: its club's version (the team's and its players' names) and its competitions'."""
    club = Team.objects.filter(pk=pk).values_list("club__version", flat=True).first()
    return (club, versions_of(Competition.objects.filter(teams=pk)))


def player_version(pk: int) -> tuple:
    """A player's page: its club's version and the competitions it played in, in a team, as a
    substitute or signed up alone."""
    club = Player.objects.filter(pk=pk).values_list("club__version", flat=True).first()
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
    club = Club.objects.filter(pk=pk).values_list("version", flat=True).first()
    teams = Team.objects.filter(club=pk).values("pk")
    competitions = Competition.objects.filter(
        Q(organiser=pk) | Q(pk__in=Competition.teams.through.objects.filter(team__in=teams).values("competition_id"))
    )
    return (club, versions_of(Competition.objects.filter(pk__in=competitions.values("pk"))))


def start_page_version() -> tuple:
    """The start page shows no result, but moves with every competition all the same, so that its
    validator is never older than the site's news."""
    return all_competitions_version()
