"""The permission matrix: every view that changes data, for every role, gets exactly the allowed
outcome; and every such view refuses a form without its CSRF token.

Roles: anonymous, a player (a user with a player record and no other role), the captain of the
home team, the captain of the away team, the secretary of the home club (which organises the
competition and keeps the protocol), the secretary of the away club, the secretary of a club with
no part in the match, and a site admin.

Allowed: the change is made (a redirect, or the live check's 200) and the database shows it.
Refused: anonymous users are sent to the login page, everyone else gets 403; the database is
exactly as before. The URL patterns are read from the project: a view that accepts POST and is
neither in MATRIX nor in NOT_IN_MATRIX (with the reason) fails the test, so a view added later
must be placed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import services
from scoring.models import AuditEntry, Club, Competition, Deal, Match, MatchPhoto, MemberListDraft, Player, Round, TableLink, Team
from tests import factories as f

ROLES = (
    "anonymous",
    "player",
    "home_captain",
    "away_captain",
    "home_secretary",
    "away_secretary",
    "other_secretary",
    "admin",
)
KEEPER = frozenset({"home_secretary", "admin"})  # keeps the protocol; organises the competition
CONFIRMER = frozenset({"away_captain", "admin"})  # the other side's captain confirms


@dataclass
class World:
    users: dict
    home_club: Club
    away_club: Club
    other_club: Club
    home: Team
    away: Team
    competition: Competition
    round: Round
    match: Match
    extra: dict = field(default_factory=dict)

    @property
    def version(self) -> str:
        self.match.refresh_from_db()
        return str(self.match.version)


def make_world() -> World:
    users = {
        "admin": f.make_admin("admin"),
        "player": f.make_user("spelare"),
        "home_captain": f.make_user("hemmakapten"),
        "away_captain": f.make_user("bortakapten"),
        "home_secretary": f.make_user("sekreterare-hemma"),
        "away_secretary": f.make_user("sekreterare-borta"),
        "other_secretary": f.make_user("sekreterare-annan"),
    }
    home_club = f.make_club("Hemmaklubben", secretary=users["home_secretary"])
    away_club = f.make_club("Bortaklubben", secretary=users["away_secretary"])
    other_club = f.make_club("Annanklubben", secretary=users["other_secretary"])
    f.make_player("Spelande Spelare", club=home_club, user=users["player"])
    home = f.make_team("Hemmalaget", club=home_club, captain=users["home_captain"])
    away = f.make_team("Bortalaget", club=away_club, captain=users["away_captain"])
    # A timed rule set (the clock endpoints need one); the home club organises.
    competition = f.make_competition(organiser=home_club, rules_key="sv-tavling", name="Serien")
    match = f.make_match(home=home, away=away, competition=competition)
    return World(users, home_club, away_club, other_club, home, away, competition, match.round, match)


def play(w: World, deals: int) -> None:
    """Deals recorded by the home secretary (who thereby entered the protocol)."""
    for number in range(1, deals + 1):
        services.deals_record(
            match=w.match, user=w.users["home_secretary"], entry=f.winning_deal(number), expected_version=int(w.version)
        )
    w.match.refresh_from_db()


def deal_fields(**values) -> dict:
    data = {"home_cards": "120", "away_cards": "-40", "end": "stock"}
    data.update(values)
    return data


@dataclass(frozen=True)
class Case:
    """One data-changing view: who may use it, and how to set up and post a valid request."""

    allowed: frozenset
    prepare: Callable[[World], tuple[str, dict]]  # -> (url, POST data); sets the state up
    writes: bool = True  # False: a POST that only answers (the live check)
    headers: dict = field(default_factory=dict)


def _match_url(name, *extra):
    return lambda w: reverse(name, args=[w.match.pk, *extra])


def protocol_case(w):
    return reverse("scoring:match-protocol", args=[w.match.pk]), deal_fields(version=w.version)


def check_case(w):
    play(w, 1)
    return reverse("scoring:match-protocol-check", args=[w.match.pk]), deal_fields(version=w.version)


UPLOAD_CSV = b"deal,home_cards,away_cards,end\n1,120,-40,stock\n2,50,60,stock\n"


def upload_case(w):
    play(w, 1)
    return reverse("scoring:match-protocol-upload", args=[w.match.pk]), {
        "version": w.version, "reason": "papperet", "file": SimpleUploadedFile("p.csv", UPLOAD_CSV, "text/csv"),
    }  # fmt: skip


def upload_save_case(w):
    from scoring.files.protocol_file import read_protocol
    from scoring.views.secretary_upload import sign_checked_file

    play(w, 1)
    checked = sign_checked_file(w.match, "p.csv", read_protocol(UPLOAD_CSV, "p.csv"), other_match=[])
    return reverse("scoring:match-protocol-upload-save", args=[w.match.pk]), {
        "version": w.version, "reason": "papperet", "checked": checked,
    }  # fmt: skip


def correct_case(w):
    play(w, 2)
    return reverse("scoring:deal-correct", args=[w.match.pk, 1]), deal_fields(version=w.version, reason="skrivfel")


def delete_last_case(w):
    play(w, 2)
    return reverse("scoring:deal-delete-last", args=[w.match.pk]), {"version": w.version, "reason": "fel match"}


def start_case(w):
    return reverse("scoring:match-start", args=[w.match.pk]), {"version": w.version}


def clock_case(w):
    play(w, 1)
    return reverse("scoring:match-clock", args=[w.match.pk]), {"version": w.version}


def forfeit_case(w):
    return reverse("scoring:match-forfeit", args=[w.match.pk]), {"version": w.version, "winner": "home", "warnings": "", "reason": "WO"}


def postpone_case(w):
    return reverse("scoring:match-postpone", args=[w.match.pk]), {"version": w.version, "reason": "sjukdom", "new_start": ""}


def void_case(w):
    play(w, 1)
    return reverse("scoring:match-void", args=[w.match.pk]), {"version": w.version, "reason": "brandlarm"}


def submit_case(w):
    play(w, 3)  # 5 655: the match is finished
    return reverse("scoring:match-submit", args=[w.match.pk]), {"version": w.version}


def confirm_case(w):
    play(w, 3)
    services.match_submit(match=w.match, user=w.users["home_secretary"], expected_version=int(w.version))
    return reverse("scoring:match-confirm", args=[w.match.pk]), {"version": w.version}


def dispute_case(w):
    play(w, 3)
    services.match_submit(match=w.match, user=w.users["home_secretary"], expected_version=int(w.version))
    return reverse("scoring:match-dispute", args=[w.match.pk]), {"version": w.version, "reason": "giv 2 fel"}


def reopen_case(w):
    play(w, 3)
    return reverse("scoring:match-reopen", args=[w.match.pk]), {"version": w.version, "reason": "fel i giv 2"}


def clock_start_case(w):
    return reverse("scoring:round-clock-start", args=[w.competition.pk, w.round.number]), {}


def player_create_case(w):
    return reverse("scoring:manage-player-create", args=[w.home_club.pk]), {"name": "Ny Spelare", "member_number": "77"}


def player_edit_case(w):
    player = w.home.player_one
    return reverse("scoring:manage-player-edit", args=[player.pk]), {"name": "Nytt Namn", "member_number": ""}


def team_create_case(w):
    one, two = f.make_player("Ett", club=w.home_club), f.make_player("Två", club=w.home_club)
    return reverse("scoring:manage-team-create", args=[w.home_club.pk]), {
        "name": "Nya laget", "player_one": one.pk, "player_two": two.pk, "captain": "",
    }  # fmt: skip


def team_edit_case(w):
    team = w.home
    return reverse("scoring:manage-team-edit", args=[team.pk]), {
        "name": "Omdöpta laget", "player_one": team.player_one_id, "player_two": team.player_two_id,
        "captain": team.captain_id,
    }  # fmt: skip


def player_delete_case(w):
    player = f.make_player("Dubbelinförd", club=w.home_club)
    return reverse("scoring:manage-player-delete", args=[player.pk]), {}


def team_delete_case(w):
    one, two = f.make_player("Ett", club=w.home_club), f.make_player("Två", club=w.home_club)
    team = Team.objects.create(name="Felinfört lag", club=w.home_club, player_one=one, player_two=two)
    return reverse("scoring:manage-team-delete", args=[team.pk]), {}


def player_merge_case(w):
    kept = f.make_player("Dubbel", club=w.home_club)
    twice = f.make_player("dubbel", club=w.home_club)
    return reverse("scoring:manage-player-merge", args=[twice.pk]), {"into": kept.pk}


def team_merge_case(w):
    players = [f.make_player(name, club=w.home_club) for name in ("Ett", "Två", "Tre", "Fyra")]
    kept = Team.objects.create(name="Laget", club=w.home_club, player_one=players[0], player_two=players[1])
    twice = Team.objects.create(name="Laget igen", club=w.home_club, player_one=players[2], player_two=players[3])
    w.competition.teams.add(kept, twice)
    return reverse("scoring:manage-team-merge", args=[twice.pk]), {"into": kept.pk}


MEMBER_CSV = "Namn;Medlemsnummer;Födelseår;E-post\nNy Medlem;501;1950;ny@example.se\n".encode()


def members_read_case(w):
    return reverse("scoring:manage-members", args=[w.home_club.pk]), {
        "file": SimpleUploadedFile("medlemmar.csv", MEMBER_CSV, "text/csv"),
    }  # fmt: skip


def kept_member_list(w) -> dict:
    """A member list of the home club read and kept by its secretary: the save form's fields."""
    from scoring.files.member_file import read_member_file
    from scoring.selectors.members import member_list_preview

    draft = services.member_list_keep(
        user=w.users["home_secretary"], club=w.home_club, file_name="medlemmar.csv",
        member_file=read_member_file(MEMBER_CSV, "medlemmar.csv"),
    )  # fmt: skip
    return {"draft": draft.pk, "digest": member_list_preview(w.home_club, draft).digest}


