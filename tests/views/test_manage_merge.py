"""The merge pages: what moves or why not, the merge itself, and nobody else's club."""

import pytest
from django.urls import reverse

from scoring.models import Player, Team
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    secretary = f.make_user("sekreterare")
    club = f.make_club("Hemmaklubben", secretary=secretary)
    client.force_login(secretary)
    return club


def merge_url(obj):
    kind = "player" if isinstance(obj, Player) else "team"
    return reverse(f"scoring:manage-{kind}-merge", args=[obj.pk])


def test_a_refused_merge_says_why_and_offers_no_merge_button(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    f.make_team("Essen", club=club, players=(one, two))

    page = client.get(merge_url(two), {"into": one.pk}).content.decode()

    assert "De kan inte slås ihop" in page
    assert "samma spelare två gånger" in page
    assert "Slå ihop anna med Anna</button>" not in page
    refused = client.post(merge_url(two), {"into": one.pk})
    assert refused.status_code == 409  # a refusal is a 4xx, never a success
    assert "samma spelare två gånger" in refused.content.decode()
    assert Player.objects.filter(pk=two.pk).exists()


def test_a_team_is_merged_from_its_page(client, club):
    competition = f.make_competition(organiser=club)
    kept, twice = f.make_team("Essen", club=club), f.make_team("Essen B", club=club)
    competition.teams.add(kept, twice)

    page = client.get(merge_url(twice)).content.decode()
    assert f'<option value="{kept.pk}">Essen (' in page

    response = client.post(merge_url(twice), {"into": kept.pk})

    assert response.status_code == 302
    assert not Team.objects.filter(pk=twice.pk).exists()


def test_another_clubs_secretary_may_not_merge(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    client.force_login(f.make_user())

    assert client.get(merge_url(two)).status_code == 403
    assert client.post(merge_url(two), {"into": one.pk}).status_code == 403
    assert Player.objects.filter(pk=two.pk).exists()


def test_only_the_clubs_own_players_are_offered(client, club):
    one, two = f.make_player("Anna", club=club), f.make_player("anna", club=club)
    stranger = f.make_player("Anna", club=f.make_club())

    response = client.post(merge_url(two), {"into": stranger.pk})

    assert "Välj spelaren som ska finnas kvar." in response.content.decode()
    assert Player.objects.filter(pk=two.pk).exists() and Player.objects.filter(pk=stranger.pk).exists()
    assert one.pk != stranger.pk


def test_a_player_entered_twice_is_no_dead_end(client, club):
    """"anna andersson" added beside "Anna Andersson": the same-name warning offers the player there
    is, the club's list shows both together with the merge, editing the number away offers the
    merge, and the merge asks which member number is kept (no refusal for the numbers)."""
    import re

    anna = f.make_player("Anna Andersson", club=club, member_number="101")
    f.make_player("Bo Berg", club=club)
    create = reverse("scoring:manage-player-create", args=[club.pk])
    page = client.post(create, {"name": "anna andersson", "member_number": ""}).content.decode()
    assert "Klubben har redan en spelare som heter anna andersson" in page
    assert f'href="{reverse("scoring:manage-player-edit", args=[anna.pk])}">Öppna Anna Andersson</a>' in page

    assert client.post(create, {"name": "anna andersson", "member_number": "102"}).status_code == 302
    twin = Player.objects.get(name="anna andersson")
    club_page = client.get(reverse("scoring:manage-club", args=[club.pk])).content.decode()
    names = re.findall(r'class="manage-list__name" href="/manage/players/\d+/">([^<]+)</a>', club_page)
    # Side by side whatever the letter case (which of the two comes first is the collation's).
    assert sorted(names[:2]) == ["Anna Andersson", "anna andersson"] and names[2] == "Bo Berg"
    offer = f'{merge_url(twin)}?into={anna.pk}'
    assert offer in club_page and "Samma namn som Anna Andersson." in club_page

    edit = client.post(reverse("scoring:manage-player-edit", args=[twin.pk]), {"name": "anna andersson", "member_number": ""})
    assert edit.status_code == 200 and offer in edit.content.decode()

    question = client.get(merge_url(twin), {"into": anna.pk}).content.decode()
    assert "De kan inte slås ihop" not in question
    assert "anna andersson och Anna Andersson har olika medlemsnummer. Vilket ska behållas?" in question
    # No number chosen: the service refuses (409, services' refusals) and the question is asked again.
    unanswered = client.post(merge_url(twin), {"into": anna.pk})
    assert unanswered.status_code == 409 and "Vilket ska behållas?" in unanswered.content.decode()
    assert Player.objects.filter(pk=twin.pk).exists()
    assert client.post(merge_url(twin), {"into": anna.pk, "member_number": "102"}).status_code == 302
    anna.refresh_from_db()
    assert anna.member_number == "102" and not Player.objects.filter(pk=twin.pk).exists()


def test_the_team_form_lists_players_by_name_in_any_case_with_member_numbers(client, club):
    import re

    f.make_player("bo", club=club)
    f.make_player("Anna", club=club, member_number="7")
    f.make_player("Örjan", club=club)
    f.make_player("Cecilia", club=club)
    page = client.get(reverse("scoring:manage-team-create", args=[club.pk])).content.decode()
    select = page.split('name="player_one"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="\d+">([^<]+)</option>', select) == [
        "Anna (medlemsnummer 7)", "bo", "Cecilia", "Örjan"]
