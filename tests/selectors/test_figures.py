"""Canasta figures and records (selectors.figures, selectors.records) of a hand-made season, played
through the services: each figure is worked out again here from the stored deals, one by one in
plain Python, and the records are named by hand. The pages are tests/views/test_figures_pages.py,
which builds on this module's season."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from scoring import services
from scoring.models import Deal, FigureSums, Match
from scoring.selectors import figures as figures_selectors
from scoring.selectors import records as records_selectors
from scoring.selectors.figures import SCORE_BANDS
from tests.factories import EXPORT_SAMPLE_DEALS, make_admin, make_club, make_competition, make_player, make_team, make_user
from tests.factories import make_match, winning_deal

pytestmark = pytest.mark.django_db
STOCKHOLM = ZoneInfo("Europe/Stockholm")


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 18, 0, tzinfo=STOCKHOLM)


def _play(world, competition, home, away, number, day, entries, *, confirm=True, clock=False):
    match = make_match(competition=competition, home=home, away=away, round_number=number)
    match.round.date = day
    match.round.save()
    secretary = world["secretary"]
    match = services.match_start(match=match, user=secretary, started_at=_at(day))
    for entry in entries:
        match = services.deals_record(match=match, user=secretary, entry=entry, expected_version=None)
    if clock:
        match = services.match_declare_clock(match=match, user=secretary, expected_version=None)
    match = services.match_submit(match=match, user=secretary, expected_version=None)
    if confirm:
        match = services.match_confirm(match=match, user=world["admin"], expected_version=None)
    return match


def build_season() -> dict:
    """Two clubs, three pairs; two public competitions of 2026/27 (one timed, without red threes;
    one of home rules, with them), one of 2025/26, one not public; a result waiting for
    confirmation. AB win all three of their 2026/27 matches, one of them after 3 850 behind."""
    secretary = make_user("sekreterare")
    ess = make_club("Canastaklubben Ess", secretary=secretary)
    kung = make_club("Kungarna CK", secretary=secretary)
    people = {name: make_player(name, club=club) for name, club in [
        ("Anna", ess), ("Bo", ess), ("Cilla", ess), ("Dan", ess), ("Eva", kung), ("Filip", kung),
    ]}  # fmt: skip
    ab = make_team("Anna/Bo", club=ess, players=(people["Anna"], people["Bo"]))
    cd = make_team("Cilla/Dan", club=ess, players=(people["Cilla"], people["Dan"]))
    ef = make_team("Eva/Filip", club=kung, players=(people["Eva"], people["Filip"]))
    series = make_competition(name="Serien", season="2026/27", organiser=ess, rules_key="sv-tavling")
    home_rules = make_competition(name="Hemmaserien", season="2026/27", organiser=ess, rules_key="sv-hem")
    old = make_competition(name="Serien", season="2025/26", organiser=ess, rules_key="sv-tavling")
    hidden = make_competition(name="Klubbkvällen", season="2026/27", organiser=ess, is_public=False)
    world = {"secretary": secretary, "admin": make_admin("domare"), "clubs": {"ess": ess, "kung": kung},
             "players": people, "teams": {"ab": ab, "cd": cd, "ef": ef},
             "competitions": {"series": series, "home_rules": home_rules, "old": old, "hidden": hidden}}  # fmt: skip
    timed = [replace(entry, dealt_minute=6 * index) for index, entry in enumerate(EXPORT_SAMPLE_DEALS)]
    matches = {
        # 2025/26: EF beat AB in three deals.
        "o1": _play(world, old, ef, ab, 1, date(2025, 10, 4), [winning_deal(n, "home") for n in (1, 2, 3)]),
        # Round 1: AB beat EF 5 500 – 3 720 in eight deals, the eighth dealt at minute 42.
        "m1": _play(world, series, ab, ef, 1, date(2026, 10, 3), timed),
        # Round 2: EF lead 3 770 to −80 after two deals; AB win the next three and the match.
        "m2": _play(world, series, ef, ab, 2, date(2026, 11, 7),
                    [winning_deal(1, "home"), winning_deal(2, "home")] + [winning_deal(n, "away") for n in (3, 4, 5)]),
        # Round 3: CD lead EF after one deal when the final signal comes.
        "m3": _play(world, series, cd, ef, 3, date(2026, 11, 21), [winning_deal(1, "home")], clock=True),
        # Home rules: AB go out concealed in the first deal; a red three for AB in every deal.
        "m4": _play(world, home_rules, ab, cd, 1, date(2026, 11, 14), [
            replace(winning_deal(n, "home"), concealed=n == 1,
                    home=replace(winning_deal(n, "home").home, red3=1, melded=True))
            for n in (1, 2, 3)
        ]),  # fmt: skip
        # Waiting for confirmation, and a competition that is not public: neither counts.
        "pending": _play(world, series, ab, cd, 4, date(2026, 12, 5), [winning_deal(n, "away") for n in (1, 2, 3)],
                         confirm=False),
        "hidden": _play(world, hidden, cd, ab, 1, date(2026, 12, 12), [winning_deal(n, "home") for n in (1, 2, 3)]),
    }
    world["matches"] = matches
    return world


@pytest.fixture
def season(db):
    return build_season()


# -- the figures again, deal by deal --------------------------------------------------------------


def side_deals(match_ids, own_side):
    """(deal, side) for every side of the deals of `match_ids` that `own_side(match, side)` says
    is the subject's."""
    rows = []
    for deal in Deal.objects.filter(match_id__in=match_ids).select_related("match").order_by("match_id", "number"):
        for side in ("home", "away"):
            if own_side(deal.match, side):
                rows.append((deal, side))
    return rows