def members_save_case(w):
    return reverse("scoring:manage-members-save", args=[w.home_club.pk]), kept_member_list(w)


def members_discard_case(w):
    return reverse("scoring:manage-members-discard", args=[w.home_club.pk]), kept_member_list(w)


def round_delete_case(w):
    return reverse("scoring:manage-round-delete", args=[w.round.pk]), {}


def match_delete_case(w):
    return reverse("scoring:manage-match-delete", args=[w.match.pk]), {}


COMPETITION_FIELDS = {
    "season": "2027/28", "kind": "league", "rules_key": "sv-tavling", "points_key": "sv-serie",
    "requires_confirmation": "on", "is_public": "on",
}  # fmt: skip


def competition_create_case(w):
    return reverse("scoring:manage-competition-create", args=[w.home_club.pk]), {"name": "Nya serien", **COMPETITION_FIELDS}


def competition_edit_case(w):
    return reverse("scoring:manage-competition-edit", args=[w.competition.pk]), {
        "name": "Serien, omdöpt", **COMPETITION_FIELDS, "teams": [w.home.pk, w.away.pk],
    }  # fmt: skip


def round_create_case(w):
    return reverse("scoring:manage-round-create", args=[w.competition.pk]), {"number": "2", "date": "2026-10-21"}


def round_edit_case(w):
    return reverse("scoring:manage-round-edit", args=[w.round.pk]), {"number": "1", "date": "2026-10-14"}


