"""No lost data: a service that crashes half way leaves the match as it was, and two secretaries
saving the same match at once never lose or duplicate a deal (what the second one's page then says
is tests/views/test_stale_protocol_save.py)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections
from django.utils import translation

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from scoring.services import matches as match_services
from tests import factories as f


def snapshot(match: Match):
    """Everything stored about a match: its row, its deals, its audit entries."""
    return (
        Match.objects.filter(pk=match.pk).values().get(),
        list(Deal.objects.filter(match=match).order_by("number").values()),
        AuditEntry.objects.filter(match=match).count(),
    )


class Crash(Exception):
    pass


def crash(*args, **kwargs):
    raise Crash("the power went out")


def in_progress(s):
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    return match


# Each service with its arguments (built from the set-up) and the match it starts from.
CALLS = {
    "deals_record": lambda s, m: dict(entry=f.deal(3, home_cards=100, away_cards=0, end="stock")),
    "deal_correct": lambda s, m: dict(number=1, entry=f.deal(1, home_cards=100, away_cards=0, end="stock"), reason="skrivfel"),
    "deal_delete_last": lambda s, m: dict(reason="fel match"),
    "match_forfeit": lambda s, m: dict(winner="away", reason="WO"),
    "match_void": lambda s, m: dict(reason="brand"),
    "match_import_deals": lambda s, m: dict(entries=[f.winning_deal(1, "away"), f.deal(2, home_cards=50, away_cards=0, end="stock")]),
}


# Where each service can be made to crash: after its deals are written (audit_log, save) or while
# writing them (insert, bulk_create, bulk_update). Recording the next deal saves the match first
# and then that one deal row (Deal.objects.create); removing the last deal leaves the other deals
# as they are, so neither writes a bulk_update.
CRASH_POINTS = [
    ("deals_record", "audit_log"), ("deals_record", "insert"),
    ("deal_correct", "audit_log"), ("deal_correct", "bulk_update"), ("deal_correct", "save"),
    ("deal_delete_last", "audit_log"), ("deal_delete_last", "save"),
    ("match_forfeit", "audit_log"), ("match_forfeit", "save"),
    ("match_void", "audit_log"), ("match_void", "save"),
    ("match_import_deals", "audit_log"), ("match_import_deals", "bulk_create"), ("match_import_deals", "save"),
]  # fmt: skip


# The test's own transaction makes the service's atomic block a savepoint: a service without one
# would leave its half-written rows visible here, and fail.
@pytest.mark.django_db
@pytest.mark.parametrize(("service", "where"), CRASH_POINTS)
def test_a_crash_in_the_middle_leaves_the_match_as_it_was(service, where, monkeypatch):
    s = f.protocol_setup()
    match = in_progress(s)
    before = snapshot(match)
    kwargs = CALLS[service](s, match)

    if where == "audit_log":
        monkeypatch.setattr(match_services, "audit_log", crash)
    elif where == "insert":
        monkeypatch.setattr(Deal.objects, "create", crash)
    elif where == "bulk_create":
        monkeypatch.setattr(Deal.objects, "bulk_create", crash)
    elif where == "bulk_update":
        monkeypatch.setattr(Deal.objects, "bulk_update", crash)
    else:
        monkeypatch.setattr(Match, "save", crash)

    function = getattr(services, service)
    with pytest.raises(Crash):
        function(match=match, user=s["secretary"], expected_version=match.version, **kwargs)
    monkeypatch.undo()

    assert snapshot(match) == before
    # And the match still works: the same change goes through once the crash is gone.
    function(match=match, user=s["secretary"], expected_version=match.version, **kwargs)
    assert snapshot(match) != before


@pytest.mark.django_db
def test_a_stale_save_is_refused_with_a_clear_message_and_nothing_changes():
    """What SQLite can show: the second secretary's form carries the old version."""
    s = f.protocol_setup()
    organiser_secretary = s["secretary"]
    other = f.make_user("sekreterare2")
    s["home"].club.secretaries.add(other)
    match = in_progress(s)
    opened_at = match.version  # both open the protocol page now

    services.deals_record(match=match, user=organiser_secretary, entry=f.winning_deal(3), expected_version=opened_at)
    after_first = snapshot(match)
    with pytest.raises(services.StaleMatchError) as info:
        services.deals_record(
            match=match, user=other, entry=f.deal(3, home_cards=100, away_cards=0, end="stock"), expected_version=opened_at
        )
    with translation.override("sv"):
        message = str(info.value.message)
    assert message.startswith("Någon annan ändrade matchen efter att du öppnade den."), message
    assert snapshot(match) == after_first
    assert list(match.deals.values_list("number", flat=True).order_by("number")) == [1, 2, 3]


