"""The cached standings and public pages (scoring/cache.py): a new result shows at once, a cached
page carries the visitor's own CSRF token, a signed-in user gets the copy of those who see the same
page with his own name and menu, and nobody gets a page he may not see."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Match
from scoring.selectors import competition_standings
from tests.factories import make_user, protocol_setup, winning_deal

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


def _row(html: str, team_id: int) -> str:
    """The standings row of one team, its tags removed (figures separated by spaces)."""
    found = re.search(rf'<tr[^>]*data-team-id="{team_id}"[^>]*>(.*?)</tr>', html, re.S)
    assert found, "team row missing"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def _finish(match: Match, user) -> Match:
    for number in (1, 2, 3):  # 3 × 1 885: the home team passes 5 000 in deal 3
        match = services.deals_record(
            match=match, user=user, entry=winning_deal(number, "home"), expected_version=match.version
        )
    return match


@pytest.fixture
def played():
    setup = protocol_setup()
    competition = setup["match"].competition
    competition.requires_confirmation = False
    competition.save()
    return setup


def test_a_new_result_shows_at_once_on_the_cached_standings_page(played):
    match, home = played["match"], played["home"]
    url = reverse("scoring:competition-detail", args=[match.competition_id])
    visitor = Client()

    before = visitor.get(url)
    assert before.status_code == 200
    assert "Hemmalaget 0 0 0 0 0" in _row(before.content.decode(), home.pk)
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url)
    assert again.status_code == 200
    assert len(queries) <= 2, "the second visit is served from the cache"

    _finish(match, played["secretary"])

    after = Client().get(url)
    row = _row(after.content.decode(), home.pk)
    # Played 1, won 1, drawn 0, lost 0, 1 match point, 5 655 card points for.
    assert "Hemmalaget 1 1 0 0 1 5 655" in row.replace("\u2009", " "), row


def test_standings_selector_sees_a_result_written_by_another_process(played):
    """Another worker writes the result: no bump reaches this process, the stamp still changes."""
    match, home = played["match"], played["home"]
    competition = match.competition
    assert competition_standings(competition)[0].record.played == 0

    from decimal import Decimal

    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, winner="home", home_total=5000, away_total=3000, deal_count=3,
        home_points=Decimal(1), away_points=Decimal(0), home_for=5000, home_against=3000,
        away_for=3000, away_against=5000, version=match.version + 1,
    )
    rows = {row.record.team_id: row.record for row in competition_standings(competition)}
    assert rows[home.pk].played == 1 and rows[home.pk].points == 1


def test_a_cached_page_carries_the_visitors_own_working_csrf_token(played):
    url = reverse("scoring:match-detail", args=[played["match"].pk])
    Client().get(url)  # fills the cache
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(url)
    assert page.status_code == 200
    tokens = set(re.findall(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content))
    assert len(tokens) == 1 and b"scoring-csrf-token" not in page.content
    switched = visitor.post(
        reverse("set_language"), {"language": "en", "next": url, "csrfmiddlewaretoken": tokens.pop().decode()}
    )
    assert switched.status_code == 302
    english = visitor.get(url)
    assert english.status_code == 200 and 'lang="en"' in english.content.decode()


def _view_queries(queries) -> list[str]:
    """The queries a view would make beyond the session, the user, the stamp and the menu."""
    return [q["sql"] for q in queries.captured_queries if "scoring_match" in q["sql"] and "MAX(" not in q["sql"]]


def test_a_signed_in_captain_gets_the_cached_page_with_his_own_name_and_menu(played):
    url = reverse("scoring:team-detail", args=[played["home"].pk])
    assert Client().get(url).status_code == 200  # a visitor fills the cache
    captain = Client(enforce_csrf_checks=True)
    captain.force_login(played["away_captain"])
    with CaptureQueriesContext(connection) as queries:
        page = captain.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and not _view_queries(queries), "served from the visitors' copy"
    assert 'class="site-tools__user">bortakapten<' in html and reverse("scoring:my-matches") in html
    assert "scoring-viewer" not in html and "scoring-csrf-token" not in html
    token = re.search(r'class="logout-form".*?name="csrfmiddlewaretoken" value="([^"]+)"', html, re.S).group(1)
    assert captain.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
    # And the next visitor sees no trace of the captain.
    visitor = Client().get(url).content.decode()
    assert "bortakapten" not in visitor and reverse("scoring:my-matches") not in visitor
    assert reverse("login") in visitor


def test_visitors_get_the_menu_as_it_was_made_for_the_first_visitor(played, monkeypatch):
    """Made once: a visitor's name and menu are the same for every visitor."""
    from scoring import cache as page_cache

    url = reverse("scoring:match-detail", args=[played["match"].pk])
    first = Client().get(url).content
    monkeypatch.setattr(page_cache, "_made_parts", lambda *args: pytest.fail("made again for a visitor"))
    again = Client().get(url).content
    # The same page but for each visitor's own CSRF token.
    assert page_cache.TOKEN_PATTERN.sub(b"", again) == page_cache.TOKEN_PATTERN.sub(b"", first)


