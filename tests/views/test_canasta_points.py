"""Canasta points fill the counts (a paper that writes a side's canasta points rather than how many
natural and mixed canastas): on the protocol page without JavaScript, and in the live check."""

import re

import pytest

from scoring.models import Deal
# The signed-in secretary with a match, and the protocol page and its live check, as there.
from tests.views.test_secretary_protocol import check, protocol, s  # noqa: F401

pytestmark = pytest.mark.django_db

THIN = "\u202f"


def deal(**values):
    data = {"version": "1", "home_cards": "300", "away_cards": "50", "out": "home"}
    data.update({key: str(value) for key, value in values.items()})
    return data


def errors(html):
    return re.findall(r'<p class="error">([^<]*)</p>', html)


def input_value(html, name):
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0)
    value = re.search(r'value="([^"]*)"', tag)
    return value.group(1) if value else None


def test_points_made_one_way_fill_the_counts(client, s):
    response = client.post(protocol(s["match"]), deal(home_canasta_points=1300, away_canasta_points=0))

    assert response.status_code == 302
    saved = Deal.objects.get()
    assert (saved.home_natural, saved.home_mixed) == (2, 1)
    assert (saved.away_natural, saved.away_mixed) == (0, 0)
    # 300 card points, 1300 canastas, 100 for going out.
    assert saved.home_score == 1700


def test_points_made_two_ways_ask_which_and_the_choice_fills_the_counts(client, s):
    match = s["match"]

    asked = client.post(protocol(match), deal(home_canasta_points=1500))

    html = asked.content.decode()
    assert asked.status_code == 200
    assert not Deal.objects.exists()
    assert f"Giv 1, hemmalaget, canastapoäng: 1{THIN}500 kan vara 3 naturliga eller 5 blandade: välj vilket." in errors(html)
    assert "<legend>3 naturliga eller 5 blandade?</legend>" in html
    assert re.search(r'<input type="radio" name="home_canastas" value="3:0"[^>]*> 3 naturliga</label>', html)
    assert re.search(r'<input type="radio" name="home_canastas" value="0:5"[^>]*> 5 blandade</label>', html)
    assert (input_value(html, "home_natural"), input_value(html, "home_mixed")) == ("0", "0")

    chosen = client.post(protocol(match), deal(home_canasta_points=1500, home_canastas="0:5"))

    assert chosen.status_code == 302
    saved = Deal.objects.get()
    assert (saved.home_natural, saved.home_mixed) == (0, 5)


def test_points_no_count_makes_are_refused_naming_deal_side_and_field(client, s):
    response = client.post(protocol(s["match"]), deal(away_canasta_points=1550))

    assert response.status_code == 200
    assert not Deal.objects.exists()
    assert (
        f"Giv 1, bortalaget, canastapoäng: 1{THIN}550 går inte att få av naturliga (500) och blandade (300) canastor."
        in errors(response.content.decode())
    )


def test_points_beyond_what_two_packs_hold_are_refused(client, s):
    # Twelve natural canastas (6000) would need a twelfth rank.
    response = client.post(protocol(s["match"]), deal(home_canasta_points=6000))

    assert response.status_code == 200
    assert any("canastapoäng: 6" in message for message in errors(response.content.decode()))


def test_counts_typed_by_hand_must_make_the_points(client, s):
    response = client.post(protocol(s["match"]), deal(home_natural=2, home_canasta_points=1500))

    assert response.status_code == 200
    assert f"Giv 1, hemmalaget, canastapoäng: 2 naturliga ger 1{THIN}000, inte 1{THIN}500." in errors(
        response.content.decode()
    )
    agreeing = client.post(protocol(s["match"]), deal(home_natural=3, home_canasta_points=1500))
    assert agreeing.status_code == 302
    assert (Deal.objects.get().home_natural, Deal.objects.get().home_mixed) == (3, 0)


def test_counts_the_page_filled_follow_new_points(client, s):
    """A refusal elsewhere shows the counts the points filled; changing the points then fills them
    anew rather than holding the old counts against the new points."""
    match = s["match"]
    refused = client.post(protocol(match), deal(home_canasta_points=1300, away_cards="x"))

    html = refused.content.decode()
    assert (input_value(html, "home_natural"), input_value(html, "home_mixed")) == ("2", "1")
    assert input_value(html, "home_canastas") == "2:1"
    assert "Ifyllt från poängen: 2 naturliga och 1 blandad." in html

    again = client.post(
        protocol(match), deal(home_canasta_points=1400, home_natural=2, home_mixed=1, home_canastas="2:1")
    )

    assert again.status_code == 302
    assert (Deal.objects.get().home_natural, Deal.objects.get().home_mixed) == (1, 3)


def test_the_live_check_asks_then_gives_the_counts_for_the_page_to_fill(client, s):
    match = s["match"]

    asked = client.post(check(match), deal(home_canasta_points=1500), HTTP_HX_REQUEST="true")

    html = asked.content.decode()
    block = re.search(r'<div id="canasta-choice-home"[^>]*>', html).group(0)
    assert 'hx-swap-oob="true"' in block and 'data-natural="0"' in block and 'data-mixed="0"' in block
    assert "3 naturliga eller 5 blandade?" in html
    assert 'id="problems-home_canastas"' not in html  # the choice has its own block, not a slot

    chosen = client.post(check(match), deal(home_canasta_points=1500, home_canastas="3:0"), HTTP_HX_REQUEST="true")

    html = chosen.content.decode()
    block = re.search(r'<div id="canasta-choice-home"[^>]*>', html).group(0)
    assert 'data-natural="3"' in block and 'data-mixed="0"' in block
    assert re.search(r'id="preview-home-score">1\u202f900<', html)  # 300 + 1500 + 100
    assert not Deal.objects.exists()
