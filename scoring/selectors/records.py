"""Records of the federation, a competition or a club (docs/figures.md): the highest deal score,
the highest match total, the fewest deals to 5000, the largest deficit turned into a win and the
longest run of wins, each with the match (and the deal) it was set in.

From the same results as the figures (selectors.counting.final_q; the federation's and a club's
from public competitions, a competition's from its own). Each record but the run is the first row
of a sorted query per side of the table (home, away), so a page asks ten queries and one more for
the runs, whatever the number of matches. A run of wins follows each pair's results in the order
they were played, which no aggregate gives: the run's query reads one short row per match (ids and
the winner) and the runs are counted as the rows stream by.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Competition, Deal, Match

from .counting import final_q
from .figures import SIDES
from .rating import in_played_order


@dataclass(frozen=True)
class RecordKind:
    key: str
    label: str
    unit: str  # how its value is read: points, deals, matches


RECORD_KINDS = (
    RecordKind("deal_score", _("Highest deal score"), "points"),
    RecordKind("match_total", _("Highest match total"), "points"),
    RecordKind("fewest_deals", _("Fewest deals to 5000"), "deals"),
    RecordKind("comeback", _("Largest deficit turned into a win"), "points"),
    RecordKind("win_run", _("Longest run of wins"), "matches"),
)
KINDS = {kind.key: kind for kind in RECORD_KINDS}


@dataclass(frozen=True)
class Record:
    """A record and where it was set: the pair (team) that set it, against whom, in which match
    and deal (None: the match as a whole). A run of wins names its last match."""

    key: str
    value: int
    team_id: int
    team: str
    opponent: str
    match_id: int
    deal_number: int | None
    competition: str

    @property
    def kind(self) -> RecordKind:
        return KINDS[self.key]

    @property
    def label(self) -> str:
        return self.kind.label

    def as_dict(self) -> dict:
        return {
            "record": self.key, "value": self.value, "team": self.team, "opponent": self.opponent,
            "match": self.match_id, "deal": self.deal_number, "competition": self.competition,
        }  # fmt: skip


@dataclass(frozen=True)
class RecordScope:
    """Whose records: `where(side, prefix)` is the Q of the results of the scope in which `side`'s
    pair is one of its own (`prefix`: the path to the match, "match__" from a deal); a club's
    records are its own pairs' (`club`)."""

    where: Callable[[str, str], Q]
    club: Club | None = None


def _public(prefix: str) -> Q:
    return final_q(prefix) & Q(**{f"{prefix}competition__is_public": True})


FEDERATION = RecordScope(lambda side, prefix: _public(prefix))


def competition_scope(competition: Competition) -> RecordScope:
    return RecordScope(lambda side, prefix: final_q(prefix) & Q(**{f"{prefix}competition": competition}))


def club_scope(club: Club) -> RecordScope:
    return RecordScope(lambda side, prefix: _public(prefix) & Q(**{f"{prefix}{side}_team__club": club}), club=club)


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def _named(rows: QuerySet, side: str, prefix: str, value, deal=None) -> dict | None:
    """The first row, with what a record names."""
    row = rows.values(
        record_value=value,
        record_match=F(f"{prefix}id") if prefix else F("id"),
        record_deal=deal if deal is not None else F(f"{prefix}deal_count"),
        record_team_id=F(f"{prefix}{side}_team_id"),
        record_team=F(f"{prefix}{side}_team__name"),
        record_opponent=F(f"{prefix}{_other(side)}_team__name"),
        record_competition=F(f"{prefix}competition__name"),
        record_season=F(f"{prefix}competition__season"),
    ).first()
    return row and {key.removeprefix("record_"): value for key, value in row.items()}


