"""What a table phone of the round night (`make load`) reads from its table's state, against the
state as the site draws it: a module of its own, in a process without the load test's gevent."""

from __future__ import annotations

import night_plan
import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Match
from scoring.views import table as table_views
from tests.services.test_table_sides import agree, propose, setup  # noqa: F401 (a fixture)


@pytest.mark.django_db
def test_a_phone_reads_the_state_the_site_draws(setup):
    """What the phones read, from the table's state as the site draws it now: a proposal waiting
    for this phone's side, then the match ended with this side's confirmation to give."""
    link = setup["link"]
    phone = Client()

    def look():
        return night_plan.read_state(phone.get(reverse("scoring:table-state", args=[link.away_code])).content.decode())

    at_rest = look()
    assert at_rest["accepts"] and at_rest["next"] == 1 and at_rest["deals"] == 0 and at_rest["tag"]
    assert at_rest["poll"] == table_views.REST_POLL_SECONDS and at_rest["status"] == ""
    proposal = propose(link, 1)
    waiting = look()
    assert waiting["waiting"] == [proposal.pk] and waiting["may_answer"] == ["away"] and not waiting["accepts"]
    assert waiting["poll"] == table_views.POLL_SECONDS
    agree(link, proposal, "away")
    for number in (2, 3):
        propose(link, number, codes=[link.code, link.away_code], both=True)
    ended = look()
    assert ended["status"] == "finished" and ended["may_confirm"] == ["away"] and ended["deals"] == 3
    assert ended["total_home"] == Match.objects.get(pk=link.match_id).home_total
