"""Individual club nights through the services: sign-up, the draw of each round as rotating
partnerships, the protocol machinery of pairs unchanged, and the individual table with Buchholz.
The club night's pages are tests/views/test_club_night_pages.py."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Competition, Match, Team
from scoring.selectors.individual import individual_standings
from scoring.selectors.rankings import PAIRS, RankingFilter, rankings
from scoring.services.errors import DomainError
from scoring.services.individual import individual_pair_round, individual_signup
from tests.factories import make_club, make_competition, make_player, make_user, winning_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    secretary = make_user("klubbsekreterare")
    club = make_club("Canastaklubben Ruter", secretary=secretary)
    players = [make_player(name, club=club) for name in ("Alma", "Berit", "Carl", "Doris", "Egon", "Frida", "Gun", "Hans", "Ingvar")]
    competition = make_competition(name="Klubbkväll", organiser=club, kind=Competition.Kind.INDIVIDUAL,
                                   requires_confirmation=False)
    return {"secretary": secretary, "club": club, "players": players, "competition": competition}


def play_round(round_, user):
    for match in round_.matches.all():
        match = services.match_start(match=match, user=user)
        for number in range(1, 4):
            match = services.deals_record(match=match, user=user, entry=winning_deal(number, "home"),
                                          expected_version=match.version)


def test_a_club_night_draws_rotating_partners_and_ranks_players(night):
    user, competition = night["secretary"], night["competition"]
    with pytest.raises(DomainError):
        individual_pair_round(competition=competition, user=user)  # nobody signed up
    individual_signup(competition=competition, players=night["players"], user=user)
    first = individual_pair_round(competition=competition, user=user, seed=2026)
    assert first.pairing_seed == 2026
    assert first.matches.count() == 2 and first.sitting_out.count() == 1
    assert all(team.rotating for team in Team.objects.filter(competitions=competition))
    # Not complete yet: the next round waits.
    with pytest.raises(DomainError, match="Omgång 1 är inte klar"):
        individual_pair_round(competition=competition, user=user)
    play_round(first, user)
    assert all(m.status == Match.Status.FINISHED for m in first.matches.all())

    rows = individual_standings(competition)
    winners = {p for m in first.matches.all() for p in (m.home_team.player_one_id, m.home_team.player_two_id)}
    assert {row.record.team_id for row in rows[:4]} == winners
    top = rows[0].record
    assert (top.played, top.won, top.points) == (1, 1, 1)
    # Each winner met the two losers of his table, who have 0 points: Buchholz 0; each loser met
    # two winners: Buchholz 2.
    assert {row.record.buchholz for row in rows if row.record.team_id in winners} == {0}
    assert {row.record.buchholz for row in rows if row.record.played and row.record.team_id not in winners} == {2}

    second = individual_pair_round(competition=competition, user=user)
    assert second.repeats == 0
    partners_before = {frozenset((m.home_team.player_one_id, m.home_team.player_two_id)) for m in first.matches.all()}
    for match in second.matches.all():
        for team in (match.home_team, match.away_team):
            assert frozenset((team.player_one_id, team.player_two_id)) not in partners_before
    # The one who sat out in round 1 plays in round 2.
    assert not set(second.sitting_out.all()) & set(first.sitting_out.all())
    # Rotating partnerships are not fixed pairs: they are not in the pairs' ranking list.
    assert rankings(RankingFilter(), PAIRS) == []


def test_buchholz_breaks_ties_in_a_pair_tournament(federation):
    from scoring.selectors import competition_standings
    from tests.factories import make_result

    t = federation["teams"]
    cup = Competition.objects.create(name="Cupen", season="2026/27", organiser=federation["clubs"]["ess"],
                                     kind=Competition.Kind.TOURNAMENT,
                                     points_overrides={"tiebreaks": ["points", "buchholz", "name"]})
    # Round 1: AB beat CD, EF beat GH. Round 2: AB beat EF, GH beat CD. Points: AB 2, EF 1, GH 1, CD 0.
    make_result(cup, t["ab"], t["cd"], round_number=1)
    make_result(cup, t["ef"], t["gh"], round_number=1, table=2)
    make_result(cup, t["ab"], t["ef"], round_number=2)
    make_result(cup, t["gh"], t["cd"], round_number=2, table=2)
    # Buchholz: EF met GH (1) and AB (2) = 3; GH met EF (1) and CD (0) = 1: EF ahead of GH.
    # AB met CD (0) and EF (1) = 1; CD met AB (2) and GH (1) = 3.
    rows = competition_standings(cup)
    assert [(r.record.name, r.rank_label, r.record.buchholz) for r in rows] == [
        ("Anna/Bo", "1", 1), ("Eva/Filip", "2", 3), ("Greta/Hugo", "3", 1), ("Cilla/Dan", "4", 3),
    ]


def test_the_players_table_is_in_the_competition_pdf_and_workbook(night):
    import io

    from openpyxl import load_workbook

    from scoring.exports import pdf, xlsx
    from tests.support.readers import pdf_text, squeeze

    user, competition = night["secretary"], night["competition"]
    individual_signup(competition=competition, players=night["players"][:8], user=user)
    play_round(individual_pair_round(competition=competition, user=user, seed=5), user)
    text = squeeze(pdf_text(pdf.competition_pdf(competition).content))
    assert "Spelartabell" in text and "Buchholz" in text
    workbook = load_workbook(io.BytesIO(xlsx.competition_xlsx(competition).content), read_only=True)
    rows = [r for r in workbook["Spelartabell"].iter_rows(values_only=True) if r and r[0] is not None]
    header = next(i for i, r in enumerate(rows) if r[:2] == ("Plac.", "Spelare"))
    assert len(rows) - header - 1 == 8
    assert rows[header + 1][5] == 1  # the winners of round 1 on top, 1 match point
