"""The public match page and the printed protocol say how a match ended in the same sentence
(selectors.protocols.end_text and result_text), for every way a match ends or stands (ENDINGS of
tests/selectors/test_match_end_text.py)."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.exports import pdf
from scoring.selectors.protocols import end_text, match_protocol, result_text
from tests import factories as f
from tests.selectors.test_match_end_text import ENDINGS

pytestmark = pytest.mark.django_db


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

