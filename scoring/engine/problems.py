"""Problems found by the checks: stable codes only, never user text.

A Problem names its code (docs/rules.md, "Checks on a deal"), the side it concerns ("home", "away" or
None when it concerns the deal or both sides), the field (a column name of the protocol file, such
as "away_score", or None) and the numbers a message needs (params). `scoring.messages` turns a
Problem into Swedish or English text.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

HOME = "home"
AWAY = "away"
SIDES = (HOME, AWAY)

# Errors: the deal is not accepted.
ERROR_CODES = (
    "not-multiple-of-5",
    "negative-count",
    "going-out-count",
    "out-without-canasta",
    "concealed-without-out",
    "canasta-without-meld",
    "red-threes",
    "canastas-impossible",
    "card-points-range",
    "opening-minimum",
    "after-match-end",
    "clock-not-allowed",
    "dealt-after-time",
)

# Warnings: the deal is accepted; the warning is shown and counted. An arithmetic slip on the
# paper (score-mismatch, total-mismatch) is one since docs/rules.md, "Revision 3" (rule 35 b).
WARNING_CODES = (
    "deal-score-high",
    "score-mismatch",
    "total-mismatch",
    "many-deals",
    "deals-out-of-order",
    "penalty-unusual",
    "red-threes-not-counted",
    "melded-assumed",
)


# Never changed once made, like the engine's other values (deal.py), but not declared frozen: a
# frozen dataclass sets each field through object.__setattr__, and a season's files make a problem
# for every fourth deal. Equal and hashed by code, side and field, as before.
@dataclass(slots=True, unsafe_hash=True)
class Problem:
    code: str
    side: str | None = None
    field: str | None = None
    params: dict[str, Any] = dataclass_field(default_factory=dict, compare=False, hash=False)

    @property
    def is_warning(self) -> bool:
        return self.code in WARNING_CODES

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "side": self.side, "field": self.field, "params": dict(self.params)}
