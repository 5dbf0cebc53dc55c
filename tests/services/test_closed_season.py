"""A closed season's competitions are archives (services.seasons): every service that writes into
one refuses, and "My matches" lists exactly the matches the permissions say a user is concerned
with, an archive's apart. What the pages and the admin do with an archive is
tests/views/test_closed_season.py, on the same world (build_archive)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scoring import permissions, services
from scoring.models import Competition, Match, Round
from scoring.permissions import can_view_protocol
from scoring.selectors.secretary import secretary_matches
from scoring.services import manage as manage_services
from scoring.services import schedules as schedule_services
from scoring.services.seasons import SeasonClosedError, season_close
from tests import factories as f

pytestmark = pytest.mark.django_db

CLOSED = "2025/26"


def build_archive(before_closing=None) -> dict:
    """A closed season's competition: a match in progress, one finished (to submit, confirm or
    dispute), one not played, a round without play; and a substitute in the finished match.
    `before_closing(world)` gives what else is made while the season is still open (the pages'
    tests check a file there that they save after it closed)."""
    secretary = f.make_user("sekreterare")
    captain = f.make_user("bortakapten")
    admin = f.make_admin("admin")
    home_club = f.make_club("Hemmaklubben", secretary=secretary)
    away_club = f.make_club("Bortaklubben")
    home = f.make_team("Hemmalaget", club=home_club)
    away = f.make_team("Bortalaget", club=away_club, captain=captain)
    other_home = f.make_team("Hemma 2", club=home_club)
    other_away = f.make_team("Borta 2", club=away_club, captain=captain)
    competition = f.make_competition(organiser=home_club, season=CLOSED, name="Gamla serien")
    in_progress = f.play_match(f.make_match(competition=competition, home=home, away=away), secretary,
                               entries=f.EXPORT_SAMPLE_DEALS[:2])
    finished = f.play_match(f.make_match(competition=competition, home=other_home, away=other_away, table=2), secretary)
    assert finished.status == Match.Status.FINISHED
    substitute = f.make_player("Inhopparen", club=home_club)
    twin = f.make_player("Inhopparen (dubblett)", club=home_club)
    Match.objects.filter(pk=finished.pk).update(home_substitute=twin)
    unplayed = f.make_match(competition=competition, home=home, away=other_away, round_number=2)
    empty_round = f.make_round(competition, 3)
    # The open season's work stays work.
    current = f.make_match(competition=f.make_competition(organiser=home_club), home=home, away=away)
    world = {
        "secretary": secretary, "captain": captain, "admin": admin, "competition": competition,
        "in_progress": in_progress, "finished": finished, "unplayed": unplayed, "round": empty_round,
        "current": current, "substitute": substitute, "twin": twin, "home_club": home_club,
    }
    if before_closing is not None:
        world.update(before_closing(world))
    season_close(name=CLOSED, user=admin)
    competition.refresh_from_db()
    assert competition.archived
    return world


@pytest.fixture
def archive():
    return build_archive()


def versions(*matches) -> list[int]:
    return [Match.objects.get(pk=m.pk).version for m in matches]


# -- every write path into an archived competition -------------------------------------------------


def service_writes(a):
    comp, admin, sec = a["competition"], a["admin"], a["secretary"]
    ip, unplayed = a["in_progress"], a["unplayed"]
    team = unplayed.home_team
    return {
        "delete an unplayed match": lambda: services.delete_or_archive(user=sec, obj=unplayed),
        "delete a round without play": lambda: services.delete_or_archive(user=sec, obj=a["round"]),
        "merge a substitute of a closed-season match": lambda: services.merge(user=sec, duplicate=a["twin"],
                                                                              kept=a["substitute"]),
        "add a competition to the closed season": lambda: manage_services.competition_save(
            user=admin, competition=Competition(name="Ny", season=CLOSED, organiser=a["home_club"])),
        "move a competition into the closed season": lambda: manage_services.competition_save(
            user=admin, competition=_moved(a["current"].competition)),
        "change the competition": lambda: manage_services.competition_save(user=admin, competition=_renamed(comp)),
        "add a round": lambda: manage_services.round_save(user=sec, round=Round(competition=comp, number=9)),
        "move a round": lambda: manage_services.round_save(user=sec, round=_redated(a["round"])),
        "add a match": lambda: manage_services.match_create(
            user=sec, competition=comp, round=None, table=None, home_team=team, away_team=unplayed.away_team),
        "reschedule a match": lambda: manage_services.match_schedule_update(
            user=sec, match=unplayed, expected_version=None, round=None, table=5, home_team=team,
            away_team=unplayed.away_team, scheduled_start=None),
        "record a deal": lambda: services.deals_record(match=ip, user=sec, entry=f.deal(3, home_cards=50,
                                                                                     away_cards=60, end="stock"),
                                                       expected_version=None),
        "pair the next round": lambda: schedule_services.schedule_pair_next_round(competition=comp, user=admin),
    }


def _renamed(competition):
    competition.name = "Nytt namn"
    competition.is_public = False
    return competition


def _moved(competition):
    competition.season = CLOSED
    return competition


def _redated(round_):
    import datetime

    round_.date = datetime.date(2026, 1, 1)
    return round_


@pytest.mark.parametrize("path", [
    "delete an unplayed match", "delete a round without play", "merge a substitute of a closed-season match",
    "add a competition to the closed season", "move a competition into the closed season", "change the competition",
    "add a round", "move a round", "add a match", "reschedule a match", "record a deal", "pair the next round",
])
def test_every_service_write_into_an_archive_is_refused(archive, path):
    before = (versions(archive["in_progress"], archive["finished"], archive["unplayed"]),
              Match.objects.count(), Round.objects.count(), Competition.objects.count())
    with pytest.raises(SeasonClosedError):
        service_writes(archive)[path]()
    assert (versions(archive["in_progress"], archive["finished"], archive["unplayed"]),
            Match.objects.count(), Round.objects.count(), Competition.objects.count()) == before
    assert Match.objects.get(pk=archive["finished"].pk).home_substitute_id == archive["twin"].pk


# -- who is concerned with a match: the query agrees with the rules ------------------------------------


def test_my_matches_query_states_the_permission_rules(archive):
    """Every user's "My matches" (open and archived) are exactly the matches whose protocol they
    may keep, confirm or see as a captain (permissions.py)."""
    users = list(get_user_model().objects.all())
    extra = f.make_user("ensam")
    users.append(extra)
    lonely_club = f.make_club("Utan kapten", secretary=f.make_user("borta-sekreterare"))
    captainless = f.make_team("Kaptenslösa", club=lonely_club)
    f.make_match(competition=archive["current"].competition, home=archive["current"].home_team, away=captainless,
                 round_number=5)
    users = list(get_user_model().objects.all())
    matches = list(Match.objects.select_related("competition", "home_team", "away_team"))
    for user in users:
        listed = {m.pk for m in secretary_matches(user)} | {m.pk for m in secretary_matches(user, archived=True)}
        user = get_user_model().objects.get(pk=user.pk)  # no cached club ids between the two
        expected = {
            m.pk for m in matches
            if permissions.can_enter_protocol(user, m)
            or permissions.is_captain_of(user, m.home_team) or permissions.is_captain_of(user, m.away_team)
            or (m.away_team.captain_id is None and permissions.is_secretary_of(user, m.away_team.club_id))
        }
        assert listed == expected, user.username
        assert all(can_view_protocol(user, m) for m in matches if m.pk in listed)