def _best(key: str, rows_of_side, *, lowest: bool = False, with_deal: bool = True) -> Record | None:
    """The best of the two sides' first rows: the higher value (`lowest`: the lower), then the
    earlier match."""
    found = [row for row in (rows_of_side(side) for side in SIDES) if row is not None and row["value"] is not None]
    if not found:
        return None
    row = min(found, key=lambda r: (r["value"] if lowest else -r["value"], r["match"], r["deal"] or 0))
    return Record(
        key=key, value=row["value"], team_id=row["team_id"], team=row["team"], opponent=row["opponent"],
        match_id=row["match"], deal_number=row["deal"] if with_deal else None,
        competition=f"{row['competition']} {row['season']}",
    )  # fmt: skip


def _deal_score(scope: RecordScope) -> Record | None:
    def first(side):
        deals = Deal.objects.filter(scope.where(side, "match__")).order_by(f"-{side}_score", "match_id", "number")
        return _named(deals, side, "match__", F(f"{side}_score"), deal=F("number"))

    return _best("deal_score", first)


def _match_total(scope: RecordScope) -> Record | None:
    def first(side):
        matches = Match.objects.filter(scope.where(side, ""), deal_count__gt=0).order_by(f"-{side}_total", "id")
        return _named(matches, side, "", F(f"{side}_total"))

    return _best("match_total", first, with_deal=False)


def _fewest_deals(scope: RecordScope) -> Record | None:
    """The winner of a match that ended at the target reached it (the higher total when both did)."""

    def first(side):
        matches = Match.objects.filter(scope.where(side, ""), end=Match.End.TARGET, winner=side).order_by("deal_count", "id")
        return _named(matches, side, "", F("deal_count"))

    return _best("fewest_deals", first, lowest=True, with_deal=False)


def _comeback(scope: RecordScope) -> Record | None:
    """The most a pair was behind after a deal in a match it won (running totals)."""

    def first(side):
        deficit = F(f"{_other(side)}_total") - F(f"{side}_total")
        deals = (
            Deal.objects.filter(scope.where(side, "match__"), match__winner=side)
            .alias(deficit=deficit)
            .filter(deficit__gt=0)
            .order_by("-deficit", "match_id", "number")
        )
        return _named(deals, side, "match__", deficit, deal=F("number"))

    return _best("comeback", first)


def _win_run(scope: RecordScope) -> Record | None:
    """The most results won one after another by one pair (a walk over won is a win, as in the
    table); a draw or a loss ends a run. The first pair to reach the longest run holds it."""
    matches = in_played_order(
        Match.objects.filter(scope.where("home", "") | scope.where("away", ""))
    ).values_list(
        "id", "home_team_id", "away_team_id", "winner", "home_team__name", "away_team__name",
        "home_team__club_id", "away_team__club_id", "competition__name", "competition__season",
    )  # fmt: skip
    runs: dict[int, int] = {}
    best: Record | None = None
    for match_id, home_id, away_id, winner, home, away, home_club, away_club, competition, season in matches.iterator():
        for side, team_id, team, opponent, club_id in (
            ("home", home_id, home, away, home_club), ("away", away_id, away, home, away_club),
        ):  # fmt: skip
            if scope.club is not None and club_id != scope.club.pk:
                continue
            runs[team_id] = runs.get(team_id, 0) + 1 if winner == side else 0
            if runs[team_id] and (best is None or runs[team_id] > best.value):
                best = Record(
                    key="win_run", value=runs[team_id], team_id=team_id, team=team, opponent=opponent,
                    match_id=match_id, deal_number=None, competition=f"{competition} {season}",
                )  # fmt: skip
    return best


def records(scope: RecordScope) -> list[Record]:
    """The records of the scope that have been set, in the order of RECORD_KINDS."""
    found = [
        _deal_score(scope), _match_total(scope), _fewest_deals(scope), _comeback(scope), _win_run(scope),
    ]  # fmt: skip
    return [record for record in found if record is not None]


def federation_records() -> list[Record]:
    return records(FEDERATION)


def competition_records(competition: Competition) -> list[Record]:
    return records(competition_scope(competition))


def club_records(club: Club) -> list[Record]:
    return records(club_scope(club))
