"""The pages of the season's chores: a match moved by agreement from the proposal to the calendar
feed, a closed season's page (no buttons, a post refused with a message), who is here before the
draw, an enrolment refused on the competition's page, and no page that sends a reminder."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scoring import services
from scoring.models import CheckIn, Competition, Match, MatchMove, Reminder
from scoring.services import seasons
from tests import factories as f

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def setup():
    setup = f.protocol_setup()
    match = setup["match"]
    Match.objects.filter(pk=match.pk).update(scheduled_start=timezone.now() + timedelta(days=2))
    setup["match"] = Match.objects.get(pk=match.pk)
    return setup


def test_a_match_moved_by_agreement_through_its_pages_reaches_the_calendar_feed(setup):
    match = setup["match"]
    move_page = reverse("scoring:match-move", args=[match.pk])
    secretary, captain = client_for(setup["secretary"]), client_for(setup["away_captain"])
    new_day = (timezone.localdate() + timedelta(days=20))

    # The protocol page offers the move; the move page the home side's form, in Swedish.
    assert move_page in secretary.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    page = secretary.get(move_page).content.decode()
    assert "Föreslå en ny dag" in page and "Godta den nya dagen" not in page
    response = secretary.post(move_page, {"version": match.version, "new_date": f"{new_day:%Y-%m-%d}", "new_time": "19:15",
                                          "hall": "Folkets hus", "reason": "Hallen är bokad"})  # fmt: skip
    assert response.status_code == 302
    move = MatchMove.objects.get(match=match)

    # The away captain finds it among their matches, sees the proposal and accepts it; the home
    # secretary cannot.
    mine = captain.get(reverse("scoring:my-matches")).content.decode()
    assert "Nya dagar att besvara" in mine and move_page in mine
    assert "Nya dagar att besvara" not in secretary.get(reverse("scoring:my-matches")).content.decode()
    page = captain.get(move_page).content.decode()
    assert "Godta den nya dagen" in page and "Folkets hus" in page and "Föreslå den nya dagen" not in page
    refused = secretary.post(reverse("scoring:match-move-answer", args=[match.pk]), {"move": move.pk, "answer": "yes"})
    assert refused.status_code == 403
    response = captain.post(reverse("scoring:match-move-answer", args=[match.pk]), {"move": move.pk, "answer": "yes"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert timezone.localtime(match.scheduled_start).date() == new_day

    feed = Client().get(reverse("scoring:team-calendar", args=[setup["away"].pk])).content.decode()
    start = timezone.localtime(match.scheduled_start).astimezone(timezone.get_fixed_timezone(0))
    assert f"DTSTART:{start:%Y%m%dT%H%M%S}Z" in feed and "LOCATION:Folkets hus" in feed
    public = Client().get(reverse("scoring:match-detail", args=[match.pk])).content.decode()
    assert "Folkets hus" in public

    # In English too, with the history kept.
    with translation.override("en"):  # English is under /en/ (i18n_patterns)
        page = captain.get(reverse("scoring:match-move", args=[match.pk])).content.decode()
    assert "Proposals so far" in page and ": moved" in page


def test_a_closed_season_offers_no_buttons_and_refuses_a_post_with_a_message(setup):
    match = setup["match"]
    move = services.match_move_propose(match=match, user=setup["secretary"], new_start=timezone.now() + timedelta(days=9))
    seasons.season_close(name=match.competition.season, user=f.make_admin())
    move_page = reverse("scoring:match-move", args=[match.pk])
    for user in (setup["secretary"], setup["away_captain"]):
        page = client_for(user).get(move_page).content.decode()
        assert "är avslutad" in page and "<form" not in page.split("<main", 1)[1].split("</main>")[0]
    response = client_for(setup["away_captain"]).post(
        reverse("scoring:match-move-answer", args=[match.pk]), {"move": move.pk, "answer": "yes"})
    assert response.status_code == 409 and "är avslutad" in response.content.decode()
    response = client_for(setup["secretary"]).post(move_page, {
        "version": match.version, "new_date": f"{timezone.localdate() + timedelta(days=30):%Y-%m-%d}", "new_time": "18:00"})
    assert response.status_code == 409 and "är avslutad" in response.content.decode()
    move.refresh_from_db()
    assert move.status == MatchMove.Status.WAITING_AWAY


def test_who_is_here_is_saved_from_its_page():
    admin = f.make_admin()
    club = f.make_club("Ess", secretary=(secretary := f.make_user("s")))
    teams = [f.make_team(f"Lag {n}", club=club) for n in range(3)]
    cup = f.make_competition(organiser=club, kind=Competition.Kind.TOURNAMENT, teams=teams)
    page = reverse("scoring:manage-check-in", args=[cup.pk])
    client = client_for(secretary)
    assert "Lag på plats" in client.get(page).content.decode()
    assert client.get(page + "?day=nonsense").status_code == 200
    response = client.post(page, {"day": "2026-10-03", "present": [teams[0].pk, teams[2].pk]})
    assert response.status_code == 302
    assert sorted(CheckIn.objects.values_list("team_id", flat=True)) == [teams[0].pk, teams[2].pk]
    assert 'checked' in client.get(page + "?day=2026-10-03").content.decode()
    assert admin  # the organiser's secretary, not only an admin, checks in


def test_an_enrolment_refused_names_the_team_on_the_competitions_page():
    secretary = f.make_user("s")
    club = f.make_club("Ess", secretary=secretary)
    team = f.make_team("Essen", club=club)
    team.reserves.add(f.make_player("Reserven", club=club))
    competition = f.make_competition(organiser=club, name="Paren", team_players_max=2)
    response = client_for(secretary).post(reverse("scoring:manage-competition-edit", args=[competition.pk]), {
        "name": "Paren", "season": competition.season, "kind": "league", "rules_key": competition.rules_key,
        "points_key": competition.points_key, "team_players_min": "2", "team_players_max": "2", "teams": [team.pk],
    })  # fmt: skip
    assert "Essen har 3 spelare: ett lag i Paren har exakt 2 spelare." in response.content.decode()
    assert not competition.teams.exists()


def test_no_page_sends_a_reminder(setup, django_capture_on_commit_callbacks):
    """Overdue matches (a protocol waiting and a day passed) shown on every page concerned: none
    of the pages mails, only the command does."""
    match = setup["match"]
    competition = match.competition
    Competition.objects.filter(pk=competition.pk).update(reminder_days=1)
    Match.objects.filter(pk=match.pk).update(scheduled_start=timezone.now() - timedelta(days=3))
    setup["secretary"].email = "s@example.org"
    setup["secretary"].save()
    pages = [
        reverse("scoring:manage-competition", args=[competition.pk]),
        reverse("scoring:match-move", args=[match.pk]),
        reverse("scoring:match-protocol", args=[match.pk]),
        reverse("scoring:my-matches"),
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:team-calendar", args=[setup["home"].pk]),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for user, shown in ((setup["secretary"], pages), (setup["away_captain"], pages[1:])):
            client = client_for(user)
            for page in shown:
                assert client.get(page).status_code == 200, page
    assert mail.outbox == [] and not Reminder.objects.exists()
    overview = client_for(setup["secretary"]).get(pages[0]).content.decode()
    assert "Försenade protokoll" in overview and "påminnelse inte skickad än" in overview
    with django_capture_on_commit_callbacks(execute=True):
        services.reminders_send()
    assert [m.to for m in mail.outbox] == [["s@example.org"]]
