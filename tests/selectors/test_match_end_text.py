"""How a match ended is put in words once (selectors.protocols.end_text and result_text): the public
match page and the printed protocol say the same sentence for every way a match ends or stands."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.exports import pdf
from scoring.selectors.protocols import end_text, match_protocol, result_text
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


def _text(fragment: str) -> str:
    # Collapse the markup's white space, not the number's narrow no-break space.
    return html_module.unescape(re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", fragment))).strip()


@pytest.mark.parametrize("ending", ENDINGS, ids=lambda function: function.__name__.strip("_"))
def test_the_page_and_the_printed_protocol_say_how_the_match_ended_alike(client, ending):
    match = ending(f.protocol_setup())
    with translation.override("sv"):
        protocol = match_protocol(match)
        expected_end, expected_result = end_text(protocol), result_text(protocol)
        printed = pdf.match_protocol_html(match)
    page = client.get(reverse("scoring:match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="sv").content.decode()

    shown_end = _text(page.split('<p class="match-end__text">', 1)[1].split("</p>", 1)[0])
    assert shown_end == expected_end
    assert f"Hur matchen slutade: {expected_end}" in _text(printed)
    if protocol.winner:
        assert f'<p class="match-end__result">{expected_result}</p>' in page
        assert expected_result in _text(printed)


def test_the_target_is_the_rule_sets_own_in_the_one_number_format(db):
    match = _target(f.protocol_setup())
    protocol = match_protocol(match)
    with translation.override("en"):
        text = end_text(protocol)

    target = protocol.state.rules.target
    assert text == f"The match ended after deal 8: {target // 1000}\u202f{target % 1000:03d} was reached."
