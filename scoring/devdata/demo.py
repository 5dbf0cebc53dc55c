"""Demo data: a realistic Swedish canasta season, every protocol played through the engine.

`build_demo()` (behind `manage.py demo`) makes four clubs with about forty players, a league series
of eight teams (a double round robin, weekly) whose earlier rounds are played and confirmed, whose
round of today is being played (results arriving, one waiting for confirmation) and whose later
rounds are ahead; and a club championship played by Monrad pairing this evening, three rounds
played and the fourth paired. Users: an administrator, a secretary per club and a captain per
league team (`demo_logins()`).

Every deal comes from the legal-deal generator (scoring.devdata.generate) and is recorded through the
services (match_start, match_import_deals, match_declare_clock, match_submit, match_confirm,
match_forfeit), exactly as a secretary's entries would be: the engine scores and checks every
number, and every match ends by the rules (5000 or the clock).

Running it again adds nothing: people, clubs and teams are found by name, and a competition that
already has a schedule is left as it is. `reset=True` deletes the demo competitions first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from scoring import services
from scoring.devdata import demo_championship, demo_federation
from scoring.devdata.generate import GeneratedMatch, generate_match, match_deals  # noqa: F401 (re-export)
from scoring.models import Club, Competition, Match, Player, TableLink, Team
from scoring.services.schedules import schedule_generate_league, schedule_pair_next_round

__all__ = ["DemoReport", "build_demo", "demo_logins", "match_deals"]

ADMIN_USERNAME = ADMIN_PASSWORD = "admin"
DEMO_PASSWORD = "canasta"
SEED = 2026

# (name, city, username slug, players); the first players of each club form its league teams.
CLUBS = (
    ("Älvsjö Canastaklubb", "Stockholm", "alvsjo", (
        "Birgitta Andersson", "Lars Johansson", "Margareta Karlsson", "Göran Nilsson",
        "Ulla Eriksson", "Bengt Larsson", "Kerstin Olsson", "Åke Persson", "Inger Svensson",
        "Sven Gustafsson", "Eva Pettersson", "Rolf Jonsson", "Gunilla Jansson", "Leif Hansson",
    )),
    ("Örebro Canastasällskap", "Örebro", "orebro", (
        "Britt Bengtsson", "Kjell Jönsson", "Marianne Lindberg", "Stig Jakobsson",
        "Agneta Magnusson", "Bo Lindström", "Anita Olofsson", "Hans Lindqvist",
        "Barbro Lindgren", "Per Axelsson",
    )),
    ("Åkersberga Canastaförening", "Åkersberga", "akersberga", (
        "Ingrid Berg", "Jan Bergström", "Lena Lundberg", "Tore Lundgren", "Elisabeth Lind",
        "Olle Lundqvist", "Solveig Mattsson", "Gösta Berglund",
    )),
    ("Malmö Canastaklubb", "Malmö", "malmo", (
        "Siv Fredriksson", "Erik Sandberg", "Karin Henriksson", "Örjan Forsberg",
        "Maj-Britt Sjöberg", "Ulf Wallin", "Märta Håkansson", "Ove Björk",
    )),
)
# Two league teams per club: (club slug, team name, username slug).
LEAGUE_TEAMS = (
    ("alvsjo", "Älvsjö Jokrar", "alvsjo-jokrar"),
    ("alvsjo", "Älvsjö Ess", "alvsjo-ess"),
    ("orebro", "Örebro Röda treor", "orebro-treor"),
    ("orebro", "Örebro Damer", "orebro-damer"),
    ("akersberga", "Åkersberga Kungar", "akersberga-kungar"),
    ("akersberga", "Åkersberga Knektar", "akersberga-knektar"),
    ("malmo", "Malmö Tior", "malmo-tior"),
    ("malmo", "Malmö Tvåor", "malmo-tvaor"),
)
LEAGUE_NAME = "Canastaserien division 1"
TOURNAMENT_NAME = "Klubbmästerskapet i par"
TOURNAMENT_ROUNDS_PLAYED = 3
EVENING = time(18, 30)


def season_of(day: date) -> str:
    """The season a day belongs to: autumn to summer, "2026/27"."""
    first = day.year if day.month >= 8 else day.year - 1
    return f"{first}/{(first + 1) % 100:02d}"


@dataclass
class DemoReport:
    created: bool = False
    clubs: int = 0
    players: int = 0
    teams: int = 0
    matches: int = 0
    deals: int = 0
    logins: list[tuple[str, str, str]] = field(default_factory=list)
    competitions: list[Competition] = field(default_factory=list)
    # (match, home team's code, away team's code) of the demo's table links in use.
    table_links: list[tuple[Match, str, str]] = field(default_factory=list)


def demo_logins() -> list[tuple[str, str, str]]:
    """(username, password, role) of every demo user."""
    logins = [(ADMIN_USERNAME, ADMIN_PASSWORD, "administratör")]
    for name, _, slug, _ in CLUBS:
        logins.append((f"sekreterare-{slug}", DEMO_PASSWORD, f"sekreterare, {name}"))
    for _, team, slug in LEAGUE_TEAMS:
        logins.append((f"kapten-{slug}", DEMO_PASSWORD, f"lagkapten, {team}"))
    return logins


# -- people -------------------------------------------------------------------------------------


_HASHES: dict[str, str] = {}


def _user(username: str, password: str, *, first_name: str = "", last_name: str = "", superuser: bool = False):
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=username, defaults={"first_name": first_name, "last_name": last_name}
    )
    if created:
        # Hashing is slow on purpose; the demo users share a password, so hash it once.
        if password not in _HASHES:
            _HASHES[password] = make_password(password)
        user.password = _HASHES[password]
        if superuser:
            user.is_superuser = user.is_staff = True
        user.save()
    return user


def _people(report: DemoReport) -> tuple[dict, dict, dict, dict]:
    """Clubs, their secretaries, players and teams (league and championship)."""
    _user(ADMIN_USERNAME, ADMIN_PASSWORD, superuser=True)
    clubs, secretaries, players = {}, {}, {}
    for name, city, slug, names in CLUBS:
        club, _ = Club.objects.get_or_create(name=name, defaults={"city": city})
        secretary = _user(f"sekreterare-{slug}", DEMO_PASSWORD, first_name=f"Sekreterare {city}")
        club.secretaries.add(secretary)
        clubs[slug], secretaries[slug] = club, secretary
        players[slug] = [
            Player.objects.get_or_create(
                club=club, name=player, defaults={"member_number": f"{slug[:2].upper()}{index:03d}"}
            )[0]
            for index, player in enumerate(names, start=1)
        ]
    teams = {}
    used = {slug: 0 for slug in clubs}
    for club_slug, team_name, user_slug in LEAGUE_TEAMS:
        one, two = players[club_slug][used[club_slug]: used[club_slug] + 2]
        used[club_slug] += 2
        first_name, _, last_name = one.name.partition(" ")
        captain = _user(f"kapten-{user_slug}", DEMO_PASSWORD, first_name=first_name, last_name=last_name)
        if one.user_id is None and not Player.objects.filter(user=captain).exists():
            one.user = captain
            one.save(update_fields=["user"])
        team, _ = Team.objects.get_or_create(
            club=clubs[club_slug], name=team_name,
            defaults={"player_one": one, "player_two": two, "captain": captain},
        )
        teams[team_name] = team
    # The championship: every pair of Älvsjö, the two league teams and five more.
    home_players = players["alvsjo"]
    for index in range(used["alvsjo"], len(home_players), 2):
        one, two = home_players[index], home_players[index + 1]
        name = f"{one.name.split()[-1]}/{two.name.split()[-1]}"
        team, _ = Team.objects.get_or_create(
            club=clubs["alvsjo"], name=name, defaults={"player_one": one, "player_two": two}
        )
        teams[name] = team
    report.clubs = len(clubs)
    report.players = sum(len(p) for p in players.values())
    report.teams = len(teams)
    return clubs, secretaries, players, teams


# -- playing matches through the services -------------------------------------------------------


class _Play:
    """Records generated matches through the services, as the home club's secretary would."""

    def __init__(self, rng: random.Random, secretaries: dict, strengths: dict):
        self.rng, self.strengths = rng, strengths
        self.secretary_by_club = {club_id: user for club_id, user in secretaries.items()}
        self.matches = self.deals = 0

    def _secretary(self, match: Match):
        return self.secretary_by_club[match.home_team.club_id]

    def _generated(self, match: Match) -> GeneratedMatch:
        strength = 0.5 + self.strengths.get(match.home_team_id, 0) - self.strengths.get(match.away_team_id, 0)
        return generate_match(self.rng, match.competition.rules, home_strength=strength)

    def start(self, match: Match, started_at: datetime) -> Match:
        return services.match_start(match=match, user=self._secretary(match),
                                    expected_version=match.version, started_at=started_at)

    def play(self, match: Match, started_at: datetime, *, deals: int | None = None) -> Match:
        """Play the match to its end (or only its first `deals` deals: a match in progress)."""
        user = self._secretary(match)
        match = self.start(match, started_at)
        generated = self._generated(match)
        entries = list(generated.deals)
        if deals is not None:
            entries = entries[: min(deals, len(entries) - 1)]
        match = services.match_import_deals(match=match, user=user, entries=entries,
                                            expected_version=match.version)
        if deals is None and generated.clock_expired:
            match = services.match_declare_clock(match=match, user=user, expected_version=match.version)
        self.matches += 1
        self.deals += len(entries)
        return match

    def submit(self, match: Match) -> Match:
        return services.match_submit(match=match, user=self._secretary(match), expected_version=match.version)

    def confirm(self, match: Match) -> Match:
        return services.match_confirm(match=match, user=match.away_team.captain, expected_version=match.version)

    def walk_over(self, match: Match, winner: str, reason: str) -> Match:
        match = services.match_forfeit(match=match, user=self._secretary(match), winner=winner,
                                       reason=reason, expected_version=match.version)
        self.matches += 1
        return match


