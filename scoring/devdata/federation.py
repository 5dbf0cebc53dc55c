"""Federation-scale example data: a country's worth of clubs, teams, competitions and protocols.

`build_federation()` (behind `manage.py demo --scale federation`) makes, at full size, 60 clubs
with 10 teams (lag) each (600 teams, 1 200 players), 29 league series (serier) of 20 teams played
as a single round robin (19 rounds, 190 matches each) and one national competition of all 600
teams over 15 rounds of 300 matches: 30 competitions, 10 010 matches (partier) and about 120 000
deals (givar). `fraction` shrinks it (clubs, leagues and national rounds) for tests; `size` gives
the numbers directly (the benchmarks use one 600-team competition and one 20-team league).

Every number is legal and the engine's: each match's deals come from the demo's deal generator
(`scoring.devdata.generate.match_deals`, in a style with fewer canastas so that a match runs to about
twelve deals, as a real game to 5000 does; the competitions play untimed rule sets so that the
clock does not cut the matches short), the engine replays them (`engine.replay`), a match with any check error is refused, and the rows
are written by the services (`services.matches_record_played`, which stores a match's totals, end,
winner, points and card points and its deals exactly as deals_record does). Nothing here computes a
score.

Speed: clubs, teams, competitions and rounds go in with `bulk_create` in batches, the matches through
matches_record_played, inside one transaction, a block of matches at a
time (their deals are made, replayed, inserted, then dropped), so memory stays flat. The data is
marked by its first club's name; running the command again finds it and does nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time as clock_time, timedelta
from zoneinfo import ZoneInfo

from django.db import connection, transaction

from scoring.engine import DealEntry, MatchState, RuleSet, replay
from scoring.engine.rules import PointsRules, get_points_rules, get_rules
from scoring.devdata.generate import DealStyle, match_deals
from scoring.engine.pairing import round_robin
from scoring.models import Club, Competition, Match, Player, Round, Team
from scoring.services.matches import matches_record_played
from scoring.services.standings import standings_refresh

__all__ = [
    "FEDERATION_MARKER",
    "FederationReport",
    "FederationSize",
    "build_federation",
    "federation_size",
]

S = Match.Status
STOCKHOLM = ZoneInfo("Europe/Stockholm")
# The first club's name: its presence means the federation data is there already.
FEDERATION_MARKER = "Förbundsklubben Abisko"
SEASONS = ("2023/24", "2024/25", "2025/26")
NATIONAL_NAME = "Svenska mästerskapet för lag"
BATCH_SIZE = 2000
MATCH_BLOCK = 1000

TOWNS = (
    "Abisko", "Alingsås", "Arvika", "Boden", "Borlänge", "Borås", "Eksjö", "Enköping", "Eskilstuna",
    "Falun", "Gävle", "Göteborg", "Halmstad", "Haparanda", "Helsingborg", "Hudiksvall", "Härnösand",
    "Jönköping", "Kalmar", "Karlstad", "Kiruna", "Kristianstad", "Köping", "Landskrona", "Lidköping",
    "Linköping", "Luleå", "Lund", "Malmö", "Mora", "Motala", "Norrköping", "Nyköping", "Piteå",
    "Sala", "Sandviken", "Skara", "Skellefteå", "Skövde", "Sollefteå", "Strängnäs", "Sundsvall",
    "Säffle", "Södertälje", "Tranås", "Trelleborg", "Uddevalla", "Umeå", "Uppsala", "Varberg",
    "Visby", "Vänersborg", "Västervik", "Västerås", "Växjö", "Ystad", "Åmål", "Ängelholm", "Örebro",
    "Östersund",
)
FIRST_NAMES = (
    "Anna", "Astrid", "Birgitta", "Britt", "Gunnel", "Ingrid", "Karin", "Kerstin", "Margareta",
    "Märta", "Solveig", "Åsa", "Anders", "Bengt", "Björn", "Göran", "Gösta", "Lars", "Lennart",
    "Olof", "Per", "Sven", "Ulf", "Örjan",
)
LAST_NAMES = (
    "Andersson", "Berg", "Björk", "Dahl", "Ek", "Forsberg", "Hedlund", "Holm", "Johansson",
    "Karlsson", "Lindqvist", "Lund", "Nilsson", "Nyström", "Sjöberg", "Ström", "Wallin", "Åberg",
    "Åström", "Öberg",
)
TEAM_WORDS = (
    "Joker", "Kanasta", "Ess", "Tvåan", "Röda trean", "Talongen", "Utgång", "Dolda", "Renen",
    "Blandningen",
)


@dataclass(frozen=True)
class FederationSize:
    clubs: int = 60
    teams_per_club: int = 10
    leagues: int = 29
    league_size: int = 20
    national_rounds: int = 15

    @property
    def teams(self) -> int:
        return self.clubs * self.teams_per_club


def federation_size(fraction: float = 1.0) -> FederationSize:
    """The full federation (fraction 1) or a smaller one with the same shape."""
    if not 0 < fraction <= 1:
        raise ValueError("fraction must be in (0, 1]")
    full = FederationSize()
    clubs = max(2, round(full.clubs * fraction))
    return FederationSize(
        clubs=clubs,
        teams_per_club=full.teams_per_club,
        leagues=max(1, round(full.leagues * fraction)),
        league_size=min(full.league_size, clubs * full.teams_per_club),
        national_rounds=max(1, round(full.national_rounds * fraction)),
    )


@dataclass
class FederationReport:
    clubs: int = 0
    players: int = 0
    teams: int = 0
    competitions: int = 0
    rounds: int = 0
    matches: int = 0
    deals: int = 0
    seconds: float = 0.0
    skipped: bool = False
    competition_ids: list[int] = field(default_factory=list)

    def summary(self) -> str:
        if self.skipped:
            return "The federation data is there already; nothing was added."
        return (
            f"{self.clubs} clubs, {self.teams} teams, {self.players} players, "
            f"{self.competitions} competitions, {self.rounds} rounds, {self.matches} matches, "
            f"{self.deals} deals in {self.seconds:.1f} s"
        )


# A deal source: given a random generator and the match's rule set, the deals of one whole match
# (until a side reaches the target). The demo's generator is used; tests may pass their own.
DealSource = Callable[[random.Random, RuleSet], Sequence[DealEntry]]

# One canasta for the side that goes out, rarely one for the other: about twelve deals a match.
FEDERATION_STYLE = DealStyle(out_canastas=((1, 100),), other_canastas=((0, 95), (1, 5)))
# Untimed rule sets, alternating between the leagues; the national competition plays the first.
RULE_SETS = ("internationell-1951", "sv-hem")


def federation_deals(rng: random.Random, rules: RuleSet) -> Sequence[DealEntry]:
    return match_deals(rng, rules, FEDERATION_STYLE)


# -- schedule -----------------------------------------------------------------------------------


def league_rounds(team_ids: Sequence[int]) -> list[list[tuple[int, int]]]:
    """A single round robin in Berger order, as the schedule service makes it (scoring.engine.pairing)."""
    return [[(pairing.home, pairing.away) for pairing in round_.pairings] for round_ in round_robin(team_ids)]


def random_rounds(rng: random.Random, team_ids: Sequence[int], count: int) -> list[list[tuple[int, int]]]:
    """Rounds of random pairings (a large open competition); a team never meets itself."""
    rounds = []
    for _ in range(count):
        shuffled = list(team_ids)
        rng.shuffle(shuffled)
        rounds.append([(shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled) - 1, 2)])
    return rounds


# -- building -----------------------------------------------------------------------------------


def _people(rng: random.Random, size: FederationSize, report: FederationReport) -> tuple[list[Club], list[Team]]:
    towns = [TOWNS[i % len(TOWNS)] + ("" if i < len(TOWNS) else f" {i // len(TOWNS) + 1}") for i in range(size.clubs)]
    clubs = Club.objects.bulk_create(
        [Club(name=f"Förbundsklubben {town}", city=town.split(" ")[0]) for town in towns],
        batch_size=BATCH_SIZE,
    )
    players = Player.objects.bulk_create(
        [
            Player(
                name=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                club=club,
                member_number=f"F{club_index + 1:03d}-{i + 1:02d}",
            )
            for club_index, club in enumerate(clubs)
            for i in range(2 * size.teams_per_club)
        ],
        batch_size=BATCH_SIZE,
    )
    teams = []
    for club_index, club in enumerate(clubs):
        for i in range(size.teams_per_club):
            one = players[club_index * 2 * size.teams_per_club + 2 * i]
            two = players[club_index * 2 * size.teams_per_club + 2 * i + 1]
            word = TEAM_WORDS[i % len(TEAM_WORDS)]
            teams.append(Team(name=f"{club.city} {word}", club=club, player_one=one, player_two=two))
    teams = Team.objects.bulk_create(teams, batch_size=BATCH_SIZE)
    report.clubs, report.players, report.teams = len(clubs), len(players), len(teams)
    return clubs, teams


@dataclass
class _Plan:
    competition: Competition
    rules: RuleSet
    rules_dict: dict
    points: PointsRules
    points_dict: dict
    team_ids: list[int]
    pairings: list[list[tuple[int, int]]]
    first_date: date


def _competitions(rng: random.Random, size: FederationSize, clubs: list[Club], teams: list[Team]) -> list[_Plan]:
    team_ids = [team.pk for team in teams]
    specs = []
    for k in range(size.leagues):
        season = SEASONS[k % len(SEASONS)]
        members = [team_ids[(k * size.league_size + i) % len(team_ids)] for i in range(size.league_size)]
        specs.append(
            (
                Competition(
                    name=f"Division {k // 3 + 1} {clubs[k % len(clubs)].city}",
                    season=season,
                    organiser=clubs[k % len(clubs)],
                    rules_key=RULE_SETS[k % len(RULE_SETS)],
                    requires_confirmation=True,
                ),
                members,
                league_rounds(members),
                date(int(season[:4]), 9, 1) + timedelta(days=k % 7),
            )
        )
    specs.append(
        (
            Competition(
                name=NATIONAL_NAME,
                season=SEASONS[-1],
                kind=Competition.Kind.TOURNAMENT,
                organiser=clubs[0],
                rules_key=RULE_SETS[0],
                requires_confirmation=True,
            ),
            team_ids,
            random_rounds(rng, team_ids, size.national_rounds),
            date(int(SEASONS[-1][:4]), 10, 4),
        )
    )
    competitions = Competition.objects.bulk_create([spec[0] for spec in specs], batch_size=BATCH_SIZE)
    through = Competition.teams.through
    through.objects.bulk_create(
        [
            through(competition_id=competition.pk, team_id=team_id)
            for competition, (_, members, _, _) in zip(competitions, specs)
            for team_id in members
        ],
        batch_size=BATCH_SIZE,
    )
    plans = []
    for competition, (_, members, pairings, first_date) in zip(competitions, specs):
        rules = get_rules(competition.rules_key, competition.rules_overrides)
        points = get_points_rules(competition.points_key, competition.points_overrides)
        plans.append(
            _Plan(
                competition=competition,
                rules=rules,
                rules_dict=rules.to_dict(),
                points=points,
                points_dict=points.to_dict(),
                team_ids=members,
                pairings=pairings,
                first_date=first_date,
            )
        )
    return plans


def _rounds(plans: list[_Plan], report: FederationReport) -> dict[tuple[int, int], Round]:
    rounds = Round.objects.bulk_create(
        [
            Round(
                competition=plan.competition,
                number=number,
                date=plan.first_date + timedelta(weeks=number - 1),
            )
            for plan in plans
            for number in range(1, len(plan.pairings) + 1)
        ],
        batch_size=BATCH_SIZE,
    )
    report.rounds = len(rounds)
    return {(r.competition_id, r.number): r for r in rounds}


class FederationDataError(Exception):
    """A generated match the engine does not accept: the generator is wrong, nothing is kept."""


def _played_match(plan: _Plan, round_: Round, table: int, home_id: int, away_id: int,
                  deals: Sequence[DealEntry]) -> tuple[Match, MatchState]:
    """A match row (not saved) and the engine's replay of its deals, for matches_record_played."""
    state = replay(plan.rules, list(deals), points=plan.points)
    if state.errors or not state.finished:
        problems = [(d.number, p.code) for d in state.deals for p in d.errors]
        raise FederationDataError(
            f"generated match not accepted (finished={state.finished}, errors={problems[:5]})"
        )
    started = datetime.combine(round_.date, clock_time(18, 0), tzinfo=STOCKHOLM) + timedelta(minutes=table % 4)
    match = Match(
        competition_id=plan.competition.pk,
        round=round_,
        table=table,
        home_team_id=home_id,
        away_team_id=away_id,
        scheduled_start=started,
        started_at=started,
        status=S.IN_PROGRESS,
        rules_snapshot=plan.rules_dict,
        points_snapshot=plan.points_dict,
    )
    match.submitted_at = started + timedelta(hours=2)
    match.confirmed_at = started + timedelta(hours=2, minutes=15)
    return match, state


