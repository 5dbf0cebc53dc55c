"""Each team signs for itself at the table (docs/rules.md, entry at the table): a side code acts for
its own side only, a confirmation closes the protocol at the table, a change by the secretary
withdraws the confirmations, the hall clock decides the dealt minute and what may be proposed, and a
conflict stays open with the players' numbers until it is settled. Through the pages:
tests/views/test_table_side_pages.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from scoring import services
from scoring.models import AuditEntry, Deal, Match, TableDeal
from scoring.selectors import table as table_selectors
from scoring.services import table
from tests import factories as f

pytestmark = pytest.mark.django_db

DEAL = {"home_cards": "485", "home_natural": "2", "home_mixed": "1", "away_cards": "-40", "out": "home"}


@pytest.fixture
def setup():
    setup = f.protocol_setup()
    competition = setup["match"].competition
    competition.rules_key = "sv-tavling"
    competition.save()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


def propose(link, number, side="home", *, codes=None, both=False, client_id=None, kind="deal", entry=None):
    return table.table_deal_propose(
        link=link, codes=codes if codes is not None else [link.code_for(side)], client_id=client_id or f"c{kind}{number}{side}",
        side=side, kind=kind, number=number, agreed_by_both=both,
        entry=entry if entry is not None or kind == "time_up" else f.winning_deal(number),
    )  # fmt: skip


def agree(link, proposal, side="away", codes=None):
    return table.table_deal_answer(link=link, codes=codes if codes is not None else [link.code_for(side)],
                                   proposal_id=proposal.pk, side=side, agree=True)  # fmt: skip


def start_clock(match, minutes_ago):
    match.round.clock_started_at = timezone.now() - timedelta(minutes=minutes_ago)
    match.round.save()


# -- a side code acts for its own side ---------------------------------------------------------------


def test_one_sides_code_cannot_agree_or_confirm_for_the_other(setup):
    link, match = setup["link"], setup["match"]
    proposal = propose(link, 1)
    with pytest.raises(PermissionDenied):
        agree(link, proposal, side="away", codes=[link.code])
    with pytest.raises(PermissionDenied):
        propose(link, 1, codes=[link.code], both=True, client_id="both")
    with pytest.raises(PermissionDenied):
        propose(link, 1, side="away", codes=[link.code], client_id="as-away")
    assert not Deal.objects.exists()
    agree(link, proposal)
    for number in (2, 3):
        propose(link, number, codes=[link.code, link.away_code], both=True)
    match.refresh_from_db()
    assert match.status == "finished"
    with pytest.raises(PermissionDenied):
        table.table_protocol_confirm(link=link, codes=[link.code], side="away")
    link.refresh_from_db()
    assert link.away_confirmed_at is None


def confirmed_by_home_where_both_confirm(setup):
    """Played to 5000 at the table, in a competition where both teams' confirmations confirm the
    match, and confirmed by the home team's code."""
    link, match = setup["link"], setup["match"]
    match.competition.table_confirmation = True
    match.competition.save()
    for number in (1, 2, 3):
        propose(link, number, codes=[link.code, link.away_code], both=True)
    table.table_protocol_confirm(link=link, codes=[link.code], side="home")
    return link, match


def test_table_confirmation_needs_both_codes(setup):
    link, match = confirmed_by_home_where_both_confirm(setup)
    with pytest.raises(PermissionDenied):
        table.table_protocol_confirm(link=link, codes=[link.code, "WRONGCOD"], side="away")
    match.refresh_from_db()
    assert match.status == "finished"
    table.table_protocol_confirm(link=link, codes=[link.away_code], side="away")
    match.refresh_from_db()
    assert match.status == "confirmed"
    logged = AuditEntry.objects.filter(action="table_protocol_confirm (table)").order_by("pk")
    assert [entry.after["code_of"] for entry in logged] == ["home", "away"]


def test_the_log_says_which_sides_code_did_each_thing(setup):
    link = setup["link"]
    proposal = propose(link, 1)
    agree(link, proposal)
    assert AuditEntry.objects.get(action="table_deal_propose (table)").after["code_of"] == "home"
    assert AuditEntry.objects.get(action="table_deal_agree (table)").after["code_of"] == "away"


