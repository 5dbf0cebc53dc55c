"""The Django admin: every model is there, and deals, results and the audit log cannot be edited
past the engine."""

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def s(client):
    setup = f.protocol_setup()
    match = setup["match"]
    setup["match"] = services.deals_record(match=match, user=setup["secretary"], entry=f.winning_deal(1), expected_version=1)
    setup["admin"] = f.make_admin()
    client.force_login(setup["admin"])
    return setup


@pytest.mark.parametrize("model", ["club", "player", "team", "competition", "round", "match", "deal", "auditentry"])
def test_every_model_has_an_admin_list(client, s, model):
    response = client.get(reverse(f"admin:scoring_{model}_changelist"))

    assert response.status_code == 200


def test_deals_are_read_only_in_the_admin(client, s):
    deal = Deal.objects.get()

    add = client.get(reverse("admin:scoring_deal_add"))
    view = client.get(reverse("admin:scoring_deal_change", args=[deal.pk]))
    post = client.post(reverse("admin:scoring_deal_change", args=[deal.pk]), {"home_cards": "5"})

    assert add.status_code == 403
    assert view.status_code == 200
    assert reverse("scoring:match-protocol", args=[s["match"].pk]) in view.content.decode()
    assert post.status_code == 403
    deal.refresh_from_db()
    assert deal.home_cards == 485


def test_a_matchs_results_are_read_only_and_it_links_to_the_protocol(client, s):
    match = s["match"]
    url = reverse("admin:scoring_match_change", args=[match.pk])

    page = client.get(url).content.decode()
    assert reverse("scoring:match-protocol", args=[match.pk]) in page
    assert 'name="home_total"' not in page
    assert 'name="status"' not in page
    assert 'name="home_team"' not in page  # played: the teams are fixed
    assert 'name="scheduled_start_0"' in page

    response = client.post(
        url,
        {
            "round": match.round_id,
            "table": "4",
            "scheduled_start_0": "2026-10-14",
            "scheduled_start_1": "18:30",
            "status": "confirmed",
            "home_total": "9999",
            "deals-TOTAL_FORMS": "1",
            "deals-INITIAL_FORMS": "1",
            "deals-MIN_NUM_FORMS": "0",
            "deals-MAX_NUM_FORMS": "1000",
        },
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    match.refresh_from_db()
    assert match.table == 4
    assert match.status == Match.Status.IN_PROGRESS and match.home_total == 1885
    assert AuditEntry.objects.filter(match=match, action="match_update").exists()


def test_a_played_match_cannot_be_deleted_in_the_admin(client, s):
    response = client.get(reverse("admin:scoring_match_delete", args=[s["match"].pk]))

    assert response.status_code == 403


def test_the_audit_log_is_read_only(client, s):
    entry = AuditEntry.objects.first()

    view = client.get(reverse("admin:scoring_auditentry_change", args=[entry.pk]))
    delete = client.get(reverse("admin:scoring_auditentry_delete", args=[entry.pk]))
    add = client.get(reverse("admin:scoring_auditentry_add"))

    assert view.status_code == 200
    assert delete.status_code == 403
    assert add.status_code == 403


def test_competition_overrides_are_checked_by_the_engine(client, s):
    competition = s["match"].competition
    url = reverse("admin:scoring_competition_change", args=[competition.pk])

    response = client.post(
        url,
        {
            "name": competition.name,
            "season": competition.season,
            "kind": "league",
            "organiser": competition.organiser_id,
            "teams": [t.pk for t in competition.teams.all()],
            "rules_key": "sv-tavling",
            "rules_overrides": '{"no_such_rule": 1, "target": "x"}',
            "points_key": "sv-serie",
            "points_overrides": "{}",
            "requires_confirmation": "on",
            "is_public": "on",
            "rounds-TOTAL_FORMS": "0",
            "rounds-INITIAL_FORMS": "0",
            "rounds-MIN_NUM_FORMS": "0",
            "rounds-MAX_NUM_FORMS": "1000",
        },
    )

    assert response.status_code == 200
    competition.refresh_from_db()
    assert competition.rules_overrides == {}
