"""Reads for the commands (scoring/management/): the rows a command line names by id or name.

A command acts as the site's operator, so it sees every row whatever its competition's visibility
(the pages ask selectors.public, which hides what is not public). Each read raises the model's
DoesNotExist for an id that names nothing; the command words that for its user."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from scoring.models import Club, Competition, Match, Player, Team


def competition(pk: int) -> Competition:
    """The competition with its organiser, whom its documents and its table name."""
    return Competition.objects.select_related("organiser").get(pk=pk)


def match(pk: int) -> Match:
    """The match with its competition and teams, which an imported or exported protocol names."""
    return Match.objects.select_related("competition", "home_team", "away_team").get(pk=pk)


def user_named(username: str):
    """The account a command acts as (`protocol import --user NAME`)."""
    return get_user_model().objects.get(username=username)


def player(pk: int) -> Player:
    """The player whose figures `manage.py figures --player` prints, with his club."""
    return Player.objects.select_related("club").get(pk=pk)


def team(pk: int) -> Team:
    """The pair whose figures `manage.py figures --team` prints, with its club."""
    return Team.objects.select_related("club").get(pk=pk)


def club(pk: int) -> Club:
    return Club.objects.get(pk=pk)