def match_create_case(w):
    return reverse("scoring:manage-match-create", args=[w.competition.pk]), {
        "round": "", "table": "2", "home_team": w.away.pk, "away_team": w.home.pk, "scheduled_start": "",
    }  # fmt: skip


def match_edit_case(w):
    return reverse("scoring:manage-match-edit", args=[w.match.pk]), {
        "round": w.round.pk, "table": "7", "home_team": w.home.pk, "away_team": w.away.pk,
        "scheduled_start": "2026-10-14T18:30", "version": w.version,
    }  # fmt: skip


def cup(w: World) -> Competition:
    """A competition of the home club's with four teams and no matches yet (for the schedule tools)."""
    teams = [w.home, w.away, f.make_team("Tredje laget", club=w.other_club), f.make_team("Fjärde laget", club=w.home_club)]
    return f.make_competition(organiser=w.home_club, teams=teams, name="Cupen", kind="tournament")


def schedule_generate_case(w):
    return reverse("scoring:manage-schedule-generate", args=[cup(w).pk]), {
        "series": "single", "start_date": "2026-10-01", "interval_days": "7", "start_time": "18:30",
    }  # fmt: skip


def schedule_pair_case(w):
    return reverse("scoring:manage-schedule-pair", args=[cup(w).pk]), {"date": "2026-10-01", "start_time": ""}


