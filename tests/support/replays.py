"""Counting the engine's work: every replay of deals through scoring.engine.match.replay (which
engine.replay_next goes through too), whoever calls it and however it was imported."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

from scoring import services
from scoring.engine import match as engine_match
from scoring.services import table
from tests import factories as f


@dataclass
class Replays:
    """Each call of the engine's replay: how many deals it was given and how many came before them
    (0: the match replayed from its first deal; more: the engine went on from where it stood)."""

    calls: list[tuple[int, int]] = field(default_factory=list)

    @property
    def deals(self) -> int:
        """Deals the engine evaluated, over all calls."""
        return sum(given for given, _before in self.calls)

    @property
    def whole(self) -> int:
        """Calls that replayed a match from its first deal."""
        return sum(1 for given, before in self.calls if before == 0 and given)


def _holders(function) -> list:
    """The site's modules whose name `replay` is `function`."""
    return [
        module
        for name, module in list(sys.modules.items())
        if (name == "scoring" or name.startswith("scoring.")) and getattr(module, "replay", None) is function
    ]


@contextmanager
def counting_replays():
    """The replays the engine runs inside the block (Replays). A module first imported inside the
    block takes the counting function from scoring.engine; it gets the engine's back after it."""
    engine_replay = engine_match.replay
    seen = Replays()

    def counted(rules, deals, **options):
        seen.calls.append((len(deals), options.get("deals_before", 0)))
        return engine_replay(rules, deals, **options)

    for module in _holders(engine_replay):
        module.replay = counted
    try:
        yield seen
    finally:
        for module in _holders(counted):
            module.replay = engine_replay


# A match with deals stored and a table link: where the counts above are taken.
STORED = 5


def stock_deal(number: int, home_cards: int = 60):
    """A deal the stock ended: home `home_cards`, away -20."""
    return f.deal(number, home_cards=home_cards, away_cards=-20, end="stock")


def match_with_stored_deals() -> dict:
    """tests.factories.protocol_setup with STORED deals entered by the secretary and a table link."""
    s = f.protocol_setup()
    match = s["match"]
    for number in range(1, STORED + 1):
        match = services.deals_record(match=match, user=s["secretary"], entry=stock_deal(number), expected_version=match.version)
    s["match"] = match
    s["link"] = table.table_link_issue(match=match, user=s["secretary"])
    return s
