"""Individual competitions (partners rotate): signing players up and pairing each round.

Each round's partnerships are Teams (`rotating`, of the organising club, whose secretary enters
their protocols) and its tables are ordinary Matches, so protocol entry, confirmation, printouts
and exports work as for pairs. The pairing itself is the engine's (engine.individual.pair_round):
round one drawn from a seed stored on the round, later rounds by Monrad on the individual table
(selectors.individual), the rating ordering players level so far.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.engine.individual import PairingHistory, PlayerStanding, pair_round
from scoring.engine.rating import START
from scoring.models import Competition, Match, Player, Round, Team
from scoring.selectors.chores import present_players
from scoring.selectors.individual import individual_standings
from scoring.selectors.rating import ratings_after_last

from .audit import audit_log
from .errors import DomainError
from .invitations import signup_invitations_sync
from .schedules import last_round_complete
from .locking import lock_competition


def _lock(competition: Competition, user) -> Competition:
    if not permissions.can_manage_competition(user, competition):
        raise PermissionDenied(_("You may not change this competition."))
    locked = lock_competition(competition)
    if locked.kind != Competition.Kind.INDIVIDUAL:
        raise DomainError(_("Only an individual competition has players signed up one by one."))
    return locked


@transaction.atomic
def individual_signup(*, competition: Competition, players, user) -> Competition:
    """Choose the players of an individual competition; one who has played stays in it. A player of
    another club is signed up when their club accepts (services.invitations)."""
    competition = _lock(competition, user)
    players = list(players)
    chosen = {player.pk for player in players}
    played = set()
    for row in competition.matches.values_list(
        "home_team__player_one_id", "home_team__player_two_id", "away_team__player_one_id", "away_team__player_two_id"
    ):
        played.update(row)
    missing = played - chosen
    if missing:
        names = ", ".join(sorted(Player.objects.filter(pk__in=missing).values_list("name", flat=True)))
        raise DomainError(_("These players have played in the competition and stay in it: %(names)s.") % {"names": names})
    before = sorted(competition.entrants.values_list("id", flat=True))
    # Another club's player is asked for, not signed up: their club accepts first (invitations).
    signed_up = {player.pk for player in signup_invitations_sync(user=user, competition=competition, players=players)}
    competition.entrants.set(signed_up)
    audit_log(match=None, user=user, action="individual_signup", object_type="competition", object_id=competition.pk,
              before={"players": before}, after={"players": sorted(signed_up)})
    return competition


def _partnership(competition: Competition, one: Player, two: Player) -> Team:
    """The rotating Team of these two players at the organising club (made the first time)."""
    existing = Team.objects.filter(rotating=True, club=competition.organiser).filter(
        Q(player_one=one, player_two=two) | Q(player_one=two, player_two=one)
    ).first()
    if existing is not None:
        return existing
    base = f"{one.name}/{two.name}"
    name, n = base, 2
    while Team.objects.filter(club=competition.organiser, name__iexact=name).exists():
        name, n = f"{base} ({n})", n + 1
    return Team.objects.create(name=name, club=competition.organiser, player_one=one, player_two=two, rotating=True)


@transaction.atomic
def individual_pair_round(
    *, competition: Competition, user, on: date | None = None, start_time: time | None = None, seed: int | None = None
) -> Round:
    """Draw the next round's partnerships and tables. Round one is drawn from `seed` (a new random
    one when not given), stored on the round; a later round needs the one before complete."""
    competition = _lock(competition, user)
    last = last_round_complete(competition)
    day = on or (last.date if last and last.date else timezone.localdate())
    # Only the players checked in that day, when any is (services.checkin).
    entrants = {p.pk: p for p in present_players(competition, day)}
    if len(entrants) < 4:
        raise DomainError(_("Pairing needs at least four players signed up."))
    history = PairingHistory()
    for h1, h2, a1, a2 in competition.matches.values_list(
        "home_team__player_one_id", "home_team__player_two_id", "away_team__player_one_id", "away_team__player_two_id"
    ):
        history.add_table((h1, h2), (a1, a2))
    for pid in Round.sitting_out.through.objects.filter(round__competition=competition).values_list("player_id", flat=True):
        history.sat_out[pid] = history.sat_out.get(pid, 0) + 1
    table = {row.record.team_id: row.record for row in individual_standings(competition)}
    ratings = ratings_after_last(entrants)
    players = [
        PlayerStanding(pid, points=table[pid].points if pid in table else 0,
                       card_points=table[pid].card_points_for if pid in table else 0,
                       rating=ratings.get(pid, START))
        for pid in entrants
    ]
    first = last is None
    if first and seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    pairing = pair_round(players, history, seed=seed)
    number = (last.number if last else 0) + 1
    start = timezone.make_aware(datetime.combine(day, start_time)) if start_time else None
    round_ = Round.objects.create(competition=competition, number=number, date=day, pairing_seed=seed if first else None)
    tables = []
    for index, (home, away) in enumerate(pairing.tables, start=1):
        home_team = _partnership(competition, entrants[home[0]], entrants[home[1]])
        away_team = _partnership(competition, entrants[away[0]], entrants[away[1]])
        competition.teams.add(home_team, away_team)
        Match.objects.create(competition=competition, round=round_, table=index, home_team=home_team,
                             away_team=away_team, scheduled_start=start)
        tables.append({"table": index, "home": home_team.name, "away": away_team.name})
    round_.sitting_out.set([entrants[pid] for pid in pairing.sitting_out])
    audit_log(
        match=None, user=user, action="individual_pair_round", object_type="round", object_id=round_.pk,
        after={"round": number, "seed": seed if first else None, "tables": tables,
               "sitting_out": [entrants[pid].name for pid in pairing.sitting_out], "repeats": pairing.repeats},
    )
    round_.repeats = pairing.repeats
    return round_