def fixtures_import_case(w):
    competition = cup(w)
    csv = "round,date,table,home,away\n1,2026-10-01,1,Hemmalaget,Bortalaget\n1,2026-10-01,2,Tredje laget,Fjärde laget\n"
    return reverse("scoring:manage-fixtures-import", args=[competition.pk]), {
        "file": SimpleUploadedFile("fixtures.csv", csv.encode(), "text/csv"),
    }


def individual_signup_case(w):
    """An individual club night of the home club: its players signed up one by one."""
    night = f.make_competition(organiser=w.home_club, name="Klubbkväll", kind="individual")
    players = [f.make_player(f"Kvällsspelare {n}", club=w.home_club) for n in range(4)]
    return reverse("scoring:manage-individual", args=[night.pk]), {"action": "signup", "players": [p.pk for p in players]}


def invitation_answer_case(w):
    """The home club's cup invites a team of the away club: the away club's secretary answers."""
    from scoring.models import Invitation

    competition = f.make_competition(organiser=w.home_club, name="Cupen")
    team = f.make_team("Inbjudna laget", club=w.away_club)
    invitation = Invitation.objects.create(competition=competition, team=team, invited_by=w.users["home_secretary"])
    return reverse("scoring:manage-invitations"), {"invitation": invitation.pk, "answer": "accept"}


def table_link_case(w):
    return reverse("scoring:match-table-link", args=[w.match.pk]), {"action": "issue"}


def table_conflict_case(w):
    """A deal typed at the table whose number the secretary took meanwhile: a conflict to set aside."""
    link = services.table_link_issue(match=w.match, user=w.users["admin"])
    play(w, 1)
    conflict = services.table_deal_propose(link=link, codes=[link.code], client_id="late", side="home", number=1,
                                           entry=f.winning_deal(1))  # fmt: skip
    assert conflict.status == "conflict"
    return reverse("scoring:table-conflict-set-aside", args=[w.match.pk, conflict.pk]), {}


def photo_case(w):
    import io

    from PIL import Image

    image = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(image, "JPEG")
    return reverse("scoring:match-photos", args=[w.match.pk]), {"photo": SimpleUploadedFile("p.jpg", image.getvalue(), "image/jpeg")}


def move_propose_case(w):
    return reverse("scoring:match-move", args=[w.match.pk]), {
        "version": w.version, "new_date": "2099-10-21", "new_time": "18:30", "hall": "Folkets hus", "reason": "Hallen",
    }  # fmt: skip


def _proposed(w):
    from datetime import datetime, timezone as dt_timezone

    return services.match_move_propose(match=w.match, user=w.users["home_secretary"],
                                       new_start=datetime(2099, 10, 21, 16, 30, tzinfo=dt_timezone.utc))  # fmt: skip


def move_answer_case(w):
    """The home secretary proposed a new date: the away side answers."""
    return reverse("scoring:match-move-answer", args=[w.match.pk]), {"move": _proposed(w).pk, "answer": "yes"}


def move_approve_case(w):
    """Both teams agreed, and the competition asks its organiser (the home club here) to approve."""
    Competition.objects.filter(pk=w.competition.pk).update(moves_need_approval=True)
    move = services.match_move_answer(move=_proposed(w), user=w.users["away_captain"], accept=True)
    return reverse("scoring:match-move-approve", args=[w.match.pk]), {"move": move.pk, "answer": "yes"}


def check_in_case(w):
    competition = cup(w)
    return reverse("scoring:manage-check-in", args=[competition.pk]), {
        "day": "2026-10-01", "present": [team.pk for team in competition.teams.all()[:3]],
    }  # fmt: skip