# -- a confirmation closes the protocol at the table -----------------------------------------------------


def played_and_confirmed_by_home(setup):
    link, match = setup["link"], setup["match"]
    propose(link, 1, codes=[link.code, link.away_code], both=True)
    propose(link, 1, kind="time_up", client_id="time", codes=[link.code, link.away_code], both=True)
    table.table_protocol_confirm(link=link, codes=[link.code], side="home")
    match.refresh_from_db()
    link.refresh_from_db()
    return link, match


def test_no_post_changes_a_protocol_after_a_confirmation(setup):
    link, match = played_and_confirmed_by_home(setup)
    entry = f.deal(1, home_cards=100, away_cards=-40, out="home", home_natural=1)
    with pytest.raises(services.MatchStateError):
        propose(link, 1, side="away", kind="correction", entry=entry, client_id="fix")
    with pytest.raises(services.MatchStateError):
        propose(link, 2, side="away", client_id="more")
    match.refresh_from_db()
    assert (match.status, match.deal_count, match.home_total) == ("finished", 1, 1885)
    assert not TableDeal.objects.filter(status="waiting").exists()


def test_a_proposal_waiting_when_a_side_confirmed_is_not_applied(setup):
    link, match = confirmed_by_home_where_both_confirm(setup)
    with pytest.raises(services.MatchStateError):
        propose(link, 3, side="away", kind="correction", entry=f.winning_deal(3), client_id="late")
    table.table_protocol_confirm(link=link, codes=[link.away_code], side="away")
    match.refresh_from_db()
    assert (match.status, match.home_total) == ("confirmed", 3 * 1885)


def test_a_change_by_the_secretary_withdraws_every_confirmation(setup):
    link, match = played_and_confirmed_by_home(setup)
    services.deal_correct(match=match, user=setup["secretary"], number=1, entry=f.winning_deal(1),
                          reason="Fel på pappret", expected_version=match.version)  # fmt: skip
    link.refresh_from_db()
    assert link.home_confirmed_at is None and link.away_confirmed_at is None
    withdrawn = AuditEntry.objects.get(action="table_confirmations_withdraw")
    assert withdrawn.before["home_confirmed_at"] and withdrawn.after["home_confirmed_at"] is None


# -- the hall clock at the table ------------------------------------------------------------------------


def test_the_minute_a_deal_is_proposed_is_stored_as_its_dealt_minute(setup):
    link, match = setup["link"], setup["match"]
    start_clock(match, 20)
    before = timezone.now()
    proposal = propose(link, 1)
    agree(link, proposal)
    deal = Deal.objects.get()
    assert before - timedelta(seconds=1) <= deal.dealt_at <= timezone.now()
    match.refresh_from_db()
    assert match.started_at == match.round.clock_started_at
    assert 19.9 < (deal.dealt_at - match.started_at).total_seconds() / 60 < 20.5


def test_a_deal_proposed_after_the_main_signal_is_refused(setup):
    link, match = setup["link"], setup["match"]
    start_clock(match, 51)
    with pytest.raises(services.MatchStateError) as refusal:
        propose(link, 1)
    assert "50" in refusal.value.message
    assert not TableDeal.objects.exists()


def deal_one_dealt_at_minute(setup, minute):
    match = setup["match"]
    started = match.round.clock_started_at
    services.match_start(match=match, user=setup["secretary"], started_at=started)
    services.deals_record(match=match, user=setup["secretary"], entry=f.winning_deal(1), expected_version=None,
                          dealt_at=started + timedelta(minutes=minute))  # fmt: skip


def test_the_deal_in_progress_at_the_main_signal_goes_in(setup):
    link, match = setup["link"], setup["match"]
    start_clock(match, 53)
    # Deal 1 was dealt at minute 40; deal 2 was dealt before the signal and is proposed after it.
    deal_one_dealt_at_minute(setup, 40)
    agree(link, propose(link, 2))
    assert Deal.objects.count() == 2
    # No further deal may be dealt.
    with pytest.raises(services.MatchStateError):
        propose(link, 3)


