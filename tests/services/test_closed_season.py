"""A closed season's competitions are archives (services.seasons): their matches are no work to do
in "My matches", no action on them is a server error, and every write path into them, through the
services, the pages and the admin, is refused with a message."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import permissions, services
from scoring.models import Competition, Match, Round
from scoring.selectors.secretary import secretary_matches
from scoring.services import manage as manage_services
from scoring.services import schedules as schedule_services
from scoring.services.seasons import SeasonClosedError, season_close
from scoring.permissions import can_view_protocol
from tests import factories as f

pytestmark = pytest.mark.django_db

CLOSED = "2025/26"
ARCHIVE_SV = "är stängd"  # "Säsongen 2025/26 är stängd: … är ett arkiv"


@pytest.fixture
def archive():
    """A closed season's competition: a match in progress, one finished (to submit, confirm or
    dispute), one not played, a round without play; and a substitute in the finished match."""
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
    # A file checked while the season was open, saved after it closed.
    checked = upload_token(client_for(secretary), in_progress)
    season_close(name=CLOSED, user=admin)
    competition.refresh_from_db()
    assert competition.archived
    return {
        "secretary": secretary, "captain": captain, "admin": admin, "competition": competition,
        "in_progress": in_progress, "finished": finished, "unplayed": unplayed, "round": empty_round,
        "current": current, "substitute": substitute, "twin": twin, "home_club": home_club, "checked": checked,
    }


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def versions(*matches) -> list[int]:
    return [Match.objects.get(pk=m.pk).version for m in matches]


# -- My matches -----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["secretary", "captain"])
def test_archived_matches_are_no_work_to_do(archive, who):
    response = client_for(archive[who]).get(reverse("scoring:my-matches"))
    groups = response.context["groups"]
    archived = {archive[k].pk for k in ("in_progress", "finished", "unplayed")}
    for key, rows in groups.items():
        listed = {row["match"].pk for row in rows}
        if key == "archived":
            assert archived & listed, "an archive list names the closed season's matches"
        else:
            assert not archived & listed, f"{key} lists an archived match as work"
    html = response.content.decode()
    section = html[html.index('match-group--archived'):]
    section = section[:section.index("</section>")]
    assert "Visa protokollet" in section or "Show the protocol" in section
    for button in ("#actions-title", "#entry", "#dispute"):
        assert button not in section
    if who == "secretary":
        assert archive["current"].pk in {row["match"].pk for row in groups["scheduled"]}


# -- every secretary and captain action against an archived match ---------------------------------

DEAL = {"home_cards": "120", "away_cards": "-40", "end": "stock"}


def action_cases(a):
    """(who, url, POST data) of every action on a match's protocol page."""
    ip, fin = a["in_progress"], a["finished"]
    return {
        "deal save": ("secretary", reverse("scoring:match-protocol", args=[ip.pk]), {**DEAL, "version": ip.version}),
        "correct": ("secretary", reverse("scoring:deal-correct", args=[ip.pk, 1]),
                    {**DEAL, "version": ip.version, "reason": "skrivfel"}),
        "remove last": ("secretary", reverse("scoring:deal-delete-last", args=[ip.pk]),
                        {"version": ip.version, "reason": "fel"}),
        "walk over": ("secretary", reverse("scoring:match-forfeit", args=[ip.pk]),
                      {"version": ip.version, "winner": "home", "warnings": ""}),
        "void": ("secretary", reverse("scoring:match-void", args=[ip.pk]), {"version": ip.version, "reason": "fel"}),
        "submit": ("secretary", reverse("scoring:match-submit", args=[fin.pk]), {"version": fin.version}),
        "reopen": ("secretary", reverse("scoring:match-reopen", args=[fin.pk]), {"version": fin.version, "reason": "fel"}),
        "confirm": ("captain", reverse("scoring:match-confirm", args=[fin.pk]), {"version": fin.version}),
        "dispute": ("captain", reverse("scoring:match-dispute", args=[fin.pk]),
                    {"version": fin.version, "reason": "Giv 3 är fel"}),
        "upload save": ("secretary", reverse("scoring:match-protocol-upload-save", args=[ip.pk]),
                        {"version": ip.version, "reason": "papperet"}),
        "start": ("secretary", reverse("scoring:match-start", args=[a["unplayed"].pk]), {"version": a["unplayed"].version}),
        "postpone": ("secretary", reverse("scoring:match-postpone", args=[a["unplayed"].pk]),
                     {"version": a["unplayed"].version, "reason": "sjukdom"}),
    }


