"""The site's tables render their body in Python (scoring/table_html.py, issue 7, "perf"): the
HTML must be exactly what django-tables2's template makes, for every table and kind of row."""

from decimal import Decimal

import django_tables2 as tables
import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation

from scoring import selectors
from scoring.engine.standings import StandingRow, TeamRecord
from scoring.models import Bye, Match
from scoring.selectors import PlayerStatistics
from scoring.table_html import TEMPLATE_NAME, UrlMaker
from scoring.tables import PlayerStatisticsTable, ResultsTable, StandingsTable
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db
S = Match.Status
PLAIN = "django_tables2/canasta.html"  # the site's table template, body made cell by cell


def _render(make_table, template_name):
    table = make_table(template_name)
    request = RequestFactory().get("/")
    return Template("{% load django_tables2 %}{% render_table table %}").render(
        Context({"table": table, "request": request})
    )


def assert_same_html(make_table, *, in_python=True):
    """`make_table(template_name)` makes a fresh table (a table numbers its rows as it renders);
    `in_python`: whether the body is made in Python (else the template makes it, both times)."""
    assert (make_table(TEMPLATE_NAME).tbody_html() is not None) == in_python
    fast = _render(make_table, TEMPLATE_NAME)
    plain = _render(make_table, PLAIN)
    assert fast == plain
    return fast


def _standing(rank, tied, team_id, name, **figures):
    values = {"played": 3, "won": 2, "drawn": 0, "lost": 1, "points": 2, "card_points_for": 12_345,
              "card_points_against": 9_870}
    values.update(figures)
    return StandingRow(rank=rank, tied=tied, record=TeamRecord(team_id=team_id, name=name, **values))


STANDINGS = [
    _standing(1, False, 7, "Åkers <Ess> & Co", points=2.5),
    _standing(2, True, 8, "Beta", points=Decimal("1.5"), card_points_against=20_000),
    _standing(2, True, 9, "Gamma", points=1.5, card_points_against=20_000),
    _standing(4, False, 10, "Öst", played=0, won=0, lost=0, points=0, card_points_for=0, card_points_against=0),
]


@pytest.mark.parametrize("language", ["sv", "en"])
@pytest.mark.parametrize("options", [{}, {"card_points": "difference"}, {"link_target": "_blank", "caption": "Tabell"}])
def test_standings(language, options):
    with translation.override(language):
        html = assert_same_html(lambda name: StandingsTable(STANDINGS, template_name=name, **options))
    assert html.count("<tr ") == 4 and "&lt;Ess&gt; &amp; Co" in html and 'class="standings__row--tied odd"' in html


def test_results_of_rounds_teams_and_players():
    club = make_club()
    teams = [make_team(f"Lag {n}", club=club) for n in range(6)]
    competition = make_competition(organiser=club, teams=teams, requires_confirmation=True)
    make_result(competition, teams[0], teams[1], 5100, 3000, table=1)
    make_result(competition, teams[2], teams[3], 4000, 4000, table=2, status=S.FINISHED)
    make_result(competition, teams[4], teams[5], table=3, forfeit_winner="away")
    make_result(competition, teams[0], teams[2], 3000, 2000, round_number=2, table=1, status=S.VOID)
    scheduled = make_result(competition, teams[1], teams[3], round_number=2, table=None, status=S.SCHEDULED)
    Match.objects.filter(pk=scheduled.pk).update(deal_count=0, end="", home_total=0, away_total=0)
    make_result(competition, teams[4], teams[5], round_number=2, table=3, status=S.IN_PROGRESS)
    first, second = competition.rounds.order_by("number")
    Bye.objects.create(round=second, team=teams[5])

    for round_ in (first, second):
        html = assert_same_html(lambda name: ResultsTable(selectors.round_results(round_), caption=round_,
                                                          template_name=name))
    assert "badge--preliminary" in _render(lambda name: ResultsTable(selectors.round_results(first), template_name=name),
                                           TEMPLATE_NAME)
    played = list(selectors.team_results(teams[0]))
    html = assert_same_html(lambda name: ResultsTable(played, caption="Resultat", across_rounds=True,
                                                      link_target="_blank", template_name=name))
    assert 'target="_blank"' in html
    fixtures = list(selectors.team_results(teams[3]))
    assert_same_html(lambda name: ResultsTable(fixtures, across_rounds=True, template_name=name))


def test_player_statistics_with_an_empty_average():
    club = make_club()
    competitions = [make_competition(organiser=club, name=name) for name in ("Serie A", "Cup <B>")]
    rows = [
        (competitions[0], PlayerStatistics(4, 3, 0, 1, 40, 12_000, 9, 4, 11)),
        (competitions[1], PlayerStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0)),
    ]
    html = assert_same_html(lambda name: PlayerStatisticsTable(rows, caption="Per tävling", template_name=name))
    assert "Cup &lt;B&gt;" in html and "<td class=\"num\">–</td>" in html


def test_tables_it_cannot_render_are_left_to_the_template():
    assert_same_html(lambda name: ResultsTable([], template_name=name), in_python=False)

    class PerRowAttrs(StandingsTable):
        played = tables.Column(accessor="record__played", attrs={"td": {"data-x": lambda record: record.rank}})

    assert_same_html(lambda name: PerRowAttrs(STANDINGS, template_name=name), in_python=False)


def test_urls_are_those_reverse_gives():
    from django.urls import reverse

    urls = UrlMaker()
    for name in ("scoring:team-detail", "scoring:match-detail", "scoring:competition-detail"):
        for pk in (1, 42, 31_991, 987_654_321, 10**12):
            assert urls(name, pk) == reverse(name, args=[pk])
    # Round numbers stop at 32 767 (scoring/converters.py); 31 991 is UrlMaker's own stand-in.
    for competition in (3, 31_991, 987_654_321, 19_876_543_210):
        for number in (1, 38, 31_991, 32_767):
            assert urls("scoring:round-detail", competition, number) == reverse(
                "scoring:round-detail", args=[competition, number])


def test_a_round_of_finished_matches_reads_its_competition_once(django_assert_num_queries):
    """"Finished" depends on whether the competition asks for confirmation: one read per table."""
    club = make_club()
    teams = [make_team(club=club) for _ in range(8)]
    competition = make_competition(organiser=club, teams=teams, requires_confirmation=False)
    for table, (home, away) in enumerate(zip(teams[0::2], teams[1::2]), start=1):
        make_result(competition, home, away, table=table, status=S.FINISHED)
    rows = list(selectors.round_results(competition.rounds.get()))
    table = ResultsTable(rows, template_name=TEMPLATE_NAME)
    with translation.override("en"), django_assert_num_queries(1):
        html = table.tbody_html()
    assert html.count('<span class="results__status">Finished</span>') == 4
