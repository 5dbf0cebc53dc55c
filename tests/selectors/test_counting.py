"""Which results count (docs/rules.md, "Which results count") is stated once, in
selectors.counting: the table's query, a service's check of one match, the preliminary marks and the
final results of the rating and the rankings say the same of every status, in every kind of
competition."""

import pytest

from scoring.models import Match
from scoring.selectors.counting import counted_q, counts, final_q, preliminary_flag, preliminary_q
from scoring.services import standing_part
from tests.factories import make_club, make_competition, make_result, make_team

pytestmark = pytest.mark.django_db
S = Match.Status


@pytest.mark.parametrize("requires_confirmation", [True, False], ids=["confirmation", "no-confirmation"])
def test_every_statement_of_which_results_count_agrees(requires_confirmation):
    club = make_club()
    competition = make_competition(organiser=club, requires_confirmation=requires_confirmation)
    home, away = make_team(club=club), make_team(club=club)
    matches = []
    for status in S.values:
        with_result = make_result(competition, home, away, status=status, save=False)
        without = make_result(competition, home, away, status=status, save=False)
        without.home_points = without.away_points = None
        matches += [with_result, without]
    Match.objects.bulk_create(matches)
    rows = list(Match.objects.filter(competition=competition).select_related("competition"))

    def ids(q):
        return set(Match.objects.filter(competition=competition).filter(q).values_list("pk", flat=True))

    counted = {m.pk for m in rows if m.home_points is not None and (
        m.status == S.CONFIRMED or m.status == S.VOID
        or (m.status in (S.FINISHED, S.SUBMITTED) and not requires_confirmation))}
    waiting = {m.pk for m in rows if m.home_points is not None and requires_confirmation
               and m.status in (S.FINISHED, S.SUBMITTED)}

    assert ids(counted_q(competition)) == counted
    assert {m.pk for m in rows if counts(m)} == counted
    assert {m.pk for m in rows if standing_part(m)[0]} == counted
    assert ids(final_q()) == counted
    assert ids(preliminary_q(competition)) == waiting
    assert ids(counted_q(competition, include_preliminary=True)) == counted | waiting
    flagged = Match.objects.filter(competition=competition).annotate(flag=preliminary_flag(competition))
    assert {m.pk for m in flagged if m.flag} == waiting