def championship(w: World, *, played: bool = False):
    """A championship of the home club: a qualifier (the home and away teams, one match played
    when `played`) whose first and best other pair go on to a final."""
    from scoring.models import Championship, ChampionshipStage

    admin = w.users["admin"]
    championship = services.championship_save(user=admin, championship=Championship(
        name="Mästerskapet", season=w.competition.season, organiser=w.home_club))
    qualifier = services.championship_stage_save(user=admin, stage=ChampionshipStage(
        championship=championship, name="Kval", per_heat=1, best_of_rest=1))
    final = services.championship_stage_save(user=admin, stage=ChampionshipStage(championship=championship, name="Final"))
    heat = f.make_competition(organiser=w.home_club, name="Kvalet", teams=[w.home, w.away], requires_confirmation=False)
    services.championship_heat_add(user=admin, stage=qualifier, competition=heat)
    services.championship_heat_add(user=admin, stage=final, competition=f.make_competition(organiser=w.home_club, name="Finalen"))
    if played:
        f.make_result(heat, w.home, w.away)
    return championship, qualifier


def championship_create_case(w):
    return reverse("scoring:manage-championship-create", args=[w.home_club.pk]), {"name": "DM", "season": "2026/27", "is_public": "on"}


def championship_edit_case(w):
    championship_row, _stage = championship(w)
    return reverse("scoring:manage-championship-edit", args=[championship_row.pk]), {"name": "DM i par", "season": championship_row.season}


def stage_create_case(w):
    championship_row, _stage = championship(w)
    return reverse("scoring:manage-stage-create", args=[championship_row.pk]), {
        "name": "Semifinal", "per_heat": "2", "best_of_rest": "0", "carry_points_percent": "0", "carry_cards_percent": "0",
    }  # fmt: skip


def stage_edit_case(w):
    _championship, stage = championship(w)
    return reverse("scoring:manage-stage-edit", args=[stage.pk]), {
        "name": "Klubbkval", "per_heat": "1", "best_of_rest": "0", "carry_points_percent": "50", "carry_cards_percent": "0",
    }  # fmt: skip


def heat_add_case(w):
    _championship, stage = championship(w)
    return reverse("scoring:manage-heat-add", args=[stage.pk]), {"competition": w.competition.pk}


def stage_withdrawal_case(w):
    _championship, stage = championship(w)
    return reverse("scoring:manage-stage-withdrawal", args=[stage.pk]), {"team": w.away.pk, "reason": "Sjuk"}


def stage_confirm_case(w):
    from scoring.selectors.championships import stage_road

    _championship, stage = championship(w, played=True)
    return reverse("scoring:manage-stage-qualified", args=[stage.pk]), {
        "expected": ",".join(str(pk) for pk in stage_road(stage).expected)}


HTMX = {"HTTP_HX_REQUEST": "true"}

