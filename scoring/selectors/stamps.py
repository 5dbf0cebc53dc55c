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

from django.db.models import Count, Max, Q, Sum
from django.forms.models import model_to_dict

from scoring.models import Bye, Competition, Match, Round, Team
from scoring.selectors.counting import counted_q
from scoring.selectors.public import has_result


def stamp_of(parts) -> str:
    """A short text for the values read: it changes whenever one of them does."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def competition_row(competition: Competition) -> list:
    """The competition's own fields as a page read them (its teams and entrants are read apart).
    `archived` is set by closing its season, not by a form: model_to_dict leaves it out, so it is
    named here (the page says it is an archive)."""
    row = model_to_dict(competition, exclude=["teams", "entrants"])
    row["archived"] = competition.archived
    return sorted(row.items())


def competition_document_stamp(competition: Competition) -> str:
    return _competition_stamp(competition, list(Competition.objects.filter(pk=competition.pk).values_list()))


def _competition_stamp(competition: Competition, row) -> str:
    """What a competition's documents and pages show of it, given its own row."""
    matches = Match.objects.filter(competition=competition).aggregate(
        count=Count("id"), updated=Max("updated_at"), versions=Sum("version")
    )
    parts = [
        sorted(matches.items()),
        row,
        # The organiser as the page read it (scoring.selectors.public.visible_competitions reads it
        # with the competition), else one query.
        competition.organiser.name,
        list(competition.rounds.order_by("number").values_list("number", "date")),
        list(
            competition.teams.order_by("pk").values_list(
                "pk", "name", "club__name", "player_one__name", "player_two__name"
            )
        ),
        list(Bye.objects.filter(round__competition=competition).order_by("pk").values_list("round_id", "team_id")),
    ]
    return stamp_of(parts)


def competition_results_stamp(competition: Competition) -> str:
    """A short text that changes whenever the results that enter the competition's tables do
    (RULES.md "Standings": the counted matches, and the byes where they score), its settings or its
    teams' names: what the places round by round are made of. A deal saved in a match being played
    does not change it."""
    counted = Match.objects.filter(competition=competition).filter(counted_q(competition))
    parts = [
        sorted(counted.aggregate(count=Count("id"), updated=Max("updated_at"), versions=Sum("version")).items()),
        competition_row(competition),  # its teams: next line
        list(competition.teams.order_by("pk").values_list("pk", "name")),
    ]
    if competition.points_rules.bye == "win":
        parts.append(list(Bye.objects.filter(round__competition=competition).order_by("pk").values_list("round_id", "team_id")))
    return stamp_of(parts)


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
    return stamp_of(parts)


def match_page_stamp(match: Match) -> str:
    """The stamp of what a match's protocol page draws of it once per change, read from the row
    already loaded (no query): the match's own fields (every service's change to the match or its
    deals moves version and updated_at), its rule set, and the names of its competition and teams,
    which are edited elsewhere without touching the match. The secretary's sheet and the log are
    kept under it (templates/scoring/secretary/protocol.html; an empty entry form's fields under
    entry_fields_stamp)."""
    parts = [
        match.pk, match.version, match.status, match.updated_at, match.rules, str(match.competition),
        str(match.home_team), str(match.away_team), str(match.home_substitute or ""), str(match.away_substitute or ""),
    ]  # fmt: skip
    return stamp_of(parts)


def entry_fields_stamp(match: Match) -> str:
    """The stamp of a protocol page's empty entry fields (no query): they show the rule set's
    fields and the teams' names, and nothing of the deals recorded, so they stay the same from one
    deal to the next (templates/scoring/secretary/_deal_layout.html)."""
    return stamp_of([match.rules, str(match.home_team), str(match.away_team)])


# -- the public pages --------------------------------------------------------------------------
# A public page keeps its body (below the breadcrumbs) under the stamp of everything it shows
# (scoring.views.public.KeptBodyMixin): a look at a page that has not changed reads the stamp and
# the kept body, and draws nothing. Each stamp names the rows the page is drawn from, read with a
# few plain queries, as the documents' stamps above do; the page adds the day (a round is live on
# its day) and who looks.


def competition_page_stamp(competition: Competition) -> str:
    """The competition page (standings, the current round, the places): what its documents show,
    the competition's own row as the page read it."""
    return _competition_stamp(competition, competition_row(competition))


def competition_outline_stamp(competition: Competition, rounds) -> str:
    """What the competition page draws around its live part (no query): the competition's row, its
    organiser and its rounds' numbers and days as the page read them."""
    parts = [
        competition_row(competition), competition.organiser.name,
        [(round_.number, round_.date) for round_ in rounds],
    ]  # fmt: skip
    return stamp_of(parts)


def round_page_stamp(round_: Round) -> str:
    """A round's page: its competition's page stamp and the round's own row (its hall clock), both
    as the page read them."""
    parts = [competition_page_stamp(round_.competition), sorted(model_to_dict(round_, exclude=["sitting_out"]).items())]
    return stamp_of(parts)


def public_match_page_stamp(match: Match) -> str:
    """A match's public page, from the row of scoring.selectors.public.get_visible_match with the
    names it joins (no query): the match's fields (every change to it or its deals moves version
    and updated_at), its competition, round, teams, clubs, players and substitutes."""
    teams = (match.home_team, match.away_team)
    names = [
        *[(team.name, team.club.name, team.player_one.name, team.player_two.name) for team in teams],
        *[player.name if player is not None else None for player in (match.home_substitute, match.away_substitute)],
    ]
    parts = [
        model_to_dict(match),
        model_to_dict(match.competition, exclude=["teams", "entrants"]),
        match.competition.organiser.name,
        model_to_dict(match.round, exclude=["sitting_out"]) if match.round else None,
        names,
    ]
    return stamp_of(parts)


def team_page_stamps(team: Team, history_stamp: str) -> tuple[str, str]:
    """A team's page, and the part of it made of its results (the results table and the recent
    form), read with one query: the team's own row with its club and players (as
    scoring.selectors.public.team_page_team read them for the page), each of its matches with its
    opponents and competition as the results table names them, its competitions, and the seasons'
    figures (`history_stamp`, scoring.selectors.history.season_history_stamp, which the page's
    season-by-season table is kept under too). The results' stamp is of the matches with a result
    only: a deal saved in the team's live match changes the page, not its results."""
    matches = Match.objects.filter(Q(home_team=team) | Q(away_team=team)).order_by("pk")
    rows = list(matches.values_list(
        "pk", "version", "updated_at", "status", "winner", "home_team__name", "away_team__name",
        "home_team__club__name", "away_team__club__name", "round__number", "round__date", "competition__name",
        "competition__season", "competition__is_public",
    ))  # fmt: skip
    team_parts = [model_to_dict(team), (team.club.name, team.player_one.name, team.player_two.name)]
    with_result = [row for row in rows if has_result(row[3], row[4])]
    page = stamp_of([
        *team_parts, rows, list(team.competitions.order_by("pk").values_list("pk", "name", "season", "is_public")),
        history_stamp,
    ])  # fmt: skip
    return page, stamp_of([*team_parts, with_result])
