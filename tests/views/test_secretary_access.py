"""Who may open the secretary's pages: each role gets 200 where allowed, 403 elsewhere, and
anonymous visitors the login page."""

import pytest
from django.urls import reverse

from scoring import services
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    s = f.protocol_setup()
    s["admin"] = f.make_admin()
    s["stranger"] = f.make_user("utomstaende")
    s["other_secretary"] = f.make_user("annan-sekreterare")
    f.make_club("Tredje klubben", secretary=s["other_secretary"])
    s["away_secretary"] = f.make_user("bortasekreterare")
    s["away"].club.secretaries.add(s["away_secretary"])
    match = s["match"]
    s["match"] = services.deals_record(
        match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=match.version
    )
    return s


# Pages that show the protocol: the keepers, the other side's secretary and both captains.
VIEW_PAGES = ["match-protocol"]
# Pages that change deals: only those who keep the protocol.
ENTER_PAGES = ["deal-delete-last", "match-protocol-upload", "match-forfeit", "match-postpone", "match-clock", "match-start", "match-submit"]


def url(name, match):
    if name == "deal-correct":
        return reverse(f"scoring:{name}", args=[match.pk, 1])
    return reverse(f"scoring:{name}", args=[match.pk])


@pytest.mark.parametrize("name", VIEW_PAGES + ENTER_PAGES + ["deal-correct", "match-void", "match-reopen", "match-confirm"])
def test_anonymous_users_are_sent_to_the_login_page(client, setup, name):
    response = client.get(url(name, setup["match"]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_anonymous_live_check_is_sent_to_the_login_page(client, setup):
    response = client.post(url("match-protocol-check", setup["match"]), {"home_cards": "0"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    "role, status",
    [
        ("secretary", 200),
        ("admin", 200),
        ("home_captain", 200),
        ("away_captain", 200),
        ("away_secretary", 200),
        ("stranger", 403),
        ("other_secretary", 403),
    ],
)
def test_the_protocol_page_by_role(client, setup, role, status):
    client.force_login(setup[role])

    response = client.get(url("match-protocol", setup["match"]))

    assert response.status_code == status


@pytest.mark.parametrize("role", ["secretary", "admin"])
@pytest.mark.parametrize("name", ["deal-correct", "deal-delete-last", "match-protocol-upload", "match-forfeit"])
def test_protocol_keepers_open_the_entry_pages(client, setup, role, name):
    client.force_login(setup[role])

    response = client.get(url(name, setup["match"]))

    assert response.status_code == 200


@pytest.mark.parametrize("role", ["home_captain", "away_captain", "away_secretary", "stranger", "other_secretary"])
@pytest.mark.parametrize("name", ["deal-correct", "deal-delete-last", "match-protocol-upload", "match-forfeit", "match-submit"])
def test_others_may_not_open_the_entry_pages(client, setup, role, name):
    client.force_login(setup[role])

    response = client.get(url(name, setup["match"]))

    assert response.status_code == 403


@pytest.mark.parametrize("role", ["home_captain", "away_captain", "away_secretary", "stranger"])
def test_only_keepers_may_record_a_deal_or_use_the_live_check(client, setup, role):
    client.force_login(setup[role])
    match = setup["match"]

    record = client.post(url("match-protocol", match), {"version": match.version, "home_cards": "50"})
    check = client.post(url("match-protocol-check", match), {"home_cards": "50"})

    assert record.status_code == 403
    assert check.status_code == 403
    assert match.deals.count() == 1


def test_the_entry_form_is_shown_to_the_keeper_but_not_to_a_captain(client, setup):
    match = setup["match"]
    client.force_login(setup["secretary"])
    keeper = client.get(url("match-protocol", match)).content.decode()
    client.force_login(setup["away_captain"])
    captain = client.get(url("match-protocol", match)).content.decode()

    assert 'name="home_cards"' in keeper
    assert 'name="home_cards"' not in captain
    # The audit log is for secretaries.
    assert 'id="audit"' in keeper
    assert 'id="audit"' not in captain


def test_confirm_page_only_for_the_away_captain(client, setup):
    match = setup["match"]
    for number in (2, 3):
        match = services.deals_record(match=match, user=setup["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    match = services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)

    statuses = {}
    for role in ("away_captain", "home_captain", "secretary", "stranger"):
        client.force_login(setup[role])
        statuses[role] = client.get(url("match-confirm", match)).status_code

    assert statuses == {"away_captain": 200, "home_captain": 403, "secretary": 403, "stranger": 403}


@pytest.mark.parametrize("role, status", [("secretary", 200), ("admin", 200), ("stranger", 403)])
def test_void_and_reopen_pages_for_keepers_and_organisers(client, setup, role, status):
    client.force_login(setup[role])

    void = client.get(url("match-void", setup["match"]))
    reopen = client.get(url("match-reopen", setup["match"]))

    assert void.status_code == status
    assert reopen.status_code == status


def test_an_organising_secretary_of_another_club_keeps_the_protocol_too(client):
    organiser_secretary = f.make_user("arrangor")
    organiser = f.make_club("Arrangörsklubben", secretary=organiser_secretary)
    match = f.make_match(competition=f.make_competition(organiser=organiser))
    client.force_login(organiser_secretary)

    response = client.get(url("match-protocol", match))

    assert response.status_code == 200
    assert 'name="home_cards"' in response.content.decode()


def test_my_matches_needs_a_login(client):
    response = client.get(reverse("scoring:my-matches"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_my_matches_lists_what_the_user_keeps_or_confirms(client, setup):
    unrelated = f.make_match()
    client.force_login(setup["secretary"])
    secretary_page = client.get(reverse("scoring:my-matches")).content.decode()
    client.force_login(setup["away_captain"])
    captain_page = client.get(reverse("scoring:my-matches")).content.decode()
    client.force_login(setup["stranger"])
    stranger_page = client.get(reverse("scoring:my-matches")).content.decode()

    protocol = reverse("scoring:match-protocol", args=[setup["match"].pk])
    other = reverse("scoring:match-protocol", args=[unrelated.pk])
    assert protocol in secretary_page and other not in secretary_page
    assert protocol in captain_page
    assert protocol not in stranger_page


def test_my_matches_groups_by_next_step(client, setup):
    match = setup["match"]
    for number in (2, 3):
        match = services.deals_record(match=match, user=setup["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    scheduled = f.make_match(home=setup["home"], away=setup["away"], competition=match.competition, round_number=2)

    client.force_login(setup["away_captain"])
    captain_page = client.get(reverse("scoring:my-matches")).content.decode()
    client.force_login(setup["secretary"])
    secretary_page = client.get(reverse("scoring:my-matches")).content.decode()

    assert 'id="group-to_confirm"' in captain_page
    assert 'id="group-submitted"' not in captain_page
    assert 'id="group-submitted"' in secretary_page
    assert 'id="group-scheduled"' in secretary_page
    assert reverse("scoring:match-protocol", args=[scheduled.pk]) in secretary_page


def test_navigation_links_for_signed_in_users(client, setup):
    client.force_login(setup["secretary"])
    secretary_nav = client.get(reverse("scoring:home")).content.decode()
    client.force_login(setup["away_captain"])
    captain_nav = client.get(reverse("scoring:home")).content.decode()
    client.logout()
    anonymous_nav = client.get(reverse("scoring:home")).content.decode()

    assert reverse("scoring:my-matches") in secretary_nav
    assert reverse("scoring:manage-home") in secretary_nav
    assert reverse("scoring:my-matches") in captain_nav
    assert reverse("scoring:manage-home") not in captain_nav
    assert reverse("scoring:my-matches") not in anonymous_nav
