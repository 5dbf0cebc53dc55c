"""PDF documents read back with poppler, as a user's program would: the match protocol, blank
protocols for a round, the standings, a round's results and the whole competition."""

from __future__ import annotations

import re
import socket
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.engine import get_rules, replay
from scoring.exports import PDF, pdf
from scoring.exports.documents import match_record_url
from scoring.services import match_forfeit, table_link_issue
from tests import factories as f

from tests.support.readers import (
    number, overlapping_words, pdf_fonts, pdf_info, pdf_page_count, pdf_pages, pdf_text, pdf_words, row_line,
    squeeze, words_on_side,
)

pytestmark = pytest.mark.django_db


def printed_deal(deal) -> str:
    """A replayed deal's row as the protocol prints it, in the paper's columns: per side the
    minimum, card points, natural and mixed canastas (counts), going out (its bonus), penalty (empty
    cells when 0; no red threes under sv-tavling), deal score and total; then how it ended."""
    cells = [str(deal.number)]
    for side in ("home", "away"):
        score = deal.score.side(side)
        entry = deal.entry.side(side)
        cells += [number(deal.min_before(side)), number(score.cards)]
        cells += [number(value) for value in (entry.natural, entry.mixed, score.going_out, score.penalties) if value]
        cells += [number(score.score), number(deal.total(side))]
    cells.append({"out": "O", "stock": "S", "clock": "C"}[deal.entry.effective_end])
    return " ".join(cells)


def test_match_protocol_shows_teams_players_every_running_total_and_the_result(played, english):
    filename, content_type, content = pdf.match_protocol_pdf(played["match"])

    assert content_type == PDF
    assert filename.endswith(".pdf") and "skaneserien" in filename
    assert pdf_page_count(content) == 1
    text = pdf_text(content)
    match = played["match"]
    for name in ("Hemmalaget", "Bortalaget", "Hemmaklubben", "Bortaklubben", "Skåneserien"):
        assert name in text
    for player in (*match.home_team.players, *match.away_team.players):
        assert player.name in text
    expected = replay(get_rules("sv-tavling"), list(f.EXPORT_SAMPLE_DEALS))
    assert (expected.home_total, expected.away_total) == (5500, 3720)
    for deal in expected.deals:
        assert row_line(text, deal.number) == printed_deal(deal)
    assert "Hemmalaget won" in text
    assert "The match ended after deal 8: 5 000 was reached." in text
    assert re.search(r"Match points\s+1\s+0", text)
    assert re.search(r"Final total\s+5 500\s+3 720", text)
    assert "Signature, home team captain" in text
    assert "Signature, away team captain" in text
    assert "Confirmed by bortakapten" in text
    assert f"http://127.0.0.1:8000/matches/{match.pk}/" in text
    assert "Page 1 of 1" in text


def test_match_protocol_breaks_each_deal_down(played, english):
    """Deal 2: the away side went out concealed (120 + one natural canasta 500 + 200 = 820); deal 4:
    a penalty of 100. The canastas print as the paper counts them: how many natural, how many mixed."""
    text = pdf_text(pdf.match_protocol_pdf(played["match"]).content)

    # deal; home: min, cards, (no canasta, no going out, no penalty), score, total; away: the same; end
    assert row_line(text, 2) == "2 90 -85 -85 1 800 15 120 1 200 820 780 O"
    # home: 300 cards, 1 natural and 1 mixed canasta, out 100; away: a penalty of 100
    assert row_line(text, 4) == "4 90 300 1 1 100 1 200 3 510 50 -20 -100 -120 1 310 O"
    assert row_line(text, 3).endswith(" S")  # the stock ran out


def test_match_protocol_in_swedish_embeds_dejavu_and_numbers_pages(played):
    with translation.override("sv"):
        content = pdf.match_protocol_pdf(played["match"]).content
    text = pdf_text(content)

    assert "Sida 1 av 1" in text
    assert "Skåneserien" in text
    fonts = pdf_fonts(content)
    assert fonts, "no fonts in the PDF"
    assert all(font["embedded"] == "yes" for font in fonts)
    assert any(font["name"].endswith("+DejaVu-Sans") for font in fonts)  # subset, embedded
    assert pdf_info(content)["Page size"].startswith("595.")  # A4: 595 x 842 pt


def test_walk_over_protocol_says_so_and_shows_the_award(db, english):
    setup = f.protocol_setup()
    match = match_forfeit(match=setup["match"], user=setup["secretary"], winner="away", expected_version=None)

    text = pdf_text(pdf.match_protocol_pdf(match).content)

    assert "Walk over: Bortalaget wins by the forfeit award." in text
    assert "No deals were played." in text
    assert re.search(r"Match points\s+0\s+1", text)
    assert "Signature, home team captain" in text