CASES = ["deal save", "correct", "remove last", "walk over", "void", "submit", "reopen", "confirm", "dispute",
         "upload save", "start", "postpone"]


def upload_token(client, match) -> str:
    """The signed file of the upload's first step, as its page hands it to the second."""
    import re

    sheet = b"deal,home_cards,away_cards,end\n1,120,-40,stock\n2,50,60,stock\n"
    response = client.post(reverse("scoring:match-protocol-upload", args=[match.pk]), {
        "version": match.version, "reason": "papperet", "file": SimpleUploadedFile("p.csv", sheet, "text/csv")})
    found = re.search(r'name="checked" value="([^"]+)"', response.content.decode())
    assert found, "the upload's first step hands on the checked file"
    return found.group(1)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("as_admin", [False, True], ids=["own-role", "admin"])
def test_every_action_on_an_archived_match_is_refused_never_a_500(archive, case, as_admin):
    who, url, data = action_cases(archive)[case]
    client = client_for(archive["admin"] if as_admin else archive[who])
    client.raise_request_exception = False
    if case == "upload save":
        data = {**data, "checked": archive["checked"]}
    before = versions(archive["in_progress"], archive["finished"], archive["unplayed"])
    if case != "upload save":  # POST only
        assert client.get(url).status_code == 200, case
    response = client.post(url, data)
    assert 400 <= response.status_code < 500, (case, response.status_code)
    assert ARCHIVE_SV in response.content.decode() or response.status_code == 403
    assert versions(archive["in_progress"], archive["finished"], archive["unplayed"]) == before


def test_the_protocol_page_of_an_archived_match_offers_no_action(archive):
    html = client_for(archive["secretary"]).get(
        reverse("scoring:match-protocol", args=[archive["in_progress"].pk])).content.decode()
    assert ARCHIVE_SV in html
    assert 'id="entry"' not in html
    for name in ("match-submit", "match-void", "match-forfeit", "match-reopen"):
        assert reverse(f"scoring:{name}", args=[archive["in_progress"].pk]) not in html


def test_a_refusal_no_view_catches_is_a_409_page_in_the_users_language(archive):
    """The general mechanism: any view whose service refuses answers 409, in Swedish by default
    and in English when chosen; never a 500."""
    client = client_for(archive["secretary"])
    client.raise_request_exception = False
    url = reverse("scoring:match-submit", args=[archive["finished"].pk])
    response = client.post(url, {"version": archive["finished"].version})
    assert response.status_code == 409
    assert "Säsongen 2025/26 är stängd" in response.content.decode()
    with translation.override("en"):  # English is under /en/ (i18n_patterns)
        english_url = reverse("scoring:match-submit", args=[archive["finished"].pk])
    response = client.post(english_url, {"version": archive["finished"].version})
    assert response.status_code == 409
    assert "The season 2025/26 is closed" in response.content.decode()


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


@pytest.mark.parametrize("kind", ["match", "round"])
def test_the_delete_pages_refuse_with_the_reason(archive, kind):
    obj = archive["unplayed"] if kind == "match" else archive["round"]
    client = client_for(archive["secretary"])
    url = reverse(f"scoring:manage-{kind}-delete", args=[obj.pk])
    assert ARCHIVE_SV in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 409 and ARCHIVE_SV in response.content.decode()
    assert type(obj).objects.filter(pk=obj.pk).exists()