MATRIX: dict[str, Case] = {
    # the protocol (secretary.py)
    "scoring:match-protocol": Case(KEEPER, protocol_case),
    "scoring:match-protocol-check": Case(KEEPER, check_case, writes=False, headers=HTMX),
    "scoring:match-protocol-upload": Case(KEEPER, upload_case, writes=False),  # checks, shows
    "scoring:match-protocol-upload-save": Case(KEEPER, upload_save_case),
    "scoring:deal-correct": Case(KEEPER, correct_case),
    "scoring:deal-delete-last": Case(KEEPER, delete_last_case),
    # the match lifecycle (secretary_actions.py)
    "scoring:match-start": Case(KEEPER, start_case),
    "scoring:match-clock": Case(KEEPER, clock_case),
    "scoring:match-forfeit": Case(KEEPER, forfeit_case),
    "scoring:match-postpone": Case(KEEPER, postpone_case),
    "scoring:match-void": Case(KEEPER, void_case),
    "scoring:match-submit": Case(KEEPER, submit_case),
    "scoring:match-confirm": Case(CONFIRMER, confirm_case),
    # the other side disputes: whoever confirms, and the away club's secretary
    "scoring:match-dispute": Case(CONFIRMER | {"away_secretary"}, dispute_case),
    "scoring:match-reopen": Case(KEEPER, reopen_case),
    # entry at the table, the secretary's side (table_manage.py): the table link, the photos
    "scoring:match-table-link": Case(KEEPER, table_link_case),
    "scoring:table-conflict-set-aside": Case(KEEPER, table_conflict_case),
    "scoring:match-photos": Case(KEEPER, photo_case),
    # the hall clock (public_clock.py)
    "scoring:round-clock-start": Case(KEEPER, clock_start_case),
    # setting up (manage.py): the home club's players and teams, its competition
    "scoring:manage-player-create": Case(KEEPER, player_create_case),
    "scoring:manage-player-edit": Case(KEEPER, player_edit_case),
    "scoring:manage-team-create": Case(KEEPER, team_create_case),
    "scoring:manage-team-edit": Case(KEEPER, team_edit_case),
    "scoring:manage-competition-create": Case(KEEPER, competition_create_case),
    "scoring:manage-competition-edit": Case(KEEPER, competition_edit_case),
    "scoring:manage-round-create": Case(KEEPER, round_create_case),
    "scoring:manage-round-edit": Case(KEEPER, round_edit_case),
    "scoring:manage-match-create": Case(KEEPER, match_create_case),
    "scoring:manage-match-edit": Case(KEEPER, match_edit_case),
    "scoring:manage-player-delete": Case(KEEPER, player_delete_case),
    "scoring:manage-team-delete": Case(KEEPER, team_delete_case),
    "scoring:manage-player-merge": Case(KEEPER, player_merge_case),
    "scoring:manage-team-merge": Case(KEEPER, team_merge_case),
    "scoring:manage-round-delete": Case(KEEPER, round_delete_case),
    "scoring:manage-match-delete": Case(KEEPER, match_delete_case),
    # the club's member list (manage_members.py): read a file, save or discard the list it gave
    "scoring:manage-members": Case(KEEPER, members_read_case),
    "scoring:manage-members-save": Case(KEEPER, members_save_case),
    "scoring:manage-members-discard": Case(KEEPER, members_discard_case),
    # schedule tools (schedules.py)
    "scoring:manage-schedule-generate": Case(KEEPER, schedule_generate_case),
    "scoring:manage-schedule-pair": Case(KEEPER, schedule_pair_case),
    "scoring:manage-fixtures-import": Case(KEEPER, fixtures_import_case),
    # individual club nights (federation.py)
    "scoring:manage-individual": Case(KEEPER, individual_signup_case),
    # a match moved by agreement (chores.py): the home side proposes, the away side answers, the
    # organiser approves; who is present before a draw: the organiser
    "scoring:match-move": Case(KEEPER, move_propose_case),
    "scoring:match-move-answer": Case(CONFIRMER, move_answer_case),
    "scoring:match-move-approve": Case(KEEPER, move_approve_case),
    "scoring:manage-check-in": Case(KEEPER, check_in_case),
    # championships (championship_manage.py): the organising club's
    "scoring:manage-championship-create": Case(KEEPER, championship_create_case),
    "scoring:manage-championship-edit": Case(KEEPER, championship_edit_case),
    "scoring:manage-stage-create": Case(KEEPER, stage_create_case),
    "scoring:manage-stage-edit": Case(KEEPER, stage_edit_case),
    "scoring:manage-heat-add": Case(KEEPER, heat_add_case),
    "scoring:manage-stage-withdrawal": Case(KEEPER, stage_withdrawal_case),
    "scoring:manage-stage-qualified": Case(KEEPER, stage_confirm_case),
    # a match moved by agreement (chores.py): the home side proposes, the away side answers, the
    # organiser approves; who is present before a draw: the organiser
    "scoring:match-move": Case(KEEPER, move_propose_case),
    "scoring:match-move-answer": Case(CONFIRMER, move_answer_case),
    "scoring:match-move-approve": Case(KEEPER, move_approve_case),
    "scoring:manage-check-in": Case(KEEPER, check_in_case),
    # invitations (manage.py): the invited team's club answers
    "scoring:manage-invitations": Case(frozenset({"away_secretary", "admin"}), invitation_answer_case),
}