def _fixtures(plans: list[_Plan], rounds: dict) -> Iterator[tuple[_Plan, Round, int, int, int]]:
    for plan in plans:
        for number, pairs in enumerate(plan.pairings, start=1):
            round_ = rounds[(plan.competition.pk, number)]
            for table, (home_id, away_id) in enumerate(pairs, start=1):
                yield plan, round_, table, home_id, away_id


def _insert_block(block: list[tuple[Match, MatchState]], report: FederationReport) -> None:
    matches, deals = matches_record_played(played=block, status=S.CONFIRMED, batch_size=BATCH_SIZE)
    report.matches += len(matches)
    report.deals += deals


def build_federation(
    *,
    fraction: float = 1.0,
    size: FederationSize | None = None,
    seed: int = 2026,
    deal_source: DealSource | None = None,
    progress: Callable[[str], None] | None = None,
) -> FederationReport:
    """Make the federation's data (or find it there already). Returns what was made and how long it took."""
    report = FederationReport()
    if Club.objects.filter(name=FEDERATION_MARKER).exists():
        report.skipped = True
        return report
    size = size or federation_size(fraction)
    source = deal_source or federation_deals
    rng = random.Random(seed)
    say = progress or (lambda message: None)
    started = time.perf_counter()
    with transaction.atomic():
        clubs, teams = _people(rng, size, report)
        plans = _competitions(rng, size, clubs, teams)
        report.competitions = len(plans)
        report.competition_ids = [plan.competition.pk for plan in plans]
        rounds = _rounds(plans, report)
        say(f"{report.clubs} clubs, {report.teams} teams, {report.competitions} competitions, {report.rounds} rounds")
        block: list[tuple[Match, MatchState]] = []
        for plan, round_, table, home_id, away_id in _fixtures(plans, rounds):
            block.append(_played_match(plan, round_, table, home_id, away_id, source(rng, plan.rules)))
            if len(block) >= MATCH_BLOCK:
                _insert_block(block, report)
                block = []
                say(f"{report.matches} matches, {report.deals} deals ({time.perf_counter() - started:.0f} s)")
        if block:
            _insert_block(block, report)
        for plan in plans:  # the stored table of each competition (services.standings)
            standings_refresh(competition=plan.competition)
    if connection.vendor == "postgresql":
        # PostgreSQL plans its queries from statistics that autovacuum gathers some time after a
        # bulk load; until then it takes each table for a handful of rows and joins thousands by
        # nested loops (the rating's order of 10 000 matches: 0.6 s instead of 0.07 s). Gathered
        # now, as after any bulk load (docs/operations.md, "Backup and restore").
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    report.seconds = time.perf_counter() - started
    return report
