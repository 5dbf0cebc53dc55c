"""A closed season's competitions are archives (services.seasons): through the pages, their
matches are no work to do in "My matches", no action on them is a server error, and every write
into them, by the pages and the admin, is refused with a message. The services' own refusals are
tests/services/test_closed_season.py, on the same world (build_archive)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import Competition, Match, Round
from scoring.services.seasons import SeasonClosedError
from tests import factories as f
from tests.services.test_closed_season import CLOSED, build_archive, versions

pytestmark = pytest.mark.django_db

ARCHIVE_SV = "är stängd"  # "Säsongen 2025/26 är stängd: … är ett arkiv"


@pytest.fixture
def archive():
    """The closed season's world, with a file checked on the upload page while the season was
    open, to be saved after it closed."""
    return build_archive(before_closing=lambda world: {
        "checked": upload_token(client_for(world["secretary"]), world["in_progress"])})


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


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


# -- the delete and merge pages ---------------------------------------------------------------------


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