def by_hand(rows) -> dict:
    """Every figure from side-deals, with loops: what docs/figures.md says."""
    deals = len(rows)
    # A match counts once for each of its sides that is the subject's (a club's pairs may meet).
    matches = {(deal.match_id, side) for deal, side in rows}
    match_rows = {(deal.match_id, side): deal.match for deal, side in rows}
    scores = [getattr(deal, f"{side}_score") for deal, side in rows]
    counted_red = [(deal, side) for deal, side in rows if deal.match.rules.red_three > 0]
    minutes = [
        (deal.dealt_at - deal.match.started_at).total_seconds() / 60
        for deal, side in rows
        if deal.match.end == "target" and deal.number == deal.match.deal_count and deal.dealt_at and deal.match.started_at
    ]
    mean = sum(scores) / deals if deals else None

    def share(part, whole):
        return part / whole if whole else None

    bands = []
    for index, low in enumerate(SCORE_BANDS):
        high = SCORE_BANDS[index + 1] if index + 1 < len(SCORE_BANDS) else math.inf
        bands.append(sum(1 for s in scores if (low is None or s >= low) and s < high))
    return {
        "matches": len(matches),
        "deals": deals,
        "deals_per_match": share(deals, len(matches)),
        "natural_per_deal": share(sum(getattr(d, f"{s}_natural") for d, s in rows), deals),
        "mixed_per_deal": share(sum(getattr(d, f"{s}_mixed") for d, s in rows), deals),
        "went_out_share": share(sum(1 for d, s in rows if d.out == s), deals),
        "concealed_share": share(sum(1 for d, s in rows if d.out == s and d.concealed), deals),
        "red_threes_per_deal": share(sum(getattr(d, f"{s}_red3") for d, s in counted_red), len(counted_red)),
        "average_score": mean,
        "score_spread": math.sqrt(sum((x - mean) ** 2 for x in scores) / deals) if deals else None,
        "clock_share": share(sum(1 for m in match_rows.values() if m.end == "clock"), len(matches)),
        "target_share": share(sum(1 for m in match_rows.values() if m.end == "target"), len(matches)),
        "target_minute": share(sum(minutes), len(minutes)),
        "bands": tuple(bands),
    }


def assert_same(figures, expected):
    for key, value in expected.items():
        got = figures.score_bands if key == "bands" else figures.value(key)
        if value is None or got is None:
            assert got == value, key
        else:
            assert got == pytest.approx(value), key


def counted(world, *names):
    return [world["matches"][name].pk for name in names]


