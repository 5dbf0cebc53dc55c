"""Right by construction: every public service function is run as a scenario, and every public page
whose fresh drawing it changed must have got a new validator (scoring.web.public_cache, from the
editions scoring.services.locking moves). A writing service without a scenario fails the test, so
a new service cannot forget to move the editions of what it changes.

Each scenario prepares what its service needs (not watched), draws every public page of a small
world anonymously, runs the service, and draws them all again. A page whose status or body
changed while its ETag stayed the same would be kept stale by browsers and nginx.

The world is built once per test process, and every scenario runs in a savepoint of its own that is
rolled back: each starts from the same rows, ids and times, and the scenarios that prepare nothing
share one drawing of the pages before their change (`drawn_before`). TEST_DEPTH=deep draws it again
for every scenario and checks that it is the one shared.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import hashlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

import scoring.services
from scoring import services
from scoring.engine import replay
from scoring.models import Championship, ChampionshipStage, Club, Competition, Invitation, Match, Player, Round, SignupInvitation, Team
from scoring.services import individual, merging, seasons, table
from tests.factories import (
    EXPORT_SAMPLE_DEALS,
    make_admin,
    make_club,
    make_competition,
    make_match,
    make_player,
    make_team,
    make_user,
    play_match,
    winning_deal,
)
from tests.support.depth import DEPTH

pytestmark = pytest.mark.django_db

# Public functions of scoring.services that are not services of their own, and why.
NOT_SERVICES = {
    "person": "reads a user's name for the audit log",
    "as_stored": "formats a value for the audit log",
    "deal_snapshot": "reads a deal for the audit log",
    "match_snapshot": "reads a match for the audit log",
    "audit_log": "writes the audit log, which no public page shows; called inside the services",
    "deletion_plan": "reads what a deletion would take",
    "invitations_sync": "called inside competition_save, whose scenario runs it",
    "dealt_time": "computes a time",
    "merge_plan": "reads what a merge would move",
    "can_start_clock": "reads a permission",
    "running_clock": "reads the hall clock of a match's round",
    "sides_of_codes": "reads which sides a device's codes act for",
    "photo_rules": "reads the bounds of a photo upload",
    "match_day": "reads the day a match was to be played",
    "proposal_conflict": "reads why a table's proposal cannot stand",
    "last_round_complete": "reads a round",
    "competition_has_play": "reads whether a competition has play",
    "round_is_complete": "reads whether a round is complete",
    "season_closed": "reads a season",
    "require_open": "refuses a change to an archive",
    "require_open_season": "refuses a change to a closed season",
    "standing_part": "reads a match's part in the table",
    "standings_refresh": "called inside the services, in their transactions, after the change",
    "rating_part": "reads a match's part in the rating",
    "rating_refresh": "called inside the services, in their transactions, after the change",
    "derived_refresh": "called inside the services, in their transactions, after the change",
    "figures_refresh": "called inside the services, in their transactions, after the change",
    "figures_refresh_parts": "called inside the services, in their transactions, after a match's change",
    "rating_refresh_after_deleting": "called inside the deleting service, after the deletion",
    "replay_from": "called inside rating_refresh",
    "lock_rating": "takes the rating's lock inside rating_refresh",
    "rated_sequence": "reads the rated matches in order",
    "lock": "locks a row inside the services and moves editions: what the scenarios check",
    "lock_competition": "as above, for a competition",
    "lock_matches": "as above, for matches",
    "move_editions": "moves versions: what the scenarios check",
    "show_change": "claims a locked match's version and moves its competition's: what the scenarios check",
    "archive_refusal": "reads whether a change would reach an archive",
    "require_enrolment_rules": "refuses teams against their competition's rules, inside competition_save and the invitations",
    "require_team_change_allowed": "refuses a team's new players against its competitions' rules, inside team_save",
    "team_players": "reads each team's pair and reserves",
    "refuse_rotating": "refuses a rotating partnership outside its club night",
    "signup_invitations_sync": "called inside individual_signup, whose scenario runs it",
    "clean_photo": "re-encodes an image, writes nothing",
    "photo_rules": "words the bounds of a photo for the upload forms",
    "new_code": "makes a table link's code",
    "normalise_code": "reads a typed code",
    "link_is_open": "reads whether a table link works",
    "lock_match": "locks a match row inside the services (and the table's), as lock above",
    "lock_open_link": "locks a table link and its match inside the table services",
}


def service_functions() -> dict[str, object]:
    found = {}
    for module_info in pkgutil.iter_modules(scoring.services.__path__):
        module = importlib.import_module(f"scoring.services.{module_info.name}")
        for name, value in vars(module).items():
            if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_"):
                found[name] = value
    return found


# -- the world ------------------------------------------------------------------------------------


def build_world() -> dict:
    admin = make_admin()
    secretary_a, secretary_b = make_user("sekreterare-a"), make_user("sekreterare-b")
    club_a = make_club("Klubb Ess", secretary=secretary_a, city="Örebro")
    club_b = make_club("Klubb Kung", secretary=secretary_b, city="Västerås")
    players_a = [make_player(f"Anna {n}", club=club_a) for n in range(4)]
    players_b = [make_player(f"Bo {n}", club=club_b) for n in range(4)]
    ess = make_team("Essen", club=club_a, players=players_a[:2])
    dam = make_team("Damerna", club=club_a, players=players_a[2:])
    kung = make_team("Kungarna", club=club_b, players=players_b[:2], captain=make_user("kapten-kung"))
    knekt = make_team("Knektarna", club=club_b, players=players_b[2:], captain=make_user("kapten-knekt"))
    today = timezone.localdate()
    # Played on the clock (sv-tavling), so the hall clock and the clock's end have pages to change.
    league = make_competition(organiser=club_a, name="Serien", rules_key="sv-tavling", has_club_standings=True,
                              teams=[ess, dam, kung, knekt])  # fmt: skip
    done = make_match(competition=league, home=ess, away=kung, table=1)
    live = make_match(competition=league, home=dam, away=knekt, table=2)
    later = make_match(competition=league, home=kung, away=ess, round_number=2, table=1)
    league.rounds.filter(number=1).update(date=today)
    league.rounds.filter(number=2).update(date=today + timedelta(days=7))
    done = play_match(done, admin, EXPORT_SAMPLE_DEALS)
    done = services.match_submit(match=done, user=admin, expected_version=done.version)
    services.match_confirm(match=done, user=kung.captain, expected_version=done.version)
    services.deals_record(match=live, user=admin, entry=winning_deal(1, "home"), expected_version=live.version)

    old = make_competition(organiser=club_b, name="Gamla serien", season="2025/26", teams=[kung, knekt])
    old_match = play_match(make_match(competition=old, home=kung, away=knekt), admin, EXPORT_SAMPLE_DEALS)
    services.match_submit(match=old_match, user=admin, expected_version=old_match.version)
    night = make_competition(organiser=club_a, name="Klubbkväll", kind=Competition.Kind.INDIVIDUAL)
    cup = make_competition(organiser=club_a, name="Cupen", kind=Competition.Kind.TOURNAMENT, teams=[ess, dam, kung, knekt])
    return {
        "admin": admin, "secretary_a": secretary_a, "secretary_b": secretary_b, "club_a": club_a, "club_b": club_b,
        "players_a": players_a, "players_b": players_b, "ess": ess, "dam": dam, "kung": kung, "knekt": knekt,
        "league": league, "done": Match.objects.get(pk=done.pk), "live": Match.objects.get(pk=live.pk),
        "later": Match.objects.select_related("round").get(pk=later.pk), "old": old, "night": night, "cup": cup,
    }  # fmt: skip


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker):
    """The world, built once for this module's scenarios in a transaction that is rolled back after
    the last of them; each scenario runs in a savepoint inside it (pytest-django's `db`). Returns
    what names each object (its model and id), and the drawings the scenarios share."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            # As each test runs (tests/conftest.py): the site's language, quick password hashing.
            with translation.override(settings.LANGUAGE_CODE), override_settings(
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
            ):
                names = {key: _names(value) for key, value in build_world().items()}
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield {"names": names, "drawings": {}}
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _names(value):
    return [_names(item) for item in value] if isinstance(value, list) else (type(value), value.pk)


def _read(name):
    if isinstance(name, list):
        return [_read(item) for item in name]
    model, pk = name
    return model._default_manager.get(pk=pk)


@pytest.fixture
def world(db, built_world):
    """The world as the scenario finds it: its objects read again (a scenario changes them)."""
    world = {key: _read(name) for key, name in built_world["names"].items()}
    world["later"] = Match.objects.select_related("round").get(pk=world["later"].pk)
    return world


def public_urls() -> set[str]:
    """Every public page of what the database holds now."""
    urls = {reverse(name) for name in ("scoring:home", "scoring:competition-list", "scoring:club-list",
                                       "scoring:rankings", "scoring:rating-explained", "scoring:records")}  # fmt: skip
    for pk in Competition.objects.values_list("pk", flat=True):
        for name in ("competition-detail", "competition-live", "competition-rounds", "competition-embed",
                     "competition-feed", "competition-clubs", "competition-players", "competition-records"):  # fmt: skip
            urls.add(reverse(f"scoring:{name}", args=[pk]))
    for competition_id, number in Round.objects.values_list("competition_id", "number"):
        urls |= {reverse(f"scoring:{name}", args=[competition_id, number]) for name in ("round-detail", "round-live")}
    for pk in Match.objects.values_list("pk", flat=True):
        urls |= {reverse(f"scoring:{name}", args=[pk]) for name in ("match-detail", "match-live")}
    for pk in Team.objects.values_list("pk", flat=True):
        urls |= {reverse(f"scoring:{name}", args=[pk]) for name in ("team-detail", "team-calendar", "ranking-pair")}
    # A player's page is the dearest to draw: one player of each team (the first, whom the
    # scenarios rename and merge into), and the players of no team.
    in_teams = Team.objects.values("player_one_id", "player_two_id")
    players = set(Team.objects.values_list("player_one_id", flat=True)) | set(
        Player.objects.exclude(pk__in=in_teams.values("player_one_id")).exclude(pk__in=in_teams.values("player_two_id"))
        .values_list("pk", flat=True)
    )
    for pk in players:
        urls |= {reverse(f"scoring:{name}", args=[pk]) for name in ("player-detail", "ranking-player")}
    for pk in Club.objects.values_list("pk", flat=True):
        urls |= {reverse(f"scoring:{name}", args=[pk]) for name in ("club-detail", "club-records")}
    urls.add(reverse("scoring:championship-list"))
    urls |= {reverse("scoring:championship-detail", args=[pk]) for pk in Championship.objects.values_list("pk", flat=True)}
    return urls


# What a drawing holds that is the moment it was drawn, not the data: the feed's and the
# calendar's time of making.
MOMENT = [re.compile(r'"generated_at": "[^"]*"'), re.compile(r"DTSTAMP:[0-9TZ]+")]


def database_state() -> str:
    """Every row of every table, as a digest: two scenarios whose states agree draw the same pages."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        digest.update(repr((model._meta.label, list(model._base_manager.order_by("pk").values_list()))).encode())
    return digest.hexdigest()


def drawn_before(built_world, prepare, urls) -> dict[str, tuple]:
    """The drawing of `urls` before the change. The pages show nothing but the rows, the day and
    the caches (the moment of drawing is left out, MOMENT), and each test starts with empty caches:
    a state of the database the module has drawn already, after the same preparation on the same
    day, is not drawn again. The scenarios that prepare nothing start from the same rows (the
    world's savepoint) and share one drawing; the drawing after the change is made afresh for each."""
    key = (database_state(), prepare.__name__, timezone.localdate(), frozenset(urls))
    shared = built_world["drawings"].get(key)
    if shared is not None and DEPTH != "deep":
        return shared
    drawing = draw(urls)
    assert shared is None or drawing == shared, "the same rows drew other pages: the drawings cannot be shared"
    built_world["drawings"][key] = drawing
    return drawing


def draw(urls) -> dict[str, tuple]:
    client = Client()
    drawn = {}
    for url in sorted(urls):
        response = client.get(url)
        body = response.content.decode()
        for pattern in MOMENT:
            body = pattern.sub("", body)
        drawn[url] = (response.status_code, body, response.get("ETag") if response.status_code == 200 else None)
    return drawn


# -- the scenarios: (the service, what it needs first, the change) ---------------------------------


def finished(w):
    """The live match played to its end (not submitted)."""
    match = w["live"]
    for number in range(2, 4):  # 3 × 1 885 passes 5 000
        match = services.deals_record(match=match, user=w["admin"], entry=winning_deal(number, "home"), expected_version=None)
    w["live"] = match
    return match


def submitted(w):
    match = finished(w)
    w["live"] = services.match_submit(match=match, user=w["admin"], expected_version=match.version)


def pending_invitation(w):
    extra = make_team("Nykomlingarna", club=w["club_b"], players=w["players_b"][:2])
    league = w["league"]
    services.competition_save(user=w["secretary_a"], competition=league, teams=[*league.teams.all(), extra])
    w["invitation"] = Invitation.objects.get(team=extra)


def renamed(obj, name):
    obj.name = name
    return obj


def duplicate_player(w):
    w["duplicate"] = make_player("Anna dubblett", club=w["club_a"])


def signed_up(w):
    individual.individual_signup(competition=w["night"], players=w["players_a"], user=w["admin"])


def imported_rows(w):
    rules = w["later"].competition.rules
    state = replay(rules, list(EXPORT_SAMPLE_DEALS), points=w["league"].points_rules)
    unsaved = Match(competition=w["league"], round=w["later"].round, table=3, home_team=w["dam"],
                    away_team=w["knekt"], started_at=timezone.now())  # fmt: skip
    services.matches_record_played(played=[(unsaved, state)])


def closed(w):
    seasons.season_close(name="2025/26", user=w["admin"])


def nothing(w):
    pass


def table_link(w):
    w["link"] = table.table_link_issue(match=w["live"], user=w["admin"])


def table_proposal(w):
    table_link(w)
    w["proposal"] = table.table_deal_propose(link=w["link"], codes=[w["link"].code_for("home")], client_id="p2", side="home", number=2,
                                             entry=winning_deal(2, "home"))  # fmt: skip


def table_conflict(w):
    table_link(w)
    w["proposal"] = table.table_deal_propose(link=w["link"], codes=[w["link"].code_for("home")], client_id="p1", side="home", number=1,
                                             entry=winning_deal(1, "home"))  # fmt: skip
    assert w["proposal"].status == "conflict"


def confirmed_at_the_table_by_home(w):
    table_link(w)
    finished(w)
    Competition.objects.filter(pk=w["league"].pk).update(table_confirmation=True)
    table.table_protocol_confirm(link=w["link"], codes=[w["link"].code_for("home")], side="home")


def signup_asked(w):
    # A player of another club asked for by the club night's organiser (club consent).
    individual.individual_signup(competition=w["night"], players=[w["players_b"][0]], user=w["secretary_a"])
    w["signup"] = SignupInvitation.objects.get(competition=w["night"], player=w["players_b"][0])


def photo_bytes() -> bytes:
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", (40, 30), "white").save(buffer, "JPEG")
    return buffer.getvalue()


# The club's member list: Anna 0 given a member number and a birth year, a new member.
MEMBER_LIST = "Namn;Medlemsnummer;Födelseår;E-post\nAnna 0;11;1950;anna@example.se\nNya Ess;12;;\n".encode()


def member_list_kept(w):
    from scoring.files.member_file import read_member_file
    from scoring.selectors.members import member_list_preview

    w["member_list"] = services.member_list_keep(user=w["secretary_a"], club=w["club_a"], file_name="m.csv",
                                                 member_file=read_member_file(MEMBER_LIST, "m.csv"))  # fmt: skip
    w["member_digest"] = member_list_preview(w["club_a"], w["member_list"]).digest


def move_proposed(w):
    w["move"] = services.match_move_propose(match=w["later"], user=w["secretary_b"],
                                            new_start=timezone.now() + timedelta(days=10), hall="Folkets hus")  # fmt: skip


def move_accepted(w):
    Competition.objects.filter(pk=w["league"].pk).update(moves_need_approval=True)
    move_proposed(w)
    w["move"] = services.match_move_answer(move=w["move"], user=w["secretary_a"], accept=True)


def overdue(w):
    """The live match's protocol waits a day for its reminder."""
    Competition.objects.filter(pk=w["league"].pk).update(reminder_days=1)
    submitted(w)
    Match.objects.filter(pk=w["live"].pk).update(submitted_at=timezone.now() - timedelta(days=2))


def championship(w):
    """A championship of club A: the cup (its first round played) the first stage, a final after."""
    w["championship"] = services.championship_save(user=w["admin"], championship=Championship(
        name="Mästerskapet", season=w["cup"].season, organiser=w["club_a"]))
    w["stage"] = services.championship_stage_save(user=w["admin"], stage=ChampionshipStage(
        championship=w["championship"], name="Kval", per_heat=1, best_of_rest=1, carry_points_percent=50))
    w["final"] = services.championship_stage_save(user=w["admin"], stage=ChampionshipStage(
        championship=w["championship"], name="Final"))


def championship_heats(w):
    championship(w)
    services.championship_heat_add(user=w["admin"], stage=w["stage"], competition=w["cup"])
    w["final_heat"] = make_competition(organiser=w["club_a"], name="Finalen")
    services.championship_heat_add(user=w["admin"], stage=w["final"], competition=w["final_heat"])


def championship_played(w):
    championship_heats(w)
    Competition.objects.filter(pk=w["cup"].pk).update(requires_confirmation=False)  # a walk over counts at once
    services.schedule_pair_next_round(competition=w["cup"], user=w["admin"], seed=1)
    for match in Match.objects.filter(competition=w["cup"]):
        services.match_forfeit(match=match, user=w["admin"], winner="home", reason="kom inte", expected_version=None)


def championship_expected(w):
    from scoring.selectors.championships import stage_road

    return stage_road(w["stage"]).expected


# The club's member list: Anna 0 given a member number and a birth year, a new member.
MEMBER_LIST = "Namn;Medlemsnummer;Födelseår;E-post\nAnna 0;11;1950;anna@example.se\nNya Ess;12;;\n".encode()


def member_list_kept(w):
    from scoring.files.member_file import read_member_file
    from scoring.selectors.members import member_list_preview

    w["member_list"] = services.member_list_keep(user=w["secretary_a"], club=w["club_a"], file_name="m.csv",
                                                 member_file=read_member_file(MEMBER_LIST, "m.csv"))  # fmt: skip
    w["member_digest"] = member_list_preview(w["club_a"], w["member_list"]).digest


A = "admin"
SCENARIOS = {
    "create a championship": ("championship_save", nothing, lambda w: services.championship_save(
        user=w["secretary_a"], championship=Championship(name="DM", season=w["cup"].season, organiser=w["club_a"]))),
    "add a championship stage": ("championship_stage_save", championship, lambda w: services.championship_stage_save(
        user=w["secretary_a"], stage=ChampionshipStage(championship=w["championship"], name="Semifinal", per_heat=2))),
    "add a championship heat": ("championship_heat_add", championship, lambda w: services.championship_heat_add(
        user=w["secretary_a"], stage=w["stage"], competition=w["cup"])),
    "a pair withdraws from a championship": ("stage_withdrawal_add", championship_heats, lambda w: services.stage_withdrawal_add(
        user=w["secretary_a"], stage=w["stage"], team=w["ess"], reason="sjuk")),
    "confirm a championship's qualified list": ("stage_qualifiers_confirm", championship_played, lambda w: services.stage_qualifiers_confirm(
        user=w["secretary_a"], stage=w["stage"], expected=championship_expected(w))),
    "accept a sign-up of another club's player": ("signup_invitation_answer", signup_asked,
        lambda w: services.signup_invitation_answer(user=w["secretary_b"], invitation=w["signup"], accept=True)),
    "issue a table link": ("table_link_issue", nothing, table_link),
    "withdraw a table link": ("table_link_withdraw", table_link,
        lambda w: table.table_link_withdraw(match=w["live"], user=w[A])),
    "print a round's table links": ("table_links_issue_for_round", nothing,
        lambda w: table.table_links_issue_for_round(round=w["live"].round, user=w[A])),
    "set a table's conflict aside": ("table_conflict_set_aside", table_conflict,
        lambda w: table.table_conflict_set_aside(match=w["live"], user=w[A], proposal_id=w["proposal"].pk)),
    "propose a deal at the table": ("table_deal_propose", table_link,
        lambda w: table.table_deal_propose(link=w["link"], codes=[w["link"].code_for("home")], client_id="p2", side="home", number=2,
                                           entry=winning_deal(2, "home"))),
    "type a deal at the table": ("table_typing_note", table_link,
        lambda w: table.table_typing_note(link=w["link"], codes=[w["link"].code_for("home")])),
    "agree a deal at the table": ("table_deal_answer", table_proposal,
        lambda w: table.table_deal_answer(link=w["link"], codes=[w["link"].code_for("away")], proposal_id=w["proposal"].pk, side="away", agree=True)),
    "both sides confirm at the table": ("table_protocol_confirm", confirmed_at_the_table_by_home,
        lambda w: table.table_protocol_confirm(link=w["link"], codes=[w["link"].code_for("away")], side="away")),
    "add a photo of the signed paper": ("match_photo_add", nothing,
        lambda w: services.match_photo_add(match=w["live"], data=photo_bytes(), user=w[A])),
    "delete an unplayed match": ("delete_or_archive", nothing, lambda w: services.delete_or_archive(user=w[A], obj=w["later"])),
    "archive a team that played": ("delete_or_archive", nothing, lambda w: services.delete_or_archive(user=w[A], obj=w["ess"])),
    "sign up a club night": ("individual_signup", nothing, signed_up),
    "draw a club night's round": ("individual_pair_round", signed_up,
                                  lambda w: individual.individual_pair_round(competition=w["night"], user=w[A])),
    "accept an invitation": ("invitation_answer", pending_invitation,
                             lambda w: services.invitation_answer(user=w["secretary_b"], invitation=w["invitation"], accept=True)),
    "rename a player": ("player_save", nothing, lambda w: services.player_save(user=w[A], player=renamed(w["players_a"][0], "Anneli"))),
    "keep a club's member list": ("member_list_keep", nothing, member_list_kept),
    "discard a club's member list": ("member_list_discard", member_list_kept, lambda w: services.member_list_discard(
        user=w["secretary_a"], club=w["club_a"])),
    "save a club's member list": ("members_import", member_list_kept, lambda w: services.members_import(
        user=w["secretary_a"], club=w["club_a"], draft_id=w["member_list"].pk, expected_digest=w["member_digest"])),
    "rename a team": ("team_save", nothing, lambda w: services.team_save(user=w[A], team=renamed(w["ess"], "Esset"))),
    "add a team": ("team_save", nothing, lambda w: services.team_save(user=w[A], team=Team(
        name="Nya laget", club=w["club_a"], player_one=w["players_a"][0], player_two=w["players_a"][3]))),
    "results no longer need confirming": ("competition_save", finished, lambda w: services.competition_save(
        user=w[A], competition=_set(w["league"], requires_confirmation=False))),
    "move a competition to another season": ("competition_save", nothing, lambda w: services.competition_save(
        user=w[A], competition=_set(w["league"], season="2027/28"))),
    "rename a competition": ("competition_save", nothing, lambda w: services.competition_save(
        user=w[A], competition=_set(w["league"], name="Stora serien"))),
    "move a round": ("round_save", nothing, lambda w: services.round_save(
        user=w[A], round=_set(w["later"].round, date=w["later"].round.date + timedelta(days=1)))),
    "add a match": ("match_create", nothing, lambda w: services.match_create(
        user=w[A], competition=w["league"], round=w["later"].round, table=2, home_team=w["dam"], away_team=w["knekt"])),
    "move a match to another table": ("match_schedule_update", nothing, lambda w: services.match_schedule_update(
        user=w[A], match=w["later"], expected_version=None, round=w["later"].round, table=5,
        home_team=w["kung"], away_team=w["ess"], scheduled_start=None)),
    "start a match": ("match_start", nothing, lambda w: services.match_start(match=w["later"], user=w[A])),
    "save a deal": ("deals_record", nothing, lambda w: services.deals_record(
        match=w["live"], user=w[A], entry=winning_deal(2, "away"), expected_version=None)),
    "correct a deal": ("deal_correct", nothing, lambda w: services.deal_correct(
        match=w["live"], user=w[A], number=1, entry=winning_deal(1, "away"), reason="fel sida", expected_version=None)),
    "remove the last deal": ("deal_delete_last", nothing, lambda w: services.deal_delete_last(
        match=w["live"], user=w[A], reason="dubbel", expected_version=None)),
    "the clock ends a match": ("match_declare_clock", nothing, lambda w: services.match_declare_clock(
        match=w["live"], user=w[A], expected_version=None)),
    "walk over": ("match_forfeit", nothing, lambda w: services.match_forfeit(
        match=w["later"], user=w[A], winner="home", reason="kom inte", expected_version=None)),
    "postpone": ("match_postpone", nothing, lambda w: services.match_postpone(
        match=w["later"], user=w[A], reason="sjukdom", expected_version=None)),
    "void": ("match_void", nothing, lambda w: services.match_void(match=w["live"], user=w[A], reason="fel", expected_version=None)),
    "submit": ("match_submit", finished, lambda w: services.match_submit(match=w["live"], user=w[A], expected_version=None)),
    "dispute": ("match_dispute", submitted, lambda w: services.match_dispute(
        match=w["live"], user=w["knekt"].captain, reason="fel summa", expected_version=None)),
    "confirm": ("match_confirm", submitted, lambda w: services.match_confirm(
        match=w["live"], user=w["knekt"].captain, expected_version=None)),
    "reopen": ("match_reopen", nothing, lambda w: services.match_reopen(
        match=w["done"], user=w[A], reason="fel giv", expected_version=None)),
    "store played matches in bulk": ("matches_record_played", nothing, imported_rows),
    "import a protocol file": ("match_import_deals", nothing, lambda w: services.match_import_deals(
        match=w["later"], user=w[A], entries=list(EXPORT_SAMPLE_DEALS[:3]), expected_version=None)),
    "merge a player": ("merge", duplicate_player, lambda w: merging.merge(user=w[A], duplicate=w["duplicate"], kept=w["players_a"][0])),
    "start the hall clock": ("round_clock_start", nothing, lambda w: services.round_clock_start(round=w["live"].round, user=w[A])),
    "generate a league": ("schedule_generate_league", nothing, lambda w: services.schedule_generate_league(
        competition=w["cup"], user=w[A], start_date=timezone.localdate())),
    "pair a round": ("schedule_pair_next_round", nothing, lambda w: services.schedule_pair_next_round(
        competition=w["cup"], user=w[A], seed=1)),
    "import fixtures": ("fixtures_import", nothing, lambda w: services.fixtures_import(
        competition=w["cup"], user=w[A], data="round,date,table,home,away\n1,2026-09-14,1,Essen,Kungarna\n".encode())),
    "propose a new date": ("match_move_propose", nothing, lambda w: services.match_move_propose(
        match=w["later"], user=w["secretary_b"], new_start=timezone.now() + timedelta(days=10), hall="Folkets hus")),
    "accept a new date": ("match_move_answer", move_proposed,
        lambda w: services.match_move_answer(move=w["move"], user=w["secretary_a"], accept=True)),
    "approve a new date": ("match_move_approve", move_accepted,
        lambda w: services.match_move_approve(move=w["move"], user=w["secretary_a"], approve=True)),
    "check in before the draw": ("check_in_save", nothing, lambda w: services.check_in_save(
        competition=w["cup"], user=w[A], day=timezone.localdate(), present=[w["ess"].pk, w["kung"].pk])),
    "send the reminders due": ("reminders_send", overdue, lambda w: services.reminders_send()),
    "close a season": ("season_close", nothing, closed),
    "reopen a season": ("season_reopen", closed, lambda w: seasons.season_reopen(name="2025/26", user=w[A], reason="för tidigt")),
}  # fmt: skip


# Scenarios whose change no public page shows today (the validators move all the same).
SHOW_NOTHING = {
    "issue a table link": "a table link is on no public page",
    "keep a club's member list": "a member list waits on its club secretaries' page until it is saved",
    "discard a club's member list": "as above",
    "withdraw a table link": "as above",
    "print a round's table links": "as above",
    "set a table's conflict aside": "shown to the secretary and the table only",
    "propose a deal at the table": "a deal counts, and shows, once both sides agreed",
    "type a deal at the table": "shown on the other team's table page only",
    "add a photo of the signed paper": "photos are never public",
    "propose a new date": "a match moves only once it is agreed",
    "check in before the draw": "who is present is on no public page",
    "send the reminders due": "a reminder is on no public page",
    "close a season": "a closed season's competitions look the same to the public",
    "reopen a season": "as above",
}


def _set(obj, **values):
    """`obj` read again with `values` set, as a form would hand it to its service."""
    obj = type(obj).objects.get(pk=obj.pk)
    for name, value in values.items():
        setattr(obj, name, value)
    return obj


def test_every_service_has_a_scenario():
    functions = service_functions()
    with_scenario = {service for service, _prepare, _act in SCENARIOS.values()}
    missing = sorted(set(functions) - with_scenario - set(NOT_SERVICES))
    assert not missing, f"Services without a scenario in {__name__}: {missing}"
    # What is listed as no service writes nothing in a transaction of its own.
    assert not [name for name in NOT_SERVICES if hasattr(functions.get(name), "__wrapped__")]
    assert with_scenario <= set(functions)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_a_page_whose_drawing_a_service_changed_has_a_new_validator(built_world, world, scenario):
    _service, prepare, act = SCENARIOS[scenario]
    prepare(world)
    urls = public_urls()
    before = drawn_before(built_world, prepare, urls)
    act(world)
    after = draw(urls | public_urls())

    changed = [url for url in before if before[url][:2] != after[url][:2]]
    assert changed or scenario in SHOW_NOTHING, f"{scenario}: no public page changed; the scenario tests nothing"
    stale = [url for url in changed if before[url][2] is not None and before[url][2] == after[url][2]]
    assert not stale, f"{scenario}: these pages changed but kept their validator: {stale}"
