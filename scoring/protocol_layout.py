"""The columns of a protocol, defined once: per side (lag), in the order a Swedish paper protocol
keeps them, the opening minimum before the deal, card points, natural and mixed canastas (counts),
red threes (a count; only where the rule set counts them), going out (its bonus), penalty, deal
score and running total.

The blank protocol and the official protocol (PDF), the secretary's entry form, the sheet of the
protocol page, the captain's view and the checked upload all take their per-side columns from
`paper_columns()`, so what the table writes on paper is what the screen asks for and shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from scoring.engine.rules import RuleSet


@dataclass(frozen=True)
class PaperColumn:
    key: str  # the protocol file's column without its side: min, cards, natural, …, total
    heading: str | Promise  # in full, for a wide table and for screen readers
    short: str | Promise  # as a narrow column's heading prints it


COLUMNS: tuple[PaperColumn, ...] = (
    PaperColumn("min", _("Opening minimum before the deal"), pgettext_lazy("protocol column", "Min.")),
    PaperColumn("cards", _("Card points"), pgettext_lazy("protocol column", "Cards")),
    PaperColumn("natural", _("Natural canastas"), pgettext_lazy("protocol column", "Nat.")),
    PaperColumn("mixed", _("Mixed canastas"), pgettext_lazy("protocol column", "Mix.")),
    PaperColumn("red3", _("Red threes"), pgettext_lazy("protocol column", "R3")),
    PaperColumn("out", _("Going out"), pgettext_lazy("protocol column", "Out")),
    PaperColumn("penalty", _("Penalties"), pgettext_lazy("protocol column", "Pen.")),
    PaperColumn("score", _("Deal score"), pgettext_lazy("protocol column", "Score")),
    PaperColumn("total", _("Running total"), pgettext_lazy("protocol column", "Total")),
)


def counts_red_threes(rules: RuleSet) -> bool:
    return rules.red_three != 0


def paper_columns(rules: RuleSet) -> tuple[PaperColumn, ...]:
    """A side's columns under `rules`: red threes only where the rule set counts them."""
    return tuple(column for column in COLUMNS if column.key != "red3" or counts_red_threes(rules))


def entry_field_names(side: str) -> list[str]:
    """The entry form's fields of one side in the paper's order (going out is one choice for the
    deal, not a field of a side). Red threes stay on the form under every rule set: a protocol kept
    by home rules writes them, and the engine warns that they count nothing."""
    return [f"{side}_{column.key}" for column in COLUMNS if column.key != "out"]
