"""The protocol's columns, defined once (scoring.protocol_layout), in the paper's order."""

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import get_rules
from scoring.exports import pdf
from scoring.models import Match
from scoring.protocol_layout import entry_field_names, paper_columns
from tests import factories as f


def test_the_paper_columns_with_red_threes_only_where_they_count():
    counted = [column.key for column in paper_columns(get_rules("sv-hem"))]
    not_counted = [column.key for column in paper_columns(get_rules("sv-tavling"))]

    assert counted == ["min", "cards", "natural", "mixed", "red3", "out", "penalty", "score", "total"]
    assert not_counted == ["min", "cards", "natural", "mixed", "out", "penalty", "score", "total"]


def test_the_entry_form_asks_in_the_same_order():
    assert entry_field_names("away") == [
        "away_min", "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty", "away_score", "away_total",
    ]  # fmt: skip


# -- every protocol the site shows or prints, held to the one layout ------------------------------


def headed_columns(html: str) -> list[str]:
    """The per-side columns a page's or a document's deal table is headed with, in their order."""
    return re.findall(r'<th [^>]*data-column="([a-z0-9]+)"', html)


def typed_fields(html: str) -> list[str]:
    """The entry form's per-side fields of the paper's columns in the order the page sets them
    out (not the hidden ones, nor the canasta points a paper may have instead of counts)."""
    names = re.findall(r'<input (?![^>]*type="hidden")[^>]*name="((?:home|away)_[a-z0-9_]+)"', html)
    return [name for name in names if not name.endswith(("_melded", "_canasta_points"))]


@pytest.mark.django_db
@pytest.mark.parametrize("rules_key", ["sv-hem", "sv-tavling"])
def test_the_public_page_the_captains_view_the_form_and_the_pdfs_keep_one_column_order(client, rules_key):
    setup = f.protocol_setup()
    competition = setup["match"].competition
    competition.rules_key = rules_key
    competition.save()
    match = f.play_match(Match.objects.get(pk=setup["match"].pk), setup["secretary"])
    match = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    keys = [column.key for column in paper_columns(get_rules(rules_key))]
    both_sides = keys + keys

    public = client.get(reverse("scoring:match-detail", args=[match.pk])).content.decode()
    client.force_login(setup["away_captain"])
    captains_view = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    official = pdf.match_protocol_html(match)
    blank = pdf.round_blank_protocols_html(match.round)

    assert headed_columns(public) == both_sides
    assert headed_columns(captains_view) == both_sides
    assert headed_columns(official) == both_sides
    assert headed_columns(blank) == both_sides

    # The entry form asks in the same order (going out is one choice for the deal, not a field).
    unplayed = f.make_match(competition=competition, home=setup["home"], away=setup["away"], round_number=2)
    client.force_login(setup["secretary"])
    form = client.get(reverse("scoring:match-protocol", args=[unplayed.pk])).content.decode()
    typed = [key for key in keys if key != "out"]
    if "red3" not in typed:
        typed.insert(typed.index("penalty"), "red3")  # on the form under every rule set (entry_field_names)
    assert typed_fields(form) == [f"home_{key}" for key in typed] + [f"away_{key}" for key in typed]
