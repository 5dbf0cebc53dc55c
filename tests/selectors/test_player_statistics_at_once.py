"""A player's figures per competition, read at once for the player's page (one query over the
deals of the player's matches, whatever the number of competitions), equal those of
player_statistics asked competition by competition: both sides, a substitute, a match not played
out and a walk over included."""

import pytest

from scoring.models import Match
from scoring.selectors import player_statistics
from scoring.selectors.public import player_matches, public_player_statistics
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_the_figures_read_at_once_equal_those_asked_one_competition_at_a_time():
    setup = f.protocol_setup()
    secretary, home, away = setup["secretary"], setup["home"], setup["away"]
    f.play_match(setup["match"], secretary)
    # Another competition of the same club: the teams meet with sides turned, a substitute plays
    # for the home side, and a third match stops after two deals.
    other = f.make_competition(organiser=home.club, is_public=True)
    substitute = f.make_player("Reserven", club=away.club)
    f.play_match(f.make_match(competition=other, home=away, away=home, home_substitute=substitute), secretary)
    f.play_match(f.make_match(competition=other, home=home, away=away, table=2), secretary,
                 entries=f.EXPORT_SAMPLE_DEALS[:2])  # fmt: skip
    f.make_result(other, home, away, round_number=2, forfeit_winner="away")
    compared = 0
    for player in (home.player_one, home.player_two, away.player_one, substitute):
        rows = public_player_statistics(player, player_matches(player))
        for competition, figures in rows:
            assert figures == player_statistics(player, competition), (player, competition)
            compared += figures.deals > 0
    assert compared >= 5
    assert Match.objects.filter(status__in=Match.PLAYED_STATUSES).count() == 3