def check_a_pairs_figures_season_by_season_and_beside_the_federation(season):
    ab = season["teams"]["ab"]
    figures = figures_selectors.team_figures(ab)
    own = lambda match, side: match.team(side).pk == ab.pk  # noqa: E731
    everyone = lambda match, side: True  # noqa: E731
    assert [row.season for row in figures.rows] == [None, "2026/27", "2025/26"]
    this_season = counted(season, "m1", "m2", "m3", "m4")
    assert_same(figures.rows[1].own, by_hand(side_deals(this_season, own)))
    assert_same(figures.rows[1].field, by_hand(side_deals(this_season, everyone)))
    assert_same(figures.rows[2].own, by_hand(side_deals(counted(season, "o1"), own)))
    every_season = counted(season, "o1", "m1", "m2", "m3", "m4")
    assert_same(figures.total.own, by_hand(side_deals(every_season, own)))
    assert_same(figures.total.field, by_hand(side_deals(every_season, everyone)))
    # The same figures, read off the protocols by hand: 8 + 5 + 3 deals in 2026/27.
    mine = figures.rows[1].own
    assert (mine.matches, mine.deals) == (3, 16)
    assert mine.natural_per_deal == pytest.approx(17 / 16)  # 5 in round 1, 6 in round 2, 6 at home rules
    assert mine.mixed_per_deal == pytest.approx(10 / 16)
    assert mine.went_out_share == pytest.approx(10 / 16)
    assert mine.concealed_share == pytest.approx(1 / 16)
    assert mine.red_threes_per_deal == 1  # only the home rules count red threes: 3 in 3 deals
    assert (mine.clock_share, mine.target_share) == (0, 1)
    assert mine.target_minute == 42  # the eighth deal of round 1; the others have no minutes
    assert figures.rows[1].field.clock_share == pytest.approx(2 / 8)  # 1 of 4 matches, both sides each
    assert figures.chart_season == "2026/27"
    assert [m.month for m in figures.months] == [date(2026, 10, 1), date(2026, 11, 1)]


def check_a_players_and_a_clubs_figures(season):
    anna = season["players"]["Anna"]
    ess = season["clubs"]["ess"]
    every_season = counted(season, "o1", "m1", "m2", "m3", "m4")
    player = figures_selectors.player_figures(anna)
    assert_same(player.total.own, by_hand(side_deals(every_season, lambda m, s: anna.pk in (
        m.team(s).player_one_id, m.team(s).player_two_id))))
    club = figures_selectors.club_figures(ess)
    # AB meet CD at home rules: both sides are the club's, and both count.
    assert_same(club.total.own, by_hand(side_deals(every_season, lambda m, s: m.team(s).club_id == ess.pk)))
    assert club.total.own.matches == 6  # o1, m1, m2, m3 and m4 twice


def check_a_competitions_figures_round_by_round_and_pair_by_pair(season):
    series = season["competitions"]["series"]
    figures = figures_selectors.competition_figures(series, teams=True)
    everyone = lambda match, side: True  # noqa: E731
    assert_same(figures.total, by_hand(side_deals(counted(season, "m1", "m2", "m3"), everyone)))
    assert [r.number for r in figures.rounds] == [1, 2, 3]
    assert_same(figures.rounds[1].figures, by_hand(side_deals(counted(season, "m2"), everyone)))
    assert [t.name for t in figures.teams] == ["Anna/Bo", "Cilla/Dan", "Eva/Filip"]
    ef = season["teams"]["ef"]
    assert_same(figures.teams[2].figures, by_hand(side_deals(counted(season, "m1", "m2", "m3"),
                                                             lambda m, s: m.team(s).pk == ef.pk)))


def test_figures_of_a_pair_a_player_a_club_and_a_competition(season):
    # One season for all (building it is most of the time).
    check_a_pairs_figures_season_by_season_and_beside_the_federation(season)
    check_a_players_and_a_clubs_figures(season)
    check_a_competitions_figures_round_by_round_and_pair_by_pair(season)


def test_nothing_played_has_no_figures(db):
    team = make_team()
    figures = figures_selectors.team_figures(team)
    assert not figures.has_deals
    assert figures.total.own.average_score is None and figures.total.own.score_spread is None