def _at(day: date, clock: time, minutes: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, clock)) + timedelta(minutes=minutes)


def _league(report: DemoReport, clubs, secretaries, teams, rng: random.Random, today: date) -> None:
    league_teams = [teams[name] for _, name, _ in LEAGUE_TEAMS]
    competition, _ = Competition.objects.get_or_create(
        name=LEAGUE_NAME, season=season_of(today), organiser=clubs["orebro"],
        defaults={"kind": Competition.Kind.LEAGUE, "rules_key": "sv-tavling", "points_key": "sv-serie",
                  "requires_confirmation": True, "is_public": True, "has_club_standings": True,
                  # The season's chores: pairs of two, each player in one team; an overdue
                  # protocol is reminded after three days.
                  "team_players_max": 2, "one_team_per_player": True, "reminder_days": 3},
    )
    report.competitions.append(competition)
    if competition.rounds.exists():
        return
    report.created = True
    competition.teams.add(*league_teams)
    rounds_count = 2 * (len(league_teams) - 1)
    today_round = rounds_count // 2 + 1  # round 8 of 14 is played today
    schedule_generate_league(
        competition=competition, user=secretaries["orebro"], start_date=today - timedelta(weeks=today_round - 1),
        interval_days=7, double=True, start_time=EVENING, seed=SEED,
    )
    strengths = {team.pk: rng.uniform(-0.12, 0.12) for team in league_teams}
    play = _Play(rng, {club.pk: secretaries[slug] for slug, club in clubs.items()}, strengths)
    rounds = list(competition.rounds.order_by("number"))
    for round_ in rounds[: today_round - 1]:
        matches = list(round_.matches.select_related("home_team", "away_team", "competition"))
        for match in matches:
            start = _at(round_.date, EVENING, match.table or 0)
            if round_.number == 3 and match.table == len(matches):
                match = play.walk_over(match, "home", "Bortalaget kom inte till spelplatsen.")
            else:
                match = play.play(match, start)
            match = play.submit(match)
            # The last played round: one protocol still waits for the away captain.
            if not (round_.number == today_round - 1 and match.table == 1):
                play.confirm(match)
    # Today: one match finished and submitted, two under way, one not started yet.
    now = timezone.now()
    tonight = list(rounds[today_round - 1].matches.select_related("home_team", "away_team", "competition"))
    for match in tonight:
        if match.table == 1:
            play.submit(play.play(match, now - timedelta(minutes=75)))
        elif match.table in (2, 3):
            play.play(match, now - timedelta(minutes=30), deals=4 - match.table)
    services.round_clock_start(round=rounds[today_round - 1], user=secretaries["orebro"],
                               at=now - timedelta(minutes=30))
    # Next week's first match: its home club proposes to play it two days later; the away
    # captain has not answered yet.
    later = rounds[today_round].matches.select_related("home_team", "competition").order_by("table", "pk").first()
    home_secretary = next(secretaries[slug] for slug, club in clubs.items() if club.pk == later.home_team.club_id)
    services.match_move_propose(match=later, user=home_secretary, new_start=_at(rounds[today_round].date + timedelta(days=2), EVENING),
                                reason="Vår lokal är upptagen den kvällen.")  # fmt: skip
    report.matches += play.matches
    report.deals += play.deals


