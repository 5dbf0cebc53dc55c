"""Every tie-break through the selector: the competition's order, head-to-head, shared ranks."""

from __future__ import annotations

import pytest

from scoring.selectors import competition_standings
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db


def _setup(names, tiebreaks=None):
    club = make_club()
    teams = {name: make_team(name, club=club) for name in names}
    overrides = {"tiebreaks": tiebreaks} if tiebreaks else {}
    competition = make_competition(organiser=club, teams=teams.values(), points_overrides=overrides)
    return competition, teams


def _order(competition):
    return [(row.rank_label, row.record.name) for row in competition_standings(competition)]


class Results:
    """Record results by team name: play("A", "B", 5000, 4000)."""

    def __init__(self, competition, teams):
        self.competition, self.teams, self.round = competition, teams, 0

    def play(self, home, away, home_total, away_total):
        self.round += 1
        make_result(self.competition, self.teams[home], self.teams[away], home_total, away_total,
                    round_number=self.round)


def test_card_points_for_after_points():
    competition, teams = _setup(["A", "B", "X"])
    r = Results(competition, teams)
    r.play("A", "X", 5000, 0)      # A: 1 point, 5000 for
    r.play("X", "B", 4000, 6000)   # B: 1 point, 6000 for
    assert _order(competition) == [("1", "B"), ("2", "A"), ("3", "X")]


def test_difference_when_card_points_for_are_equal():
    competition, teams = _setup(["A", "B", "X", "Y"])
    r = Results(competition, teams)
    r.play("A", "X", 5000, 1000)   # diff +4000
    r.play("B", "Y", 5000, 2000)   # diff +3000
    assert _order(competition)[:2] == [("1", "A"), ("2", "B")]


def test_difference_order_of_the_finnish_preset():
    """fi-liitto ranks by difference right after points, before card points for."""
    club = make_club()
    teams = {name: make_team(name, club=club) for name in ("A", "B", "X", "Y")}
    competition = make_competition(organiser=club, teams=teams.values(), points_key="fi-liitto")
    r = Results(competition, teams)
    r.play("A", "X", 5000, 3000)   # more for, smaller difference
    r.play("B", "Y", 4000, 1000)
    assert _order(competition)[:2] == [("1", "B"), ("2", "A")]


def test_ratio():
    competition, teams = _setup(["A", "B", "X", "Y"], ["points", "ratio", "name"])
    r = Results(competition, teams)
    r.play("A", "X", 6000, 4000)    # ratio 1.5
    r.play("B", "Y", 10000, 8000)   # ratio 1.25, same difference
    assert _order(competition)[:2] == [("1", "A"), ("2", "B")]
    competition, teams = _setup(["A", "B", "X", "Y"], ["points", "difference", "name"])
    r = Results(competition, teams)
    r.play("A", "X", 6000, 4000)
    r.play("B", "Y", 10000, 8000)
    assert _order(competition)[:2] == [("1=", "A"), ("1=", "B")]


def test_wins():
    competition, teams = _setup(["A", "B", "X", "Y"], ["points", "wins", "name"])
    r = Results(competition, teams)
    r.play("B", "X", 5000, 4000)
    r.play("Y", "B", 5000, 4000)   # B: one win, one loss = 1 point
    r.play("A", "X", 4000, 4000)
    r.play("Y", "A", 3000, 3000)   # A: two draws = 1 point
    assert _order(competition) == [("1", "Y"), ("2", "B"), ("3", "A"), ("4", "X")]
    competition.points_overrides = {"tiebreaks": ["points", "name"]}
    competition.save()
    assert _order(competition)[1:3] == [("2=", "A"), ("2=", "B")]


def test_head_to_head_separates_two_teams():
    competition, teams = _setup(["A", "B", "C", "D"])
    r = Results(competition, teams)
    r.play("A", "B", 5000, 4000)   # A beat B
    r.play("C", "A", 5000, 4000)
    r.play("B", "D", 5000, 4000)
    # A and B: 1 point, 9000 for, 9000 against each; A won their match.
    names = [name for _, name in _order(competition)]
    assert names.index("A") < names.index("B")
    ranks = dict((name, label) for label, name in _order(competition))
    assert not ranks["A"].endswith("=") and not ranks["B"].endswith("=")
    # The same figures, but B won the meeting: B goes first. (Swapping the names shows it is not
    # the name order.)
    competition, teams = _setup(["A", "B", "C", "D"])
    r = Results(competition, teams)
    r.play("B", "A", 5000, 4000)
    r.play("C", "B", 5000, 4000)
    r.play("A", "D", 5000, 4000)
    names = [name for _, name in _order(competition)]
    assert names.index("B") < names.index("A")


