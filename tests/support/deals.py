"""Small builders for engine tests: deals written the way a protocol reads.

`side(...)` and `deal(...)` take the protocol's words (cards, natural, mixed, red3, penalty, melded,
min, score, total; out, concealed, end) so a table row reads like a line of a paper protocol.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import DealEntry, SideEntry, get_rules

SV_TAVLING = get_rules("sv-tavling")
INTERNATIONELL = get_rules("internationell-1951")
SV_HEM = get_rules("sv-hem")

# Card values (docs/rules.md, "Card values"; rule 12), for the worked examples.
CARD_VALUES = {
    "JOKER": 50,
    "A": 20,
    "2": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3B": 5,  # black three
}


def card_value(cards: list[str]) -> int:
    return sum(CARD_VALUES[card] for card in cards)


def side(
    cards: int = 0,
    natural: int = 0,
    mixed: int = 0,
    red3: int = 0,
    penalty: int = 0,
    melded: bool | None = None,
    min: int | None = None,  # noqa: A002 - the protocol column's name
    score: int | None = None,
    total: int | None = None,
) -> SideEntry:
    return SideEntry(
        cards=cards,
        natural=natural,
        mixed=mixed,
        red3=red3,
        penalty=penalty,
        melded=melded,
        written_min=min,
        written_score=score,
        written_total=total,
    )


def _as_side(value: SideEntry | dict[str, Any] | None) -> SideEntry:
    if value is None:
        return side()
    if isinstance(value, SideEntry):
        return value
    return side(**value)


def deal(
    home: SideEntry | dict[str, Any] | None = None,
    away: SideEntry | dict[str, Any] | None = None,
    *,
    number: int = 1,
    out: str | None = None,
    concealed: bool = False,
    end: str | None = None,
    dealt_minute: float | None = None,
    time_up: bool = False,
) -> DealEntry:
    return DealEntry(
        number=number,
        home=_as_side(home),
        away=_as_side(away),
        out=out,
        concealed=concealed,
        end=end,
        dealt_minute=dealt_minute,
        time_up=time_up,
    )


def clean_deal(number: int = 1, **overrides: Any) -> DealEntry:
    """A legal deal: home goes out with a natural canasta (285 + 500 + 100 = 885), away -40."""
    values: dict[str, Any] = {
        "home": {"cards": 285, "natural": 1},
        "away": {"cards": -40},
        "out": "home",
    }
    values.update(overrides)
    return deal(number=number, **values)


def scored_deal(number: int, home: tuple[int, int], away: tuple[int, int] = (0, 0)) -> DealEntry:
    """A legal stock-ended deal from (natural canastas, card points) per side; no red threes."""
    return deal(
        {"natural": home[0], "cards": home[1]},
        {"natural": away[0], "cards": away[1]},
        number=number,
        end="stock",
    )


def renumber(deals: list[DealEntry]) -> list[DealEntry]:
    from dataclasses import replace

    return [replace(d, number=i) for i, d in enumerate(deals, start=1)]
