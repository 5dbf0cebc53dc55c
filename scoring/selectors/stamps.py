"""The stamp of what a competition's documents show: a short text that changes whenever anything
printed in its PDFs and workbooks changes, read with a few plain queries.

A document (standings, results, a protocol, the whole competition) is made from the competition's
own row (name, rules, points), its rounds (numbers, dates), its teams and their players and clubs,
its byes and its matches. Every service that changes a match saves it, which moves its updated_at and
version; so the matches' largest updated_at, their count and the sum of their versions stand for all
of them, and for their deals. The other rows are few and are read as they are.
"""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, Sum
from django.forms.models import model_to_dict

from scoring.models import Bye, Club, Competition, Match
from scoring.selectors.counting import counted_q


def competition_document_stamp(competition: Competition) -> str:
    matches = Match.objects.filter(competition=competition).aggregate(
        count=Count("id"), updated=Max("updated_at"), versions=Sum("version")
    )
    parts = [
        sorted(matches.items()),
        list(Competition.objects.filter(pk=competition.pk).values_list()),
        list(Club.objects.filter(pk=competition.organiser_id).values_list("name")),
        list(competition.rounds.order_by("number").values_list("number", "date")),
        list(
            competition.teams.order_by("pk").values_list(
                "pk", "name", "club__name", "player_one__name", "player_two__name"
            )
        ),
        list(Bye.objects.filter(round__competition=competition).order_by("pk").values_list("round_id", "team_id")),
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def competition_results_stamp(competition: Competition) -> str:
    """A short text that changes whenever the results that enter the competition's tables do
    (RULES.md "Standings": the counted matches, and the byes where they score), its settings or its
    teams' names: what the places round by round are made of. A deal saved in a match being played
    does not change it."""
    counted = Match.objects.filter(competition=competition).filter(counted_q(competition))
    parts = [
        sorted(counted.aggregate(count=Count("id"), updated=Max("updated_at"), versions=Sum("version")).items()),
        sorted(model_to_dict(competition, exclude=["teams", "entrants"]).items()),  # its teams: next line
        list(competition.teams.order_by("pk").values_list("pk", "name")),
    ]
    if competition.points_rules.bye == "win":
        parts.append(list(Bye.objects.filter(round__competition=competition).order_by("pk").values_list("round_id", "team_id")))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def match_document_stamp(match: Match) -> str:
    """The stamp of what a match's own documents (its protocol as PDF and workbook) show: the match
    row (every service's change moves its version), its deals through it, the competition's row
    and organiser, its round, and the teams, players and substitutes named. Saves in the
    competition's other matches do not change it."""
    parts = [
        list(Match.objects.filter(pk=match.pk).values_list()),
        list(Competition.objects.filter(pk=match.competition_id).values_list()),
        list(Match.objects.filter(pk=match.pk).values_list(
            "competition__organiser__name", "round__number", "round__date", "home_team__name", "away_team__name", "home_team__club__name",
            "away_team__club__name", "home_team__player_one__name", "home_team__player_two__name",
            "away_team__player_one__name", "away_team__player_two__name", "home_substitute__name",
            "away_substitute__name",
        )),  # fmt: skip
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def match_page_stamp(match: Match) -> str:
    """The stamp of what a match's protocol page draws of it once per change, read from the row
    already loaded (no query): the match's own fields (every service's change to the match or its
    deals moves version and updated_at), its rule set, and the names of its competition and teams,
    which are edited elsewhere without touching the match. The secretary's sheet, an empty entry
    form and the log are kept under it (templates/scoring/secretary/protocol.html)."""
    parts = [
        match.pk, match.version, match.status, match.updated_at, match.rules, str(match.competition),
        str(match.home_team), str(match.away_team), str(match.home_substitute or ""), str(match.away_substitute or ""),
    ]  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
