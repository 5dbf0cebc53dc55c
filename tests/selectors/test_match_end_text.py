"""How a match ended is put in words once (selectors.protocols.end_text and result_text), for every
way a match ends or stands (ENDINGS); that the public match page and the printed protocol say the
same sentence is tests/views/test_match_end_page.py."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import services
from scoring.selectors.protocols import end_text, match_protocol
from tests import factories as f

pytestmark = pytest.mark.django_db


def _target(setup):
    return f.play_match(setup["match"], setup["secretary"])


def _walk_over(setup):
    return services.match_forfeit(match=setup["match"], user=setup["secretary"], winner="away",
                                  reason="Hemmalaget kom inte", expected_version=None)  # fmt: skip


def _clock_between_deals(setup):
    match = services.deals_record(match=setup["match"], user=setup["secretary"],
                                  entry=f.winning_deal(1, "home"), expected_version=None)  # fmt: skip
    return services.match_declare_clock(match=match, user=setup["secretary"], expected_version=None)


def _clock_during_a_deal(setup):
    entry = f.deal(1, home_cards=120, away_cards=60, end="clock")
    return services.deals_record(match=setup["match"], user=setup["secretary"], entry=entry, expected_version=None)


def _abandoned(setup):
    match = services.deals_record(match=setup["match"], user=setup["secretary"],
                                  entry=f.winning_deal(1, "home"), expected_version=None)  # fmt: skip
    return services.match_void(match=match, user=setup["secretary"], reason="Strömavbrott", expected_version=None)


def _in_progress(setup):
    return f.play_match(setup["match"], setup["secretary"], f.EXPORT_SAMPLE_DEALS[:3])


def _not_started(setup):
    return setup["match"]


ENDINGS = [_target, _walk_over, _clock_between_deals, _clock_during_a_deal, _abandoned, _in_progress, _not_started]


def test_the_target_is_the_rule_sets_own_in_the_one_number_format(db):
    match = _target(f.protocol_setup())
    protocol = match_protocol(match)
    with translation.override("en"):
        text = end_text(protocol)

    target = protocol.state.rules.target
    assert text == f"The match ended after deal 8: {target // 1000}\u202f{target % 1000:03d} was reached."
