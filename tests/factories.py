"""Plain factory functions for tests: each makes a valid object with sensible defaults.

Helpers append new factories at the end; keep existing signatures stable.
"""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from scoring.engine import DealEntry, SideEntry
from scoring.services.standings import standings_refresh
from scoring.services.rating import rating_refresh
from scoring.models import Club, Competition, Match, Player, Round, Team

_counter = itertools.count(1)


def _n() -> int:
    return next(_counter)


def make_user(username: str | None = None, *, password: str = "secret-pass-123", **extra):
    username = username or f"user{_n()}"
    return get_user_model().objects.create_user(username=username, password=password, **extra)


def make_admin(username: str | None = None, *, password: str = "secret-pass-123"):
    username = username or f"admin{_n()}"
    return get_user_model().objects.create_superuser(username=username, password=password, email="")


def make_club(name: str | None = None, *, secretary=None, **extra) -> Club:
    club = Club.objects.create(name=name or f"Klubb {_n()}", **extra)
    if secretary is not None:
        club.secretaries.add(secretary)
    return club


def make_player(name: str | None = None, *, club: Club | None = None, **extra) -> Player:
    return Player.objects.create(name=name or f"Spelare {_n()}", club=club or make_club(), **extra)


def make_team(name: str | None = None, *, club: Club | None = None, captain=None, players=None) -> Team:
    club = club or make_club()
    one, two = players or (make_player(club=club), make_player(club=club))
    return Team.objects.create(
        name=name or f"Lag {_n()}", club=club, player_one=one, player_two=two, captain=captain
    )


def make_competition(*, organiser: Club | None = None, teams=(), **extra) -> Competition:
    values = {"name": f"Serie {_n()}", "season": "2026/27"}
    values.update(extra)
    competition = Competition.objects.create(organiser=organiser or make_club(), **values)
    if teams:
        competition.teams.add(*teams)
    return competition


def make_round(competition: Competition, number: int = 1, **extra) -> Round:
    return Round.objects.create(competition=competition, number=number, **extra)


def make_match(
    *,
    competition: Competition | None = None,
    home: Team | None = None,
    away: Team | None = None,
    round_number: int = 1,
    table: int = 1,
    **extra,
) -> Match:
    home = home or make_team()
    away = away or make_team()
    competition = competition or make_competition(organiser=home.club)
    competition.teams.add(home, away)
    round_, _ = Round.objects.get_or_create(competition=competition, number=round_number)
    return Match.objects.create(
        competition=competition, round=round_, table=table, home_team=home, away_team=away, **extra
    )


def deal(number: int = 1, *, home_cards: int = 0, away_cards: int = 0, out: str | None = None,
         home_natural: int = 0, home_mixed: int = 0, away_natural: int = 0, away_mixed: int = 0,
         concealed: bool = False, end: str | None = None, **side_extra) -> DealEntry:
    """A DealEntry; side_extra keys like home_red3=2, away_penalty=100, home_score_written=885."""

    def side(prefix: str, cards: int, natural: int, mixed: int) -> SideEntry:
        get = lambda name, default=0: side_extra.get(f"{prefix}_{name}", default)  # noqa: E731
        return SideEntry(
            cards=cards, natural=natural, mixed=mixed, red3=get("red3"), penalty=get("penalty"),
            melded=get("melded", None), written_min=get("min_written", None),
            written_score=get("score_written", None), written_total=get("total_written", None),
        )

    return DealEntry(
        number=number,
        home=side("home", home_cards, home_natural, home_mixed),
        away=side("away", away_cards, away_natural, away_mixed),
        out=out, concealed=concealed, end=end,
    )


def winning_deal(number: int = 1, side: str = "home") -> DealEntry:
    """A legal deal worth 1 885 to `side` (two natural, one mixed canasta, going out) and −40 to the other."""
    kwargs = {f"{side}_natural": 2, f"{side}_mixed": 1}
    other = "away" if side == "home" else "home"
    return deal(number, out=side, **{f"{side}_cards": 485, f"{other}_cards": -40}, **kwargs)


