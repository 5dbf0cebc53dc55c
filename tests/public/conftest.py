"""A small public league for the public pages' tests, built through the services.

Round 1: table 1 played to the end (EXPORT_SAMPLE_DEALS, 5 500 – 3 720) and confirmed; table 2 in
progress after one deal. Round 2: one scheduled match. Beside it, a competition that is not public
with a finished match between two of the same teams.
"""

from __future__ import annotations

from datetime import date

import pytest

from scoring import services
from tests.factories import (
    EXPORT_SAMPLE_DEALS,
    make_club,
    make_competition,
    make_match,
    make_team,
    make_user,
    play_match,
    winning_deal,
)


@pytest.fixture
def league(db):
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