def test_time_up_only_after_the_main_signal_and_clock_end_only_after_the_final(setup):
    link, match = setup["link"], setup["match"]
    start_clock(match, 30)
    agree(link, propose(link, 1))
    with pytest.raises(services.MatchStateError):
        propose(link, 1, kind="time_up", client_id="early")
    clock_end = f.deal(2, home_cards=100, away_cards=50, end="clock")
    with pytest.raises(services.MatchStateError):
        propose(link, 2, entry=clock_end, client_id="clock-early")
    start_clock(match, 55)
    proposal = propose(link, 1, kind="time_up", client_id="in-time")
    agree(link, proposal)
    match.refresh_from_db()
    assert (match.status, match.end) == ("finished", "clock")


def test_a_deal_ended_by_the_final_signal_goes_in_after_it(setup):
    link, match = setup["link"], setup["match"]
    start_clock(match, 61)
    deal_one_dealt_at_minute(setup, 45)
    agree(link, propose(link, 2, entry=f.deal(2, home_cards=100, away_cards=50, end="clock")))
    match.refresh_from_db()
    assert (match.status, match.end, match.deal_count) == ("finished", "clock", 2)


def test_an_untimed_match_never_stores_the_clocks_end(setup):
    link, match = setup["link"], setup["match"]
    match.competition.rules_key = "internationell-1951"
    match.competition.save()
    agree(link, propose(link, 1))
    with pytest.raises(services.MatchStateError):
        propose(link, 1, kind="time_up", client_id="tu")
    assert not TableDeal.objects.filter(kind="time_up").exists()
    # The next deal is no conflict.
    assert propose(link, 2).status == "waiting"


# -- conflicts stay open until settled -------------------------------------------------------------------


def test_a_conflict_keeps_the_players_numbers_until_sent_again(setup):
    link, match = setup["link"], setup["match"]
    proposal = propose(link, 1, entry=f.deal(1, home_cards=120, away_cards=45, end="stock"))
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    agree(link, proposal)
    proposal.refresh_from_db()
    assert proposal.status == "conflict" and proposal.settled_at is None
    assert (proposal.values["home_cards"], proposal.values["away_cards"]) == (120, 45)
    assert [c.pk for c in table_selectors.match_open_conflicts(match)] == [proposal.pk]
    resent = table.table_deal_propose(link=link, codes=[link.code], client_id="again", side="home", number=2,
                                      entry=f.deal(2, home_cards=120, away_cards=45, end="stock"), resend_of=proposal.pk)  # fmt: skip
    proposal.refresh_from_db()
    assert resent.status == "waiting" and proposal.settled_at is not None
    agree(link, resent)
    assert list(Deal.objects.order_by("number").values_list("home_cards", flat=True)) == [50, 120]


def test_the_secretary_sets_a_conflict_aside(setup):
    link, match = setup["link"], setup["match"]
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    conflict = propose(link, 1)
    assert conflict.status == "conflict"
    with pytest.raises(PermissionDenied):
        table.table_conflict_set_aside(match=match, user=setup["away_captain"], proposal_id=conflict.pk)
    table.table_conflict_set_aside(match=match, user=setup["secretary"], proposal_id=conflict.pk)
    conflict.refresh_from_db()
    assert conflict.settled_at is not None


# -- the link's life ---------------------------------------------------------------------------------------


def test_a_postponed_matchs_code_ends_with_its_day(setup):
    link, match = setup["link"], setup["match"]
    match.status = Match.Status.POSTPONED
    match.scheduled_start = timezone.now() - timedelta(days=2)
    match.save()
    link.refresh_from_db()
    assert not table.link_is_open(link)
    match.scheduled_start = timezone.now() + timedelta(days=1)
    match.save()
    link.refresh_from_db()
    assert table.link_is_open(link)


def test_reopening_a_confirmed_protocol_withdraws_the_confirmations(setup):
    link, match = played_and_confirmed_by_home(setup)
    admin = f.make_admin()
    services.match_reopen(match=match, user=admin, reason="Fel lag antecknat", expected_version=match.version)
    link.refresh_from_db()
    assert link.home_confirmed_at is None
    assert AuditEntry.objects.filter(action="table_confirmations_withdraw").count() == 1
