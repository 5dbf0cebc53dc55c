"""Entry at the table (scoring.services.table): a deal counts once both sides agreed, a proposal
sent twice is stored once, a rejected deal is marked, a deal entered meanwhile by the secretary is a
conflict (never overwritten), rule 35 corrections, the clock's end, both sides' confirmation, and
the photo of the signed paper."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import PermissionDenied
from PIL import Image

from scoring import services
from scoring.models import AuditEntry, Deal, Match, MatchPhoto, TableDeal
from scoring.services import photos, table
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    setup = f.protocol_setup()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


def propose(link, number, side="home", *, entry=None, client_id=None, both=False, kind="deal"):
    return table.table_deal_propose(
        link=link, codes=[link.code, link.away_code] if both else [link.code_for(side)], client_id=client_id or f"c-{kind}-{number}-{side}", side=side, kind=kind, number=number,
        entry=entry if entry is not None or kind == "time_up" else f.winning_deal(number), agreed_by_both=both,
    )


def test_each_side_has_a_code_of_eight_characters_without_look_alikes(setup):
    link = setup["link"]
    for code in (link.code, link.away_code):
        assert len(code) == 8 and not set(code) & set("0O1IL2Z5S8B")
    assert link.code != link.away_code
    assert (link.side_of(link.code), link.side_of(link.away_code), link.side_of("X")) == ("home", "away", None)
    # Issued again: the same link.
    assert table.table_link_issue(match=setup["match"], user=setup["secretary"]) == setup["link"]


def test_a_deal_counts_once_the_other_side_agreed(setup):
    link = setup["link"]
    proposal = propose(link, 1)
    assert proposal.status == "waiting" and Deal.objects.count() == 0
    answered = table.table_deal_answer(link=link, codes=[link.code_for("away")], proposal_id=proposal.pk, side="away", agree=True)
    assert answered.status == "agreed"
    deal = Deal.objects.get()
    assert (deal.number, deal.home_score) == (1, 1885)
    assert AuditEntry.objects.filter(action="deal_record (table)").count() == 1
    logged = AuditEntry.objects.get(action="table_deal_agree (table)")
    assert logged.after["link"] == link.code and logged.user is None


def test_the_proposing_side_cannot_agree_for_the_other(setup):
    link = setup["link"]
    proposal = propose(link, 1)
    table.table_deal_answer(link=link, codes=[link.code_for("home")], proposal_id=proposal.pk, side="home", agree=True)
    assert TableDeal.objects.get().status == "waiting" and not Deal.objects.exists()
    with pytest.raises(services.MatchStateError):
        table.table_deal_answer(link=link, codes=[link.code_for("home")], proposal_id=proposal.pk, side="home", agree=False)


def test_a_proposal_sent_twice_is_stored_once(setup):
    link = setup["link"]
    first = propose(link, 1, client_id="device-1", both=True)
    again = propose(link, 1, client_id="device-1", both=True)
    assert first.pk == again.pk
    assert Deal.objects.count() == 1 and TableDeal.objects.count() == 1


def test_a_rejected_deal_is_marked_and_not_recorded(setup):
    link = setup["link"]
    proposal = propose(link, 1)
    table.table_deal_answer(link=link, codes=[link.code_for("away")], proposal_id=proposal.pk, side="away", agree=False, reason="vi hade 2 canastor")
    proposal.refresh_from_db()
    assert (proposal.status, proposal.note) == ("rejected", "vi hade 2 canastor")
    assert not Deal.objects.exists()
    # The table enters it again, right this time.
    propose(link, 1, client_id="again", both=True)
    assert Deal.objects.count() == 1


def test_a_deal_with_errors_is_refused_as_the_secretarys_page_refuses_it(setup):
    with pytest.raises(services.DealProblemsError) as refusal:
        propose(setup["link"], 1, entry=f.deal(1, home_cards=123, away_cards=0, end="stock"))
    assert [p.code for _n, p in refusal.value.problems] == ["not-multiple-of-5"]
    assert not TableDeal.objects.exists()


def test_a_deal_the_secretary_entered_meanwhile_is_a_conflict_never_overwritten(setup):
    link, match = setup["link"], setup["match"]
    proposal = propose(link, 1)
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)
    table.table_deal_answer(link=link, codes=[link.code_for("away")], proposal_id=proposal.pk, side="away", agree=True)
    proposal.refresh_from_db()
    assert proposal.status == "conflict" and ("Deal 1" in proposal.note or "Giv 1" in proposal.note)
    assert list(Deal.objects.values_list("home_cards", flat=True)) == [50]


def test_rule_35_the_last_deal_is_corrected_with_both_sides_not_an_earlier_one(setup):
    link = setup["link"]
    propose(link, 1, both=True)
    propose(link, 2, both=True, entry=f.deal(2, home_cards=50, away_cards=30, end="stock"))
    earlier = propose(link, 1, kind="correction", client_id="fix-1", entry=f.deal(1, home_cards=60, away_cards=0, end="stock"))
    assert earlier.status == "conflict"
    fix = propose(link, 2, kind="correction", client_id="fix-2", entry=f.deal(2, home_cards=70, away_cards=30, end="stock"))
    assert Deal.objects.get(number=2).home_cards == 50  # not before the other side agreed
    table.table_deal_answer(link=link, codes=[link.code_for("away")], proposal_id=fix.pk, side="away", agree=True)
    assert Deal.objects.get(number=2).home_cards == 70
    assert AuditEntry.objects.filter(action="deal_correct (table)").exists()


def test_time_up_ends_the_match_on_the_clock_and_both_sides_confirm(setup):
    link, match = setup["link"], setup["match"]
    match.competition.rules_key = "sv-tavling"
    match.competition.table_confirmation = True
    match.competition.save()
    propose(link, 1, both=True)
    with pytest.raises(services.MatchStateError):
        table.table_protocol_confirm(link=link, codes=[link.code_for("home")], side="home")
    propose(link, 1, kind="time_up", client_id="time", both=True)
    match.refresh_from_db()
    assert (match.status, match.end, match.winner) == ("finished", "clock", "home")
    table.table_protocol_confirm(link=link, codes=[link.code_for("home")], side="home")
    match.refresh_from_db()
    assert match.status == "finished"
    table.table_protocol_confirm(link=link, codes=[link.code_for("away")], side="away")
    match.refresh_from_db()
    assert match.status == "confirmed" and match.confirmed_by is None
    confirmations = AuditEntry.objects.filter(action="table_protocol_confirm (table)")
    assert sorted(entry.after["side"] for entry in confirmations) == ["away", "home"]
    assert all(entry.after["link"] == link.code for entry in confirmations)
    # The match is confirmed: the link opens nothing more.
    link.refresh_from_db()
    with pytest.raises(PermissionDenied):
        propose(link, 2, client_id="after")


def test_without_the_setting_the_secretary_submits_as_before(setup):
    link, match = setup["link"], setup["match"]
    for number in (1, 2, 3):
        propose(link, number, both=True)
    match.refresh_from_db()
    assert (match.status, match.end) == ("finished", "target")
    table.table_protocol_confirm(link=link, codes=[link.code_for("home")], side="home")
    table.table_protocol_confirm(link=link, codes=[link.code_for("away")], side="away")
    match.refresh_from_db()
    assert match.status == "finished"
    services.match_submit(match=match, user=setup["secretary"], expected_version=match.version)
    with pytest.raises(PermissionDenied):
        propose(link, 4)


def test_a_withdrawn_or_renewed_link_opens_nothing(setup):
    link, match = setup["link"], setup["match"]
    new = table.table_link_withdraw(match=match, user=setup["secretary"], renew=True)
    assert new.code != link.code
    link.refresh_from_db()
    with pytest.raises(PermissionDenied):
        propose(link, 1)
    propose(new, 1, both=True)
    assert Deal.objects.count() == 1
    table.table_link_withdraw(match=match, user=setup["secretary"])
    new.refresh_from_db()
    with pytest.raises(PermissionDenied):
        propose(new, 2)


def test_only_the_protocol_keeper_manages_the_link(setup):
    with pytest.raises(PermissionDenied):
        table.table_link_withdraw(match=setup["match"], user=setup["away_captain"], renew=True)


def test_a_table_link_reaches_no_other_match(setup):
    other = f.make_match(home=setup["home"], away=setup["away"], competition=setup["match"].competition, round_number=2)
    actor = table.TableSide(setup["link"])
    with pytest.raises(PermissionDenied):
        services.deals_record(match=other, user=actor, entry=f.winning_deal(1), expected_version=None)
    assert not Deal.objects.exists()


def photo_bytes(kind="JPEG") -> bytes:
    image = Image.new("RGB", (40, 30), "white")
    exif = Image.Exif()
    exif[0x010F] = "Kamera AB"  # Make
    exif[0x8825] = {2: (59.0, 20.0, 0.0)}  # GPS: latitude
    out = io.BytesIO()
    image.save(out, kind, exif=exif.tobytes())
    return out.getvalue()


@pytest.mark.parametrize("kind", ["JPEG", "PNG"])
def test_a_photo_is_kept_without_its_location(setup, kind):
    photo = photos.match_photo_add(match=setup["match"], data=photo_bytes(kind), link=setup["link"])
    with Image.open(io.BytesIO(bytes(photo.image))) as stored:
        assert stored.format == kind and not stored.getexif()
        assert (stored.width, stored.height) == (40, 30)
    assert b"Kamera AB" not in bytes(photo.image)


def test_what_is_not_a_photo_is_refused(setup):
    with pytest.raises(services.DomainError):
        photos.match_photo_add(match=setup["match"], data=b"GIF89a not really", user=setup["secretary"])
    with pytest.raises(PermissionDenied):
        photos.match_photo_add(match=setup["match"], data=photo_bytes(), user=setup["away_captain"])
    assert not MatchPhoto.objects.exists()


def test_finished_matches_get_no_new_link(setup):
    match = setup["match"]
    table.table_link_withdraw(match=match, user=setup["secretary"])
    match.status = Match.Status.CONFIRMED
    match.save()
    assert table.table_link_issue(match=match, user=setup["secretary"]) is None


@pytest.mark.django_db(transaction=True)
def test_a_photo_is_in_the_backup_and_comes_back_from_it(tmp_path):
    from django.core.management import call_command

    setup = f.protocol_setup()
    link = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    photo = photos.match_photo_add(match=setup["match"], data=photo_bytes(), link=link)
    kept = bytes(photo.image)
    target = tmp_path / "backup.json"
    call_command("backup", "--format", "json", "-o", str(target), stdout=io.StringIO())
    call_command("flush", "--noinput", verbosity=0)
    assert not MatchPhoto.objects.exists()
    call_command("loaddata", str(target), verbosity=0)
    assert bytes(MatchPhoto.objects.get().image) == kept