# -- records ---------------------------------------------------------------------------------------


def best_deal(match_ids, own_side):
    rows = side_deals(match_ids, own_side)
    deal, side = max(rows, key=lambda row: (getattr(row[0], f"{row[1]}_score"), -row[0].match_id, -row[0].number))
    return getattr(deal, f"{side}_score"), deal.match_id, deal.number


def check_the_federations_records(season):
    m = season["matches"]
    public = counted(season, "o1", "m1", "m2", "m3", "m4")
    records = {r.key: r for r in records_selectors.federation_records()}
    assert list(records) == ["deal_score", "match_total", "fewest_deals", "comeback", "win_run"]
    value, match_id, number = best_deal(public, lambda match, side: True)
    assert (records["deal_score"].value, records["deal_score"].match_id, records["deal_score"].deal_number) == (
        value, match_id, number)
    assert records["deal_score"].match_id == m["m4"].pk  # the concealed going out with a red three
    matches = Match.objects.filter(pk__in=public)
    highest = max((getattr(x, f"{s}_total"), -x.pk) for x in matches for s in ("home", "away"))
    assert records["match_total"].value == highest[0] and records["match_total"].match_id == -highest[1]
    # Three deals to 5000: 2025/26's match came first.
    assert (records["fewest_deals"].value, records["fewest_deals"].match_id) == (3, m["o1"].pk)
    assert records["fewest_deals"].team == "Eva/Filip"
    comeback = records["comeback"]
    assert (comeback.value, comeback.match_id, comeback.deal_number, comeback.team) == (3850, m["m2"].pk, 2, "Anna/Bo")
    run = records["win_run"]
    assert (run.value, run.team, run.match_id) == (3, "Anna/Bo", m["m4"].pk)


def check_a_competitions_and_a_clubs_records(season):
    m = season["matches"]
    series = {r.key: r for r in records_selectors.competition_records(season["competitions"]["series"])}
    assert (series["fewest_deals"].value, series["fewest_deals"].match_id) == (5, m["m2"].pk)
    assert (series["win_run"].value, series["win_run"].team) == (2, "Anna/Bo")
    value, match_id, number = best_deal(counted(season, "m1", "m2", "m3"), lambda match, side: True)
    assert (series["deal_score"].value, series["deal_score"].match_id, series["deal_score"].deal_number) == (
        value, match_id, number)
    kung = season["clubs"]["kung"]
    club = {r.key: r for r in records_selectors.club_records(kung)}
    assert {r.team for r in club.values()} == {"Eva/Filip"}
    assert (club["win_run"].value, club["win_run"].match_id) == (1, m["o1"].pk)
    assert "comeback" not in club  # Eva/Filip were never behind in a match they won
    assert records_selectors.club_records(make_club("Tomma klubben")) == []


def test_records_of_the_federation_a_competition_and_a_club(season):
    check_the_federations_records(season)
    check_a_competitions_and_a_clubs_records(season)


def stored_as_worked_out(competition) -> bool:
    """The competition's stored figure sums (FigureSums), its own and each pair's, are its final
    results' added up now."""
    stored = figures_selectors.stored_sums(("round_id", "month", "team"), 'f."competition_id" = %s', competition.pk)
    return stored == figures_selectors.competition_sums(competition.pk) and FigureSums.objects.exists()