def test_the_merge_page_refuses_with_the_reason(archive):
    client = client_for(archive["secretary"])
    response = client.post(reverse("scoring:manage-player-merge", args=[archive["twin"].pk]),
                           {"into": archive["substitute"].pk})
    assert response.status_code == 409 and ARCHIVE_SV in response.content.decode()
    assert Match.objects.get(pk=archive["finished"].pk).home_substitute_id == archive["twin"].pk


def test_the_club_page_offers_no_merge_the_archive_refuses(archive):
    """A player entered twice is offered a merge on the club page, unless one of the two appears in
    a closed season's archive (selectors.merging.merge_archive): the merge would be refused."""
    club, twin = archive["home_club"], archive["twin"]
    again = f.make_player(twin.name.upper(), club=club)  # the same name: the page pairs them
    one, other = f.make_player("Eva Ek", club=club), f.make_player("eva ek", club=club)
    client = client_for(archive["secretary"])

    html = client.get(reverse("scoring:manage-club", args=[club.pk])).content.decode()

    def merge_link(duplicate, kept):
        return f'{reverse("scoring:manage-player-merge", args=[duplicate.pk])}?into={kept.pk}'

    assert "Samma namn som" in html.split(f">{twin.name}</a>", 1)[1]  # still said to be the same name
    assert merge_link(twin, again) not in html and merge_link(again, twin) not in html
    assert merge_link(one, other) in html and merge_link(other, one) in html
    # Its edit page offers no merge either; the merge page, reached anyway, says why.
    edit = client.get(reverse("scoring:manage-player-edit", args=[twin.pk])).content.decode()
    assert reverse("scoring:manage-player-merge", args=[twin.pk]) not in edit
    assert reverse("scoring:manage-player-merge", args=[one.pk]) in client.get(
        reverse("scoring:manage-player-edit", args=[one.pk])).content.decode()
    plan = client.get(reverse("scoring:manage-player-merge", args=[again.pk]), {"into": twin.pk}).content.decode()
    assert ARCHIVE_SV in plan and "De kan inte slås ihop" in plan
    with pytest.raises(SeasonClosedError):
        services.merge(user=archive["secretary"], duplicate=again, kept=twin)


# -- the pages that write into a competition name the closed season on every refusal ------------------

MARKED_FIELDS_SV = "rätta de markerade fälten"


def main_part(response) -> str:
    """The page's own content, without the site's header (whose log-out button is a form too)."""
    html = response.content.decode()
    return html[html.index('<main id="main"'):html.index("</main>")]


def manage_form_pages(a):
    comp, unplayed = a["competition"], a["unplayed"]
    home, away = unplayed.home_team, unplayed.away_team
    return {
        # A form that would pass its own checks, and one that would not (a team against itself,
        # nothing filled in): either way the refusal is the closed season.
        "create a match": (reverse("scoring:manage-match-create", args=[comp.pk]),
                           {"home_team": home.pk, "away_team": away.pk}),
        "create a match of a team against itself": (reverse("scoring:manage-match-create", args=[comp.pk]),
                                                    {"home_team": home.pk, "away_team": home.pk}),
        "create a match with nothing filled in": (reverse("scoring:manage-match-create", args=[comp.pk]), {}),
        "edit a match": (reverse("scoring:manage-match-edit", args=[unplayed.pk]),
                         {"home_team": home.pk, "away_team": away.pk, "table": "7", "version": unplayed.version}),
        "create a round": (reverse("scoring:manage-round-create", args=[comp.pk]), {"number": ""}),
        "edit a round": (reverse("scoring:manage-round-edit", args=[a["round"].pk]), {"number": "3"}),
        "edit the competition": (reverse("scoring:manage-competition-edit", args=[comp.pk]), {"name": ""}),
        "generate the schedule": (reverse("scoring:manage-schedule-generate", args=[comp.pk]), {}),
        "generate the schedule, filled in": (reverse("scoring:manage-schedule-generate", args=[comp.pk]),
                                             {"start_date": "2026-01-10", "interval_days": "7", "series": "single"}),
        "pair the next round": (reverse("scoring:manage-schedule-pair", args=[comp.pk]), {}),
        "import a fixture list": (reverse("scoring:manage-fixtures-import", args=[comp.pk]), {}),
    }