@pytest.mark.django_db
def test_a_stale_form_is_told_of_the_change_before_its_own_problems():
    """The deal is worked out from the row the page read: if that row has changed since, the
    secretary hears of the change (and sees the match as it is now), not of problems judged on
    an old state. The row the page read is left as it was."""
    s = f.protocol_setup()
    match = in_progress(s)
    page_read = Match.objects.select_related("competition", "home_team", "away_team").get(pk=match.pk)
    services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(3), expected_version=match.version)
    after_first = snapshot(match)
    version_read = page_read.version
    with pytest.raises(services.StaleMatchError):
        services.deals_record(match=page_read, user=s["secretary"], entry=f.deal(3, home_cards=287, end="stock"),
                              expected_version=version_read)
    with pytest.raises(services.StaleMatchError):
        services.deals_record(match=page_read, user=s["secretary"], entry=f.deal(3, home_cards=100, end="stock"),
                              expected_version=version_read)
    assert page_read.version == version_read and page_read.deal_count == 2
    assert snapshot(match) == after_first


@pytest.mark.django_db
def test_a_refused_deal_leaves_the_row_the_page_read_as_it_was():
    s = f.protocol_setup()
    match = in_progress(s)
    page_read = Match.objects.select_related("competition", "home_team", "away_team").get(pk=match.pk)
    as_read = Match.objects.filter(pk=match.pk).values().get()
    with pytest.raises(services.DealProblemsError):
        services.deals_record(match=page_read, user=s["secretary"], entry=f.deal(3, home_cards=287, end="stock"),
                              expected_version=page_read.version)
    assert {field.attname: getattr(page_read, field.attname) for field in Match._meta.concrete_fields} == as_read
    saved = services.deals_record(match=page_read, user=s["secretary"], entry=f.deal(3, home_cards=100, end="stock"),
                                  expected_version=page_read.version)
    assert saved.version == page_read.version + 1 and saved.deal_count == 3
    assert Match.objects.filter(pk=match.pk).values().get() == {
        field.attname: getattr(saved, field.attname) for field in Match._meta.concrete_fields
    }


def run_at_once(targets):
    """Run each callable in its own thread (own database connection), released together."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)

    def runner(index, target):
        try:
            barrier.wait(timeout=10)
            results[index] = ("ok", target())
        except Exception as error:  # noqa: BLE001 - the outcome is what the test looks at
            results[index] = ("error", error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="real concurrent connections need PostgreSQL"
)


@postgresql_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slow_first", [False, True])
def test_two_secretaries_saving_at_once_exactly_one_wins(slow_first, monkeypatch):
    s = f.protocol_setup()
    second_secretary = f.make_user("sekreterare2")
    s["home"].club.secretaries.add(second_secretary)
    match = in_progress(s)
    version = match.version

    calls = {"n": 0}
    if slow_first:
        # Hold the first writer inside its transaction, after it has locked the match and saved
        # its totals, so the second one surely arrives while the first is still writing.
        real_insert = Deal.objects.create

        def slow_insert(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] == 1:
                time.sleep(0.5)
            return real_insert(*args, **kwargs)

        monkeypatch.setattr(Deal.objects, "create", slow_insert)

    deal_a = f.deal(3, home_cards=100, away_cards=0, end="stock")
    deal_b = f.deal(3, home_cards=0, away_cards=200, end="stock")
    results = run_at_once(
        [
            lambda: services.deals_record(match=Match.objects.get(pk=match.pk), user=s["secretary"], entry=deal_a, expected_version=version),
            lambda: services.deals_record(match=Match.objects.get(pk=match.pk), user=second_secretary, entry=deal_b, expected_version=version),
        ]
    )

    outcomes = sorted(kind for kind, _ in results)
    assert outcomes == ["error", "ok"], results
    (error,) = [value for kind, value in results if kind == "error"]
    assert isinstance(error, services.StaleMatchError)
    assert (calls["n"] > 0) == slow_first  # the first writer was indeed held
    winner = 0 if results[0][0] == "ok" else 1
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d.number for d in deals] == [1, 2, 3]
    assert deals[2].home_cards == (100 if winner == 0 else 0)
    assert deals[2].away_cards == (0 if winner == 0 else 200)
    match.refresh_from_db()
    assert match.version == version + 1 and match.deal_count == 3
    assert AuditEntry.objects.filter(match=match, action="deal_record").count() == 3


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_many_saves_at_once_lose_nothing():
    """Eight secretaries, each with the version they loaded, race for the next deal, ten times over."""
    s = f.protocol_setup()
    secretaries = [s["secretary"]] + [f.make_user(f"sekr{n}") for n in range(7)]
    s["home"].club.secretaries.add(*secretaries[1:])
    match = s["match"]
    saved = []
    for round_number in range(1, 11):
        version = Match.objects.get(pk=match.pk).version
        entry = f.deal(round_number, home_cards=10, away_cards=5, end="stock")
        results = run_at_once(
            [
                (lambda user=user: services.deals_record(match=Match.objects.get(pk=match.pk), user=user, entry=entry, expected_version=version))
                for user in secretaries
            ]
        )
        kinds = [kind for kind, _ in results]
        assert kinds.count("ok") == 1, results
        assert all(isinstance(value, services.StaleMatchError) for kind, value in results if kind == "error")
        saved.append(round_number)
    match.refresh_from_db()
    assert list(match.deals.order_by("number").values_list("number", flat=True)) == saved
    assert match.deal_count == 10 and match.home_total == 100 and match.away_total == 50
