"""The manage pages: a secretary sets up their own club's players and teams, the competitions the
club organises, rounds and matches; 403 for other clubs, the login page for anonymous visitors."""

import pytest
from django.urls import reverse

from scoring.models import AuditEntry, Competition, Match, Player, Round, Team
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def s():
    secretary = f.make_user("sekreterare")
    club = f.make_club("Hemmaklubben", secretary=secretary)
    other_secretary = f.make_user("grannen")
    other_club = f.make_club("Grannklubben", secretary=other_secretary)
    players = [f.make_player(f"Spelare {n}", club=club) for n in range(1, 5)]
    team_a = f.make_team("Lag A", club=club, players=players[:2])
    team_b = f.make_team("Lag B", club=other_club)
    competition = f.make_competition(organiser=club, teams=[team_a, team_b])
    return {
        "secretary": secretary,
        "club": club,
        "other_secretary": other_secretary,
        "other_club": other_club,
        "players": players,
        "team_a": team_a,
        "team_b": team_b,
        "competition": competition,
        "admin": f.make_admin(),
        "stranger": f.make_user("nagon"),
    }


def club_pages(s):
    club, competition = s["club"], s["competition"]
    return [
        reverse("scoring:manage-club", args=[club.pk]),
        reverse("scoring:manage-player-create", args=[club.pk]),
        reverse("scoring:manage-player-edit", args=[s["players"][0].pk]),
        reverse("scoring:manage-team-create", args=[club.pk]),
        reverse("scoring:manage-team-edit", args=[s["team_a"].pk]),
        reverse("scoring:manage-competition-create", args=[club.pk]),
        reverse("scoring:manage-competition", args=[competition.pk]),
        reverse("scoring:manage-competition-edit", args=[competition.pk]),
        reverse("scoring:manage-round-create", args=[competition.pk]),
        reverse("scoring:manage-match-create", args=[competition.pk]),
    ]


@pytest.mark.parametrize("role, status", [("secretary", 200), ("admin", 200), ("other_secretary", 403), ("stranger", 403)])
def test_manage_pages_by_role(client, s, role, status):
    client.force_login(s[role])

    statuses = {url: client.get(url).status_code for url in club_pages(s)}

    assert set(statuses.values()) == {status}, statuses


def test_manage_pages_send_anonymous_visitors_to_the_login_page(client, s):
    for url in [reverse("scoring:manage-home"), *club_pages(s)]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login"))


def test_the_manage_home_lists_the_users_clubs_only(client, s):
    client.force_login(s["secretary"])

    html = client.get(reverse("scoring:manage-home")).content.decode()

    assert reverse("scoring:manage-club", args=[s["club"].pk]) in html
    assert reverse("scoring:manage-club", args=[s["other_club"].pk]) not in html
    assert reverse("scoring:manage-competition", args=[s["competition"].pk]) in html


def test_posting_to_another_clubs_page_is_forbidden_and_writes_nothing(client, s):
    client.force_login(s["other_secretary"])

    response = client.post(reverse("scoring:manage-player-create", args=[s["club"].pk]), {"name": "Inkräktare"})

    assert response.status_code == 403
    assert not Player.objects.filter(name="Inkräktare").exists()


