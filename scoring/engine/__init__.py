"""The scoring engine: pure Python, no Django. The single source of every number the site shows.

- rules: RuleSet and PointsRules presets (data), to and from dicts for snapshots;
- deal: one deal's entries, score breakdown and checks;
- match: replaying a match (totals, opening minimums, end, winner, points), forfeits;
- standings: ranking teams by a tie-break order;
- pairing: who meets whom (Berger tables, Monrad) and the rounds' dates;
- individual, rating: club nights of rotating partners and the players' rating;
- problems: Problem codes (no user text).

The protocol file that carries deals in and out is a file format, not a rule: scoring.files.
"""

from .deal import SIDE_FIELDS, SIDE_NUMBERS, WRITTEN_FIELDS, DealEntry, DealScore, SideEntry, SideScore, check_deal, score_deal
from .match import MatchState, Outcome, ReplayedDeal, forfeit_outcome, played_outcome, replay, replay_next
from .problems import AWAY, HOME, SIDES, Problem
from .rules import (
    DEFAULT_POINTS_KEY,
    DEFAULT_RULES_KEY,
    POINTS_PRESETS,
    PRESETS,
    PointsRules,
    RuleSet,
    get_points_rules,
    get_rules,
)

__all__ = [
    "AWAY",
    "SIDE_FIELDS",
    "SIDE_NUMBERS",
    "WRITTEN_FIELDS",
    "DEFAULT_POINTS_KEY",
    "DEFAULT_RULES_KEY",
    "HOME",
    "POINTS_PRESETS",
    "PRESETS",
    "SIDES",
    "DealEntry",
    "DealScore",
    "MatchState",
    "Outcome",
    "PointsRules",
    "Problem",
    "ReplayedDeal",
    "RuleSet",
    "SideEntry",
    "SideScore",
    "check_deal",
    "forfeit_outcome",
    "get_points_rules",
    "get_rules",
    "played_outcome",
    "replay",
    "replay_next",
    "score_deal",
]
