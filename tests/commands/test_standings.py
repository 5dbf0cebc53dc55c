"""`manage.py standings`: the JSON rows and the readable table."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Match
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db


def _run(*args) -> str:
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def _cells(line: str) -> list[str]:
    """A line of the readable table cut at its column gaps (two spaces or more): the thin space
    inside a number stays in its cell."""
    return re.split(" {2,}", line.strip())


@pytest.fixture
def competition():
    club = make_club("Ölme Canasta")
    teams = [make_team(name, club=club) for name in ("Zeta", "Åsa", "Alfa", "Öland")]
    zeta, asa, alfa, oland = teams
    competition = make_competition(organiser=club, teams=teams)
    make_result(competition, alfa, zeta, 5000, 4000, round_number=1)
    make_result(competition, asa, oland, 4500, 4500, round_number=1, table=2)
    make_result(competition, alfa, asa, 3000, 5200, round_number=2)
    make_result(competition, zeta, oland, 5100, 2000, round_number=2, table=2,
                status=Match.Status.SUBMITTED)
    return competition


def test_json_rows_in_rank_order(competition):
    rows = json.loads(_run("--competition", str(competition.pk), "--json"))
    assert rows == [
        {"rank": 1, "tied": False, "team": "Åsa", "played": 2, "won": 1, "drawn": 1, "lost": 0,
         "points": 1.5, "card_points_for": 9700, "card_points_against": 7500, "difference": 2200},
        {"rank": 2, "tied": False, "team": "Alfa", "played": 2, "won": 1, "drawn": 0, "lost": 1,
         "points": 1, "card_points_for": 8000, "card_points_against": 9200, "difference": -1200},
        {"rank": 3, "tied": False, "team": "Öland", "played": 1, "won": 0, "drawn": 1, "lost": 0,
         "points": 0.5, "card_points_for": 4500, "card_points_against": 4500, "difference": 0},
        {"rank": 4, "tied": False, "team": "Zeta", "played": 1, "won": 0, "drawn": 0, "lost": 1,
         "points": 0, "card_points_for": 4000, "card_points_against": 5000, "difference": -1000},
    ]
    assert isinstance(rows[1]["points"], int) and isinstance(rows[0]["points"], float)


def test_json_after_a_round(competition):
    rows = json.loads(_run("--competition", str(competition.pk), "--json", "--round", "1"))
    assert [(row["rank"], row["tied"], row["team"], row["points"]) for row in rows] == [
        (1, False, "Alfa", 1),
        (2, True, "Åsa", 0.5),
        (2, True, "Öland", 0.5),
        (4, False, "Zeta", 0),
    ]


def test_readable_table_in_swedish(competition):
    text = _run("--competition", str(competition.pk))
    lines = text.splitlines()
    # The page's short headers (selectors.standings.STANDINGS_COLUMNS).
    assert _cells(lines[2]) == ["Plac.", "Lag", "Sp", "V", "O", "F", "P", "För", "Mot", "+/\u2212"]
    assert lines[4].split()[:2] == ["1", "Åsa"]
    assert "1,5" in lines[4]
    assert "väntar på bekräftelse" in text


def test_unknown_competition():
    with pytest.raises(CommandError):
        _run("--competition", "999999", "--json")


def test_readable_table_of_a_difference_preset_shows_only_the_difference():
    club = make_club()
    alfa, beta = make_team("Alfa", club=club), make_team("Beta", club=club)
    competition = make_competition(organiser=club, teams=[alfa, beta], points_key="fi-liitto")
    make_result(competition, alfa, beta, 5200, 4000)
    lines = _run("--competition", str(competition.pk)).splitlines()
    assert _cells(lines[2]) == ["Plac.", "Lag", "Sp", "V", "O", "F", "P", "+/\u2212"]
    # The site's numbers: a thin space between thousands, a true minus.
    assert _cells(lines[4]) == ["1", "Alfa", "1", "1", "0", "0", "2", "+1\u202f200"]
    assert _cells(lines[5]) == ["2", "Beta", "1", "0", "0", "1", "0", "\u22121\u202f200"]
