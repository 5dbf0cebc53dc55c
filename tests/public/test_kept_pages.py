"""A public page's body is kept under the stamp of what it shows (scoring.views.public.KeptBodyMixin,
scoring.selectors.stamps): a second look at a page that has not changed reads none of the body's
data, and any change, or another viewer, address or language, gets a body drawn for it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.selectors import public as public_selectors
from scoring.views import public as public_views
from tests.factories import deal, make_admin

pytestmark = pytest.mark.django_db


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def main_part(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def counting(monkeypatch, owner, name) -> list:
    """Count the calls of owner.name (still calling it)."""
    calls = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.mark.parametrize(
    "url_of, owner, read",
    [
        (lambda league: reverse("scoring:competition-detail", args=[league["competition"].pk]), public_selectors, "rounds_with_state"),
        (lambda league: reverse("scoring:round-detail", args=[league["competition"].pk, 1]), public_selectors, "round_live_state"),
        (lambda league: reverse("scoring:match-detail", args=[league["live"].pk]), public_views, "status_text"),
        (lambda league: reverse("scoring:team-detail", args=[league["teams"]["dam"].pk]), public_selectors, "team_public_fixtures"),
    ],
    ids=["competition", "round", "match", "team"],
)
def test_a_second_look_at_an_unchanged_page_reads_none_of_its_body(client, league, monkeypatch, url_of, owner, read):
    url = url_of(league)
    calls = counting(monkeypatch, owner, read)
    first = page(client, url)
    assert len(calls) == 1
    second = page(client, url)
    assert len(calls) == 1, "the kept body was drawn again"
    assert main_part(second) == main_part(first)  # the frame around it is the request's own (its CSRF token)

    # A deal saved in the live match changes each of these pages: the body is drawn anew.
    live, secretary = league["live"], league["secretary"]
    services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)  # fmt: skip
    page(client, url)
    assert len(calls) == 2


def test_a_team_pages_results_are_read_again_only_when_a_result_changes(client, league, monkeypatch):
    """The results table and the recent form are kept under the stamp of the team's matches with a
    result (scoring.selectors.stamps.team_page_stamps): a deal saved in its live match draws the
    page's fixtures again, with the new total, but not its results; a result that comes does."""
    team, live, secretary = league["teams"]["dam"], league["live"], league["secretary"]
    url = reverse("scoring:team-detail", args=[team.pk])
    results = counting(monkeypatch, public_selectors, "team_public_results")
    page(client, url)
    assert len(results) == 1
    live = services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                                 expected_version=None)  # fmt: skip
    html = page(client, url)
    assert len(results) == 1 and "1\u202f985" in html
    for number in range(3, 9):
        live = services.deals_record(match=live, user=secretary, entry=deal(number, home_cards=1000, away_cards=50,
                                     end="stock"), expected_version=None)  # fmt: skip
        if live.status != live.Status.IN_PROGRESS:
            break
    assert live.winner == "home"
    html = page(client, url)
    assert len(results) == 2
    results_part = html[html.index('id="results-heading"') : html.index('id="fixtures-heading"')]
    assert f"/matches/{live.pk}/" in results_part


def test_a_new_date_of_a_round_shows_on_its_page_and_the_competitions(client, league):
    competition, secretary = league["competition"], league["secretary"]
    round_url = reverse("scoring:round-detail", args=[competition.pk, 2])
    assert "17 oktober 2026" in page(client, round_url)
    round_ = competition.rounds.get(number=2)
    round_.date = date(2026, 10, 24)
    services.round_save(user=secretary, round=round_)
    html = page(client, round_url)
    assert "24 oktober 2026" in html and "17 oktober 2026" not in html
    assert "24 oktober" in page(client, reverse("scoring:competition-detail", args=[competition.pk]))