def test_unfinished_match_protocol_is_marked_preliminary(db, english):
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"], f.EXPORT_SAMPLE_DEALS[:3])

    text = pdf_text(pdf.match_protocol_pdf(match).content)

    assert "Preliminary: the match is not finished." in text
    assert re.search(r"Final total\s+2 310\s+1 430", text)


def test_blank_protocols_have_one_page_per_match_with_the_header_filled_in(full_round, english):
    round_ = full_round["round"]
    round_.date = date(2026, 10, 3)
    round_.save()

    filename, content_type, content = pdf.round_blank_protocols_pdf(round_)

    assert content_type == PDF and filename.endswith(".pdf")
    pages = pdf_pages(content)
    assert len(pages) == len(full_round["matches"]) == 3
    for page, match in zip(pages, sorted(full_round["matches"], key=lambda m: m.table)):
        assert match.home_team.name in page and match.away_team.name in page
        for player in (*match.home_team.players, *match.away_team.players):
            assert player.name in page
        assert "2026-10-03" in page
        assert "Opening minimum" in page
        # the reference table of sv-tavling: below 0 · 0–1495 · 1500–2995 · 3000 and more
        for step in ("below 0", "0–1 495", "1 500–2 995", "3 000 and more"):
            assert step in page
        assert "Signature, home team captain" in page
        assert row_line(page, 18)  # 18 empty deal rows, all on the page
        assert f"Page {pages.index(page) + 1} of 3" in page


def test_blank_protocol_prints_the_rule_sets_own_opening_table(db, english):
    competition = f.make_competition(rules_key="sv-hem")
    match = f.make_match(competition=competition)

    text = pdf_text(pdf.round_blank_protocols_pdf(match.round).content)

    for step in ("0–1 495", "1 500–2 495", "2 500 and more"):
        assert step in text
    # sv-hem counts red threes: the form has a column for them, and no note that they count nothing
    assert "Red threes count nothing" not in text


def test_standings_pdf_lists_teams_in_rank_order_with_the_competition_header(played, english):
    competition = played["competition"]

    filename, content_type, content = pdf.standings_pdf(competition)

    text = pdf_text(content)
    assert content_type == PDF and "standings" in filename
    assert "Skåneserien 2026/27" in text
    assert "Organiser: Hemmaklubben" in text
    first, second = row_line(text, 1), row_line(text, 2)
    assert first == "1 Hemmalaget 1 1 0 0 1 5 500 3 720 +1 780"  # signed, as on the web
    assert second == "2 Bortalaget 1 0 0 1 0 3 720 5 500 -1 780"


def test_round_results_and_competition_pdf(full_round, english):
    round_ = full_round["round"]

    results = pdf_text(pdf.round_results_pdf(round_).content)
    assert row_line(results, 1) == "1 Hemmalaget Bortalaget 5 500 3 720 1 0 Confirmed"
    assert row_line(results, 2) == "2 Östra lagen Ängelholm Scheduled"

    content = pdf.competition_pdf(full_round["competition"]).content
    text = pdf_text(content)
    assert "Standings" in text and "Results by round" in text and "Round 1" in text
    assert "Ängelholm" in text and "5 500" in text


