"""Demo data for the federation pages: the league's season before this one, played and closed (an
archive on every player's, pair's and club's page), and an individual club night at Älvsjö with
three rounds played and the fourth drawn, so that the rankings, the rating, the club table, the
players' table and the charts all have something to show. Everything goes through the services."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.models import Competition, Season
from scoring.services.individual import individual_pair_round, individual_signup
from scoring.services.schedules import schedule_generate_league
from scoring.services.seasons import season_close, season_reopen

CLUB_NIGHT_NAME = "Klubbkväll med växlande partner"
CLUB_NIGHT_PLAYERS = 13  # one sits out each round
CLUB_NIGHT_ROUNDS_PLAYED = 3


def previous_season(season: str) -> str:
    first = int(season[:4]) - 1
    return f"{first}/{(first + 1) % 100:02d}"


def _admin():
    return get_user_model().objects.filter(is_superuser=True).order_by("pk").first()


def earlier_season(report, play_class, league_name, league_teams, clubs, secretaries, season, today: date, seed: int):
    """The league of the season before `season`, every round played, then the season closed."""
    name = previous_season(season)
    competition, _ = Competition.objects.get_or_create(
        name=league_name, season=name, organiser=clubs["orebro"],
        defaults={"kind": Competition.Kind.LEAGUE, "rules_key": "sv-tavling", "points_key": "sv-serie",
                  "requires_confirmation": False, "is_public": True, "has_club_standings": True},
    )
    report.competitions.append(competition)
    if competition.rounds.exists():
        return competition
    report.created = True
    competition.teams.add(*league_teams)
    schedule_generate_league(
        competition=competition, user=secretaries["orebro"], start_date=today - timedelta(weeks=52),
        interval_days=7, double=False, start_time=None, seed=seed,
    )
    rng = random.Random(seed + 1)
    play = play_class(rng, {club.pk: secretaries[slug] for slug, club in clubs.items()},
                      {team.pk: rng.uniform(-0.12, 0.12) for team in league_teams})
    for round_ in competition.rounds.order_by("number"):
        for match in round_.matches.select_related("home_team", "away_team", "competition"):
            play.play(match, play_at(round_.date, match.table or 0))
    admin = _admin()
    if Season.objects.filter(name=name, closed_at__isnull=False).exists():
        # Made again (demo --reset): archive the new competition with the rest of its season.
        season_reopen(name=name, user=admin, reason="Demo")
    season_close(name=name, user=admin)
    report.matches += play.matches
    report.deals += play.deals
    return competition


def play_at(day: date, minutes: int):
    """An evening's start (18:30) plus `minutes`, as the demo's other matches start."""
    return timezone.make_aware(datetime.combine(day, time(18, 30))) + timedelta(minutes=minutes)


def club_night(report, play_class, clubs, secretaries, players, season, today: date, seed: int):
    """An individual competition of one club: players sign up, three rounds played, one drawn."""
    club = clubs["alvsjo"]
    secretary = secretaries["alvsjo"]
    competition, _ = Competition.objects.get_or_create(
        name=CLUB_NIGHT_NAME, season=season, organiser=club,
        defaults={"kind": Competition.Kind.INDIVIDUAL, "rules_key": "sv-tavling", "points_key": "sv-serie",
                  "requires_confirmation": False, "is_public": True},
    )
    report.competitions.append(competition)
    if competition.rounds.exists():
        return competition
    report.created = True
    individual_signup(competition=competition, players=players["alvsjo"][:CLUB_NIGHT_PLAYERS], user=secretary)
    rng = random.Random(seed + 2)
    play = play_class(rng, {club.pk: secretary}, {})
    day = today - timedelta(days=2)
    for number in range(1, CLUB_NIGHT_ROUNDS_PLAYED + 2):
        round_ = individual_pair_round(competition=competition, user=secretary, on=day,
                                       seed=seed if number == 1 else None)
        if number > CLUB_NIGHT_ROUNDS_PLAYED:
            break
        for match in round_.matches.select_related("home_team", "away_team", "competition"):
            play.play(match, play_at(day, 65 * (number - 1) + (match.table or 0)))
    report.matches += play.matches
    report.deals += play.deals
    return competition