def test_the_stored_figure_sums_follow_each_new_result_and_each_change_of_one(season):
    """The federation's and a competition's figures are sums the services store: a result
    confirmed afterwards, a round moved to another month, a correction of a result that counts
    without confirmation and a competition that stops asking for it are in the next look."""
    ab, series, admin = season["teams"]["ab"], season["competitions"]["series"], season["admin"]
    before = figures_selectors.team_figures(ab).rows[1]
    rounds_before = figures_selectors.competition_figures(series).rounds
    services.match_confirm(match=season["matches"]["pending"], user=admin, expected_version=None)
    after = figures_selectors.team_figures(ab).rows[1]
    assert (after.own.deals, after.field.deals) == (before.own.deals + 3, before.field.deals + 6)
    assert [r.number for r in figures_selectors.competition_figures(series).rounds] == [
        *(r.number for r in rounds_before), 4]
    assert stored_as_worked_out(series)

    round_ = season["matches"]["m3"].round
    round_.date = date(2027, 1, 9)
    services.round_save(user=admin, round=round_)
    assert (series.season, date(2027, 1, 1)) in figures_selectors.federation_by_month()
    assert stored_as_worked_out(series)

    quick = make_competition(name="Snabbserien", season="2026/27", organiser=season["clubs"]["ess"],
                             rules_key="sv-tavling", requires_confirmation=False)  # fmt: skip
    secretary = season["secretary"]
    match = make_match(competition=quick, home=ab, away=season["teams"]["cd"], round_number=1)
    match = services.match_start(match=match, user=secretary, started_at=_at(date(2026, 12, 1)))
    for number in (1, 2, 3):
        match = services.deals_record(match=match, user=secretary, entry=winning_deal(number, "home"),
                                      expected_version=None)  # fmt: skip
    assert match.status == Match.Status.FINISHED  # final: the competition asks no confirmation
    natural = figures_selectors.competition_figures(quick).total.natural
    entry = replace(winning_deal(1, "home"), home=replace(winning_deal(1, "home").home, natural=3, mixed=0))
    services.deal_correct(match=match, user=secretary, number=1, entry=entry, reason="Fel rad", expected_version=None)
    assert figures_selectors.competition_figures(quick).total.natural == natural + 1
    assert stored_as_worked_out(quick)

    cd, ef = season["teams"]["cd"], season["teams"]["ef"]
    _play(season, series, cd, ef, 5, date(2026, 12, 12), [winning_deal(n, "home") for n in (1, 2, 3)], confirm=False)
    deals = figures_selectors.competition_figures(series).total.deals
    series.requires_confirmation = False  # the result waiting for confirmation is final now
    services.competition_save(user=admin, competition=series)
    assert figures_selectors.competition_figures(series).total.deals == deals + 2 * 3
    assert stored_as_worked_out(series)


def test_a_result_works_out_again_the_figure_sums_of_its_own_round_and_month_alone(season):
    """A match's change works out again the stored sums of the part of its competition it is in
    (its round, in its month), not the competition's other rows: on a federation's round night a
    round's results instead of the season's, while the match's lock is held."""
    series, admin, pending = season["competitions"]["series"], season["admin"], season["matches"]["pending"]
    part = figures_selectors.match_figures_part(pending)
    elsewhere = FigureSums.objects.filter(competition=series).exclude(round_id=pending.round_id).first()
    FigureSums.objects.filter(pk=elsewhere.pk).update(deals=elsewhere.deals + 1000)  # not read again

    services.match_confirm(match=pending, user=admin, expected_version=None)

    assert FigureSums.objects.get(pk=elsewhere.pk).deals == elsewhere.deals + 1000
    stored = figures_selectors.stored_sums(("round_id", "month", "team"), 'f."competition_id" = %s', series.pk)
    assert {key: figures for key, figures in stored.items() if key[:2] == part} == figures_selectors.competition_sums(
        series.pk, {part})
    assert any(key[:2] == part for key in stored)  # the confirmed result's part is stored now
    services.figures_refresh(competitions=[series])
    assert stored_as_worked_out(series)


def test_a_players_figures_take_the_same_few_queries_however_many_seasons_he_played(season, django_assert_num_queries):
    """His pairs' stored figure sums and the federation's beside them: a season more adds no
    query."""
    anna = season["players"]["Anna"]
    with django_assert_num_queries(2):
        before = figures_selectors.player_figures(anna)
    old = make_competition(name="Serien", season="2024/25", organiser=season["clubs"]["ess"], rules_key="sv-tavling")
    ab, ef = season["teams"]["ab"], season["teams"]["ef"]
    _play(season, old, ab, ef, 1, date(2024, 10, 5), [winning_deal(n, "home") for n in (1, 2, 3)])
    with django_assert_num_queries(2):
        after = figures_selectors.player_figures(anna)
    assert [row.season for row in after.rows] == [*(row.season for row in before.rows), "2024/25"]
