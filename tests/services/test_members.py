"""The club's member list saved through the services (docs/member-file.md): a list of 200 rows with 3
possible duplicates and 5 changes is previewed and saved all or nothing; a failure in the middle
writes nothing; a list whose club changed since its preview is refused; only the club's secretaries
keep it. What the pages show of it is tests/views/test_member_list_pages.py."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from scoring import services
from scoring.files.member_file import read_member_file
from scoring.models import AuditEntry, MemberListDraft, Player
from scoring.selectors.members import club_members_digest, member_list_draft, member_list_preview
from tests import factories as f
from tests.support.hostile_files import csv_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The words are checked in English (the Swedish ones: the pages' tests)."""
    with translation.override("en"):
        yield

HEADER = "Namn;Medlemsnummer;Födelseår;E-post"


def club_with_members(count: int = 191):
    """A club whose players 1..count have member numbers, birth years and e-mail addresses."""
    secretary = f.make_user("sekreteraren")
    club = f.make_club("Medlemsklubben", secretary=secretary)
    Player.objects.bulk_create(
        Player(club=club, name=f"Medlem {n:03}", member_number=str(1000 + n), birth_year=1940 + n % 40,
               email=f"medlem{n}@example.se")
        for n in range(1, count + 1)
    )  # fmt: skip
    return club, secretary


def line(n: int, *, name=None, year=None, email=None) -> str:
    return ";".join([
        f"Medlem {n:03}" if name is None else name, str(1000 + n), str(1940 + n % 40 if year is None else year),
        f"medlem{n}@example.se" if email is None else email,
    ])  # fmt: skip


def two_hundred_rows() -> bytes:
    """200 rows: the club's 190 members, 5 of them changed; 9 new members; and 3 rows that may be
    duplicates: the same row twice (member 12), a new member with the name of a member the club
    has and the file leaves out (another number), and two new rows of one name with two numbers."""
    rows = []
    for n in range(1, 191):
        if n == 3:
            rows.append(line(n, name="Medlem 003 Andersson"))  # renamed
        elif n == 40:
            rows.append(line(n, year=1939))
        elif n in (77, 78):
            rows.append(line(n, email=f"ny{n}@example.se"))
        elif n == 150:
            rows.append(line(n, email=""))  # the address taken away
        else:
            rows.append(line(n))
    rows.append(line(12))  # the same row twice: saved once
    rows += [f"Ny Medlem {n};{2000 + n};1970;" for n in range(1, 8)]  # 7 new
    rows.append("Medlem 191;2191;;")  # a name the club has, another number
    rows.append("Ny Medlem 1;2099;;")  # a name another new row has, another number
    assert len(rows) == 200
    return csv_bytes(HEADER, *rows)


def keep(club, user, data: bytes, name: str = "medlemmar.csv"):
    return services.member_list_keep(user=user, club=club, file_name=name, member_file=read_member_file(data, name))


def players(club) -> list[tuple]:
    return list(Player.objects.filter(club=club).order_by("pk").values_list("name", "member_number", "birth_year", "email", "archived"))


def test_two_hundred_rows_are_previewed_with_their_changes_and_duplicates():
    club, secretary = club_with_members()
    draft = keep(club, secretary, two_hundred_rows())

    preview = member_list_preview(club, draft)

    assert preview.problems == []
    assert (len(preview.new), len(preview.changed), len(preview.unchanged), len(preview.duplicates)) == (9, 5, 185, 3)
    assert len(preview.of_kind("repeated")) == 1 and preview.of_kind("repeated")[0].row.line == 192
    changes = {outcome.row.line - 1: [(c.field, c.before, c.after) for c in outcome.changes] for outcome in preview.changed}
    assert changes == {
        3: [("name", "Medlem 003", "Medlem 003 Andersson")],
        40: [("birth_year", 1940, 1939)],
        77: [("email", "medlem77@example.se", "ny77@example.se")],
        78: [("email", "medlem78@example.se", "ny78@example.se")],
        150: [("email", "medlem150@example.se", "")],
    }
    duplicates = {outcome.row.line: outcome.notes for outcome in preview.duplicates}
    assert sorted(duplicates) == [192, 200, 201]
    assert "row 13" in duplicates[192][0] and "saved once" in duplicates[192][0]
    assert "Medlem 191 (member number 1191)" in duplicates[200][0]
    assert "row 193" in duplicates[201][0]
    assert [member.name for member in preview.not_in_file] == ["Medlem 191"] and preview.may_save


