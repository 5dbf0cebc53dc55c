"""Fixtures of the hostile-input suite: a played, public competition whose every name is a text a
spreadsheet would try to evaluate."""

from __future__ import annotations

import pytest

from scoring.services import match_confirm, match_submit
from tests import factories as f

# Texts that a spreadsheet program evaluates, or that a CSV reader would: each must come back as
# typed, never as a formula, a link or an error value.
HOSTILE_TEXTS = {
    "home": '=HYPERLINK("http://x.example","team")',
    "away": "+SUM(1;2)",
    "competition": "@cmd|' /C calc'!A0",
    "club": "-2+3",
    "extra_home": "\t=1+1",
    "extra_away": "\r=1+1",
    "error": "#N/A",
}


@pytest.fixture
def hostile_competition(db):
    """A public competition with one played, confirmed match and one to play, all names hostile."""
    secretary = f.make_user("sekreterare")
    home_club = f.make_club(HOSTILE_TEXTS["club"], secretary=secretary)
    away_club = f.make_club("Bortaklubben")
    away_captain = f.make_user("bortakapten")
    home = f.make_team(HOSTILE_TEXTS["home"], club=home_club)
    away = f.make_team(HOSTILE_TEXTS["away"], club=away_club, captain=away_captain)
    competition = f.make_competition(organiser=home_club, name=HOSTILE_TEXTS["competition"])
    match = f.make_match(competition=competition, home=home, away=away)
    match = f.play_match(match, secretary)
    match = match_submit(match=match, user=secretary, expected_version=None)
    match = match_confirm(match=match, user=away_captain, expected_version=None)
    other = f.make_match(
        competition=competition,
        table=2,
        home=f.make_team(HOSTILE_TEXTS["extra_home"], club=home_club),
        away=f.make_team(HOSTILE_TEXTS["error"], club=away_club),
    )
    return {"competition": competition, "match": match, "other": other, "secretary": secretary}