def _tournament(report: DemoReport, clubs, secretaries, teams, rng: random.Random, today: date) -> None:
    club = clubs["alvsjo"]
    field = [team for team in teams.values() if team.club_id == club.pk]
    competition, _ = Competition.objects.get_or_create(
        name=TOURNAMENT_NAME, season=season_of(today), organiser=club,
        defaults={"kind": Competition.Kind.TOURNAMENT, "rules_key": "sv-tavling", "points_key": "sv-serie",
                  # A bye (seven pairs) counts as a won match without card points.
                  "points_overrides": {"bye": "win"},
                  "requires_confirmation": False, "is_public": True},
    )
    report.competitions.append(competition)
    if competition.rounds.exists():
        return
    report.created = True
    competition.teams.add(*field)
    secretary = secretaries["alvsjo"]
    strengths = {team.pk: rng.uniform(-0.15, 0.15) for team in field}
    play = _Play(rng, {club.pk: secretary}, strengths)
    start = timezone.now() - timedelta(hours=3, minutes=30)
    for number in range(1, TOURNAMENT_ROUNDS_PLAYED + 2):
        round_ = schedule_pair_next_round(competition=competition, user=secretary, on=today, seed=SEED)
        if number > TOURNAMENT_ROUNDS_PLAYED:
            # The next round's first table is played at the table: both teams' codes are ready to
            # try, whenever the demo is tried (no hall clock runs for this round).
            first = round_.matches.order_by("table", "pk").first()
            if first is not None:
                services.table_link_issue(match=first, user=secretary)
            break
        for match in round_.matches.select_related("home_team", "away_team", "competition"):
            play.submit(play.play(match, start + timedelta(minutes=65 * (number - 1))))
    report.matches += play.matches
    report.deals += play.deals


