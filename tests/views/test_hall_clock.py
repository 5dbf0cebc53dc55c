"""The hall clock: who may start it, the service's audit entry, and what the page sends the browser."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import AuditEntry, Round
from scoring.services import DomainError, round_clock_start
from tests.factories import make_club, make_competition, make_match, make_team, make_user

pytestmark = pytest.mark.django_db


def start_url(competition, number=1):
    return reverse("scoring:round-clock-start", args=[competition.pk, number])


def test_anonymous_visitor_is_sent_to_log_in(client, league):
    response = client.post(start_url(league["competition"]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Round.objects.get(competition=league["competition"], number=1).clock_started_at is None


def test_a_user_without_a_role_may_not_start_it(client, league):
    client.force_login(make_user())

    assert client.post(start_url(league["competition"])).status_code == 403
    assert Round.objects.get(competition=league["competition"], number=1).clock_started_at is None


def test_organisers_secretary_starts_it_and_it_is_audited(client, league):
    client.force_login(league["secretary"])
    before = timezone.now()

    response = client.post(start_url(league["competition"]))

    assert response.status_code == 302
    round_ = Round.objects.get(competition=league["competition"], number=1)
    assert round_.clock_started_at >= before
    entry = AuditEntry.objects.get(action="round_clock_start")
    assert (entry.user, entry.object_type, entry.object_id) == (league["secretary"], "round", str(round_.pk))
    assert entry.before == {"clock_started_at": None}


def test_the_home_clubs_secretary_of_a_match_in_the_round_may_start_it():
    organiser = make_club()
    home_secretary = make_user()
    home = make_team(club=make_club(secretary=home_secretary))
    match = make_match(competition=make_competition(organiser=organiser), home=home)

    round_ = round_clock_start(round=match.round, user=home_secretary)

    assert round_.clock_started_at is not None


def test_a_running_clock_restarts_only_when_asked(client, league):
    round_ = league["competition"].rounds.get(number=1)
    first = round_clock_start(round=round_, user=league["secretary"]).clock_started_at
    with pytest.raises(DomainError):
        round_clock_start(round=round_, user=league["secretary"])
    client.force_login(league["secretary"])

    client.post(start_url(league["competition"]), {"restart": "1"})

    round_.refresh_from_db()
    assert round_.clock_started_at > first
    assert AuditEntry.objects.filter(action="round_clock_restart").count() == 1


def test_no_clock_for_a_competition_played_without_one(client):
    competition = make_competition(rules_key="internationell-1951")
    match = make_match(competition=competition)

    assert client.get(reverse("scoring:round-clock", args=[competition.pk, 1])).status_code == 404
    with pytest.raises(DomainError):
        round_clock_start(round=match.round, user=make_user(is_superuser=True))


def test_the_page_sends_the_server_times_and_the_signals(client, league):
    competition = league["competition"]
    round_ = round_clock_start(round=competition.rounds.get(number=1), user=league["secretary"])
    url = reverse("scoring:round-clock", args=[competition.pk, 1])

    html = client.get(url).content.decode()

    started_ms = int(round_.clock_started_at.timestamp() * 1000)
    assert f'data-started-at="{started_ms}"' in html
    assert 'data-server-now="' in html
    assert 'data-main-minutes="50" data-final-minutes="60"' in html
    assert "Tid kvar till 50-minuterssignalen" in html
    assert "Slå på ljudet" in html
    assert "scoring/js/hall-clock.js" in html
    # Only a secretary sees the button.
    assert start_url(competition) not in html
    client.force_login(league["secretary"])
    assert start_url(competition) in client.get(url).content.decode()


def test_before_the_start_the_page_waits_for_it(client, league):
    html = client.get(reverse("scoring:round-clock", args=[league["competition"].pk, 1])).content.decode()

    assert 'data-started-at=""' in html
    assert "Klockan har inte startats" in html
    assert 'hx-trigger="every 5s"' in html
