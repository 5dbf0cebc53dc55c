"""The public pages keep their tables, the places chart and a match's protocol in the cache under
what they show (scoring.tables.KeptTable, templates/scoring/public/_kept_table.html): a visitor must
see every change at once, on the next page load, without anything being deleted from the cache."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import deal, make_admin, winning_deal
from tests.public.test_standings_page import standings_rows

pytestmark = pytest.mark.django_db


def page(client, name, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_a_deal_saved_shows_at_once_on_every_page_that_shows_the_match(client, league):
    live, secretary = league["live"], league["secretary"]
    competition = league["competition"]
    pages = [
        ("scoring:competition-detail", competition.pk),
        ("scoring:round-detail", competition.pk, 1),
        ("scoring:match-detail", live.pk),
        ("scoring:team-detail", live.home_team_id),
    ]
    for name, *args in pages:
        assert "1\u202f885" in page(client, name, *args)  # the live match after deal 1 (kept now)

    services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)
    for name, *args in pages:
        html = page(client, name, *args)
        assert "1\u202f985" in html, name  # 1 885 + 100


def test_a_finished_match_moves_the_standings_and_the_places(client, league):
    competition, secretary = league["competition"], league["secretary"]
    before = standings_rows(page(client, "scoring:competition-detail", competition.pk))
    live = league["live"]
    for number in range(2, 4):
        live = services.deals_record(match=live, user=secretary, entry=winning_deal(number, "home"), expected_version=None)
    assert live.status == live.Status.FINISHED
    live = services.match_submit(match=live, user=secretary, expected_version=live.version)
    services.match_confirm(match=live, user=make_admin(), expected_version=live.version)
    after = standings_rows(page(client, "scoring:competition-detail", competition.pk))
    assert before != after
    damerna = next(row for row in after if row[1] == "Damerna")
    assert damerna[2] == "1"  # played


def test_a_renamed_team_is_renamed_in_every_kept_fragment(client, league):
    competition, secretary = league["competition"], league["secretary"]
    live = league["live"]
    pages = [
        ("scoring:competition-detail", competition.pk),
        ("scoring:round-detail", competition.pk, 1),
        ("scoring:match-detail", live.pk),
        ("scoring:team-detail", league["teams"]["orm"].pk),
    ]
    for name, *args in pages:
        assert "Damerna" in page(client, name, *args)
    team = league["teams"]["dam"]
    team.name = "Drottningarna"
    services.team_save(user=secretary, team=team)
    for name, *args in pages:
        html = page(client, name, *args)
        assert "Drottningarna" in html and "Damerna" not in html, name


def test_a_renamed_player_is_renamed_on_the_match_page(client, league):
    live, secretary = league["live"], league["secretary"]
    assert live.home_team.player_one.name in page(client, "scoring:match-detail", live.pk)
    player = live.home_team.player_one
    player.name = "Nytt Namn Efternamn"
    services.player_save(user=secretary, player=player)
    assert "Nytt Namn Efternamn" in page(client, "scoring:match-detail", live.pk)


def test_the_language_is_part_of_every_key(client, league):
    competition = league["competition"]
    swedish = page(client, "scoring:competition-detail", competition.pk)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = page(client, "scoring:competition-detail", competition.pk)
    # The table's caption and column headers are in the kept fragment.
    assert "<caption>Standings</caption>" in english and "<caption>Standings</caption>" not in swedish
    assert "<caption>Tabell</caption>" in swedish


def test_the_secretarys_sheet_entry_form_and_log_follow_every_change(client, league):
    """The protocol page keeps its sheet and its log under the match's page stamp
    (scoring.selectors.stamps.match_page_stamp), and the empty entry fields under the rules and the
    teams' names (entry_fields_stamp): a deal saved elsewhere (another secretary, an import), a
    renamed team and a new log entry all show on the next look, and the form asks for the next deal."""
    live, secretary = league["live"], league["secretary"]
    client.force_login(secretary)
    url = reverse("scoring:match-protocol", args=[live.pk])

    def look():
        html = page_at(client, url)
        total = re.search(r'id="preview-home-total">([^<]*)<', html).group(1)
        return html, total, html.count('class="audit-table__when"')

    html, total, logged = look()
    assert total == "1\u202f885" and 'id="deal-2"' not in html
    services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)
    html, total, logged_after = look()
    assert total == "1\u202f985" and 'id="deal-2"' in html
    assert logged_after == logged + 1
    assert ">Spara giv 3<" in html and ">Spara giv 2<" not in html
    team = league["teams"]["dam"]
    team.name = "Drottningarna"
    services.team_save(user=secretary, team=team)
    html, _total, _logged = look()
    sheet = html[html.index('class="sheet"'):html.index("</table>", html.index('class="sheet"'))]
    assert "Drottningarna" in sheet and "Damerna" not in sheet
    fields = html[html.index('class="deal-sides"'):html.index('class="deal-common"')]
    assert "Drottningarna" in fields and "Damerna" not in fields


def page_at(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_team_pages_seasons_follow_a_confirmed_result(client, league):
    """The "season by season" table is kept under the results' stamp (history.season_history_stamp):
    a confirmed result shows at once."""
    competition, secretary = league["competition"], league["secretary"]
    team = league["teams"]["dam"]

    def seasons_row() -> str:
        html = page(client, "scoring:team-detail", team.pk)
        return re.search(rf'<tr data-season="{re.escape(competition.season)}">(.*?)</tr>', html, re.S).group(1)

    assert "Damerna" in page(client, "scoring:team-detail", team.pk)
    before = seasons_row() if 'data-season="' in page(client, "scoring:team-detail", team.pk) else None
    live = league["live"]
    live = services.deals_record(match=live, user=secretary, entry=winning_deal(2, "home"), expected_version=None)
    live = services.deals_record(match=live, user=secretary, entry=winning_deal(3, "home"), expected_version=None)
    live = services.match_submit(match=live, user=secretary, expected_version=live.version)
    services.match_confirm(match=live, user=make_admin(), expected_version=live.version)
    after = seasons_row()
    assert after != before
    assert re.search(r">\s*1\s*</a>", after), after  # one confirmed match this season


def test_a_submitted_result_shows_as_preliminary_beside_the_kept_standings(client, league):
    """The standings part is kept under the counted results' stamp and the number awaiting
    confirmation: a result submitted but not yet confirmed changes no counted result, and still
    shows at once as preliminary."""
    competition, secretary = league["competition"], league["secretary"]
    assert competition.requires_confirmation
    assert "notice--preliminary" not in page(client, "scoring:competition-detail", competition.pk)
    live = league["live"]
    for number in range(2, 4):
        live = services.deals_record(match=live, user=secretary, entry=winning_deal(number, "home"), expected_version=None)
    services.match_submit(match=live, user=secretary, expected_version=live.version)
    assert "notice--preliminary" in page(client, "scoring:competition-detail", competition.pk)


def test_a_deal_saved_draws_only_its_own_row_of_a_kept_table(client, league):
    """Round 1 has a played and a live match: after a deal in the live one, its row is drawn anew
    (with the new total) and the played match's row is taken as kept (django_tables2/canasta.html)."""
    from unittest import mock

    from scoring.tables import ResultsTable

    competition, live, secretary = league["competition"], league["live"], league["secretary"]
    before = page(client, "scoring:round-detail", competition.pk, 1)
    services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)
    with mock.patch.object(ResultsTable, "render_teams", autospec=True, side_effect=ResultsTable.render_teams) as drawn:
        after = page(client, "scoring:round-detail", competition.pk, 1)
    assert [call.kwargs["record"].pk for call in drawn.call_args_list] == [live.pk]
    assert "1\u202f985" in after and "1\u202f985" not in before

    def row_of(html, match):
        return re.search(rf'<tr [^>]*data-match-id="{match.pk}".*?</tr>', html, re.S).group(0)

    assert row_of(after, league["played"]) == row_of(before, league["played"])
    assert row_of(after, live) != row_of(before, live)


@pytest.mark.parametrize("where", ["public match page", "secretary's sheet"])
def test_a_kept_deal_row_follows_a_correction_of_an_earlier_deal(client, league, where):
    """A match's protocol keeps each deal's rows under that deal's values (ProtocolDeal): a
    correction of deal 1 changes deal 1's row and the running total of every later row, and each
    shows at once; a deal saved after them draws its own row (and the one before, no longer the last)."""
    live, secretary = league["live"], league["secretary"]
    client.force_login(secretary)
    name = "scoring:match-detail" if where == "public match page" else "scoring:match-protocol"
    live = services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                                 expected_version=None)

    def rows():
        html = page(client, name, live.pk)
        return {number: re.search(rf'id="deal-{number}".*?</tr>', html, re.S).group(0) for number in (1, 2)}

    before = rows()
    assert "1\u202f985" in before[2]
    live = services.deal_correct(match=live, user=secretary, number=1, entry=deal(1, home_cards=120, away_cards=50,
                                 end="stock"), reason="Fel avskrivet", expected_version=None)
    after = rows()
    assert after[1] != before[1] and after[2] != before[2]
    assert "1\u202f985" not in after[2] and ">220<" in after[2]
