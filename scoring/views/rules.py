"""“Så räknas det” (How it is scored): a public page per rule set, and a list of them.

Every number on these pages is read from the engine: the rule sets (engine.rules.PRESETS), the
competition presets (engine.rules.POINTS_PRESETS) and the card values (engine.deal.CARD_VALUES), so a
page cannot say other than what the engine computes. The checks are listed by the engine's codes
(engine.problems.ERROR_CODES, WARNING_CODES), as docs/rules.md, "Checks on a deal" and "Warnings"
list them. Competition, match and protocol pages link here
("Played under …"); the words are this module's and the template's, the numbers the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404
from django.utils.translation import gettext as _, ngettext, pgettext
from django.views.generic import TemplateView

from scoring.engine.deal import CARD_VALUES, HIGH_DEAL_SCORE, PACK_CARD_POINTS, RED_THREES, USUAL_PENALTY_STEP
from scoring.engine.match import MANY_DEALS_IN_TIMED_MATCH
from scoring.engine.problems import ERROR_CODES, WARNING_CODES
from scoring.engine.rules import DEFAULT_RULES_KEY, POINTS_PRESETS, PRESETS, PointsRules, RuleSet
from scoring.formatting import format_number
from scoring.exports.listings import tiebreak_order_text

from scoring.selectors import editions

from .public import PublicPageMixin


@dataclass(frozen=True)
class Row:
    label: str
    value: str


def card_value_rows() -> list[Row]:
    labels = {
        "joker": _("Joker"),
        "ace": _("Ace"),
        "two": _("Two (wild)"),
        "king-to-eight": _("King, queen, jack, 10, 9, 8"),
        "seven-to-four": _("7, 6, 5, 4"),
        "black-three": _("Black three"),
    }
    return [Row(labels[kind], format_number(points)) for kind, points, _count in CARD_VALUES]


def opening_rows(rules: RuleSet) -> list[Row]:
    """The opening-minimum table, one row per step: the totals it covers (every total is a multiple
    of 5, so a step ends 5 below the next one's start) and its minimum."""
    rows = []
    table = rules.opening_table
    for index, (low, minimum) in enumerate(table):
        following = table[index + 1][0] if index + 1 < len(table) else None
        if low is None:
            totals = _("below %(total)s") % {"total": format_number(following)}
        elif following is None:
            totals = _("%(total)s and more") % {"total": format_number(low)}
        else:
            totals = f"{format_number(low)}–{format_number(following - 5)}"
        rows.append(Row(totals, format_number(minimum)))
    return rows


def red_three_text(rules: RuleSet) -> str:
    if not rules.red_three:
        # The entry forms say the same, and a red three written anyway is noted
        # (red-threes-not-counted): the paper need not carry them (docs/rules.md).
        return _("Red threes count nothing under these rules and need not be written; one written anyway is noted beside its deal (was the protocol kept by home rules?).")
    text = _("%(each)s each, %(all_four)s for all four.") % {
        "each": format_number(rules.red_three),
        "all_four": format_number(rules.red_three_all_four),
    }
    if rules.red_three_minus_if_not_melded:
        text += " " + _("A side that has made no meld in the deal gets the same amount as a minus (rule 21 f).")
    return text


def deal_score_rows(rules: RuleSet) -> list[Row]:
    return [
        Row(_("Card points"), _("the melded cards minus the cards left in the side's hands (rule 34 b)")),
        Row(_("Natural canasta"), _("%(points)s each") % {"points": format_number(rules.natural_canasta)}),
        Row(_("Mixed canasta"), _("%(points)s each") % {"points": format_number(rules.mixed_canasta)}),
        Row(_("Going out"), format_number(rules.going_out)),
        Row(
            _("Concealed going out"),
            _("%(points)s instead of %(going_out)s")
            % {"points": format_number(rules.concealed_going_out), "going_out": format_number(rules.going_out)},
        ),
        Row(_("Red threes"), red_three_text(rules)),
        Row(_("Penalties"), _("deducted")),
    ]


def going_out_text(rules: RuleSet) -> str:
    return ngettext(
        "A side may go out once it has %(count)s canasta (rule 18 b).",
        "A side may go out once it has %(count)s canastas (rule 18 b).",
        rules.canastas_to_go_out,
    ) % {"count": rules.canastas_to_go_out}


def deal_end_rows(rules: RuleSet) -> list[Row]:
    rows = [
        Row(
            _("Going out"),
            _("A player melds the last card; that side gets the going-out bonus. The partner's cards left in hand count minus."),
        ),
        Row(_("The stock runs out"), _("Nobody went out; no going-out bonus.")),
    ]
    if rules.has_clock:
        rows.append(
            Row(
                _("The final signal"),
                _(
                    "At %(final)s minutes the deal in progress ends: cards in hand count minus, melded cards and "
                    "canastas count. No going-out bonus."
                ) % {"final": rules.clock_final_minutes},
            )
        )
    return rows


def match_end_texts(rules: RuleSet) -> list[str]:
    texts = [
        _(
            "The match ends after the deal in which one side, or both, reach %(target)s (rule 34 a). The higher total "
            "wins; equal totals are a draw. No later deal counts."
        ) % {"target": format_number(rules.target)}
    ]
    if rules.has_clock:
        texts.append(
            _(
                "The clock: a new deal may be dealt only before %(main)s minutes have run; a deal in progress may be "
                "played to the final signal at %(final)s minutes. When time is up the higher total wins, whatever the "
                "totals; equal totals are a draw."
            ) % {"main": rules.clock_main_minutes, "final": rules.clock_final_minutes}
        )
    else:
        texts.append(_("There is no clock: the match is played until a side reaches the target."))
    return texts


def check_texts(rules: RuleSet) -> dict[str, str]:
    """When each check of the engine speaks, by its code: the errors, which keep a deal off the
    protocol, and the warnings (notes), which are shown beside a deal accepted as written."""
    return {
        # Errors.
        "not-multiple-of-5": _("Card points or a penalty that is not a multiple of 5."),
        "negative-count": _("A number of canastas or red threes, or a penalty, below zero."),
        "going-out-count": _(
            "The deal ended by going out but not exactly one side went out, or it ended by the stock or the clock "
            "and a side is marked as having gone out."
        ),
        "out-without-canasta": ngettext(
            "The side that went out has no canasta; it needs %(count)s (rule 18 b).",
            "The side that went out has fewer than %(count)s canastas (rule 18 b).",
            rules.canastas_to_go_out,
        ) % {"count": rules.canastas_to_go_out},
        "concealed-without-out": _("Concealed going out is marked, but no side went out."),
        "canasta-without-meld": _(
            "A side written as not having melded has a canasta, card points above zero, or went out."
        ),
        "red-threes": _("More than %(limit)s red threes for one side, or for both sides together.")
        % {"limit": RED_THREES},
        "canastas-impossible": _("More canastas than two packs can make."),
        "card-points-range": _(
            "A side's card points below %(lowest)s or above %(limit)s, or both sides' together above %(limit)s: "
            "all the card points of two packs."
        ) % {"lowest": format_number(-PACK_CARD_POINTS), "limit": format_number(PACK_CARD_POINTS)},
        "opening-minimum": _(
            "An opening minimum written on the protocol that fits neither the computed total before the deal nor "
            "the total as written (rule 35 b)."
        ),
        "after-match-end": _("A deal after the deal that ended the match."),
        "clock-not-allowed": _("A deal ended by the clock, or the time running out, under rules without a clock."),
        "dealt-after-time": (
            _("A deal dealt at or after %(main)s minutes, when no new deal may be dealt.") % {"main": rules.clock_main_minutes}
            if rules.has_clock
            else _("A deal dealt at or after the main time of a match played on the clock (these rules have none).")
        ),
        # Warnings.
        "deal-score-high": _("A side's deal score above %(limit)s.") % {"limit": format_number(HIGH_DEAL_SCORE)},
        "score-mismatch": _(
            "A deal score written on the protocol that is not the computed one: the computed score counts "
            "(rule 35 b)."
        ),
        "total-mismatch": _(
            "A running total written on the protocol that does not add up: shown once, at the deal where the slip "
            "was made; the computed totals count (rule 35 b)."
        ),
        "many-deals": _("More than %(limit)s deals in a match played on the clock.")
        % {"limit": MANY_DEALS_IN_TIMED_MATCH},
        "deals-out-of-order": _("A deal dealt at an earlier minute than the deal before it."),
        "penalty-unusual": _("A penalty that is not a multiple of %(step)s.")
        % {"step": format_number(USUAL_PENALTY_STEP)},
        "red-threes-not-counted": _(
            "Red threes written under rules in which they count nothing: was the protocol kept by home rules?"
        ),
        "melded-assumed": _(
            "Red threes subtracted from a side taken as not having melded, because the protocol does not say "
            "whether it melded."
        ),
    }


def check_rows(rules: RuleSet, codes: tuple[str, ...]) -> list[Row]:
    """One row per code, in the engine's order: the code as the protocol check prints it, and when
    it speaks."""
    texts = check_texts(rules)
    return [Row(code, texts[code]) for code in codes]


def forfeit_text(points: PointsRules, match_points: float, card_for: int, card_against: int) -> str:
    awarded = ngettext("%(points)s match point", "%(points)s match points", match_points) % {
        "points": format_number(match_points)
    }
    if points.card_points == "difference":
        difference = card_for - card_against
        sign = "+" if difference > 0 else ""
        return _("%(points)s, card-point difference %(difference)s") % {
            "points": awarded,
            "difference": sign + format_number(difference),
        }
    return _("%(points)s, %(for)s card points for and %(against)s against") % {
        "points": awarded,
        "for": format_number(card_for),
        "against": format_number(card_against),
    }


def points_rows(points: PointsRules) -> list[Row]:
    card_points = {
        "totals": _("Each side's final total counts for it and against the other."),
        "difference": _("The difference of the final totals: plus for the winner, minus for the loser."),
    }
    abandoned = {
        "none": _("does not count"),
        "as-played": _("counts with the totals as they stood"),
    }
    bye = {
        "none": _("nothing; not counted as played"),
        "win": _("a won match without card points"),
    }
    return [
        Row(
            _("Match points: win / draw / loss"),
            " / ".join(format_number(value) for value in (points.win, points.draw, points.loss)),
        ),
        Row(_("Card points in the table"), card_points.get(points.card_points, points.card_points)),
        Row(
            _("Walk over, the winner"),
            forfeit_text(points, points.forfeit_winner_points, points.forfeit_winner_for, points.forfeit_winner_against),
        ),
        Row(
            _("Walk over, the loser"),
            forfeit_text(points, points.forfeit_loser_points, points.forfeit_loser_for, points.forfeit_loser_against),
        ),
        Row(_("Order of the table"), tiebreak_order_text(points)),
        Row(_("An abandoned match"), abandoned.get(points.abandoned, points.abandoned)),
        Row(pgettext("odd number of teams", "A bye"), bye.get(points.bye, points.bye)),
    ]


class RulesIndexView(PublicPageMixin, TemplateView):
    """The rule sets a competition can be played under, each linked to its page."""

    drawn_from = editions.the_code

    template_name = "scoring/public/rules_index.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rule_sets"] = list(PRESETS.values())
        context["default_key"] = DEFAULT_RULES_KEY
        return context


class RulesView(PublicPageMixin, TemplateView):
    """One rule set: card values, a deal's score, opening minimums, how a deal and a match end, and
    how a match counts in a table under each competition preset (match points, walk overs,
    tie-breaks). Drawn from the code alone."""

    drawn_from = editions.the_code

    template_name = "scoring/public/rules.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rules = PRESETS.get(kwargs["key"])
        if rules is None:
            raise Http404
        context.update(
            rules=rules,
            card_values=card_value_rows(),
            pack_card_points=format_number(PACK_CARD_POINTS),
            deal_score=deal_score_rows(rules),
            opening=opening_rows(rules),
            going_out=going_out_text(rules),
            deal_ends=deal_end_rows(rules),
            match_ends=match_end_texts(rules),
            error_checks=check_rows(rules, ERROR_CODES),
            warning_checks=check_rows(rules, WARNING_CODES),
            competition_presets=[(points, points_rows(points)) for points in POINTS_PRESETS.values()],
            other_rule_sets=[other for other in PRESETS.values() if other.key != rules.key],
        )
        return context
