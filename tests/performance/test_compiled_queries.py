"""compiled_queries (issue 7): a row read by SQL compiled once is the instance the ORM reads, field
for field and related row for related row; a row inserted or updated so is the row the ORM writes;
on SQLite and PostgreSQL."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import compiled_queries, services
from scoring.models import Match
from tests import factories as f

pytestmark = pytest.mark.django_db

SENTINEL = -7_990_000_099  # stands for the match's id in the compiled query
RELATED = ("competition__organiser", "round", "home_team__club", "away_team__player_one", "home_substitute",
           "entered_by", "confirmed_by")


def values(instance):
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def read(pk, related=RELATED):
    return compiled_queries.get_one(
        ("test", related), lambda: Match.objects.select_related(*related).filter(pk=SENTINEL), {SENTINEL: pk}
    )


def test_a_played_match_reads_as_the_orm_reads_it():
    s = f.protocol_setup()
    started = timezone.now() - timedelta(minutes=30)
    match = services.match_start(match=s["match"], user=s["secretary"], started_at=started)
    for number in range(1, 12):
        if match.status == Match.Status.FINISHED:
            break
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number),
                                      expected_version=match.version)
    assert match.status == Match.Status.FINISHED
    compiled = read(match.pk)
    orm = Match.objects.select_related(*RELATED).get(pk=match.pk)
    assert values(compiled) == values(orm)
    assert compiled.home_points == Decimal("1") and compiled.rules_snapshot == orm.rules_snapshot
    assert compiled.started_at == started and timezone.is_aware(compiled.started_at)
    for path in ("competition", "competition.organiser", "round", "home_team", "home_team.club", "away_team",
                 "away_team.player_one", "entered_by"):
        one, other = compiled, orm
        for name in path.split("."):
            one, other = getattr(one, name), getattr(other, name)
        assert values(one) == values(other), path
    assert compiled.home_substitute is None and compiled.confirmed_by is None
    assert not compiled._state.adding and compiled._state.db == "default"


def test_the_related_rows_come_with_it_and_a_missing_match_is_none():
    s = f.protocol_setup()
    read(s["match"].pk)  # compiled
    with CaptureQueriesContext(connection) as queries:
        match = read(s["match"].pk)
        names = (match.competition.organiser.name, match.home_team.club.name, match.away_team.player_one.name)
    assert len(queries) == 1 and all(names)
    assert read(s["match"].pk + 1000) is None
    other = f.make_match(competition=s["match"].competition, home=s["away"], away=s["home"], table=2)
    assert read(other.pk).home_team_id == s["away"].pk


def test_saving_changes_the_row_it_read():
    s = f.protocol_setup()
    match = read(s["match"].pk, ("competition", "home_team"))
    saved = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1),
                                  expected_version=match.version)
    assert values(read(s["match"].pk, ("competition", "home_team"))) == values(saved)


# -- writing one row ------------------------------------------------------------------------------


def _row_values(model, pk, leave_out=("id",)):
    return {name: value for name, value in model.objects.filter(pk=pk).values().get().items() if name not in leave_out}


def test_an_inserted_deal_is_the_row_the_orm_writes():
    from scoring.models import Deal

    match = f.protocol_setup()["match"]
    fields = dict(home_cards=120, home_natural=1, home_mixed=2, home_red3=1, home_melded=True, away_cards=-40,
                  away_penalty=100, away_melded=None, out="home", concealed=True, end="out",
                  dealt_at=timezone.now(), home_min_written=50, warnings=["many-deals"], home_score=1225,
                  away_score=-140, home_total=1225, away_total=-140, home_min_before=50, away_min_before=50)
    compiled = compiled_queries.insert(Deal(match=match, number=1, **fields))
    orm = Deal.objects.create(match=match, number=2, **fields)
    assert compiled.pk and compiled.pk != orm.pk and not compiled._state.adding
    assert _row_values(Deal, compiled.pk, ("id", "number")) == _row_values(Deal, orm.pk, ("id", "number"))
    assert values(Deal.objects.get(pk=compiled.pk)) == values(compiled)


def test_an_inserted_audit_entry_is_the_row_the_orm_writes():
    from scoring.models import AuditEntry

    s = f.protocol_setup()
    fields = dict(match=s["match"], user=None, action="deal_record", object_type="deal", object_id="7",
                  before={"a": [1, "två"], "b": None}, after={"ok": True})
    compiled = compiled_queries.insert(AuditEntry(**fields))
    orm = AuditEntry.objects.create(**fields)
    assert _row_values(AuditEntry, compiled.pk, ("id", "at")) == _row_values(AuditEntry, orm.pk, ("id", "at"))
    assert compiled.at is not None and AuditEntry.objects.get(pk=compiled.pk).at == compiled.at


def test_an_update_claims_the_version_or_changes_nothing():
    match = f.protocol_setup()["match"]
    now = timezone.now()
    changed = {"deal_count": 3, "home_total": 1500, "home_points": Decimal("0.5"), "started_at": now,
               "rules_snapshot": {"target": 5000}, "status": Match.Status.IN_PROGRESS, "version": match.version + 1}
    assert compiled_queries.update(Match, changed, {"pk": match.pk, "version": match.version + 7}) == 0
    assert Match.objects.get(pk=match.pk).deal_count == 0
    assert compiled_queries.update(Match, changed, {"pk": match.pk, "version": match.version}) == 1
    stored = Match.objects.get(pk=match.pk)
    assert (stored.deal_count, stored.home_total, stored.home_points, stored.started_at, stored.rules_snapshot,
            stored.status, stored.version) == (3, 1500, Decimal("0.5"), now, {"target": 5000}, "in_progress",
                                               match.version + 1)
