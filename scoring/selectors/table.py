"""Reads for entry at the table: a table link by its code, what the table's page shows (the
protocol so far, what waits for the other side, the hall clock), and the round at a glance for the
secretary and the organiser (every table's deals, totals, waiting and rejected proposals, last
contact). The numbers are the engine's, through the protocol's one read model (selectors.protocols).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone

from django.db import connection
from django.db.models import Count, Max, Q
from django.core.cache import caches
from django.utils import timezone, translation
from django.utils.dateparse import parse_date, parse_datetime

from scoring.engine import SIDES
from scoring.models import Competition, Deal, Match, MatchPhoto, Round, TableDeal, TableLink

from .protocols import MatchProtocol, match_protocol
from .public import HallClock, hall_clock

P = TableDeal.Status


def table_link_by_code(code: str) -> TableLink | None:
    """The link holding this side code, home or away (withdrawn ones too: the caller decides), with
    what its page needs. Which side the code acts for: TableLink.side_of."""
    # Unordered: a code is on one link (the model's order would join the match's round to sort it).
    # The round's competition times its hall clock (public.hall_clock).
    found = (
        TableLink.objects.select_related(
            "match", "match__competition", "match__round__competition", "match__home_team", "match__away_team"
        )
        .filter(Q(code=code) | Q(away_code=code))
        .order_by()[:1]
    )
    return next(iter(found), None)


def match_open_proposals(match: Match):
    """What the secretary should know of the table: deals waiting for the other team, rejected
    deals and conflicts, latest first."""
    return TableDeal.objects.filter(match=match).exclude(status=P.AGREED).order_by("-created_at", "-id")[:50]


def match_open_conflicts(match: Match) -> list[TableDeal]:
    """The table's conflicts not yet settled: what the players typed that did not go onto the
    protocol (a deal's number taken meanwhile, perhaps by the secretary), oldest first."""
    return list(TableDeal.objects.filter(match=match, status=P.CONFLICT, settled_at__isnull=True).order_by("created_at", "id"))


def match_table_link(match: Match) -> TableLink | None:
    """The match's table link in use, if any."""
    return TableLink.objects.filter(match=match, withdrawn_at__isnull=True).first()


def round_table_links(round_: Round) -> dict[int, TableLink]:
    return {link.match_id: link for link in TableLink.objects.filter(match__round=round_, withdrawn_at__isnull=True)}


@dataclass(frozen=True)
class TableState:
    link: TableLink
    match: Match
    protocol: MatchProtocol
    waiting: tuple[TableDeal, ...]
    settled: tuple[TableDeal, ...]  # rejected proposals and settled conflicts, latest first
    conflicts: tuple[TableDeal, ...]  # open conflicts, with the players' numbers, oldest first
    clock: HallClock | None
    now: datetime

    @property
    def next_number(self) -> int:
        return self.protocol.next_number

    @property
    def accepts_deals(self) -> bool:
        """A deal may be typed: the match is played, has not ended and nothing waits."""
        return (
            self.match.status in Match.DEAL_STATUSES
            and not self.protocol.state.finished
            and not self.waiting
            and not self.confirmed
        )

    @property
    def confirmed(self) -> bool:
        """A side confirmed the protocol at the table: it is closed there (docs/rules.md)."""
        return bool(self.link.home_confirmed_at or self.link.away_confirmed_at)

    @property
    def final_signal_passed(self) -> bool:
        return bool(self.clock and self.clock.final_signal_passed(self.now))

    @property
    def main_signal_passed(self) -> bool:
        return bool(self.clock and self.clock.main_signal_passed(self.now))

    @property
    def offers_time_up(self) -> bool:
        """"The time ran out between deals" is offered once no new deal may be dealt: after the
        round's main signal (docs/rules.md, "The end of a match": a deal that ends after the main time ends
        the match too), and so after the final signal. "Ended by the final signal" (end = clock),
        in the deal's fields, waits for the final signal."""
        return self.main_signal_passed and self.accepts_deals and self.match.deal_count > 0

    @property
    def ended(self) -> bool:
        return self.match.status == Match.Status.FINISHED and self.match.end in (Match.End.TARGET, Match.End.CLOCK)

    @property
    def correctable(self):
        """The last deal, which rule 35 lets the table correct before the next deal is dealt."""
        if self.waiting or not self.protocol.deals or self.match.status not in Match.CORRECTABLE_STATUSES or self.confirmed:
            return None
        return self.protocol.deals[-1]


# When each table last asked for its state: kept in the cache, not the database, so that an open
# table page's poll writes no row (the posts keep TableLink.last_contact_at).
CONTACT_KEY = "table-contact:{pk}"
CONTACT_SECONDS = 24 * 60 * 60


def table_contact_note(link: TableLink) -> None:
    caches["default"].set(CONTACT_KEY.format(pk=link.pk), timezone.now().timestamp(), CONTACT_SECONDS)


def table_contacts(links) -> dict[int, datetime]:
    keys = {CONTACT_KEY.format(pk=link.pk): link.pk for link in links}
    found = caches["default"].get_many(list(keys))
    return {keys[key]: datetime.fromtimestamp(stamp, tz=dt_timezone.utc) for key, stamp in found.items()}


# A side's typing note (services.table_typing_note, written by its device's live check) counts for
# this long: past a pause in the typing (a player looking at the cards again), not a deal left.
TYPING_SECONDS = 120


def sides_typing(link: TableLink, now: datetime) -> frozenset[str]:
    """The sides whose device is typing a deal at the link's table: checked within TYPING_SECONDS,
    not yet proposed (the proposal ends the note)."""
    since = now - timedelta(seconds=TYPING_SECONDS)
    noted = {side: getattr(link, f"{side}_typing_at") for side in SIDES}
    return frozenset(side for side, at in noted.items() if at is not None and at > since)


# -- the table's poll --------------------------------------------------------------------------------

# What a table's poll reads: the link and what services.link_is_open, TableLink.side_of and the hall
# clock read of it, its match, competition and round, and the figures of the table's proposals. One
# plain statement: building the ORM's query for the link with its five joins took most of a 304's
# time (docs/speed.md, "The round night"). `{where}`: by a side code (as table_link_by_code, the same
# order if two links held it) or by the link.
POLL = """
SELECT l.id, l.code, l.away_code, l.withdrawn_at, l.home_confirmed_at, l.away_confirmed_at,
       l.home_typing_at, l.away_typing_at, m.id, m.version, m.status, m.scheduled_start, c.id, c.archived,
       r.id, r.date, r.clock_started_at, rc.id, rc.rules_key, rc.rules_overrides,
       COUNT(d.id), MAX(d.id), MAX(d.decided_at), MAX(d.settled_at)
FROM scoring_tablelink l
JOIN scoring_match m ON m.id = l.match_id
JOIN scoring_competition c ON c.id = m.competition_id
LEFT JOIN scoring_round r ON r.id = m.round_id
LEFT JOIN scoring_competition rc ON rc.id = r.competition_id
LEFT JOIN scoring_tabledeal d ON d.match_id = m.id
WHERE {where}
GROUP BY l.id, m.id, c.id, r.id, rc.id
ORDER BY l.match_id, l.created_at DESC
LIMIT 1
"""
BY_CODE = "l.code = %s OR l.away_code = %s"
BY_LINK = "l.id = %s"


@dataclass(frozen=True)
class TablePoll:
    """What a table's poll reads (table_poll): the link with its match's status, version and day,
    its competition's archive, its round's date and clock with the rules that time it (enough for
    services.link_is_open, TableLink.side_of and hall_clock, not for drawing the state), and the
    table's proposals: how many, the largest id, the latest decided and settled."""

    link: TableLink
    proposals: tuple


def stored_time(value) -> datetime | None:
    """A date and time as the database's driver hands it over: a datetime (PostgreSQL) or its text
    in UTC (SQLite, which Django stores so with USE_TZ)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, dt_timezone.utc)
    return value


def table_poll(*, code: str = "", link: int | None = None) -> TablePoll | None:
    """The poll's one read, by a side code (normalised; withdrawn links too: the caller decides) or
    by the link's id; None when there is none."""
    where, params = (BY_LINK, [link]) if link is not None else (BY_CODE, [code, code])
    with connection.cursor() as cursor:
        cursor.execute(POLL.format(where=where), params)
        row = cursor.fetchone()
    if row is None:
        return None
    (link_id, home_code, away_code, withdrawn, home_confirmed, away_confirmed, home_typing, away_typing, match_id,
     version, status, start, competition_id, archived, round_id, day, clock_started, rules_id, rules_key, overrides,
     *proposals) = row  # fmt: skip
    round_ = None
    if round_id is not None:
        overrides = json.loads(overrides) if isinstance(overrides, str) else overrides
        timed_by = Competition(id=rules_id, rules_key=rules_key, rules_overrides=overrides)
        day = parse_date(day) if isinstance(day, str) else day
        round_ = Round(id=round_id, competition=timed_by, date=day, clock_started_at=stored_time(clock_started))
    match = Match(id=match_id, version=version, status=status, scheduled_start=stored_time(start), round=round_,
                  competition=Competition(id=competition_id, archived=bool(archived)))  # fmt: skip
    found = TableLink(id=link_id, code=home_code, away_code=away_code, match=match, withdrawn_at=stored_time(withdrawn),
                      home_confirmed_at=stored_time(home_confirmed), away_confirmed_at=stored_time(away_confirmed),
                      home_typing_at=stored_time(home_typing), away_typing_at=stored_time(away_typing))  # fmt: skip
    count, last, decided, settled = proposals
    return TablePoll(link=found, proposals=(count, last, stored_time(decided), stored_time(settled)))


def table_state_tag(poll: TablePoll, sides_held) -> str:
    """The validator of a table's state as a device sees it: it moves when the match moves (its
    version: every deal, correction, end), when a proposal of the table is made, answered or
    settled, when a side confirms, when the hall clock passes a signal, when another device starts
    or stops typing a deal (sides_typing), and with the sides the device holds a code for and the
    page's language. Drawn from the poll's one read (table_poll); the engine does not run for it."""
    link = poll.link
    match = link.match
    clock = hall_clock(match.round) if match.round_id else None
    now = timezone.now()
    phase = ""
    if clock and clock.started_at:
        phase = f"{clock.started_at.timestamp()}:{int(clock.main_signal_passed(now))}{int(clock.final_signal_passed(now))}"
    parts = (
        match.version, match.status, *poll.proposals, link.home_confirmed_at, link.away_confirmed_at, link.withdrawn_at,
        phase, "".join(sorted(sides_held)), "".join(sorted(sides_typing(link, now) - sides_held)),
        translation.get_language(),
    )  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def table_state(link: TableLink) -> TableState:
    match = link.match
    proposals = list(TableDeal.objects.filter(match=match).exclude(status=P.AGREED).order_by("-created_at", "-id")[:20])
    return TableState(
        link=link,
        match=match,
        protocol=match_protocol(match),
        waiting=tuple(p for p in proposals if p.status == P.WAITING),
        settled=tuple(p for p in proposals if p.status == P.REJECTED or (p.status == P.CONFLICT and p.settled_at))[:5],
        conflicts=tuple(reversed([p for p in proposals if p.status == P.CONFLICT and p.settled_at is None])),
        clock=hall_clock(match.round) if match.round_id else None,
        now=timezone.now(),
    )


# -- the round at a glance ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    match: Match
    link: TableLink | None
    waiting: int
    rejected: int
    conflicts: int
    last_contact: datetime | None
    photos: int


def round_matches(round_: Round):
    """The round's matches by table, with their teams."""
    return Match.objects.filter(round=round_).select_related("home_team", "away_team").order_by("table", "pk")


def round_tables(round_: Round) -> list[TableRow]:
    """Every match of the round, by table, with its table's figures: a few queries for the round."""
    matches = list(round_matches(round_))
    links = round_table_links(round_)
    polled = table_contacts(links.values())
    counts = {
        row["match_id"]: row
        for row in TableDeal.objects.filter(match__round=round_)
        .values("match_id")
        .annotate(
            waiting=Count("id", filter=Q(status=P.WAITING)),
            rejected=Count("id", filter=Q(status=P.REJECTED)),
            conflicts=Count("id", filter=Q(status=P.CONFLICT, settled_at__isnull=True)),
            last=Max("created_at"),
        )
    }
    photos = dict(
        MatchPhoto.objects.filter(match__round=round_).values("match_id").annotate(n=Count("id")).values_list("match_id", "n")
    )
    rows = []
    for match in matches:
        link = links.get(match.pk)
        figures = counts.get(match.pk, {})
        contacts = [t for t in (link.last_contact_at if link else None, figures.get("last"), polled.get(link.pk) if link else None) if t]
        rows.append(
            TableRow(
                match=match,
                link=link,
                waiting=figures.get("waiting", 0),
                rejected=figures.get("rejected", 0),
                conflicts=figures.get("conflicts", 0),
                last_contact=max(contacts) if contacts else None,
                photos=photos.get(match.pk, 0),
            )
        )
    return rows


def match_deal(match: Match, number: int):
    return Deal.objects.filter(match=match, number=number).first()


def match_photos(match: Match):
    """The photos of the signed protocol, without their bytes."""
    return MatchPhoto.objects.filter(match=match).defer("image").order_by("uploaded_at", "id")


def match_photo(match: Match, pk: int) -> MatchPhoto | None:
    return MatchPhoto.objects.filter(match=match, pk=pk).first()