def build_demo(*, reset: bool = False, today: date | None = None) -> DemoReport:
    """Make the demo data, or find it there already (then nothing is added)."""
    report = DemoReport()
    today = today or timezone.localdate()
    rng = random.Random(SEED)
    with transaction.atomic():
        if reset:
            Competition.objects.filter(
                name__in=(LEAGUE_NAME, TOURNAMENT_NAME, demo_federation.CLUB_NIGHT_NAME),
                organiser__name__in=[c[0] for c in CLUBS],
            ).delete()
        clubs, secretaries, players, teams = _people(report)
        if reset:
            demo_championship.delete(clubs)
        _league(report, clubs, secretaries, teams, rng, today)
        _tournament(report, clubs, secretaries, teams, rng, today)
        demo_championship.championship(report, _Play, clubs, secretaries, teams, season_of(today), today, rng, EVENING)
        # The season before (closed) and an individual club night: the federation pages.
        league_teams = [teams[name] for _, name, _ in LEAGUE_TEAMS]
        demo_federation.earlier_season(report, _Play, LEAGUE_NAME, league_teams, clubs, secretaries,
                                       season_of(today), today, SEED)
        demo_federation.club_night(report, _Play, clubs, secretaries, players, season_of(today), today, SEED)
    report.logins = demo_logins()
    report.table_links = [
        (link.match, link.code, link.away_code)
        for link in TableLink.objects.filter(match__competition__in=report.competitions, withdrawn_at__isnull=True)
        .select_related("match__home_team", "match__away_team")
        .order_by("match__table", "pk")
    ]
    return report
