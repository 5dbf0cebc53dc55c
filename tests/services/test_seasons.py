"""Seasons: closing one makes its competitions read-only archives, which the services refuse to
change; only an administrator closes one. The pages of the seasons are
tests/views/test_season_pages.py."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import AuditEntry, Competition, Match, Round, Season
from scoring.services import manage as manage_services
from scoring.services import schedules as schedule_services
from scoring.services.seasons import SeasonClosedError, season_close, season_reopen
from tests.factories import make_admin, make_match, make_user

pytestmark = pytest.mark.django_db


def test_closing_a_season_archives_its_competitions_and_services_refuse_writes(federation):
    admin = make_admin()
    old = federation["old"]
    waiting = make_match(competition=old, home=federation["teams"]["cd"], away=federation["teams"]["gh"], round_number=2)
    season_close(name="2025/26", user=admin)
    old.refresh_from_db()
    assert old.archived and not Competition.objects.get(pk=federation["series"].pk).archived
    assert Season.objects.get(name="2025/26").closed_by == admin
    assert AuditEntry.objects.filter(action="season_close").exists()

    with pytest.raises(SeasonClosedError, match="2025/26"):
        services.match_start(match=waiting, user=admin)
    with pytest.raises(SeasonClosedError):
        services.match_reopen(match=federation["matches"]["o1"], user=admin, reason="x", expected_version=None)
    with pytest.raises(SeasonClosedError):
        manage_services.round_save(user=admin, round=Round(competition=old, number=5))
    with pytest.raises(SeasonClosedError):
        manage_services.competition_save(user=admin, competition=Competition(
            name="Ny", season="2025/26", organiser=federation["clubs"]["ess"]))
    with pytest.raises(SeasonClosedError):
        schedule_services.schedule_pair_next_round(competition=old, user=admin)
    assert Match.objects.get(pk=waiting.pk).status == Match.Status.SCHEDULED

    # The open season is untouched; a reopened season can be changed again.
    services.match_start(match=make_match(competition=federation["series"], home=federation["teams"]["ab"],
                                          away=federation["teams"]["gh"], round_number=4), user=admin)
    season_reopen(name="2025/26", user=admin, reason="Stängd av misstag")
    services.match_start(match=waiting, user=admin)


def test_only_an_administrator_closes_a_season(federation):
    with pytest.raises(PermissionDenied):
        season_close(name="2025/26", user=make_user())