def protocol_setup():
    """A home club with a secretary, two teams with captains, and a scheduled match."""
    secretary = make_user("sekreterare")
    home_club = make_club("Hemmaklubben", secretary=secretary)
    away_club = make_club("Bortaklubben")
    home_captain = make_user("hemmakapten")
    away_captain = make_user("bortakapten")
    home = make_team("Hemmalaget", club=home_club, captain=home_captain)
    away = make_team("Bortalaget", club=away_club, captain=away_captain)
    match = make_match(home=home, away=away, competition=make_competition(organiser=home_club))
    return {
        "secretary": secretary,
        "home_captain": home_captain,
        "away_captain": away_captain,
        "home": home,
        "away": away,
        "match": match,
    }


# -- standings and schedules (appended) ----------------------------------------------------------


def result_fields(competition: Competition, home_total: int, away_total: int, *,
                  forfeit_winner: str | None = None) -> dict:
    """The denormalised result fields the services store on a finished match, via the engine."""
    from decimal import Decimal

    from scoring.engine import forfeit_outcome, played_outcome

    points = competition.points_rules
    if forfeit_winner:
        outcome = forfeit_outcome(points, forfeit_winner)
        end = Match.End.FORFEIT
    else:
        outcome = played_outcome(points, home_total, away_total)
        end = Match.End.TARGET
    return {
        "end": end,
        # A played result took at least one deal (a walk over none): selectors.protocols.has_score.
        "deal_count": 0 if forfeit_winner else 1,
        "winner": outcome.winner,
        "home_total": outcome.home_for if forfeit_winner else home_total,
        "away_total": outcome.away_for if forfeit_winner else away_total,
        "home_points": Decimal(str(outcome.home_points)),
        "away_points": Decimal(str(outcome.away_points)),
        "home_for": outcome.home_for,
        "home_against": outcome.home_against,
        "away_for": outcome.away_for,
        "away_against": outcome.away_against,
    }


def make_result(competition: Competition, home: Team, away: Team, home_total: int = 5100,
                away_total: int = 3000, *, round_number: int = 1, status: str = Match.Status.CONFIRMED,
                forfeit_winner: str | None = None, table: int = 1, save: bool = True) -> Match:
    """A match with a stored result (as the services would store it); save=False for bulk_create."""
    competition.teams.add(home, away)
    round_, _ = Round.objects.get_or_create(competition=competition, number=round_number)
    fields = result_fields(competition, home_total, away_total, forfeit_winner=forfeit_winner)
    if status == Match.Status.VOID:
        fields["end"] = Match.End.ABANDONED
        if competition.points_rules.abandoned != "as-played":  # services.match_void stores no result
            fields.update(dict.fromkeys(("home_points", "away_points", "home_for", "home_against",
                                         "away_for", "away_against"), None), winner="")
    match = Match(
        competition=competition, round=round_, table=table, home_team=home, away_team=away,
        status=status, points_snapshot=competition.points_rules.to_dict(), **fields,
    )
    if save:
        match.save()
        standings_refresh(competition=competition)  # as the services keep the stored table
        rating_refresh(matches=[match])  # and the stored ratings
    return match


# -- exports: a played match, deal by deal, through the services --------------------------------

# A realistic protocol under sv-tavling: eight deals, the home team reaches 5000 in deal 8
# (totals 5 500 – 3 720). Deal 2 is a concealed going out, deal 3 ends by the stock, deal 4 has a
# penalty.
EXPORT_SAMPLE_DEALS = (
    deal(1, home_cards=485, home_natural=2, home_mixed=1, out="home", away_cards=-40),
    deal(2, away_cards=120, away_natural=1, out="away", concealed=True, home_cards=-85),
    deal(3, home_cards=210, home_mixed=1, away_cards=150, away_natural=1, end="stock"),
    deal(4, home_cards=300, home_natural=1, home_mixed=1, out="home", away_cards=-20, away_penalty=100),
    deal(5, away_cards=260, away_natural=2, out="away", home_cards=75),
    deal(6, home_cards=195, home_natural=1, home_mixed=1, out="home", away_cards=60),
    deal(7, away_cards=150, away_natural=1, away_mixed=1, out="away", home_cards=-35),
    deal(8, home_cards=255, home_natural=1, out="home", away_cards=-60),
)


def play_match(match: Match, user, entries=EXPORT_SAMPLE_DEALS) -> Match:
    """Record `entries` on `match` one by one as `user` would (through scoring.services)."""
    from scoring.services import deals_record

    for entry in entries:
        match = deals_record(match=match, user=user, entry=entry, expected_version=None)
    return match