# Views that accept POST but are not about club, competition or match data, with the reason.
NOT_IN_MATRIX = {
    "set_language": "stores the visitor's language choice in a cookie; anyone may",
    "login": "logging in (throttled by django-axes: test_security.py)",
    "logout": "logging out one's own session",
    "password_change": "a logged-in user changes their own password (old password required)",
    # Entry at the table (scoring/views/table.py): no account and no role; the code in the address
    # is the right, for its own match only (tests/views/test_table_link.py, tests/services/test_table.py).
    "scoring:table-check": "the table link's live check: answers, never writes; the code is the right",
    "scoring:table-propose": "the table link: the code in the address is the right, for its own match only",
    "scoring:table-answer": "the table link: the code in the address is the right, for its own match only",
    "scoring:table-confirm": "the table link: the code in the address is the right, for its own match only",
    "scoring:table-photo": "the table link: the code in the address is the right, for its own match only",
}
# Function views that answer GET only (class-based views are told by their methods).
READ_ONLY_FUNCTIONS = {"healthz"}


def _patterns(resolver=None, prefix="", namespace=""):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            space = namespace
            if entry.namespace:
                space = f"{namespace}{entry.namespace}:"
            yield from _patterns(entry, prefix + str(entry.pattern), space)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), (f"{namespace}{entry.name}" if entry.name else None), entry.callback


def _accepts_post(callback) -> bool | None:
    view_class = getattr(callback, "view_class", None)
    if view_class is None:
        return None  # a function view: cannot tell from outside
    return "post" in view_class.http_method_names and hasattr(view_class, "post")


def test_every_view_that_accepts_post_is_in_the_matrix():
    unclassified = []
    for route, name, callback in _patterns():
        if route.startswith("admin/"):
            continue  # Django's admin: staff only, by its own permission system (test below)
        posts = _accepts_post(callback)
        if name in MATRIX or name in NOT_IN_MATRIX:
            assert posts is not False, f"{name} is in the matrix but accepts no POST"
            continue
        if posts is None and name not in READ_ONLY_FUNCTIONS:
            unclassified.append(f"{route} ({name}): a function view; classify it")
        elif posts:
            unclassified.append(f"{route} ({name}) accepts POST but is not in the permission matrix")
    assert unclassified == []
    names = {name for _, name, _ in _patterns()}
    assert set(MATRIX) <= names, set(MATRIX) - names