def test_rendering_never_touches_the_network(played, monkeypatch, english):
    def refuse(*args, **kwargs):
        raise AssertionError("a PDF export opened a network connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    html = pdf.match_protocol_html(played["match"])
    html = html.replace("</body>", '<img src="http://example.invalid/logo.png"></body>')

    assert pdf.html_to_pdf(html).startswith(b"%PDF")
    with pytest.raises(ValueError):
        pdf.OfflineURLFetcher().fetch("https://example.invalid/style.css")


def test_protocol_carries_the_record_url_as_a_qr_code(played, settings, english):
    settings.SITE_URL = "https://canasta.example.org"

    html = pdf.match_protocol_html(played["match"])

    url = f"https://canasta.example.org/matches/{played['match'].pk}/"
    assert url in html
    assert 'src="data:image/svg+xml' in html
    assert url in pdf_text(pdf.html_to_pdf(html))


def test_match_ended_by_the_clock(db, english):
    setup = f.protocol_setup()
    deals = [*f.EXPORT_SAMPLE_DEALS[:2], f.deal(3, home_cards=60, home_mixed=1, away_cards=90, end="clock")]
    match = f.play_match(setup["match"], setup["secretary"], deals)

    text = pdf_text(pdf.match_protocol_pdf(match).content)

    assert "The match ended by the clock: the final signal ended deal 3." in text
    assert row_line(text, 3).endswith(" C")
    assert "Preliminary" not in text


def test_standings_after_a_round(played, english):
    f.make_round(played["competition"], 2)

    text = pdf_text(pdf.standings_pdf(played["competition"], up_to_round=1).content)

    assert "Standings after round 1" in text
    assert "Hemmalaget" in row_line(text, 1)


def test_match_protocol_prints_the_minute_each_deal_was_dealt_where_recorded(played, english):
    """Timed matches may record when each deal was dealt (docs/protocol-file.md, "Rows and columns": `dealt`): the official protocol
    prints it in a column after the deal's number; a deal without one leaves its cell empty."""
    from datetime import timedelta

    from scoring.models import Deal

    match = played["match"]
    without = pdf_text(pdf.match_protocol_pdf(match).content)
    assert "Minute" not in without

    started = match.started_at or match.updated_at
    match.started_at = started
    match.save(update_fields=["started_at"])
    for number, minute in ((1, 0), (2, 7), (3, 12.5)):
        Deal.objects.filter(match=match, number=number).update(dealt_at=started + timedelta(minutes=minute))

    text = pdf_text(pdf.match_protocol_pdf(match).content)
    assert "Minute = the minute of the match at which the deal was dealt." in text
    assert row_line(text, 1).startswith("1 0 50 ")
    assert row_line(text, 2).startswith("2 7 ")
    assert row_line(text, 3).startswith("3 12.5 ")
    assert row_line(text, 4).startswith("4 ")
    assert not row_line(text, 4).startswith("4 0 ")


def test_a_long_pair_name_wraps_in_the_deal_table_heading_within_its_side(played, english):
    """The deal table's heading of a side wraps a long pair name onto a second line: no word of it
    is cut off or printed over the other side's heading."""
    match = played["match"]
    match.home_team.name = "Margareta Johansson-Lindqvist/Ann-Charlotte Bergström"
    match.home_team.save()

    words = pdf_words(pdf.match_protocol_pdf(match)[2])

    texts = [w[0] for w in words]
    # The deal table's headings: "Home team: <name>" over the home columns, "Away team: <name>" over
    # the away columns. pdftotext reads the home heading's lines together, then the table below it.
    home = texts.index("Home")
    while texts[home + 1] != "team:" or not any(texts[k:k + 2] == ["Away", "team:"] for k in range(home, len(texts))):
        home = texts.index("Home", home + 1)
    away = next(k for k in range(home, len(texts)) if texts[k:k + 2] == ["Away", "team:"])
    heading = [words[home]]
    for word in words[home + 1:]:
        if word[1] < words[home][1]:  # back at the table's left edge: the heading has ended
            break
        heading.append(word)
    assert [w[0] for w in heading][2:] == ["Margareta", "Johansson-Lindqvist/Ann-", "Charlotte", "Bergström"]
    assert all(w[3] < words[away][1] for w in heading), (heading, words[away])
    assert "…" not in "".join(w[0] for w in words)


def test_the_blank_protocols_header_prints_nothing_over_anything_with_a_long_name_and_both_codes(db, english, settings):
    """The season ("2026/27") once ran into the table link's line beside it. With a long
    competition, organiser and team name, each team's code and the match page's QR code, no word
    of the page is printed over another, and each QR code says in words what it opens."""
    settings.SITE_URL = "https://canasta.example.org"
    setup = f.protocol_setup()
    match = setup["match"]
    competition = match.competition
    competition.name = "Sydsvenska Canastaförbundets Division 1 Östra Skåne och Blekinge"
    competition.season = "2026/27"
    competition.save()
    competition.organiser.name = "Canastaklubben Hässleholms Kortspelssällskap"
    competition.organiser.save()
    match.home_team.name = "Margareta Johansson-Lindqvist/Ann-Charlotte Bergström"
    match.home_team.save()
    link = table_link_issue(match=match, user=setup["secretary"])

    words = pdf_words(pdf.round_blank_protocols_pdf(match.round, {match.pk: link}).content)

    assert overlapping_words(words) == []
    texts = [w[0] for w in words]
    season = words[texts.index("2026/27")]
    table_line = words[texts.index("ROUND")]  # the facts under the title: the season ends above them
    assert season[4] < table_line[2]
    home, away = words_on_side(words, "home"), words_on_side(words, "away")
    assert "Home team's code – opens the table's page for the home team" in home
    assert "Away team's code – opens the table's page for the away team" in away
    for side, code in (("home", link.code), ("away", link.away_code)):
        url = settings.SITE_URL + reverse("scoring:table", args=[code])
        assert f"{code} {url}" in (home if side == "home" else away)
    assert link.away_code not in home and link.code not in away
    for side in (home, away):
        assert "Only this team uses it; not for the public." in side
    page = " ".join(texts)
    assert "The match’s page, for everyone: opens the match and its protocol once entered" in page
    assert match_record_url(match) in "".join(texts)


def test_a_blank_protocol_without_table_links_prints_no_code(full_round, english):
    round_ = full_round["round"]

    text = pdf_text(pdf.round_blank_protocols_pdf(round_).content)

    assert "team's code" not in text and "/t/" not in text
    assert "The match’s page, for everyone" in squeeze(text)
