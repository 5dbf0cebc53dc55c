"""E-mail after a commit: names refuse control characters where they are typed; a mail that fails
never turns a committed change into an error (it is logged and the page says who was not told);
when nobody concerned has an e-mail address the page says so."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail import BadHeaderError
from django.test import Client
from django.urls import reverse

from scoring.forms.manage import PlayerForm, TeamForm
from scoring.models import Club, Match, Team
from tests import factories as f

pytestmark = pytest.mark.django_db

BROKEN_NAMES = ["Lag\nEtt", "Lag\rEtt", "Lag\tEtt", "Lag\x00Ett", "Lag\u2028Ett", "Lag\u202eEtt"]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", BROKEN_NAMES)
def test_a_name_with_a_control_character_is_refused_on_the_forms(name):
    club = f.make_club()
    player_form = PlayerForm({"name": name}, club=club)
    assert not player_form.is_valid() and "name" in player_form.errors
    team_form = TeamForm({"name": name}, club=club)
    assert not team_form.is_valid() and "name" in team_form.errors


@pytest.mark.parametrize("model", ["club", "team", "competition", "player"])
def test_a_name_with_a_line_break_is_refused_in_the_admin(model):
    club = f.make_club("Klubben")
    team = f.make_team("Laget", club=club)
    competition = f.make_competition(organiser=club)
    player = f.make_player("Spelaren", club=club)
    data = {
        "club": (reverse("admin:scoring_club_add"), {"name": "Ny\nklubb", "city": ""}),
        "team": (reverse("admin:scoring_team_change", args=[team.pk]),
                 {"name": "Nytt\nlag", "club": club.pk, "player_one": team.player_one_id,
                  "player_two": team.player_two_id}),
        "competition": (reverse("admin:scoring_competition_change", args=[competition.pk]),
                        {"name": "Ny\r\nserie", "season": competition.season, "kind": competition.kind,
                         "organiser": club.pk, "rules_key": competition.rules_key,
                         "points_key": competition.points_key, "club_standings_order": competition.club_standings_order,
                         "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0"}),
        "player": (reverse("admin:scoring_player_change", args=[player.pk]), {"name": "Ny\nspelare", "club": club.pk}),
    }
    url, post = data[model]
    response = client_for(f.make_admin()).post(url, post)
    assert response.status_code == 200, "the form again, not saved"
    assert "rad" in response.content.decode()  # "Skriv namnet på en rad, ..."
    assert not Club.objects.filter(name__contains="\n").exists()
    assert not Team.objects.filter(name__contains="\n").exists()


@pytest.fixture
def finished(settings):
    settings.SITE_URL = "https://canasta.example.org"
    setup = f.protocol_setup()
    setup["match"] = f.play_match(setup["match"], setup["secretary"])
    assert setup["match"].status == Match.Status.FINISHED
    return setup


def submit(client, match):
    return client.post(reverse("scoring:match-submit", args=[match.pk]), {"version": match.version}, follow=True)


def test_a_team_name_with_a_line_break_already_stored_still_mails_one_subject_line(
        finished, django_capture_on_commit_callbacks):
    Team.objects.filter(pk=finished["away"].pk).update(name="Borta\nlaget")
    finished["away_captain"].email = "kapten@example.org"
    finished["away_captain"].save()
    client = client_for(finished["secretary"])
    client.raise_request_exception = False
    with django_capture_on_commit_callbacks(execute=True):
        response = submit(client, finished["match"])
    assert response.status_code == 200
    assert Match.objects.get(pk=finished["match"].pk).status == Match.Status.SUBMITTED
    assert len(mail.outbox) == 1 and "\n" not in mail.outbox[0].subject


# The services mail when their transaction commits, before the view answers: these need real commits.
@pytest.mark.django_db(transaction=True)
def test_a_failing_mail_is_logged_and_the_page_says_who_was_not_told(finished, monkeypatch, caplog):
    finished["away_captain"].email = "kapten@example.org"
    finished["away_captain"].save()

    def refuse(*args, **kwargs):
        raise BadHeaderError("Header values can't contain newlines")

    monkeypatch.setattr("scoring.notifications.send_mail", refuse)
    client = client_for(finished["secretary"])
    client.raise_request_exception = False
    response = submit(client, finished["match"])
    assert response.status_code == 200  # the protocol page after the redirect, never a 500
    assert Match.objects.get(pk=finished["match"].pk).status == Match.Status.SUBMITTED
    html = response.content.decode()
    assert "bortakapten" in html and "kunde inte skickas" in html
    assert "was not sent to" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_when_nobody_concerned_has_an_address_the_page_says_so(finished):
    client = client_for(finished["secretary"])
    response = submit(client, finished["match"])
    html = response.content.decode()
    assert not mail.outbox
    assert "Inget e-postmeddelande skickades" in html and "bortakapten" in html
