"""A match's protocol page: every deal's scores, running totals and opening minimums as the engine
computes them, each deal's breakdown, and how the match ended."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.formatting import format_points
from scoring.exports.pdf import match_protocol_pdf
from tests.factories import deal, make_match, protocol_setup, winning_deal
from tests.support.readers import pdf_text, row_line, squeeze

pytestmark = pytest.mark.django_db


def protocol_html(client, match) -> str:
    response = client.get(reverse("scoring:match-detail", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def deal_numbers_row(html: str, number: int) -> list[str]:
    block = html.split(f'id="deal-{number}"', 1)[1].split('class="deal__more"', 1)[0]
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", block, re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]


def test_every_deal_shows_the_paper_columns_of_both_sides(client, league):
    """Per side, as the paper protocol keeps them (scoring.protocol_layout; sv-tavling counts no red
    threes): minimum, card points, natural and mixed canastas, going out, penalty as the deduction it
    makes (empty when none), deal score, running total: the printed protocol's row, cell for cell."""
    match = league["played"]
    html = protocol_html(client, match)

    deals = list(match.deals.order_by("number"))
    assert len(deals) == 8
    for stored in deals:
        row = deal_numbers_row(html, stored.number)
        expected = [str(stored.number)]
        for side in ("home", "away"):
            went_out = stored.out == side
            bonus = (200 if stored.concealed else 100) if went_out else 0
            penalty = getattr(stored, f"{side}_penalty")
            expected += [
                str(getattr(stored, f"{side}_min_before")),
                format_points(getattr(stored, f"{side}_cards")),
                str(getattr(stored, f"{side}_natural") or ""),
                str(getattr(stored, f"{side}_mixed") or ""),
                str(bonus or ""),
                format_points(-penalty) if penalty else "",
                format_points(getattr(stored, f"{side}_score")),
                format_points(getattr(stored, f"{side}_total")),
            ]
        assert row == expected
    # The sample protocol's known totals (tests.factories.EXPORT_SAMPLE_DEALS).
    assert deal_numbers_row(html, 8)[8] == "5\u202f500"
    assert deal_numbers_row(html, 8)[16] == "3\u202f720"
    # Deal 2: the away side went out concealed (200) with one natural canasta; deal 4: a penalty of 100.
    assert deal_numbers_row(html, 2)[9:17] == ["15", "120", "1", "", "200", "", "820", "780"]
    assert deal_numbers_row(html, 4)[9:17] == ["50", "\u221220", "", "", "", "\u2212100", "\u2212120", "1\u202f310"]


def test_the_printed_protocol_shows_each_deal_as_the_page_does(client, league):
    """The PDF's deal rows are drawn from the same read model and cells as the match page: every
    number of every row is the same, the penalty included (a deduction on both)."""
    match = league["played"]
    html = protocol_html(client, match)
    text = pdf_text(match_protocol_pdf(match).content)

    for number in range(1, 9):
        on_the_page = squeeze(" ".join(deal_numbers_row(html, number)).replace("\u2212", "-"))
        printed = row_line(text, number)
        assert printed.rsplit(" ", 1)[0] == on_the_page  # the printed row ends with the deal's end letter


def test_the_end_of_the_match_and_the_winner(client, league):
    html = protocol_html(client, league["played"])

    assert "Matchen slutade efter giv 8: 5\u202f000 uppnåddes." in html
    assert '<p class="match-end__result">Essen vann</p>' in html
    assert "slutade här" in html  # marked on deal 8
    assert "★ Vinnare" in html
    assert "Matchpoäng: Essen 1, Kungarna 0" in html
    assert "Protokoll: Bekräftad" in html


def test_a_deal_breakdown_from_the_engine(client, league):
    html = protocol_html(client, league["played"])
    # Deal 2: the away side went out concealed with one natural canasta and 120 card points.
    block = html.split('id="deal-2"', 1)[1].split('id="deal-3"', 1)[0]

    assert "<details>" in block
    assert "Kungarna gick ut (dolt)" in block
    assert "1 ren" in block
    text = re.sub(r"<[^>]+>", " ", block)
    text = re.sub(r"\s+", " ", text)
    assert "Kortpoäng −85 120" in text
    assert "Canastor 0 1 ren 500" in text
    assert "Utgång 0 dolt 200" in text
    assert "Givpoäng −85 820" in text
    # Deal 4: a penalty of 100 for the away side.
    block4 = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split('id="deal-4"', 1)[1].split('id="deal-5"', 1)[0]))
    assert "Straff 0 −100" in block4


def test_walk_over(client):
    setup = protocol_setup()
    match = services.match_forfeit(match=setup["match"], user=setup["secretary"], winner="away",
                                   reason="Hemmalaget kom inte", expected_version=None)
    html = protocol_html(client, match)

    assert "Walk over (WO): Bortalaget vinner enligt reglerna för WO." in html
    assert "Hemmalaget kom inte" in html
    assert "Ingen giv har registrerats" not in html


def test_ended_by_the_clock_between_deals(client):
    setup = protocol_setup()
    match = services.deals_record(match=setup["match"], user=setup["secretary"],
                                  entry=winning_deal(1, "home"), expected_version=None)
    match = services.match_declare_clock(match=match, user=setup["secretary"], expected_version=None)
    html = protocol_html(client, match)

    assert "Matchen slutade på tid: slutsignalen kom efter giv 1." in html
    assert '<p class="match-end__result">Hemmalaget vann</p>' in html


def test_ended_by_the_final_signal_during_a_deal(client):
    setup = protocol_setup()
    match = services.deals_record(
        match=setup["match"], user=setup["secretary"],
        entry=deal(1, home_cards=120, away_cards=60, end="clock"), expected_version=None,
    )
    html = protocol_html(client, match)

    assert "slutsignalen avbröt giv 1" in html
    assert "Avbruten av slutsignalen" in html


def test_abandoned_match(client):
    setup = protocol_setup()
    match = services.deals_record(match=setup["match"], user=setup["secretary"],
                                  entry=winning_deal(1, "home"), expected_version=None)
    match = services.match_void(match=match, user=setup["secretary"], reason="Strömavbrott",
                                expected_version=None)
    html = protocol_html(client, match)

    assert "Matchen avbröts." in html
    assert "Strömavbrott" in html


def test_a_match_not_started(client):
    match = make_match()
    html = protocol_html(client, match)

    assert "Matchen har inte börjat än." in html
    assert "Ingen giv har registrerats än." in html
