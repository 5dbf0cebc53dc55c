"""The club's member list (docs/member-file.md): the club's players as the list compares them, a
list read from a file compared with them (what saving it would do), and the members to export.

`compare_members` is pure: the club's players and the file's rows in, the preview out. A row is
the same member as a player with its member number; failing that, as the one player of its name
without a member number (a row without a number: the one player of its name). What a save would
change is worded field by field; what cannot be saved is a problem naming the row and the column;
a row that may be a member entered twice (the same number or name twice in the file, or a new row
with the name of a player the club has) is noted, and saved as the note says.

Players are compared with their stored rows whatever they are: an archived player (one with results
that was deleted) is matched like any other and comes back from the archive with its row in the
file; a deleted player's row is gone, so its row in the file is new; a merged player's row is gone
too, and the player kept holds the member number the merge chose (services.merging). A player the
file does not name is left as it is.

`members_digest` is the club's members as a short text: the preview carries the one it was drawn
from, and the save refuses a list whose club changed since (a concurrent edit is refused, never
overwritten).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _, gettext_lazy

from scoring.files.member_file import Column, MemberRow, where
from scoring.models import Club, MemberListDraft, Player

from .names import order_by_name

# The fields a row may change, in the order a change is told.
CHANGEABLE = ("name", "member_number", "birth_year", "email")
FIELD_LABELS = {
    "name": gettext_lazy("name"),
    "member_number": gettext_lazy("member number"),
    "birth_year": gettext_lazy("birth year"),
    "email": gettext_lazy("e-mail"),
    "archived": gettext_lazy("archived"),
}


@dataclass(frozen=True)
class Member:
    """A player of the club as the member list sees it."""

    id: int
    name: str
    member_number: str
    birth_year: int | None
    email: str
    archived: bool


@dataclass(frozen=True)
class Change:
    field: str  # name, member_number, birth_year, email, archived
    before: object
    after: object

    @property
    def label(self) -> str:
        return str(FIELD_LABELS[self.field])


@dataclass
class RowOutcome:
    """What saving would do with one row: `kind` is new, unchanged, changed, repeated (the same
    member as an earlier row, saved once) or refused (a problem names it)."""

    row: MemberRow
    kind: str
    player: Member | None = None
    changes: list[Change] = field(default_factory=list)
    # Why the row may be a member entered twice, worded for the page.
    notes: list[str] = field(default_factory=list)

    @property
    def changed_fields(self) -> list[str]:
        return [change.field for change in self.changes]


@dataclass
class MemberListPreview:
    outcomes: list[RowOutcome]
    # What keeps the list from being saved, each naming its row and column.
    problems: list[str]
    # The club's players the file does not name (left as they are), archived ones left out.
    not_in_file: list[Member]
    digest: str
    fields: tuple[str, ...]

    def of_kind(self, kind: str) -> list[RowOutcome]:
        return [outcome for outcome in self.outcomes if outcome.kind == kind]

    @property
    def new(self) -> list[RowOutcome]:
        return self.of_kind("new")

    @property
    def changed(self) -> list[RowOutcome]:
        return self.of_kind("changed")

    @property
    def unchanged(self) -> list[RowOutcome]:
        return self.of_kind("unchanged")

    @property
    def duplicates(self) -> list[RowOutcome]:
        """The rows that may be a member entered twice (each says why)."""
        return [outcome for outcome in self.outcomes if outcome.notes]

    @property
    def writes(self) -> int:
        return len(self.new) + len(self.changed)

    @property
    def may_save(self) -> bool:
        return not self.problems and self.writes > 0


# -- the club's members ---------------------------------------------------------------------------


def club_members(club: Club | int, *, for_update: bool = False) -> list[Member]:
    """Every player of the club (archived ones too), by id; `for_update` locks their rows (for the
    save, inside its transaction)."""
    rows: QuerySet = Player.objects.filter(club=club).order_by("pk")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    return [
        Member(pk, name, number, year, email, archived)
        for pk, name, number, year, email, archived in rows.values_list(
            "pk", "name", "member_number", "birth_year", "email", "archived"
        )
    ]


def members_digest(members: Iterable[Member]) -> str:
    """The members as a short text that changes whenever one of them does."""
    text = json.dumps([list(vars(member).values()) for member in sorted(members, key=lambda member: member.id)])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def club_members_digest(club: Club) -> str:
    return members_digest(club_members(club))


def members_to_export(club: Club) -> list[Player]:
    """The club's members for its member file: the players not archived, by name the Swedish way.
    An archived player is kept for old protocols and is not a member any more."""
    return order_by_name(Player.objects.filter(club=club, archived=False))


def member_list_draft(club: Club) -> MemberListDraft | None:
    """The member list read from a file and waiting to be saved or discarded, if any."""
    return MemberListDraft.objects.filter(club=club).select_related("read_by").first()


def draft_rows(draft: MemberListDraft) -> tuple[list[MemberRow], dict[str, Column]]:
    """The rows and columns a draft keeps (services.members stores them so)."""
    rows = [MemberRow(line, name, number, year, email) for line, name, number, year, email in draft.rows]
    columns = {name: Column(name, heading, position) for name, heading, position in draft.columns}
    return rows, columns


def member_list_preview(club: Club, draft: MemberListDraft) -> MemberListPreview:
    """What saving the draft would do to the club's players now."""
    rows, columns = draft_rows(draft)
    return compare_members(club_members(club), rows, columns)


# -- the comparison -------------------------------------------------------------------------------


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _same_values(one: MemberRow, other: MemberRow) -> bool:
    return (one.name, one.member_number, one.birth_year, one.email) == (
        other.name, other.member_number, other.birth_year, other.email,
    )  # fmt: skip