def test_two_hundred_rows_are_saved_all_at_once_and_logged():
    club, secretary = club_with_members()
    draft = keep(club, secretary, two_hundred_rows())
    digest = member_list_preview(club, draft).digest
    edition = club.edition

    counts = services.members_import(user=secretary, club=club, draft_id=draft.pk, expected_digest=digest)

    assert counts == {"new": 9, "changed": 5}
    stored = players(club)
    assert len(stored) == 200
    assert ("Medlem 003 Andersson", "1003", 1943, "medlem3@example.se", False) in stored
    assert ("Medlem 150", "1150", 1970, "", False) in stored
    assert sum(1 for row in stored if row[0] == "Ny Medlem 1") == 2
    assert sum(1 for row in stored if row[0] == "Medlem 191") == 2
    entry = AuditEntry.objects.get(action="members_import")
    assert (entry.object_type, entry.object_id, entry.user, entry.reason) == ("club", str(club.pk), secretary, "medlemmar.csv")
    assert len(entry.after["new"]) == 9 and len(entry.after["changed"]) == 5
    assert not MemberListDraft.objects.filter(club=club).exists()
    club.refresh_from_db()
    assert club.edition > edition  # the club's pages show its players
    # Read again, the same list changes nothing.
    again = member_list_preview(club, keep(club, secretary, two_hundred_rows()))
    assert (len(again.new), len(again.changed)) == (0, 0) and not again.may_save


def test_a_failure_in_the_middle_of_the_save_writes_nothing(monkeypatch):
    """The changes are written before the new players: new players that cannot be written leave
    the changed ones as they were, the list kept and no audit entry."""
    club, secretary = club_with_members()
    draft = keep(club, secretary, two_hundred_rows())
    digest = member_list_preview(club, draft).digest
    before = players(club)

    def fail(*args, **kwargs):
        assert Player.objects.filter(name="Medlem 003 Andersson").exists()  # the middle: changes written
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Player.objects, "bulk_create", fail)
    with pytest.raises(RuntimeError):
        services.members_import(user=secretary, club=club, draft_id=draft.pk, expected_digest=digest)

    assert players(club) == before
    assert not AuditEntry.objects.filter(action="members_import").exists()
    assert member_list_draft(club) == draft


def test_a_list_whose_club_changed_since_its_preview_is_refused():
    club, secretary = club_with_members(5)
    draft = keep(club, secretary, csv_bytes(HEADER, line(1, year=1930), "Ny Person;77;;"))
    digest = member_list_preview(club, draft).digest
    other = Player.objects.get(member_number="1002")
    other.email = "annan@example.se"
    services.player_save(user=secretary, player=other)
    before = players(club)

    with pytest.raises(services.MemberListChangedError):
        services.members_import(user=secretary, club=club, draft_id=draft.pk, expected_digest=digest)

    assert players(club) == before
    assert member_list_draft(club) == draft  # kept: the page shows it compared again
    fresh = member_list_preview(club, draft).digest
    assert fresh == club_members_digest(club) != digest
    services.members_import(user=secretary, club=club, draft_id=draft.pk, expected_digest=fresh)
    assert Player.objects.filter(club=club, name="Ny Person").exists()