def test_three_way_tie_that_nothing_breaks_shares_the_rank():
    competition, teams = _setup(["Cirkel", "Bana", "Ava"])
    r = Results(competition, teams)
    r.play("Ava", "Bana", 5000, 4000)
    r.play("Bana", "Cirkel", 5000, 4000)
    r.play("Cirkel", "Ava", 5000, 4000)
    assert _order(competition) == [("1=", "Ava"), ("1=", "Bana"), ("1=", "Cirkel")]


def test_three_way_head_to_head_counts_only_the_tied_teams():
    competition, teams = _setup(["A", "B", "C", "D"], ["points", "head_to_head", "name"])
    r = Results(competition, teams)
    r.play("A", "B", 5000, 4000)   # A +1000
    r.play("B", "C", 5000, 4500)   # B +500
    r.play("C", "A", 5000, 4800)   # C +200
    # D loses to all three; its heavy loss to C would lift C to the top if D's matches counted.
    r.play("D", "A", 4000, 5000)
    r.play("D", "B", 4500, 5000)
    r.play("D", "C", 1000, 5000)
    # Among A, B, C: 1 point each; differences A +800, C -300, B -500.
    assert _order(competition) == [("1", "A"), ("2", "C"), ("3", "B"), ("4", "D")]


def test_head_to_head_is_applied_again_to_the_teams_it_leaves_tied():
    competition, teams = _setup(["A", "B", "C", "D"], ["points", "head_to_head", "name"])
    r = Results(competition, teams)
    r.play("A", "B", 5000, 4400)   # A +600
    r.play("B", "C", 5000, 4600)   # B +400
    r.play("C", "A", 5000, 4800)   # C +200
    for team in "ABC":
        r.play("D", team, 4000, 5000)
    # Among A, B, C: 1 point each; differences A +400, B −200, C −200. B and C are still tied, so
    # head to head again between just the two of them: B beat C.
    assert _order(competition) == [("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")]


def test_shared_third_place_shows_as_three_equals():
    competition, teams = _setup(["A", "B", "C", "D", "E"])
    r = Results(competition, teams)
    r.play("A", "E", 5000, 1000)
    r.play("A", "D", 5000, 1000)
    r.play("B", "E", 5000, 2000)
    r.play("C", "E", 5000, 3000)
    r.play("D", "C", 3000, 3000)
    r.play("B", "D", 3000, 3000)
    rows = competition_standings(competition)
    labels = [(row.rank_label, row.record.name, row.rank, row.tied) for row in rows]
    assert labels[0][:2] == ("1", "A")
    # B: 1.5 points, 8000 for, 5000 against; C: 1.5 points, 8000 for, 6000 against.
    assert labels[1][:2] == ("2", "B")
    assert labels[2][:2] == ("3", "C")
    # Now make two teams equal in every figure but the name, at place 3.
    competition, teams = _setup(["A", "B", "Öst", "Väst", "E"])
    r = Results(competition, teams)
    r.play("A", "E", 5000, 1000)
    r.play("B", "E", 4900, 1000)
    r.play("Öst", "Väst", 3000, 3000)
    rows = competition_standings(competition)
    assert [(row.rank_label, row.record.name) for row in rows] == [
        ("1", "A"), ("2", "B"), ("3=", "Väst"), ("3=", "Öst"), ("5", "E"),
    ]
    assert [row.rank for row in rows] == [1, 2, 3, 3, 5]


def test_names_order_swedish_within_a_tie_but_do_not_break_it():
    competition, _ = _setup(["Örn", "Zeta", "Ärla", "Åsa", "Alfa", "Éva"])
    assert _order(competition) == [
        ("1=", "Alfa"), ("1=", "Éva"), ("1=", "Zeta"), ("1=", "Åsa"), ("1=", "Ärla"), ("1=", "Örn"),
    ]