MANAGE_FORM_PAGES = [
    "create a match", "create a match of a team against itself", "create a match with nothing filled in",
    "edit a match", "create a round", "edit a round", "edit the competition", "generate the schedule",
    "generate the schedule, filled in", "pair the next round", "import a fixture list",
]


@pytest.mark.parametrize("page", MANAGE_FORM_PAGES)
@pytest.mark.parametrize("as_admin", [False, True], ids=["secretary", "admin"])
def test_a_form_page_of_an_archive_names_the_closed_season_and_offers_no_save(archive, page, as_admin):
    url, data = manage_form_pages(archive)[page]
    client = client_for(archive["admin"] if as_admin else archive["secretary"])
    before = (versions(archive["in_progress"], archive["finished"], archive["unplayed"]),
              Match.objects.count(), Round.objects.count())

    shown = client.get(url)
    refused = client.post(url, data)

    html = main_part(shown)
    assert shown.status_code == 200 and "Säsongen 2025/26 är stängd: Gamla serien är ett arkiv" in html
    assert 'type="submit"' not in html
    html = main_part(refused)
    assert refused.status_code == 409 and "Säsongen 2025/26 är stängd: Gamla serien är ett arkiv" in html
    assert MARKED_FIELDS_SV not in html and 'class="errorlist' not in html
    assert (versions(archive["in_progress"], archive["finished"], archive["unplayed"]),
            Match.objects.count(), Round.objects.count()) == before


def test_the_form_pages_of_an_open_season_still_say_which_fields_to_correct(archive):
    current = archive["current"].competition
    client = client_for(archive["secretary"])
    url = reverse("scoring:manage-match-create", args=[current.pk])
    html = main_part(client.get(url))
    assert 'type="submit"' in html and ARCHIVE_SV not in html
    response = client.post(url, {})
    assert response.status_code == 200 and MARKED_FIELDS_SV in response.content.decode()


def test_a_file_uploaded_to_an_archived_match_is_refused_without_a_preview_or_save(archive):
    match = archive["in_progress"]
    client = client_for(archive["secretary"])
    url = reverse("scoring:match-protocol-upload", args=[match.pk])
    sheet = b"deal,home_cards,away_cards,end\n1,120,-40,stock\n2,50,60,stock\n"
    before = versions(match)

    shown = client.get(url)
    refused = client.post(url, {"version": match.version, "reason": "papperet",
                                "file": SimpleUploadedFile("p.csv", sheet, "text/csv")})

    html = main_part(shown)
    assert shown.status_code == 200 and "Säsongen 2025/26 är stängd" in html
    assert 'type="submit"' not in html
    html = main_part(refused)
    assert refused.status_code == 409 and "Säsongen 2025/26 är stängd" in html
    save = reverse("scoring:match-protocol-upload-save", args=[match.pk])
    assert save not in html and "button--save" not in html and "upload-checked" not in html
    assert versions(match) == before


# -- the admin ----------------------------------------------------------------------------------------