def snapshot():
    """Everything the views can change."""
    return (
        list(Match.objects.order_by("pk").values()),
        list(Deal.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(MemberListDraft.objects.order_by("pk").values("pk", "club_id", "rows")),
        list(Team.objects.order_by("pk").values()),
        list(Competition.objects.order_by("pk").values()),
        sorted(Competition.teams.through.objects.values_list("competition_id", "team_id")),
        list(Round.objects.order_by("pk").values()),
        AuditEntry.objects.count(),
        list(TableLink.objects.order_by("pk").values()),
        MatchPhoto.objects.count(),
        list(get_user_model().objects.order_by("pk").values("pk", "password", "is_active", "is_superuser")),
    )


def client_for(role: str, w: World, **kwargs) -> Client:
    client = Client(**kwargs)
    if role != "anonymous":
        client.force_login(w.users[role])
    return client


def outcome(name: str, case: Case, w: World, role: str) -> str | None:
    """What is wrong with `role` posting to `name` (None: exactly the allowed outcome)."""
    url, data = case.prepare(w)
    before = snapshot()
    response = client_for(role, w).post(url, data, **case.headers)
    after = snapshot()
    if role in case.allowed:
        expected = 302 if case.writes else 200
        if response.status_code != expected:
            return f"{role} may: expected {expected}, got {response.status_code}: " + response.content.decode()[:1500]
        if case.writes and after == before:
            return f"{role} may: answered {response.status_code} but nothing changed"
        if not case.writes and after != before:
            return f"{role}: a POST that only answers changed the database"
        return None
    if role == "anonymous":
        if response.status_code != 302 or not response["Location"].startswith(reverse("login")):
            return f"anonymous: expected the login page, got {response.status_code} {response.get('Location')}"
    elif response.status_code != 403:
        return f"{role} must not: expected 403, got {response.status_code}"
    if after != before:
        return f"{role} was refused but the database changed"
    return None


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_permission_matrix(name):
    """Each role in turn, each from the same starting point (a savepoint rolled back after it)."""
    case = MATRIX[name]
    w = make_world()
    problems = []
    for role in ROLES:
        with transaction.atomic():
            problem = outcome(name, case, w, role)
            transaction.set_rollback(True)
        w.match.refresh_from_db()
        if problem:
            problems.append(problem)
    assert problems == [], f"{name}:\n" + "\n".join(problems)


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_a_form_without_its_csrf_token_is_refused(name):
    case = MATRIX[name]
    w = make_world()
    url, data = case.prepare(w)
    before = snapshot()
    role = "admin" if "admin" in case.allowed else sorted(case.allowed)[0]
    client = client_for(role, w, enforce_csrf_checks=True)

    response = client.post(url, data, **case.headers)

    assert response.status_code == 403
    assert "CSRF" in response.content.decode() or "csrf" in response.content.decode().lower()
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("url_name", ["set_language", "login", "logout", "password_change"])
def test_account_forms_also_need_their_csrf_token(url_name):
    user = f.make_user("någon")
    client = Client(enforce_csrf_checks=True)
    if url_name in ("logout", "password_change"):
        client.force_login(user)
    data = {
        "set_language": {"language": "en", "next": "/"},
        "login": {"username": "någon", "password": "secret-pass-123"},
        "logout": {},
        "password_change": {"old_password": "secret-pass-123", "new_password1": "Ett-helt-nytt-lösen-91", "new_password2": "Ett-helt-nytt-lösen-91"},
    }[url_name]
    password_before = get_user_model().objects.get(pk=user.pk).password
    response = client.post(reverse(url_name), data)
    assert response.status_code == 403
    assert get_user_model().objects.get(pk=user.pk).password == password_before


@pytest.mark.django_db
def test_each_secretary_manages_their_own_club_only():
    """The other side of the matrix: the away club's secretary may do for the away club what the
    home club's may do for theirs, and nothing for the home club."""
    w = make_world()
    away_secretary = client_for("away_secretary", w)
    response = away_secretary.post(
        reverse("scoring:manage-player-create", args=[w.away_club.pk]), {"name": "Bortaspelare", "member_number": ""}
    )
    assert response.status_code == 302 and Player.objects.filter(name="Bortaspelare", club=w.away_club).exists()
    response = away_secretary.post(
        reverse("scoring:manage-player-edit", args=[w.home.player_one_id]), {"name": "Kapad", "member_number": ""}
    )
    assert response.status_code == 403 and not Player.objects.filter(name="Kapad").exists()


@pytest.mark.django_db
def test_the_captain_whose_side_entered_the_protocol_cannot_confirm_it():
    """The home side entered it: neither the home captain nor the home secretary confirms; a
    confirmer who entered the protocol themselves is refused too."""
    w = make_world()
    url, data = confirm_case(w)
    for role in ("home_captain", "home_secretary"):
        response = client_for(role, w).post(url, {"version": w.version})
        assert response.status_code == 403, role
    w.match.refresh_from_db()
    assert w.match.status == Match.Status.SUBMITTED

    # An admin who entered a protocol may not confirm it either.
    other = f.make_match(home=w.home, away=w.away, competition=w.competition, round_number=2)
    for number in range(1, 4):
        other = services.deals_record(match=other, user=w.users["admin"], entry=f.winning_deal(number), expected_version=other.version)
    other = services.match_submit(match=other, user=w.users["admin"], expected_version=other.version)
    response = client_for("admin", w).post(reverse("scoring:match-confirm", args=[other.pk]), {"version": str(other.version)})
    assert response.status_code == 403
    other.refresh_from_db()
    assert other.status == Match.Status.SUBMITTED


@pytest.mark.django_db
def test_the_admin_site_is_for_staff_only():
    w = make_world()
    for role in ROLES:
        client = client_for(role, w)
        response = client.get("/admin/scoring/match/")
        if role == "admin":
            assert response.status_code == 200
        else:
            assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), role
