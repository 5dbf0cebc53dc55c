"""Disputing a protocol: the other side sends it back to the home secretary with a reason; it is
logged, corrected and submitted again. Those concerned are mailed at each step (the outbox)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import AuditEntry, Match
from tests.factories import EXPORT_SAMPLE_DEALS, deal, make_user, play_match, protocol_setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(settings, django_capture_on_commit_callbacks):
    settings.SITE_URL = "https://canasta.example.org"
    setup = protocol_setup()
    for who in ("secretary", "home_captain", "away_captain"):
        setup[who].email = f"{who}@example.org"
        setup[who].save()
    match = play_match(setup["match"], setup["secretary"], EXPORT_SAMPLE_DEALS)
    with django_capture_on_commit_callbacks(execute=True):
        setup["match"] = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    return setup


def test_submitting_mails_the_away_captain_with_a_link(submitted):
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["away_captain@example.org"]
    assert "Protokoll att bekräfta" in message.subject
    assert f"https://canasta.example.org/matches/{submitted['match'].pk}/protocol/" in message.body


def test_dispute_goes_back_to_the_secretary_logged_and_mailed(submitted, django_capture_on_commit_callbacks):
    match = submitted["match"]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_dispute(
            match=match, user=submitted["away_captain"], reason="Giv 4: vi hade 120, inte -20.",
            expected_version=match.version,
        )

    assert match.status == Match.Status.FINISHED
    assert match.dispute_reason == "Giv 4: vi hade 120, inte -20."
    assert match.disputed_by == submitted["away_captain"]
    entry = AuditEntry.objects.filter(match=match, action="match_dispute").get()
    assert entry.reason == "Giv 4: vi hade 120, inte -20."
    assert [m.to for m in mail.outbox] == [["secretary@example.org"]]
    assert "Giv 4: vi hade 120, inte -20." in mail.outbox[0].body
    assert "Protokoll ifrågasatt" in mail.outbox[0].subject

    # The secretary corrects deal 4 and submits again: the dispute is answered, the captain asked again.
    match = services.deal_correct(
        match=match, user=submitted["secretary"], number=4,
        entry=deal(4, home_cards=300, home_natural=1, home_mixed=1, out="home", away_cards=120, away_penalty=100),
        reason="Bortalagets kort enligt deras protokoll", expected_version=match.version,
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_submit(match=match, user=submitted["secretary"], expected_version=match.version)
    assert match.status == Match.Status.SUBMITTED and match.dispute_reason == ""
    assert [m.to for m in mail.outbox] == [["away_captain@example.org"]]

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_confirm(match=match, user=submitted["away_captain"], expected_version=match.version)
    assert match.status == Match.Status.CONFIRMED
    assert sorted(mail.outbox[0].to) == ["home_captain@example.org", "secretary@example.org"]
    assert "bekräftat" in mail.outbox[0].subject.lower()


def test_a_dispute_needs_a_reason_and_the_other_side(submitted):
    match = submitted["match"]
    with pytest.raises(services.MatchStateError):
        services.match_dispute(match=match, user=submitted["away_captain"], reason="  ", expected_version=None)
    with pytest.raises(PermissionDenied):
        services.match_dispute(match=match, user=submitted["secretary"], reason="fel", expected_version=None)
    with pytest.raises(PermissionDenied):
        services.match_dispute(match=match, user=make_user("nagon"), reason="fel", expected_version=None)


def test_the_away_clubs_secretary_may_dispute(submitted):
    away_secretary = make_user("bortasekreterare")
    submitted["away"].club.secretaries.add(away_secretary)

    match = services.match_dispute(
        match=submitted["match"], user=away_secretary, reason="Fel totalsumma", expected_version=None
    )

    assert match.status == Match.Status.FINISHED
