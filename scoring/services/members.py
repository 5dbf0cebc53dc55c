"""The club's member list (docs/member-file.md): a list read from a file is kept until it is saved
or discarded, and saved all or nothing.

`member_list_keep` keeps the rows a file gave (one list per club: a newer file takes the place of
the one before), `member_list_discard` lets it go, and `members_import` saves it: in one
transaction, with the club and its players locked, it compares the list with the players again
(selectors.members.compare_members, the comparison the preview showed), refuses it when the club's
members changed since the preview was drawn (its digest) or when a problem keeps a row from being
saved, writes the new players and the changes, logs them in the audit log and lets the list go.
Only the club's secretaries (and site admins) do any of it (permissions.can_keep_member_list); a
closed season does not matter here, since a player belongs to the club, not to a season.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _, gettext_lazy

from scoring import permissions
from scoring.files.member_file import MemberFile
from scoring.models import Club, MemberListDraft, Player
from scoring.selectors.members import club_members, compare_members, draft_rows

from .audit import audit_log
from .errors import DomainError
from .locking import lock

__all__ = ["MemberListChangedError", "member_list_discard", "member_list_keep", "members_import"]


class MemberListChangedError(DomainError):
    default_message = gettext_lazy(
        "The club's players changed after the list was checked (someone else saved a player or another "
        "list). Nothing was saved: look at the list as it compares now and save again."
    )


def _require(user, club: Club) -> None:
    if not permissions.can_keep_member_list(user, club):
        raise PermissionDenied(_("You may not change this."))


@transaction.atomic
def member_list_keep(*, user, club: Club, file_name: str, member_file: MemberFile) -> MemberListDraft:
    """Keep the rows of a member file read for the club, in place of a list kept before."""
    _require(user, club)
    rows = [[row.line, row.name, row.member_number, row.birth_year, row.email] for row in member_file.rows]
    columns = [[column.field, column.heading, column.position] for column in member_file.columns]
    MemberListDraft.objects.filter(club=club).delete()
    return MemberListDraft.objects.create(
        club=club, file_name=file_name[:200], rows=rows, columns=columns,
        read_by=user if getattr(user, "pk", None) else None,
    )  # fmt: skip


@transaction.atomic
def member_list_discard(*, user, club: Club, draft_id: int | None = None) -> None:
    """Let the kept list go (the one of `draft_id`, when given: not a newer one)."""
    _require(user, club)
    drafts = MemberListDraft.objects.filter(club=club)
    if draft_id is not None:
        drafts = drafts.filter(pk=draft_id)
    drafts.delete()


def _snapshot(player) -> dict:
    return {
        "name": player.name, "member_number": player.member_number, "birth_year": player.birth_year,
        "email": player.email, "archived": player.archived,
    }  # fmt: skip


def members_import(*, user, club: Club, draft_id: int, expected_digest: str) -> dict[str, int]:
    """Save the kept list all or nothing; the counts of new and changed players."""
    _require(user, club)
    try:
        return _import(user=user, club=club, draft_id=draft_id, expected_digest=expected_digest)
    except IntegrityError:
        # A player given the same member number by someone else in the same moment.
        raise MemberListChangedError() from None


@transaction.atomic
def _import(*, user, club: Club, draft_id: int, expected_digest: str) -> dict[str, int]:
    locked = lock(club)  # the club's pages show its players: its edition moves with them
    draft = MemberListDraft.objects.select_for_update().filter(club=locked, pk=draft_id).first()
    if draft is None:
        raise DomainError(_("The list was saved or discarded meanwhile, or another file took its place. Nothing was saved."))
    members = club_members(locked, for_update=True)
    rows, columns = draft_rows(draft)
    preview = compare_members(members, rows, columns)
    if preview.digest != expected_digest:
        raise MemberListChangedError()
    if preview.problems:
        raise DomainError(_("The list has problems; nothing was saved. Correct the file and check it again."))
    players = {player.pk: player for player in Player.objects.filter(club=locked, pk__in=[o.player.id for o in preview.changed])}
    before, after = {}, {}
    for outcome in preview.changed:
        player = players[outcome.player.id]
        before[player.pk] = _snapshot(player)
        for change in outcome.changes:
            setattr(player, change.field, change.after)
        player.save(update_fields=[*outcome.changed_fields])
        after[player.pk] = _snapshot(player)
    created = Player.objects.bulk_create(
        [
            Player(
                club=locked, name=outcome.row.name, member_number=outcome.row.member_number,
                birth_year=outcome.row.birth_year if "birth_year" in preview.fields else None,
                email=outcome.row.email if "email" in preview.fields else "",
            )  # fmt: skip
            for outcome in preview.new
        ]
    )
    audit_log(
        match=None,
        user=user,
        action="members_import",
        object_type="club",
        object_id=locked.pk,
        reason=draft.file_name,
        before={"changed": before},
        after={"changed": after, "new": [_snapshot(player) for player in created]},
    )
    draft.delete()
    return {"new": len(created), "changed": len(before)}
