"""“Så räknas det”: the public page of each rule set says what the engine computes. The expected
rows are worked out here from the engine's rule sets and competition presets (not by the page's
own code); a rule set changed in the engine changes the page; every competition page, protocol page
and printed protocol links to the page of the rule set it is played under."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.engine.deal import CARD_VALUES, PACK_CARD_POINTS
from scoring.engine.problems import ERROR_CODES, WARNING_CODES
from scoring.engine.rules import POINTS_PRESETS, PRESETS
from scoring.formatting import format_number
from tests.support.readers import pdf_text

KEYS = sorted(PRESETS)
RULES_DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


class TableRows(HTMLParser):
    """The rows (header cell, value cell) of each table with an id, as text."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[tuple[str, ...]]] = {}
        self.table = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id"):
            self.table = self.tables.setdefault(attrs["id"], [])
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            # Runs of layout white space as one space; the numbers' thin spaces stay.
            self.row.append(re.sub(r"[ \t\r\n]+", " ", "".join(self.cell)).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.table.append(tuple(self.row))
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


class InLanguage:
    """A client that asks for the pages in one language: English under /en/, Swedish at the bare
    addresses (i18n_patterns)."""

    def __init__(self, client, language: str):
        self.client, self.language = client, language

    def get(self, path: str, *args, **kwargs):
        if self.language != settings.LANGUAGE_CODE and not path.startswith(f"/{self.language}/"):
            path = f"/{self.language}{path}"
        return self.client.get(path, *args, **kwargs)


def in_language(client, language: str):
    return InLanguage(client, language)


def tables(client, key: str, language: str = "en") -> tuple[str, dict[str, list[tuple[str, ...]]]]:
    response = in_language(client, language).get(reverse("scoring:rules", args=[key]))
    assert response.status_code == 200
    html = response.content.decode()
    parser = TableRows()
    parser.feed(html)
    return html, parser.tables


def expected_opening(rules) -> list[tuple[str, str]]:
    """The notation of docs/rules.md, "Rule-set presets": below 0 · 0–1 495 · 1 500–2 995 · 3 000 and more (totals are multiples of 5)."""
    bounds = [low for low, _minimum in rules.opening_table]
    rows = []
    for index, (low, minimum) in enumerate(rules.opening_table):
        if low is None:
            label = f"below {format_number(bounds[index + 1])}"
        elif index == len(bounds) - 1:
            label = f"{format_number(low)} and more"
        else:
            label = f"{format_number(low)}–{format_number(bounds[index + 1] - 5)}"
        rows.append((label, format_number(minimum)))
    return rows


@pytest.mark.parametrize("key", KEYS)
def test_each_rule_sets_page_shows_the_engines_numbers(client, key):
    rules = PRESETS[key]
    html, found = tables(client, key)

    assert rules.name in html
    assert [value for _label, value in found["card-value-table"][1:]] == [format_number(p) for _k, p, _c in CARD_VALUES]
    assert f"hold {format_number(PACK_CARD_POINTS)} card points" in html
    assert found["opening-table"][1:] == expected_opening(rules)
    score = dict(found["deal-score-table"])
    assert score["Natural canasta"] == f"{format_number(rules.natural_canasta)} each"
    assert score["Mixed canasta"] == f"{format_number(rules.mixed_canasta)} each"
    assert score["Going out"] == format_number(rules.going_out)
    assert score["Concealed going out"].startswith(format_number(rules.concealed_going_out))
    if rules.red_three:
        assert score["Red threes"].startswith(
            f"{format_number(rules.red_three)} each, {format_number(rules.red_three_all_four)} for all four."
        )
        assert ("as a minus" in score["Red threes"]) == rules.red_three_minus_if_not_melded
    else:
        assert score["Red threes"].startswith("Red threes count nothing")
    assert f"reach {format_number(rules.target)} (rule 34 a)" in html
    assert f"once it has {rules.canastas_to_go_out} canasta" in html
    ends = dict(found["deal-end-table"])
    if rules.has_clock:
        assert f"before {rules.clock_main_minutes} minutes" in html
        assert ends["The final signal"].startswith(f"At {rules.clock_main_minutes + rules.clock_extra_minutes} minutes")
    else:
        assert "The final signal" not in ends and "There is no clock" in html


@pytest.mark.parametrize("key", KEYS)
def test_the_page_shows_every_competition_presets_match_points_walk_overs_and_order(client, key):
    _html, found = tables(client, key)
    for points in POINTS_PRESETS.values():
        rows = dict(found[f"points-table-{points.key}"])
        assert rows["Match points: win / draw / loss"] == " / ".join(
            format_number(value) for value in (points.win, points.draw, points.loss)
        )
        winner, loser = rows["Walk over, the winner"], rows["Walk over, the loser"]
        assert winner.startswith(f"{format_number(points.forfeit_winner_points)} match point")
        assert loser.startswith(f"{format_number(points.forfeit_loser_points)} match point")
        if points.card_points == "difference":
            difference = points.forfeit_winner_for - points.forfeit_winner_against
            assert winner.endswith(f"difference +{format_number(difference)}")
            assert loser.endswith(f"difference {format_number(points.forfeit_loser_for - points.forfeit_loser_against)}")
        else:
            assert winner.endswith(
                f"{format_number(points.forfeit_winner_for)} card points for and "
                f"{format_number(points.forfeit_winner_against)} against"
            )
        labels = {"points": "match points", "card_points_for": "card points for", "difference": "difference",
                  "head_to_head": "head-to-head", "name": "name"}  # fmt: skip
        assert rows["Order of the table"] == ", ".join(labels[key] for key in points.tiebreaks)


def test_a_rule_set_changed_in_the_engine_changes_its_page(client, monkeypatch):
    """The page cannot drift from the engine: it has no numbers of its own."""
    changed = replace(
        PRESETS["sv-hem"], target=7500, natural_canasta=550, opening_table=((None, 15), (0, 50), (2000, 100)),
        canastas_to_go_out=2,
    )  # fmt: skip
    monkeypatch.setitem(PRESETS, "sv-hem", changed)
    html, found = tables(client, "sv-hem")
    assert found["opening-table"][1:] == [
        ("below 0", "15"), (f"0–{format_number(1995)}", "50"), (f"{format_number(2000)} and more", "100"),
    ]  # fmt: skip
    assert dict(found["deal-score-table"])["Natural canasta"] == "550 each"
    assert f"reach {format_number(7500)}" in html and "once it has 2 canastas" in html


# -- the checks: every code of the engine, on each page and in docs/rules.md ----------------------


def document_codes(heading: str) -> list[str]:
    """The codes, in order, in the first column of the table under a heading of docs/rules.md."""
    text = RULES_DOCUMENT.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z0-9-]+)` \|", section, flags=re.MULTILINE)


def test_docs_rules_lists_every_check_of_the_engine_and_no_other():
    assert document_codes("Checks on a deal") == list(ERROR_CODES)
    assert document_codes("Warnings") == list(WARNING_CODES)


@pytest.mark.parametrize("language", ["en", "sv"])
@pytest.mark.parametrize("key", KEYS)
def test_each_page_lists_every_check_of_the_engine_by_its_code(client, key, language):
    """The errors and the notes (warnings) by the codes the protocol check and docs/rules.md use,
    each with its words, in the engine's order: a code added to the engine and left off the page
    fails here."""
    with translation.override(language):
        _html, found = tables(client, key, language)
    for table, codes in (("error-table", ERROR_CODES), ("warning-table", WARNING_CODES)):
        assert [code for code, _text in found[table]] == list(codes)
        assert all(text for _code, text in found[table])


def test_the_checks_follow_the_rule_set(client):
    _html, timed = tables(client, "sv-tavling")
    _html, untimed = tables(client, "sv-hem")
    assert dict(timed["error-table"])["dealt-after-time"].startswith("A deal dealt at or after 50 minutes")
    assert "these rules have none" in dict(untimed["error-table"])["dealt-after-time"]
    assert dict(timed["error-table"])["card-points-range"].startswith(
        f"A side's card points below {format_number(-PACK_CARD_POINTS)} or above {format_number(PACK_CARD_POINTS)}"
    )
    with translation.override("sv"):  # the address in Swedish, whatever the last page's language was
        _html, swedish = tables(client, "sv-tavling", language="sv")
    assert dict(swedish["warning-table"])["many-deals"] == "Fler än 15 givar i en match på tid."


def test_the_pages_are_in_swedish_first(client):
    html, found = tables(client, "sv-tavling", language="sv")
    assert "Så räknas det: Svensk tävlingscanasta" in html
    assert found["opening-table"][1] == ("under 0", "15")
    assert dict(found["points-table-sv-serie"])["Matchpoäng: vinst / oavgjort / förlust"] == "1 / 0,5 / 0"


def test_the_list_links_every_rule_set_and_an_unknown_one_is_not_found(client):
    html = in_language(client, "en").get(reverse("scoring:rules-index")).content.decode()
    for key in KEYS:
        assert reverse("scoring:rules", args=[key]) in html
    assert client.get("/rules/no-such-rules/").status_code == 404


def test_competition_match_and_protocol_pages_link_to_their_rule_set(client, league):
    competition, played, secretary = league["competition"], league["played"], league["secretary"]
    link = f'href="{reverse("scoring:rules", args=[competition.rules.key])}"'
    for url in (
        reverse("scoring:competition-detail", args=[competition.pk]),
        reverse("scoring:match-detail", args=[played.pk]),
    ):
        html = in_language(client, "sv").get(url).content.decode()
        assert "Spelas enligt" in html and link in html
    client.force_login(secretary)
    html = in_language(client, "sv").get(reverse("scoring:match-protocol", args=[played.pk])).content.decode()
    assert "Spelas enligt" in html and link in html


def test_the_printed_protocol_prints_the_address_of_its_rule_set(client, league):
    played = league["played"]
    response = in_language(client, "sv").get(reverse("scoring:match-protocol-pdf", args=[played.pk]))
    text = " ".join(pdf_text(response.content).split())
    assert f"Spelas enligt: {settings.SITE_URL.rstrip('/')}{reverse('scoring:rules', args=[played.rules.key])}" in text


def test_a_competition_with_its_own_changes_says_so_beside_the_link(client, league):
    competition = league["competition"]
    url = reverse("scoring:competition-detail", args=[competition.pk])
    assert "med arrangörens ändringar" not in in_language(client, "sv").get(url).content.decode()
    competition.points_overrides = {"bye": "win"}
    services.competition_save(user=league["secretary"], competition=competition)
    assert "med arrangörens ändringar" in in_language(client, "sv").get(url).content.decode()
