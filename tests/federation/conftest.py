"""A small federation: two clubs, four pairs, two seasons of confirmed results."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.factories import make_club, make_competition, make_player, make_result, make_team


@pytest.fixture
def federation(db):
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
    series = make_competition(name="Allsvenskan", season="2026/27", organiser=ess, has_club_table=True)
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