def admin_writes(a):
    comp, rnd, unplayed = a["competition"], a["round"], a["unplayed"]
    return {
        "competition renamed and made private": (
            reverse("admin:scoring_competition_change", args=[comp.pk]),
            {"name": "Nytt namn", "season": CLOSED, "kind": comp.kind, "organiser": comp.organiser_id,
             "rules_key": comp.rules_key, "points_key": comp.points_key, "rounds-TOTAL_FORMS": "0",
             "rounds-INITIAL_FORMS": "0"}),
        "round moved to another day": (
            reverse("admin:scoring_round_change", args=[rnd.pk]),
            {"competition": comp.pk, "number": rnd.number, "date": "2026-01-01"}),
        "round added": (
            reverse("admin:scoring_round_add"), {"competition": comp.pk, "number": 7, "date": "2026-01-01"}),
        "competition added to the closed season": (
            reverse("admin:scoring_competition_add"),
            {"name": "Ny", "season": CLOSED, "kind": comp.kind, "organiser": comp.organiser_id,
             "rules_key": comp.rules_key, "points_key": comp.points_key, "rounds-TOTAL_FORMS": "0",
             "rounds-INITIAL_FORMS": "0"}),
        "unplayed match deleted": (reverse("admin:scoring_match_delete", args=[unplayed.pk]), {"post": "yes"}),
        "round deleted": (reverse("admin:scoring_round_delete", args=[rnd.pk]), {"post": "yes"}),
        "competition deleted": (reverse("admin:scoring_competition_delete", args=[comp.pk]), {"post": "yes"}),
        "rounds deleted in bulk": (
            reverse("admin:scoring_round_changelist"),
            {"action": "delete_selected", "_selected_action": [rnd.pk], "post": "yes"}),
    }


ADMIN_CASES = ["competition renamed and made private", "round moved to another day", "round added",
               "competition added to the closed season", "unplayed match deleted", "round deleted",
               "competition deleted", "rounds deleted in bulk"]


@pytest.mark.parametrize("case", ADMIN_CASES)
def test_every_admin_write_into_an_archive_is_refused(archive, case):
    url, data = admin_writes(archive)[case]
    client = client_for(archive["admin"])
    client.raise_request_exception = False
    comp = archive["competition"]
    before = (Competition.objects.filter(pk=comp.pk).values("name", "is_public", "season").get(),
              list(Round.objects.filter(competition=comp).values_list("pk", "date")),
              Match.objects.filter(competition=comp).count(), Competition.objects.filter(season=CLOSED).count())
    response = client.post(url, data, follow=False)
    assert response.status_code != 302 or "_selected_action" in data, (case, response.status_code)
    assert response.status_code < 500
    after = (Competition.objects.filter(pk=comp.pk).values("name", "is_public", "season").get(),
             list(Round.objects.filter(competition=comp).values_list("pk", "date")),
             Match.objects.filter(competition=comp).count(), Competition.objects.filter(season=CLOSED).count())
    assert after == before
    assert ARCHIVE_SV in response.content.decode() or response.status_code in (403,)


def test_the_admin_shows_an_archived_competition_read_only_and_says_why(archive):
    client = client_for(archive["admin"])
    response = client.get(reverse("admin:scoring_competition_change", args=[archive["competition"].pk]))
    html = response.content.decode()
    assert response.status_code == 200 and ARCHIVE_SV in html
    assert 'name="_save"' not in html


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


def test_a_refusal_the_admin_form_did_not_foresee_is_a_409_not_a_500(archive):
    """The admin saves a match through the services; a refusal its form's checks did not foresee
    (a table already taken in the round) is the refusal page, not a server error."""
    taken = archive["current"]
    competition = taken.competition
    extra_home, extra_away = f.make_team(club=archive["home_club"]), f.make_team(club=archive["home_club"])
    competition.teams.add(extra_home, extra_away)
    client = client_for(archive["admin"])
    client.raise_request_exception = False
    response = client.post(reverse("admin:scoring_match_add"), {
        "competition": competition.pk, "round": taken.round_id, "table": taken.table,
        "home_team": extra_home.pk, "away_team": extra_away.pk,
        "deals-TOTAL_FORMS": "0", "deals-INITIAL_FORMS": "0",
    })
    assert response.status_code == 409
    assert "Bord 1" in response.content.decode() or "bord 1" in response.content.decode()
    assert Match.objects.filter(competition=competition).count() == 1
