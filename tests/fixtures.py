"""The worlds tests share, as pytest fixtures (registered by tests/conftest.py): a small public
league, a small federation, a played and confirmed match and its round, a competition whose every
name is hostile to spreadsheets, English for a test, and where browser tests keep screenshots."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest
from django.utils import translation

from scoring import services
from scoring.models import Match
from scoring.services import match_confirm, match_submit
from tests import factories as f
from tests.factories import (
    EXPORT_SAMPLE_DEALS,
    make_club,
    make_competition,
    make_match,
    make_player,
    make_result,
    make_team,
    make_user,
    play_match,
    winning_deal,
)

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


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def played(db):
    """A match played to 5000 (tests.factories.EXPORT_SAMPLE_DEALS), submitted and confirmed."""
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"])
    match = match_submit(match=match, user=setup["secretary"], expected_version=None)
    match = match_confirm(match=match, user=setup["away_captain"], expected_version=None)
    competition = match.competition
    competition.name = "Skåneserien"
    competition.save()
    return {**setup, "match": match, "competition": competition, "round": match.round}


@pytest.fixture
def full_round(played):
    """The played match's round with two more matches, not yet played, at tables 2 and 3."""
    competition = played["competition"]
    extra = []
    for table, (home, away) in enumerate((("Östra lagen", "Ängelholm"), ("Åkarp", "Lund")), start=2):
        extra.append(
            f.make_match(
                competition=competition, table=table, home=f.make_team(home), away=f.make_team(away)
            )
        )
    return {**played, "matches": [played["match"], *extra]}


@pytest.fixture
def league(db):
    """A small public league, built through the services. Round 1: table 1 played to the end
    (EXPORT_SAMPLE_DEALS, 5 500 – 3 720) and confirmed; table 2 in progress after one deal. Round 2:
    one scheduled match. Beside it, a competition that is not public with a finished match between
    two of the same teams."""
    secretary = make_user("sekreterare")
    away_captain = make_user("bortakapten")
    organiser = make_club("Canastaklubben Ess", secretary=secretary, city="Örebro")
    other_club = make_club("Kortklubben Kung", city="Västerås")
    teams = {
        "ess": make_team("Essen", club=organiser),
        "kung": make_team("Kungarna", club=other_club, captain=away_captain),
        "dam": make_team("Damerna", club=organiser),
        "orm": make_team("Ormarna", club=other_club),
    }
    competition = make_competition(
        organiser=organiser, name="Mellansvenska serien", season="2026/27", teams=list(teams.values())
    )
    played = make_match(competition=competition, home=teams["ess"], away=teams["kung"], table=1)
    live = make_match(competition=competition, home=teams["dam"], away=teams["orm"], table=2)
    later = make_match(
        competition=competition, home=teams["kung"], away=teams["ess"], round_number=2, table=1
    )
    competition.rounds.filter(number=1).update(date=date(2026, 10, 3))
    competition.rounds.filter(number=2).update(date=date(2026, 10, 17))

    played = play_match(played, secretary, EXPORT_SAMPLE_DEALS)
    played = services.match_submit(match=played, user=secretary, expected_version=played.version)
    played = services.match_confirm(match=played, user=away_captain, expected_version=played.version)
    live = services.deals_record(
        match=live, user=secretary, entry=winning_deal(1, "home"), expected_version=live.version
    )

    hidden = make_competition(organiser=organiser, name="Klubbmästerskap", is_public=False)
    hidden_match = make_match(competition=hidden, home=teams["ess"], away=teams["dam"])
    hidden_match = play_match(hidden_match, secretary, [winning_deal(n, "home") for n in (1, 2, 3)])

    return {
        "secretary": secretary,
        "away_captain": away_captain,
        "organiser": organiser,
        "teams": teams,
        "competition": competition,
        "played": played,
        "live": live,
        "later": later,
        "hidden": hidden,
        "hidden_match": hidden_match,
    }


@pytest.fixture
def federation(db):
    """A small federation: two clubs, four pairs, two seasons of confirmed results."""
    ess = make_club("Canastaklubben Ess")
    kung = make_club("Kungarna CK")
    p = {name: make_player(name, club=club) for name, club in [
        ("Anna", ess), ("Bo", ess), ("Cilla", ess), ("Dan", ess),
        ("Eva", kung), ("Filip", kung), ("Greta", kung), ("Hugo", kung),
    ]}
    teams = {
        "ab": make_team("Anna/Bo", club=ess, players=(p["Anna"], p["Bo"])),
        "cd": make_team("Cilla/Dan", club=ess, players=(p["Cilla"], p["Dan"])),
        "ef": make_team("Eva/Filip", club=kung, players=(p["Eva"], p["Filip"])),
        "gh": make_team("Greta/Hugo", club=kung, players=(p["Greta"], p["Hugo"])),
    }
    series = make_competition(name="Allsvenskan", season="2026/27", organiser=ess, has_club_standings=True)
    old = make_competition(name="Allsvenskan", season="2025/26", organiser=ess)
    t = teams
    # 2026/27, round 1: AB beat EF 5 100–3 000; CD and GH draw 5 000–5 000.
    r1 = make_result(series, t["ab"], t["ef"], 5100, 3000, round_number=1, table=1)
    r2 = make_result(series, t["cd"], t["gh"], 5000, 5000, round_number=1, table=2)
    # Round 2: GH beat AB 5 200–4 100; EF win CD on a walk over (not rated).
    r3 = make_result(series, t["gh"], t["ab"], 5200, 4100, round_number=2, table=1)
    r4 = make_result(series, t["ef"], t["cd"], round_number=2, table=2, forfeit_winner="home")
    # Waiting for confirmation: counts nowhere yet.
    pending = make_result(series, t["ab"], t["cd"], 5300, 100, round_number=3, status=Match.Status.SUBMITTED)
    # The season before: EF beat AB.
    o1 = make_result(old, t["ef"], t["ab"], 5050, 2000, round_number=1)
    return {"clubs": {"ess": ess, "kung": kung}, "players": p, "teams": teams, "series": series, "old": old,
            "matches": {"r1": r1, "r2": r2, "r3": r3, "r4": r4, "pending": pending, "o1": o1}}


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves its screenshots: PROTOCOL_SCREENSHOTS to keep and look at them, else a
    temporary folder."""
    folder = Path(os.environ.get("PROTOCOL_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