def test_the_competition_pages_outline_is_kept_across_deals_and_drawn_again_when_a_round_changes(
    client, league, monkeypatch
):
    """What the competition page draws around its live part (its head, the round picker, the links
    to its rounds and documents) is kept under its own stamp (competition_outline_stamp): a deal
    saved in the live match draws the page's body again but not these; a round's new day does."""
    from scoring.templatetags import export_links

    competition, secretary, live = league["competition"], league["secretary"], league["live"]
    url = reverse("scoring:competition-detail", args=[competition.pk])
    outlines = counting(monkeypatch, export_links, "competition_links")
    bodies = counting(monkeypatch, public_selectors, "rounds_with_state")
    assert "17 oktober" in page(client, url)
    assert (len(bodies), len(outlines)) == (1, 1)

    services.deals_record(match=live, user=secretary, entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)  # fmt: skip
    html = page(client, url)
    assert (len(bodies), len(outlines)) == (2, 1)
    assert "17 oktober" in html

    round_ = competition.rounds.get(number=2)
    round_.date = date(2026, 10, 24)
    services.round_save(user=secretary, round=round_)
    html = page(client, url)
    assert (len(bodies), len(outlines)) == (3, 2)
    assert "24 oktober" in html and "17 oktober" not in html

    competition.name = "Mellansvenska ligan"
    services.competition_save(user=secretary, competition=competition)
    html = page(client, url)
    assert len(outlines) == 3
    assert html.count("Mellansvenska ligan") >= 2 and "Mellansvenska serien" not in html


def test_a_renamed_opponent_shows_on_the_team_page(client, league):
    team_url = reverse("scoring:team-detail", args=[league["teams"]["ess"].pk])
    assert "Kungarna" in page(client, team_url)
    opponent = league["teams"]["kung"]
    opponent.name = "Kungligheterna"
    services.team_save(user=make_admin(), team=opponent)
    html = page(client, team_url)
    assert "Kungligheterna" in html and "Kungarna" not in html


def test_each_viewer_gets_the_body_drawn_for_him(client, league):
    """The secretary may print the round's blank protocols; the public may not, before or after he looked."""
    round_url = reverse("scoring:round-detail", args=[league["competition"].pk, 1])
    blank = "Tomma protokoll för omgången"
    assert blank not in page(client, round_url)
    client.force_login(league["secretary"])
    assert blank in page(client, round_url)
    client.logout()
    assert blank not in page(client, round_url)


def test_the_standings_after_a_round_are_kept_apart_from_the_whole_table(client, league):
    url = reverse("scoring:competition-detail", args=[league["competition"].pk])
    whole = page(client, url)
    after_one = page(client, f"{url}?after=1")
    assert '<option value="1" selected>' in after_one
    assert '<option value="1" selected>' not in whole
    assert '<option value="1" selected>' not in page(client, url)


def test_a_live_pages_updated_time_is_its_latest_change_not_the_moment_it_was_drawn(client, league):
    """A kept body is shown again later: its "Updated" time is when the results last changed (as
    the polling part shows it after a swap), never a time of drawing that a later look would repeat."""
    live = league["live"]
    services.deals_record(match=live, user=league["secretary"], entry=deal(2, home_cards=100, away_cards=50, end="stock"),
                          expected_version=None)  # fmt: skip
    # Minutes ago, the live match the latest to change: a time of drawing is never that.
    matches = type(live).objects.filter(competition=live.competition)
    matches.update(updated_at=timezone.now() - timedelta(minutes=10))
    matches.filter(pk=live.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    live.refresh_from_db()
    updated = f"Uppdaterad {timezone.localtime(live.updated_at):%H:%M:%S}"
    urls = [
        reverse("scoring:competition-detail", args=[live.competition_id]),
        reverse("scoring:round-detail", args=[live.competition_id, live.round.number]),
        reverse("scoring:match-detail", args=[live.pk]),
    ]
    for url in urls:
        assert updated in page(client, url), url
        assert updated in page(client, url), url  # the kept body, looked at again
