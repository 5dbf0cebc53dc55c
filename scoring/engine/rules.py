"""Rule sets and competition presets: the data every score is computed from.

A *rule set* (RuleSet) says how a match is played and scored: the target (game to 5000), the
opening-minimum table (öppningskrav), the bonus values for natural (ren) and mixed (oren) canastas,
going out (utgång) and concealed going out (dold canasta), how red threes count, how many canastas a
side needs to go out, and the clock of a timed match (main + extra minutes).

A *competition preset* (PointsRules) says how a finished match counts in a standings table: match
points for a win, a draw and a loss, which card points enter the table, the forfeit (walk over)
award, and the order of tie-breaks.

Both are frozen dataclasses that go to and from plain dicts, so a match can keep a JSON snapshot of
the rules it was played under (docs/rules.md, "Rule-set presets": changing a competition must not rescore played matches).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = [
    "RuleSet",
    "PointsRules",
    "PRESETS",
    "POINTS_PRESETS",
    "DEFAULT_RULES_KEY",
    "DEFAULT_POINTS_KEY",
    "get_rules",
    "get_points_rules",
    "UnknownPresetError",
]


class UnknownPresetError(KeyError):
    """A preset key that names no preset."""


@dataclass(frozen=True)
class RuleSet:
    key: str
    name: str
    source: str = ""
    target: int = 5000
    # (lowest total before the deal, opening minimum) in ascending order; the first step's lower
    # bound is None, meaning "any total below the next step" (a side on minus).
    opening_table: tuple[tuple[int | None, int], ...] = (
        (None, 15),
        (0, 50),
        (1500, 90),
        (3000, 120),
    )
    natural_canasta: int = 500
    mixed_canasta: int = 300
    going_out: int = 100
    concealed_going_out: int = 200
    # Red threes: value each (0 = they count nothing), value for all four, and whether a side that
    # has not melded in the deal gets the amount as a minus (rule 21 f).
    red_three: int = 0
    red_three_all_four: int = 0
    red_three_minus_if_not_melded: bool = False
    canastas_to_go_out: int = 1
    # The clock of a timed match; None = no clock.
    clock_main_minutes: int | None = None
    clock_extra_minutes: int = 0

    # -- derived ----------------------------------------------------------------------------

    @property
    def has_clock(self) -> bool:
        return self.clock_main_minutes is not None

    @property
    def clock_final_minutes(self) -> int | None:
        if self.clock_main_minutes is None:
            return None
        return self.clock_main_minutes + self.clock_extra_minutes

    def opening_minimum(self, total_before: int) -> int:
        """The card value a side's first meld must reach, by its total before the deal."""
        return self.opening_step(total_before)[0]

    def opening_step(self, total_before: int) -> tuple[int, float, float]:
        """The step of the opening-minimum table a total is on: its minimum, and the lowest total
        and the first total above that the step covers: every total in that range reads the table
        the same way, so a replay looks it up again only when a total leaves the range."""
        highs, steps = self._opening_steps
        return steps[bisect_right(highs, total_before)]

    def _read_opening_table(self, total_before: float) -> tuple[int, float, float]:
        """opening_step, by reading the table step by step (the definition; _opening_steps lists
        what it gives from the lowest total up)."""
        minimum = self.opening_table[0][1]
        low = -math.inf
        high = math.inf
        for lower_bound, step_minimum in self.opening_table:
            if lower_bound is None or total_before >= lower_bound:
                minimum = step_minimum
                if lower_bound is not None and lower_bound > low:
                    low = lower_bound
            else:
                high = lower_bound
                break
        return minimum, low, high

    def __post_init__(self) -> None:
        # Every step of the table as _read_opening_table gives it, from the lowest total up, and
        # the first total above each but the last: opening_step then finds a total's step by
        # bisection instead of reading the table again each time a running total leaves its step.
        # Each step begins where the one below ends (its `high`), so the walk covers every total.
        # Set once here, through object.__setattr__ as a frozen dataclass must, and not a field:
        # equality, to_dict and replace() see the table only.
        steps = [self._read_opening_table(-math.inf)]
        while steps[-1][2] != math.inf:
            steps.append(self._read_opening_table(steps[-1][2]))
        object.__setattr__(self, "_opening_steps", (tuple(step[2] for step in steps[:-1]), tuple(steps)))

    def red_three_points(self, count: int, melded: bool) -> int:
        if count <= 0 or self.red_three == 0:
            return 0
        amount = self.red_three_all_four if count == 4 else self.red_three * count
        if not melded and self.red_three_minus_if_not_melded:
            return -amount
        return amount

    # -- snapshots --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["opening_table"] = [list(step) for step in self.opening_table]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "opening_table" in values:
            values["opening_table"] = tuple(
                (None if low is None else int(low), int(minimum))
                for low, minimum in values["opening_table"]
            )
        return cls(**values)

    def with_overrides(self, overrides: dict[str, Any] | None) -> RuleSet:
        if not overrides:
            return self
        return RuleSet.from_dict({**self.to_dict(), **overrides})