def test_a_secretary_has_a_copy_of_his_own(played):
    """A secretary may see more (his clubs' private competitions, blank protocols to print)."""
    match = played["match"]
    url = reverse("scoring:round-detail", args=[match.competition_id, match.round.number])
    blank = reverse("scoring:round-protocols-pdf", args=[match.competition_id, match.round.number])
    assert blank not in Client().get(url).content.decode()
    secretary = Client()
    secretary.force_login(played["secretary"])
    assert blank in secretary.get(url).content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = secretary.get(url).content.decode()
    assert blank in again and not _view_queries(queries)
    assert "Hantera" in again or "Manage" in again
    assert blank not in Client().get(url).content.decode()


def test_a_private_competition_is_served_only_to_those_who_may_see_it(played):
    competition = played["match"].competition
    competition.is_public = False
    competition.save()
    url = reverse("scoring:competition-detail", args=[competition.pk])
    secretary = Client()
    secretary.force_login(played["secretary"])
    assert secretary.get(url).status_code == 200
    assert secretary.get(url).status_code == 200
    assert Client().get(url).status_code == 404
    captain = Client()
    captain.force_login(played["home_captain"])
    assert captain.get(url).status_code == 404
    other = Client()
    other.force_login(make_user("annan-sekreterare"))
    played["away"].club.secretaries.add(User.objects.get(username="annan-sekreterare"))
    assert other.get(url).status_code == 404


def test_a_walk_over_shows_at_once_on_the_team_and_match_pages(played):
    match, home = played["match"], played["home"]
    team_url = reverse("scoring:team-detail", args=[home.pk])
    match_url = reverse("scoring:match-detail", args=[match.pk])
    first_team, first_match = Client().get(team_url), Client().get(match_url)
    services.match_forfeit(match=match, user=played["secretary"], winner="away", reason="sjuk",
                           expected_version=match.version)
    assert Client().get(team_url).content != first_team.content
    assert Client().get(match_url).content != first_match.content


def test_a_table_is_cached_by_what_it_shows(played):
    from django.utils import translation

    from scoring.tables import StandingsTable
    from scoring.templatetags.scale_cache import table_key

    competition = played["match"].competition
    before = StandingsTable(competition_standings(competition), caption="Tabell")
    same = StandingsTable(competition_standings(competition), caption="Tabell")
    assert table_key(before) == table_key(same)
    assert table_key(before) != table_key(StandingsTable(competition_standings(competition), caption="Efter omgång 1"))
    with translation.override("en"):
        english = table_key(before)
    assert english != table_key(before)
    _finish(played["match"], played["secretary"])
    after = StandingsTable(competition_standings(competition), caption="Tabell")
    assert table_key(after) != table_key(before)


def test_recording_a_deal_does_not_rewrite_the_earlier_deals(played):
    """The cost of a save must not grow with the match: earlier deals are not written again."""
    match, secretary = played["match"], played["secretary"]
    from tests.factories import deal

    for number in (1, 2, 3, 4):
        match = services.deals_record(match=match, user=secretary, entry=deal(number, home_cards=60, away_cards=-20,
                                      end="stock"), expected_version=match.version)
    with CaptureQueriesContext(connection) as queries:
        match = services.deals_record(match=match, user=secretary, entry=deal(5, home_cards=60, away_cards=-20,
                                      end="stock"), expected_version=match.version)
    deal_updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "scoring_deal"')]
    assert deal_updates == []
    assert match.deal_count == 5 and match.home_total == 300 and match.away_total == -100
