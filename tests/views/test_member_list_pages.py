"""The club's member list on its secretary's pages (docs/member-file.md): a file read is shown as it
would be saved and kept until saved or discarded; the members' own file read back changes nothing;
bad and hostile files are refused with the row and the column named; birth years and e-mail
addresses are the club secretaries' alone. The services' side is tests/services/test_members.py,
whose list of 200 rows this uses."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import MemberListDraft, Player
from tests import factories as f
from tests.services.test_members import HEADER, club_with_members, two_hundred_rows
from tests.support.hostile_files import csv_bytes
from tests.support.upload_files import one_wide_row

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def upload(client, club, data: bytes, name: str = "medlemmar.csv", language: str = "sv"):
    """The file posted on the page in `language` (English under /en/)."""
    with translation.override(language):
        url = reverse("scoring:manage-members", args=[club.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, data)})


def save_fields(page: str) -> dict:
    """The hidden fields of the page's save form."""
    import re

    form = page[page.index('action="' + "/manage/clubs/"):]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'name="(draft|digest)" value="([^"]*)"', form))


def test_a_list_is_read_shown_as_it_would_be_saved_and_saved():
    club, secretary = club_with_members()
    client = signed_in(secretary)

    response = upload(client, club, two_hundred_rows())
    assert response.status_code == 302 and response["Location"].endswith("#member-list-preview")
    page = client.get(reverse("scoring:manage-members", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="sv").content.decode()

    assert "Listan i medlemmar.csv så som den skulle sparas" in page
    assert "Möjliga dubbletter" in page and "Samma medlemsnummer och uppgifter som rad 13: sparas en gång." in page
    assert "5 spelare ändras" in page and "9 nya spelare" in page
    assert "<del>Medlem 003</del>" in page and "<ins>Medlem 003 Andersson</ins>" in page
    assert "Spara: 9 nya, 5 ändrade" in page
    # Kept until saved: another visit shows it again.
    assert "Spara: 9 nya, 5 ändrade" in client.get(reverse("scoring:manage-members", args=[club.pk])).content.decode()

    response = client.post(reverse("scoring:manage-members-save", args=[club.pk]), save_fields(page))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:manage-club", args=[club.pk])
    assert Player.objects.filter(club=club).count() == 200
    assert not MemberListDraft.objects.filter(club=club).exists()


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_the_members_file_read_back_changes_nothing(kind):
    club, secretary = club_with_members(20)
    f.make_player("Åsa \"Ässet\" Öberg; d.ä.", club=club, member_number="0042", email="asa@example.se")
    f.make_player("Utan Nummer", club=club)
    f.make_player("Arkiverad", club=club, member_number="99", archived=True)
    client = signed_in(secretary)
    before = list(Player.objects.order_by("pk").values())

    exported = client.get(reverse(f"scoring:manage-members-{kind}", args=[club.pk]))
    assert exported.status_code == 200 and "private" in exported["Cache-Control"]
    assert exported["Content-Disposition"] == f'attachment; filename="medlemmar-medlemsklubben.{kind}"'
    upload(client, club, exported.content, f"medlemmar.{kind}")
    page = client.get(reverse("scoring:manage-members", args=[club.pk])).content.decode()

    assert "Filen ändrar ingenting" in page and "22 spelare är redan som i filen" in page
    assert "manage-members-save" not in page and 'action="' + reverse("scoring:manage-members-save", args=[club.pk]) not in page
    assert list(Player.objects.order_by("pk").values()) == before


def test_a_bad_file_is_refused_naming_the_row_and_the_column_in_swedish_and_english():
    club, secretary = club_with_members(2)
    client = signed_in(secretary)
    data = csv_bytes(HEADER, "Anna;1;19x8;", ";2;;")
    swedish = upload(client, club, data).content.decode()
    english = upload(client, club, data, language="en").content.decode()
    assert "Filen kunde inte läsas. Inget behölls eller sparades." in swedish
    assert "Rad 2, kolumn C (Födelseår): ”19x8” är inget årtal" in swedish
    assert "Rad 3, kolumn A (Namn): Namnet saknas." in swedish
    assert "Row 2, column C (Födelseår): “19x8” is not a year" in english
    assert not MemberListDraft.objects.filter(club=club).exists()


def test_a_row_the_club_cannot_take_is_named_in_the_preview_and_not_offered_for_saving():
    club, secretary = club_with_members(2)
    client = signed_in(secretary)
    upload(client, club, csv_bytes(HEADER, "Ny;5;;inte-en-adress"))
    page = client.get(reverse("scoring:manage-members", args=[club.pk])).content.decode()
    assert "Listan kan inte sparas som den är" in page
    assert "Rad 2, kolumn D (E-post): " in page
    assert reverse("scoring:manage-members-save", args=[club.pk]) not in page


def test_a_hostile_workbook_is_refused_and_not_repeated():
    club, secretary = club_with_members(2)
    page = upload(signed_in(secretary), club, one_wide_row(), "medlemmar.xlsx").content.decode()
    assert "Filen kunde inte läsas." in page and "Filen är större än en medlemslista kan vara" in page
    assert not MemberListDraft.objects.filter(club=club).exists()


def test_a_save_after_the_players_changed_is_refused_and_the_list_shown_again():
    club, secretary = club_with_members(3)
    client = signed_in(secretary)
    upload(client, club, csv_bytes(HEADER, "Ny Person;50;;"))
    fields = save_fields(client.get(reverse("scoring:manage-members", args=[club.pk])).content.decode())
    Player.objects.filter(member_number="1001").update(email="byttes@example.se")

    response = client.post(reverse("scoring:manage-members-save", args=[club.pk]), fields)

    assert response.status_code == 409
    page = response.content.decode()
    assert "Klubbens spelare ändrades efter att listan lästes in" in page and "Spara: 1 nya, 0 ändrade" in page
    assert not Player.objects.filter(name="Ny Person").exists()
    assert save_fields(page)["digest"] != fields["digest"]


def test_a_list_discarded_is_gone_and_nothing_of_it_saved():
    club, secretary = club_with_members(3)
    client = signed_in(secretary)
    upload(client, club, csv_bytes(HEADER, "Ny Person;50;;"))
    fields = save_fields(client.get(reverse("scoring:manage-members", args=[club.pk])).content.decode())
    response = client.post(reverse("scoring:manage-members-discard", args=[club.pk]), fields)
    assert response.status_code == 302
    assert not MemberListDraft.objects.filter(club=club).exists() and not Player.objects.filter(name="Ny Person").exists()


def test_birth_years_and_e_mail_addresses_are_the_club_secretaries_alone(client):
    club, secretary = club_with_members(2)
    player = Player.objects.get(member_number="1001")
    other = f.make_user("annan-sekreterare")
    f.make_club("Annan klubb", secretary=other)
    outsider = signed_in(other)
    for name in ("manage-members", "manage-members-csv", "manage-members-xlsx"):
        assert outsider.get(reverse(f"scoring:{name}", args=[club.pk])).status_code == 403
        assert client.get(reverse(f"scoring:{name}", args=[club.pk])).status_code == 302  # to the login page
    for url in (reverse("scoring:player-detail", args=[player.pk]), reverse("scoring:club-detail", args=[club.pk])):
        page = client.get(url).content.decode()
        assert player.name in page
        assert player.email not in page and str(player.birth_year) not in page
    manage_page = signed_in(secretary).get(reverse("scoring:manage-club", args=[club.pk])).content.decode()
    assert reverse("scoring:manage-members", args=[club.pk]) in manage_page