@dataclass(frozen=True)
class PointsRules:
    key: str
    name: str
    win: float = 1
    draw: float = 0.5
    loss: float = 0
    # "totals": each side's final total counts for it and against the other; the table shows them.
    # "difference": the table ranks and shows the difference of the final totals (+ for the
    # winner, − for the loser); for and against are still kept, their difference is that figure.
    card_points: str = "totals"
    forfeit_winner_points: float = 1
    forfeit_winner_for: int = 5000
    forfeit_winner_against: int = 2500
    forfeit_loser_points: float = 0
    forfeit_loser_for: int = 2500
    forfeit_loser_against: int = 5000
    tiebreaks: tuple[str, ...] = (
        "points",
        "card_points_for",
        "difference",
        "head_to_head",
        "name",
    )
    # How an abandoned match counts: "none" (not at all) or "as-played" (its totals as they stand).
    abandoned: str = "none"
    # A bye: "none" (nothing, not counted as played) or "win" (counted as a won match, no card points).
    bye: str = "none"

    def match_points(self, outcome: str) -> float:
        """Points for "win", "draw" or "loss"."""
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[outcome]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tiebreaks"] = list(self.tiebreaks)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PointsRules:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "tiebreaks" in values:
            values["tiebreaks"] = tuple(values["tiebreaks"])
        return cls(**values)

    def with_overrides(self, overrides: dict[str, Any] | None) -> PointsRules:
        if not overrides:
            return self
        return PointsRules.from_dict({**self.to_dict(), **overrides})


_OFFICIAL_TABLE = ((None, 15), (0, 50), (1500, 90), (3000, 120))

PRESETS: dict[str, RuleSet] = {
    preset.key: preset
    for preset in (
        RuleSet(
            key="sv-tavling",
            name="Svensk tävlingscanasta",
            source="CK 70 competition rules (timed matches, 50 + 10 minutes)",
            opening_table=_OFFICIAL_TABLE,
            red_three=0,
            red_three_all_four=0,
            red_three_minus_if_not_melded=False,
            clock_main_minutes=50,
            clock_extra_minutes=10,
        ),
        RuleSet(
            key="internationell-1951",
            name="Officiella internationella regler (1951)",
            source="Official international rules, 1951 (rules 1–36)",
            opening_table=_OFFICIAL_TABLE,
            red_three=100,
            red_three_all_four=800,
            red_three_minus_if_not_melded=True,
        ),
        RuleSet(
            key="sv-hem",
            name="Svenska hemmaregler",
            source="Swedish home-play rules",
            opening_table=((None, 15), (0, 50), (1500, 90), (2500, 120)),
            red_three=100,
            red_three_all_four=800,
            red_three_minus_if_not_melded=True,
        ),
    )
}

POINTS_PRESETS: dict[str, PointsRules] = {
    preset.key: preset
    for preset in (
        PointsRules(key="sv-serie", name="Svensk serie"),
        PointsRules(
            key="fi-liitto",
            name="Suomen Canastaliitto",
            win=2,
            draw=1,
            loss=0,
            card_points="difference",
            forfeit_winner_points=2,
            # Recorded as 2000 for and 0 against, so the difference is +2000 and −2000.
            forfeit_winner_for=2000,
            forfeit_winner_against=0,
            forfeit_loser_points=0,
            forfeit_loser_for=0,
            forfeit_loser_against=2000,
            tiebreaks=("points", "difference", "head_to_head", "name"),
        ),
    )
}

DEFAULT_RULES_KEY = "sv-tavling"
DEFAULT_POINTS_KEY = "sv-serie"


def get_rules(key: str, overrides: dict[str, Any] | None = None) -> RuleSet:
    try:
        preset = PRESETS[key]
    except KeyError:
        raise UnknownPresetError(key) from None
    return preset.with_overrides(overrides)


def get_points_rules(key: str, overrides: dict[str, Any] | None = None) -> PointsRules:
    try:
        preset = POINTS_PRESETS[key]
    except KeyError:
        raise UnknownPresetError(key) from None
    return preset.with_overrides(overrides)

