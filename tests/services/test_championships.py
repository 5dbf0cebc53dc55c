"""A championship played through the services: three club heats, two district heats, a final
(docs/rules.md, "Championships: qualification and carried points").

Every match is played as the demo plays them: deals recorded (or a walk over), submitted by the
organiser's secretary and confirmed; schedules made by the schedule services. Each match ends in
one of two ways whose figures are easy to add up by hand (sv-serie: a win 1 point, a loss 0):

- played: three deals of 1 885 to the winner and −40 to the loser: 5 655 for the winner, −120 for
  the loser;
- walk over: 5 000 for the winner and 2 500 for the loser.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import AuditEntry, Championship, ChampionshipStage, Match, StageQualifier
from scoring.selectors import championships as reads
from scoring.selectors import competition_standings
from scoring.services.errors import DomainError
from tests.factories import make_admin, make_club, make_competition, make_player, make_team, make_user, winning_deal

pytestmark = pytest.mark.django_db

PLAYED, WALK_OVER = "played", "walk over"


def play(match: Match, winner_team, how: str, secretary, admin) -> Match:
    side = "home" if match.home_team_id == winner_team.pk else "away"
    if how == PLAYED:  # the protocol in one go, as the demo imports its protocols
        match = services.match_import_deals(match=match, user=secretary, entries=[winning_deal(n, side) for n in range(1, 4)],
                                            expected_version=None)
    else:
        match = services.match_forfeit(match=match, user=secretary, winner=side, reason="kom inte", expected_version=None)
    match = services.match_submit(match=match, user=secretary, expected_version=None)
    return services.match_confirm(match=match, user=admin, expected_version=None)


def play_heat(competition, results: dict, secretary, admin) -> None:
    """Play every scheduled match of a heat: `results` maps a pair of names to (winner, how)."""
    for match in Match.objects.filter(competition=competition).select_related("home_team", "away_team"):
        key = frozenset((match.home_team.name, match.away_team.name))
        winner_name, how = results[key]
        winner = match.home_team if match.home_team.name == winner_name else match.away_team
        play(match, winner, how, secretary, admin)


def beats(winner: str, loser: str, how: str = PLAYED) -> tuple:
    return frozenset((winner, loser)), (winner, how)


@pytest.fixture
def world():
    admin = make_admin()
    secretary = make_user("forbundet")
    organiser = make_club("Canastaförbundet", secretary=secretary)
    clubs = {letter: make_club(f"Klubb {letter}") for letter in "ABC"}
    teams = {}
    for letter, club in clubs.items():
        for number in range(1, 5 if letter != "C" else 4):
            players = [make_player(f"{letter}{number} spelare {n}", club=club) for n in (1, 2)]
            teams[f"{letter}{number}"] = make_team(f"{letter}{number}", club=club, players=players)
    championship = services.championship_save(user=secretary, championship=Championship(
        name="SM i par", season="2026/27", organiser=organiser))
    stages = [
        services.championship_stage_save(user=secretary, stage=ChampionshipStage(
            championship=championship, name="Klubbkval", per_heat=1, best_of_rest=3)),
        services.championship_stage_save(user=secretary, stage=ChampionshipStage(
            championship=championship, name="Distriktsfinal", per_heat=1, best_of_rest=2,
            carry_points_percent=50, carry_cards_percent=10, starts_on=date(2026, 11, 1))),
        services.championship_stage_save(user=secretary, stage=ChampionshipStage(
            championship=championship, name="Final", starts_on=date(2027, 2, 1))),
    ]
    heats = {}
    for letter in "ABC":
        competition = make_competition(organiser=organiser, name=f"Kval {letter}", points_key="sv-serie",
                                       teams=[t for name, t in teams.items() if name[0] == letter])
        services.championship_heat_add(user=secretary, stage=stages[0], competition=competition)
        services.schedule_generate_league(competition=competition, user=secretary, start_date=date(2026, 10, 1))
        heats[letter] = competition
    for name in ("Distrikt norr", "Distrikt söder"):
        heats[name] = make_competition(organiser=organiser, name=name, points_key="sv-serie")
        services.championship_heat_add(user=secretary, stage=stages[1], competition=heats[name])
    heats["Final"] = make_competition(organiser=organiser, name="Finalen", points_key="sv-serie")
    services.championship_heat_add(user=secretary, stage=stages[2], competition=heats["Final"])
    return {"admin": admin, "secretary": secretary, "teams": teams, "championship": championship,
            "stages": stages, "heats": heats}


# Heat A: A1 wins all; A2 beats A3 and A4; A3 beats A4 by walk over.
#   A1 3 p, 16 965 for; A2 2 p, 5 655 + 5 655 − 120 = 11 190; A3 1 p, 5 000 − 240 = 4 760;
#   A4 0 p, 2 500 − 240 = 2 260.
# Heat B: B1 wins all; B2 beats B3 and B4 by walk over; B3 beats B4.
#   B1 3 p; B2 2 p, 5 000 + 5 000 − 120 = 9 880; B3 1 p, 5 655 + 2 500 − 120 = 8 035;
#   B4 0 p, 2 500 − 240 = 2 260 (and 16 310 against, as A4: a shared place, "6=").
# Heat C (three pairs): C1 wins both; C2 beats C3. C2 1 p, 5 655 − 120 = 5 535; C3 0 p, −240.
CLUB_RESULTS = dict([
    beats("A1", "A2"), beats("A1", "A3"), beats("A1", "A4"), beats("A2", "A3"), beats("A2", "A4"),
    beats("A3", "A4", WALK_OVER),
    beats("B1", "B2"), beats("B1", "B3"), beats("B1", "B4"), beats("B2", "B3", WALK_OVER),
    beats("B2", "B4", WALK_OVER), beats("B3", "B4"),
    beats("C1", "C2"), beats("C1", "C3"), beats("C2", "C3"),
])  # fmt: skip


def test_a_three_stage_championship_goes_on_as_worked_out_by_hand(world):
    secretary, admin, stages, heats = world["secretary"], world["admin"], world["stages"], world["heats"]
    club_stage = stages[0]
    for letter in "ABC":
        play_heat(heats[letter], CLUB_RESULTS, secretary, admin)

    road = reads.stage_road(club_stage)
    assert road.complete and road.state == "proposed"
    # The first of each heat, then the rest of all heats ranked together (points, card points for,
    # difference, head-to-head, name): A2 (2 p, 11 190), B2 (2 p, 9 880), B3 (1 p, 8 035), then
    # C2 (1 p, 5 535), A3 (1 p, 4 760), A4 and B4 equal on all (6=, the name orders), C3.
    assert [line.team for line in road.going_on] == ["A1", "B1", "C1", "A2", "B2", "B3"]
    assert [line.team for line in road.next_in_line] == ["C2", "A3", "A4", "B4", "C3"]
    reasons = {line.team: line.reason for line in road.going_on}  # in the site's language, Swedish
    assert reasons["A1"] == "Plats 1 i Kval A"
    assert reasons["A2"] == "Bästa tvåa, 1 av 3 (plats 2 i Kval A)"
    assert reasons["B2"] == "Bästa tvåa, 2 av 3 (plats 2 i Kval B)"
    assert reasons["B3"] == "Bästa övriga, 3 av 3 (plats 3 i Kval B)"
    # The combined table ranks all eleven pairs together; A4 and B4 share a place.
    combined = {row.row.record.name: row.row.rank_label for row in road.combined}
    assert (combined["A4"], combined["B4"]) == ("9=", "9=")

    # B2 withdraws: the list is drawn as before, and the next in line (C2) takes B2's place.
    teams = world["teams"]
    services.stage_withdrawal_add(user=secretary, stage=club_stage, team=teams["B2"], reason="Sjukdom i laget")
    road = reads.stage_road(club_stage)
    assert [line.team for line in road.going_on] == ["A1", "B1", "C1", "A2", "B3", "C2"]
    assert road.going_on[-1].reason == "Närmast på tur i stället för B2, som drog sig ur (plats 2 i Kval C)"
    assert [line.team for line in road.next_in_line] == ["A3", "A4", "B4", "C3"]
    logged = AuditEntry.objects.get(action="stage_withdrawal")
    assert logged.reason == "Sjukdom i laget" and logged.after["team_name"] == "B2"

    # A list the organiser saw before the withdrawal is refused; the one shown now is confirmed.
    with pytest.raises(DomainError):
        services.stage_qualifiers_confirm(user=secretary, stage=club_stage, expected=[1, 2, 3])
    services.stage_qualifiers_confirm(user=secretary, stage=club_stage, expected=road.expected)
    north, south = heats["Distrikt norr"], heats["Distrikt söder"]
    # All six ranked together: A1 and B1 (3 p, 16 965 for, −360 against: equal, the name puts A1
    # first), C1 (2 p, 11 310), A2 (2 p, 11 190), B3, C2; dealt to and fro: 1 → north, 2 → south,
    # 3 → south, 4 → north, 5 → north, 6 → south.
    assert sorted(north.teams.values_list("name", flat=True)) == ["A1", "A2", "B3"]
    assert sorted(south.teams.values_list("name", flat=True)) == ["B1", "C1", "C2"]
    assert north.matches.count() == 3 and south.matches.count() == 3  # their schedules were made
    stored = StageQualifier.objects.get(stage=club_stage, team=teams["C2"])
    assert stored.why == StageQualifier.Why.REPLACEMENT and stored.replaces == teams["B2"]
    assert AuditEntry.objects.filter(action="stage_qualifiers_confirm").count() == 1
    # Confirmed once: the page reads the stored list, and it is not confirmed again.
    assert [line.team for line in reads.stage_road(club_stage).going_on] == ["A1", "B1", "C1", "A2", "B3", "C2"]
    with pytest.raises(DomainError):
        services.stage_qualifiers_confirm(user=secretary, stage=club_stage, expected=road.expected)

    # The district heats (no points were carried from the club stage). North: A1 beats A2 and B3,
    # A2 beats B3. South: B1 beats C1 and C2 by walk over, C2 beats C1.
    #   A1 2 p, 11 310 for, −240 against; A2 1 p, 5 535 for, 5 535 against; B3 0 p.
    #   B1 2 p, 10 000 for, 5 000 against; C2 1 p, 2 500 + 5 655 = 8 155 for, 5 000 − 120 = 4 880
    #   against; C1 0 p, 2 380.
    play_heat(north, dict([beats("A1", "A2"), beats("A1", "B3"), beats("A2", "B3")]), secretary, admin)
    play_heat(south, dict([beats("B1", "C1", WALK_OVER), beats("B1", "C2", WALK_OVER), beats("C2", "C1")]),
              secretary, admin)
    district = reads.stage_road(stages[1])
    # Firsts A1 and B1; the best two of the rest: C2 (1 p, 8 155), A2 (1 p, 5 535).
    assert [line.team for line in district.going_on] == ["A1", "B1", "C2", "A2"]
    assert [line.team for line in district.next_in_line] == ["C1", "B3"]
    carried = {line.team: line.carried for line in district.going_on}
    # Half of the match points, a tenth of the card points for and against, rounded half up:
    # A1 → 1 p, 1 131, −24; B1 → 1 p, 1 000, 500; C2 → 0.5 p, 816 (815.5), 488; A2 → 0.5 p,
    # 554 (553.5), 554.
    assert (carried["A1"].points, carried["A1"].card_points_for, carried["A1"].card_points_against) == (Decimal("1.0"), 1131, -24)
    assert (carried["B1"].points, carried["B1"].card_points_for, carried["B1"].card_points_against) == (Decimal("1.0"), 1000, 500)
    assert (carried["C2"].points, carried["C2"].card_points_for, carried["C2"].card_points_against) == (Decimal("0.5"), 816, 488)
    assert (carried["A2"].points, carried["A2"].card_points_for, carried["A2"].card_points_against) == (Decimal("0.5"), 554, 554)
    services.stage_qualifiers_confirm(user=secretary, stage=stages[1], expected=district.expected)

    # The final's table starts from the carried points, before a match is played.
    final = heats["Final"]
    table = {row.record.name: row.record for row in competition_standings(final)}
    assert set(table) == {"A1", "B1", "A2", "C2"}
    assert (table["A1"].played, table["A1"].points, table["A1"].card_points_for) == (0, 1, 1131)
    assert (table["C2"].points, table["C2"].card_points_against) == (0.5, 488)
    assert final.matches.count() == 6
    # ...and keeps them when the final is played: A2 beats everyone, A1 beats B1 and C2, B1 beats C2.
    play_heat(final, dict([beats("A2", "A1"), beats("A2", "B1"), beats("A2", "C2"), beats("A1", "B1"),
                           beats("A1", "C2"), beats("B1", "C2")]), secretary, admin)
    rows = competition_standings(final)
    assert [row.record.name for row in rows] == ["A2", "A1", "B1", "C2"]
    assert [row.record.points for row in rows] == [3.5, 3, 2, 0.5]
    assert rows[0].record.card_points_for == 554 + 3 * 5655
    # The final sends nobody on: there is nothing to confirm.
    assert not reads.stage_road(stages[2]).sends_on


def test_only_the_organiser_changes_a_championship_and_a_closed_season_changes_nothing(world):
    stage = world["stages"][0]
    other = make_user("annan")
    with pytest.raises(PermissionDenied):
        services.stage_withdrawal_add(user=other, stage=stage, team=world["teams"]["A1"], reason="x")
    with pytest.raises(DomainError):
        # The heats are not played: nothing to confirm yet.
        services.stage_qualifiers_confirm(user=world["secretary"], stage=stage, expected=[])
    from scoring.services import seasons

    seasons.season_close(name="2026/27", user=world["admin"])
    with pytest.raises(DomainError):
        services.stage_withdrawal_add(user=world["secretary"], stage=stage, team=world["teams"]["A1"], reason="x")
    with pytest.raises(DomainError):
        services.championship_stage_save(user=world["secretary"], stage=ChampionshipStage(
            championship=world["championship"], name="Extra"))
