"""The protocol's columns, defined once (scoring.protocol_layout), in the paper's order."""

from scoring.engine import get_rules
from scoring.protocol_layout import entry_field_names, paper_columns


def test_the_paper_columns_with_red_threes_only_where_they_count():
    counted = [column.key for column in paper_columns(get_rules("sv-hem"))]
    not_counted = [column.key for column in paper_columns(get_rules("sv-tavling"))]

    assert counted == ["min", "cards", "natural", "mixed", "red3", "out", "penalty", "score", "total"]
    assert not_counted == ["min", "cards", "natural", "mixed", "out", "penalty", "score", "total"]


def test_the_entry_form_asks_in_the_same_order():
    assert entry_field_names("away") == [
        "away_min", "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty", "away_score", "away_total",
    ]  # fmt: skip