def test_a_newer_file_takes_the_place_of_the_list_and_the_older_save_is_refused():
    club, secretary = club_with_members(3)
    older = keep(club, secretary, csv_bytes(HEADER, "Första;10;;"))
    digest = member_list_preview(club, older).digest
    keep(club, secretary, csv_bytes(HEADER, "Andra;11;;"))

    with pytest.raises(services.DomainError):
        services.members_import(user=secretary, club=club, draft_id=older.pk, expected_digest=digest)
    assert not Player.objects.filter(name__in=["Första", "Andra"]).exists()


def test_a_list_with_problems_is_not_saved():
    club, secretary = club_with_members(3)
    before = players(club)
    draft = keep(club, secretary, csv_bytes(HEADER, "Ny;20;;inte-en-adress", "Annan;21;2150;"))
    preview = member_list_preview(club, draft)
    assert len(preview.problems) == 2 and not preview.may_save
    assert preview.problems[0].startswith("Row 2, column D (E-post): ")
    assert preview.problems[1].startswith("Row 3, column C (Födelseår): ")

    with pytest.raises(services.DomainError):
        services.members_import(user=secretary, club=club, draft_id=draft.pk, expected_digest=preview.digest)
    assert players(club) == before


def test_which_player_a_row_is():
    """By member number; else the one player of the name without a number; an archived player
    comes back; a name the club has twice without numbers is a problem; deleted players are gone."""
    club, secretary = club_with_members(0)
    numbered = f.make_player("Anna Berg", club=club, member_number="5")
    plain = f.make_player("Bo Ek", club=club)
    archived = f.make_player("Cilla Dahl", club=club, member_number="7", archived=True)
    f.make_player("Dan Ask", club=club, member_number="8")
    f.make_player("Dan Ask", club=club, member_number="9")
    draft = keep(club, secretary, csv_bytes(
        HEADER,
        "Anna Berg-Lind;5;;",  # by number: a new name
        "Bo Ek;6;1950;",  # by name: given a number
        "Cilla Dahl;7;;",  # archived: comes back
        "Dan Ask;;;",  # two of that name: which?
    ))  # fmt: skip
    preview = member_list_preview(club, draft)
    by_line = {outcome.row.line: outcome for outcome in preview.outcomes}
    assert by_line[2].player.id == numbered.pk and by_line[2].changed_fields == ["name"]
    assert by_line[3].player.id == plain.pk and by_line[3].changed_fields == ["member_number", "birth_year"]
    assert by_line[4].player.id == archived.pk and by_line[4].changed_fields == ["archived"]
    assert by_line[5].kind == "refused"
    assert preview.problems == [
        "Row 5, column B (Medlemsnummer): the club has several players called Dan Ask; write each one's member number to say which."
    ]


def test_only_the_clubs_secretaries_keep_and_save_its_list():
    club, secretary = club_with_members(2)
    other = f.make_user("annan")
    f.make_club("Annan klubb", secretary=other)
    member_file = read_member_file(csv_bytes(HEADER, "Ny;1;;"), "m.csv")
    with pytest.raises(PermissionDenied):
        services.member_list_keep(user=other, club=club, file_name="m.csv", member_file=member_file)
    draft = services.member_list_keep(user=secretary, club=club, file_name="m.csv", member_file=member_file)
    digest = member_list_preview(club, draft).digest
    with pytest.raises(PermissionDenied):
        services.members_import(user=other, club=club, draft_id=draft.pk, expected_digest=digest)
    with pytest.raises(PermissionDenied):
        services.member_list_discard(user=other, club=club)
    assert member_list_draft(club) == draft
    services.member_list_discard(user=f.make_admin(), club=club)
    assert member_list_draft(club) is None


def test_a_merge_keeps_the_birth_year_and_e_mail_the_kept_player_lacks():
    club, secretary = club_with_members(0)
    kept = f.make_player("Eva Lund", club=club, member_number="1")
    twice = f.make_player("eva lund", club=club, birth_year=1950, email="eva@example.se")
    services.merge(user=secretary, duplicate=twice, kept=kept)
    kept.refresh_from_db()
    assert (kept.member_number, kept.birth_year, kept.email) == ("1", 1950, "eva@example.se")
