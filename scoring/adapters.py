"""ORM rows <-> engine dataclasses: the only place that knows both shapes.

A Deal row becomes a DealEntry (the protocol as written); a DealEntry becomes the field values of a
Deal row. `dealt_at` (a time) becomes the engine's `dealt_minute`, minutes after the match started.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from scoring.engine import DealEntry, SideEntry
from scoring.engine.match import ReplayedDeal


def minutes_between(start: datetime | None, moment: datetime | None) -> float | None:
    if start is None or moment is None:
        return None
    return round((moment - start).total_seconds() / 60, 2)


def side_entry(values: Any, side: str) -> SideEntry:
    get = (lambda name: values.get(name)) if isinstance(values, dict) else (
        lambda name: getattr(values, name)
    )
    return SideEntry(
        cards=get(f"{side}_cards") or 0,
        natural=get(f"{side}_natural") or 0,
        mixed=get(f"{side}_mixed") or 0,
        red3=get(f"{side}_red3") or 0,
        penalty=get(f"{side}_penalty") or 0,
        melded=get(f"{side}_melded"),
        written_min=get(f"{side}_min_written"),
        written_score=get(f"{side}_score_written"),
        written_total=get(f"{side}_total_written"),
    )


def deal_to_entry(deal: Any, started_at: datetime | None = None) -> DealEntry:
    """A Deal row (or a dict of its field values) as the engine's DealEntry."""
    get = (lambda name: deal.get(name)) if isinstance(deal, dict) else (
        lambda name: getattr(deal, name)
    )
    return DealEntry(
        number=get("number"),
        home=side_entry(deal, "home"),
        away=side_entry(deal, "away"),
        out=get("out") or None,
        concealed=bool(get("concealed")),
        end=get("end") or None,
        dealt_minute=minutes_between(started_at, get("dealt_at")),
    )


def entry_to_fields(entry: DealEntry) -> dict[str, Any]:
    """The protocol values of a Deal row (not the computed ones)."""
    values: dict[str, Any] = {
        "number": entry.number,
        "out": entry.out or "",
        "concealed": entry.concealed,
        "end": entry.effective_end,
    }
    for side, side_values in (("home", entry.home), ("away", entry.away)):
        values[f"{side}_cards"] = side_values.cards
        values[f"{side}_natural"] = side_values.natural
        values[f"{side}_mixed"] = side_values.mixed
        values[f"{side}_red3"] = side_values.red3
        values[f"{side}_penalty"] = side_values.penalty
        values[f"{side}_melded"] = side_values.melded
        values[f"{side}_min_written"] = side_values.written_min
        values[f"{side}_score_written"] = side_values.written_score
        values[f"{side}_total_written"] = side_values.written_total
    return values


def computed_fields(replayed: ReplayedDeal) -> dict[str, Any]:
    """The engine's numbers for one deal, as Deal row values."""
    return {
        "home_score": replayed.home_score,
        "away_score": replayed.away_score,
        "home_total": replayed.home_total,
        "away_total": replayed.away_total,
        "home_min_before": replayed.home_min_before,
        "away_min_before": replayed.away_min_before,
        "warnings": [problem.code for problem in replayed.warnings],
    }


COMPUTED_FIELDS = (
    "home_score",
    "away_score",
    "home_total",
    "away_total",
    "home_min_before",
    "away_min_before",
    "warnings",
)