def test_a_secretary_adds_and_edits_a_player(client, s):
    client.force_login(s["secretary"])

    response = client.post(
        reverse("scoring:manage-player-create", args=[s["club"].pk]), {"name": "Greta Garbo", "member_number": "17"}
    )
    assert response.status_code == 302
    player = Player.objects.get(name="Greta Garbo")
    assert player.club == s["club"]

    response = client.post(reverse("scoring:manage-player-edit", args=[player.pk]), {"name": "Greta G.", "member_number": "17"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Greta G."


def test_a_member_number_is_unique_in_the_club(client, s):
    client.force_login(s["secretary"])
    s["players"][0].member_number = "7"
    s["players"][0].save()

    response = client.post(reverse("scoring:manage-player-create", args=[s["club"].pk]), {"name": "Ny", "member_number": "7"})

    assert response.status_code == 200
    assert "Inget sparades" in response.content.decode()
    assert "medlemsnummer 7" in response.content.decode()


def test_a_player_needs_a_name(client, s):
    client.force_login(s["secretary"])

    response = client.post(reverse("scoring:manage-player-create", args=[s["club"].pk]), {"name": ""})

    assert response.status_code == 200
    assert "Skriv spelarens namn." in response.content.decode()


def test_a_secretary_pairs_two_players_into_a_team_with_a_captain(client, s):
    client.force_login(s["secretary"])
    captain = f.make_user("kaptenen")
    one, two = s["players"][2], s["players"][3]

    response = client.post(
        reverse("scoring:manage-team-create", args=[s["club"].pk]),
        {"name": "Lag C", "player_one": one.pk, "player_two": two.pk, "captain": captain.pk},
    )

    assert response.status_code == 302
    team = Team.objects.get(name="Lag C")
    assert (team.club, team.player_one, team.player_two, team.captain) == (s["club"], one, two, captain)


def test_a_team_of_one_player_twice_is_refused(client, s):
    client.force_login(s["secretary"])
    one = s["players"][2]

    response = client.post(
        reverse("scoring:manage-team-create", args=[s["club"].pk]), {"name": "Lag C", "player_one": one.pk, "player_two": one.pk}
    )

    assert response.status_code == 200
    assert "Välj två olika spelare" in response.content.decode()
    assert not Team.objects.filter(name="Lag C").exists()


def test_a_team_cannot_take_another_clubs_player(client, s):
    client.force_login(s["secretary"])
    foreign = f.make_player("Främling", club=s["other_club"])

    response = client.post(
        reverse("scoring:manage-team-create", args=[s["club"].pk]),
        {"name": "Lag C", "player_one": s["players"][2].pk, "player_two": foreign.pk},
    )

    assert response.status_code == 200
    assert not Team.objects.filter(name="Lag C").exists()


def test_a_secretary_creates_a_competition_with_teams(client, s):
    client.force_login(s["secretary"])

    response = client.post(
        reverse("scoring:manage-competition-create", args=[s["club"].pk]),
        {
            "name": "Vårserien",
            "season": "2027",
            "kind": "league",
            "rules_key": "sv-tavling",
            "points_key": "sv-serie",
            "requires_confirmation": "on",
            "is_public": "on",
            "teams": [s["team_a"].pk, s["team_b"].pk],
        },
    )

    assert response.status_code == 302
    competition = Competition.objects.get(name="Vårserien")
    assert competition.organiser == s["club"]
    # Lag B is another club's: invited, and it takes part once its club accepts.
    assert set(competition.teams.all()) == {s["team_a"]}
    assert competition.invitations.get().team == s["team_b"]
    assert response["Location"] == reverse("scoring:manage-competition", args=[competition.pk])


def test_a_competition_needs_name_and_season(client, s):
    client.force_login(s["secretary"])

    response = client.post(
        reverse("scoring:manage-competition-create", args=[s["club"].pk]),
        {"name": "", "season": "", "kind": "league", "rules_key": "sv-tavling", "points_key": "sv-serie"},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Ge tävlingen ett namn." in html
    assert "Skriv säsongen" in html


def test_the_competition_page_has_the_schedule_tools_include_point(client, s):
    client.force_login(s["secretary"])

    html = client.get(reverse("scoring:manage-competition", args=[s["competition"].pk])).content.decode()

    assert 'class="schedule-tools"' in html


def test_rounds_and_a_match_added_by_hand(client, s):
    client.force_login(s["secretary"])
    competition = s["competition"]

    response = client.post(reverse("scoring:manage-round-create", args=[competition.pk]), {"number": "1", "date": "2026-10-14"})
    assert response.status_code == 302
    round_ = Round.objects.get(competition=competition, number=1)

    duplicate = client.post(reverse("scoring:manage-round-create", args=[competition.pk]), {"number": "1"})
    assert duplicate.status_code == 200
    assert "redan en omgång 1" in duplicate.content.decode()

    response = client.post(
        reverse("scoring:manage-match-create", args=[competition.pk]),
        {"round": round_.pk, "table": "3", "home_team": s["team_a"].pk, "away_team": s["team_b"].pk, "scheduled_start": "2026-10-14T18:30"},
    )
    assert response.status_code == 302
    match = Match.objects.get(competition=competition)
    assert (match.round, match.table, match.home_team, match.away_team) == (round_, 3, s["team_a"], s["team_b"])
    assert AuditEntry.objects.filter(match=match, action="match_create").exists()


def test_a_match_against_itself_or_twice_in_a_round_is_refused(client, s):
    client.force_login(s["secretary"])
    competition = s["competition"]
    round_ = f.make_round(competition, 1)
    url = reverse("scoring:manage-match-create", args=[competition.pk])

    itself = client.post(url, {"round": round_.pk, "home_team": s["team_a"].pk, "away_team": s["team_a"].pk})
    assert itself.status_code == 200
    assert "inte spela mot sig självt" in itself.content.decode()

    client.post(url, {"round": round_.pk, "table": "1", "home_team": s["team_a"].pk, "away_team": s["team_b"].pk})
    twice = client.post(url, {"round": round_.pk, "table": "2", "home_team": s["team_b"].pk, "away_team": s["team_a"].pk})
    assert twice.status_code == 200
    assert "spelar redan en match i den här omgången" in twice.content.decode()
    assert Match.objects.count() == 1


def test_a_played_matchs_teams_cannot_change(client, s):
    client.force_login(s["secretary"])
    match = f.make_match(competition=s["competition"], home=s["team_a"], away=s["team_b"])
    from scoring import services

    services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=match.version)
    match.refresh_from_db()
    team_c = f.make_team("Lag C", club=s["club"], players=s["players"][2:])
    s["competition"].teams.add(team_c)

    response = client.post(
        reverse("scoring:manage-match-edit", args=[match.pk]),
        {"version": match.version, "round": match.round_id, "table": "5", "home_team": team_c.pk, "away_team": s["team_b"].pk},
    )

    assert response.status_code == 302  # the teams are locked fields; the table may change
    match.refresh_from_db()
    assert match.home_team == s["team_a"] and match.table == 5


def test_the_captain_list_holds_the_club_s_people_and_free_accounts_only():
    from scoring.forms.manage import TeamForm

    club, other = f.make_club("Klubben"), f.make_club("Andra klubben")
    own_player = f.make_user("egen-spelare")
    f.make_player("Egen Spelare", club=club, user=own_player)
    own_secretary = f.make_user("egen-sekreterare")
    club.secretaries.add(own_secretary)
    free = f.make_user("ny-kapten")
    other_secretary = f.make_user("andra-sekreterare")
    other.secretaries.add(other_secretary)
    other_player = f.make_user("andra-spelare")
    f.make_player("Andra Spelare", club=other, user=other_player)
    admin = f.make_user("administratoren")
    admin.is_superuser = True
    admin.save()

    names = {user.username for user in TeamForm(club=club).fields["captain"].queryset}
    assert {"egen-spelare", "egen-sekreterare", "ny-kapten"} <= names
    assert not names & {"andra-sekreterare", "andra-spelare", "administratoren"}
    # A captain chosen before stays choosable.
    team = f.make_team(club=club, captain=other_player)
    assert other_player in TeamForm(club=club, instance=team).fields["captain"].queryset


def test_the_competition_page_links_the_printouts_and_names_the_byes(client, s):
    from scoring.models import Bye, Round

    client.force_login(s["secretary"])
    competition = s["competition"]
    round_ = Round.objects.create(competition=competition, number=1)
    home, away, resting = (f.make_team(f"Lag {name}", club=s["club"]) for name in "XYZ")
    competition.teams.add(home, away, resting)
    f.make_match(home=home, away=away, competition=competition, round_number=1)
    Bye.objects.create(round=round_, team=resting)

    html = client.get(reverse("scoring:manage-competition", args=[competition.pk])).content.decode()
    assert reverse("scoring:round-protocols-pdf", args=[competition.pk, 1]) in html
    assert reverse("scoring:competition-xlsx", args=[competition.pk]) in html
    assert "Lag Z har frirond." in html