def _model_problems(row: MemberRow, fields: Sequence[str]) -> list[tuple[str, str]]:
    """(field, message) for each value a player may not hold: the model's own validators (length,
    control characters, an e-mail address, a birth year)."""
    found = []
    for name in fields:
        value = getattr(row, name)
        try:
            Player._meta.get_field(name).run_validators(value)
        except ValidationError as error:
            found.append((name, " ".join(error.messages)))
    return found


def _number_text(member: Member) -> str:
    if member.member_number:
        return _("%(name)s (member number %(number)s)") % {"name": member.name, "number": member.member_number}
    return member.name


def compare_members(
    members: Sequence[Member], rows: Sequence[MemberRow], columns: dict[str, Column]
) -> MemberListPreview:
    """What saving `rows` (from a file whose `columns` are these) would do to the club's `members`."""
    fields = tuple(name for name in CHANGEABLE if name in columns)
    by_number = {member.member_number: member for member in members if member.member_number}
    by_name: dict[str, list[Member]] = {}
    for member in members:
        by_name.setdefault(_key(member.name), []).append(member)
    problems: list[str] = []
    outcomes: list[RowOutcome] = []
    row_of_number: dict[str, MemberRow] = {}
    rows_of_name: dict[str, list[MemberRow]] = {}
    row_of_player: dict[int, MemberRow] = {}

    def problem(row: MemberRow, field_name: str | None, text: str) -> None:
        column = columns.get(field_name) if field_name else None
        place = where(row.line, column.heading if column else None, column.position if column else None)
        problems.append(f"{place}: {text}")

    for row in rows:
        key = _key(row.name)
        outcome = RowOutcome(row, "new")
        # -- within the file
        earlier = row_of_number.get(row.member_number) if row.member_number else None
        if earlier is not None:
            if _same_values(earlier, row):
                outcome.kind = "repeated"
                outcome.notes.append(_("The same member number and details as row %(line)s: saved once.") % {"line": earlier.line})
            else:
                outcome.kind = "refused"
                problem(row, "member_number", _("member number %(number)s is also on row %(line)s, for %(name)s.")
                        % {"number": row.member_number, "line": earlier.line, "name": earlier.name})
            outcomes.append(outcome)
            continue
        same_name = rows_of_name.get(key, [])
        if same_name and (not row.member_number or any(not other.member_number for other in same_name)):
            other = same_name[0]
            if _same_values(other, row):
                outcome.kind = "repeated"
                outcome.notes.append(_("The same name and details as row %(line)s: saved once.") % {"line": other.line})
            else:
                outcome.kind = "refused"
                problem(row, "name", _("%(name)s is also on row %(line)s. If they are two people, give both a member number.")
                        % {"name": row.name, "line": other.line})
            outcomes.append(outcome)
            continue
        for other in same_name:
            outcome.notes.append(
                _("The same name as row %(line)s, with another member number: two people, or one person entered twice?")
                % {"line": other.line}
            )
        if row.member_number:
            row_of_number[row.member_number] = row
        rows_of_name.setdefault(key, []).append(row)

        # -- the club's player it is
        player = by_number.get(row.member_number) if row.member_number else None
        if player is None:
            candidates = by_name.get(key, [])
            if row.member_number:
                candidates = [member for member in candidates if not member.member_number]
            if len(candidates) == 1:
                player = candidates[0]
            elif len(candidates) > 1:
                outcome.kind = "refused"
                problem(row, "member_number" if "member_number" in columns else "name",
                        _("the club has several players called %(name)s; write each one's member number to say which.")
                        % {"name": row.name})
                outcomes.append(outcome)
                continue
        if player is not None and player.id in row_of_player:
            outcome.kind = "refused"
            problem(row, None, _("row %(line)s is the same player (%(name)s): one row per member.")
                    % {"line": row_of_player[player.id].line, "name": player.name})
            outcomes.append(outcome)
            continue

        # -- a name the club has for another player
        if player is None or _key(player.name) != key:
            others = [member for member in by_name.get(key, []) if member is not player]
            if others and (not row.member_number or any(not other.member_number for other in others)):
                outcome.kind = "refused"
                problem(row, "name", _("The club already has a player called %(name)s. If they are two people, give both a member number.")
                        % {"name": row.name})
                outcomes.append(outcome)
                continue
            for other in others:
                if other.id in row_of_player:
                    continue  # an earlier row is that player: the row's note above says so
                outcome.notes.append(
                    _("The club has a player of the same name: %(player)s. Two people, or one person entered twice?")
                    % {"player": _number_text(other)}
                )

        # -- what it changes
        written = [name for name in fields if name != "member_number" or row.member_number]
        if player is None:
            check = written
        else:
            row_of_player[player.id] = row
            outcome.player = player
            for name in fields:
                before, after = getattr(player, name), getattr(row, name)
                if name == "member_number" and (player.member_number or not after):
                    continue  # a member number is never changed or taken away here, only given
                if before != after:
                    outcome.changes.append(Change(name, before, after))
            if player.archived:
                outcome.changes.append(Change("archived", True, False))
            outcome.kind = "changed" if outcome.changes else "unchanged"
            check = [change.field for change in outcome.changes if change.field != "archived"]
        bad = _model_problems(row, check)
        for name, text in bad:
            problem(row, name, text)
        if bad:
            outcome.kind = "refused"
        outcomes.append(outcome)

    named = set(row_of_player)
    not_in_file = [member for member in members if member.id not in named and not member.archived]
    return MemberListPreview(outcomes, problems, not_in_file, members_digest(members), fields)
