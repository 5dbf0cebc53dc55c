"""docs/rules.md, "Revision 3", through the site: the paper goes in as written (rule 35 b), and its notes are
one list, the same on every view.

- A protocol typed deal by deal on the protocol page, with a running total written 5 too high at
  deal 2 (1 500 for 1 495) and the paper's later totals and minimums, which carry the slip on:
  every deal saves, and one `total-mismatch` note sits at deal 2.
- A correction of deal 2 (away card points 315 → 320) leaves deal 3's written total off: the same
  note is on the entry page, the captain's view and confirmation page, the public protocol page,
  the official PDF's remarks, the workbook and `protocol check` of the exported file; the
  correction form shows it while the correction is typed.
- An uploaded file with such a slip goes in, its note on the preview and after saving.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from scoring.models import Deal, Match
from scoring.selectors.protocols import match_protocol
from tests import factories as f
from tests.support.readers import pdf_text, squeeze
from tests.views.test_secretary_upload import check, upload

THIN = "\u202f"

pytestmark = pytest.mark.django_db


@pytest.fixture
def s(client):
    setup = f.protocol_setup()
    client.force_login(setup["secretary"])
    return setup


def type_deal(client, match: Match, **values) -> None:
    """Type one deal on the protocol page and save it, as a secretary copying the paper does."""
    match.refresh_from_db()
    data = {"version": str(match.version), **{key: str(value) for key, value in values.items()}}
    response = client.post(reverse("scoring:match-protocol", args=[match.pk]), data)
    assert response.status_code == 302, re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]+)', response.content.decode())


def sheet_of(page: str) -> str:
    """The protocol page's sheet of deals."""
    start = page.index('id="sheet-title"')
    return page[start : page.index("</section>", start)]


def note_codes(match: Match) -> list[tuple[int, str, str | None]]:
    return [(note.number, note.problem.code, note.problem.side) for note in match_protocol(match).notes]


# The paper of the walk-through: home's total after deal 2 is 885 + 610 = 1 495, written 1 500; the
# paper's later totals add up from 1 500, and deal 3's minimum is 90, right for the written total
# (rule 35 b) though the computed total 1 495 gives 50.
SLIP_PAPER = [
    dict(home_min=50, home_cards=285, home_natural=1, home_score=885, home_total=885,
         away_min=50, away_cards=-40, away_score=-40, away_total=-40, out="home"),
    dict(home_min=50, home_cards=110, home_natural=1, home_score=610, home_total=1500,
         away_min=15, away_cards=120, away_natural=1, away_score=720, away_total=680, out="away"),
    dict(home_min=90, home_cards=200, home_natural=1, home_score=800, home_total=2300,
         away_min=50, away_cards=-30, away_score=-30, away_total=650, out="home"),
    dict(home_min=90, home_cards=100, home_mixed=1, home_score=500, home_total=2800,
         away_min=50, away_cards=-20, away_score=-20, away_total=630, out="home"),
    dict(home_min=90, home_cards=150, home_natural=1, home_score=750, home_total=3550,
         away_min=50, away_cards=-25, away_score=-25, away_total=605, out="home"),
    dict(home_min=120, home_cards=200, home_natural=1, home_score=800, home_total=4350,
         away_min=50, away_cards=-15, away_score=-15, away_total=590, out="home"),
]  # fmt: skip


def test_a_paper_with_an_addition_slip_is_typed_deal_by_deal_and_every_deal_saves(client, s):
    match = s["match"]
    for deal in SLIP_PAPER:
        type_deal(client, match, **deal)

    assert Deal.objects.filter(match=match).count() == len(SLIP_PAPER)
    # Saved as written: the paper's totals stay, the computed ones count.
    stored = Deal.objects.get(match=match, number=3)
    assert (stored.home_total_written, stored.home_min_written, stored.home_total) == (2300, 90, 2295)
    match.refresh_from_db()
    assert (match.home_total, match.away_total) == (4345, 590)
    # Exactly one note, at deal 2, where the slip was made.
    assert note_codes(match) == [(2, "total-mismatch", "home")]
    html = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    note = f"Giv 2, hemmalaget, summa: 885 och givpoängen 610 blir 1{THIN}495, inte 1{THIN}500 som det står."
    assert html.count(note) == 1
    assert html.count('class="sheet__warning"') == 1


# The correction case: away 930 after deal 1; deal 2's away card points were typed 315 for the
# paper's 320; the paper's deal 3 adds 95 to its 1 250 and writes 1 340.
CORRECTED_PAPER = [
    dict(home_cards=285, home_natural=1, home_total=885, away_cards=430, away_natural=1, away_total=930, out="home"),
    dict(home_cards=100, home_natural=1, home_total=1585, away_cards=315, away_score=315, away_total=1245, out="home"),
    dict(home_cards=85, home_natural=1, home_total=2270, away_cards=95, away_total=1340, out="home"),
    dict(home_cards=500, home_natural=4, away_cards=-50, out="home"),
    dict(home_cards=500, home_natural=4, away_cards=-50, out="home"),
]  # fmt: skip
NOTE = f"Giv 3, bortalaget, summa: 1{THIN}250 och givpoängen 95 blir 1{THIN}345, inte 1{THIN}340 som det står."


def test_a_correction_that_leaves_a_later_total_off_shows_the_same_note_on_every_view(client, s, tmp_path):
    match = s["match"]
    for deal in CORRECTED_PAPER:
        type_deal(client, match, **deal)
    assert note_codes(match) == []
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    # The secretary corrects deal 2 to the paper's 320, with its written score and total.
    correction = {**CORRECTED_PAPER[1], "away_cards": 320, "away_score": 320, "away_total": 1250,
                  "reason": "Skrivfel, protokollet säger 320.", "version": str(match.version)}  # fmt: skip
    response = client.post(reverse("scoring:deal-correct", args=[match.pk, 2]), correction)
    assert response.status_code == 302
    assert note_codes(match) == [(3, "total-mismatch", "away")]

    # The entry page, while the protocol is still the secretary's, and as it is submitted.
    protocol_page = reverse("scoring:match-protocol", args=[match.pk])
    page = client.get(protocol_page).content.decode()
    assert sheet_of(page).count(NOTE) == 1
    # ... and in the list of notes above the button that submits it.
    assert NOTE in page[page.index('id="notes-title"') : page.index(reverse("scoring:match-submit", args=[match.pk]))]
    assert NOTE in client.get(reverse("scoring:match-submit", args=[match.pk])).content.decode()
    match.refresh_from_db()
    client.post(reverse("scoring:match-submit", args=[match.pk]), {"version": str(match.version)})
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED

    # The other captain sees it on the protocol and before confirming.
    client.force_login(s["away_captain"])
    captain_page = client.get(protocol_page).content.decode()
    assert sheet_of(captain_page).count(NOTE) == 1
    assert captain_page.index(NOTE) < captain_page.index(reverse("scoring:match-confirm", args=[match.pk]))
    assert NOTE in client.get(reverse("scoring:match-confirm", args=[match.pk])).content.decode()

    # The public protocol page.
    client.logout()
    assert client.get(reverse("scoring:match-detail", args=[match.pk])).content.decode().count(NOTE) == 1

    # The official PDF's remarks and the workbook.
    client.force_login(s["secretary"])
    pdf = client.get(reverse("scoring:match-protocol-pdf", args=[match.pk]))
    assert pdf.status_code == 200
    printed = squeeze(pdf_text(b"".join(pdf.streaming_content) if pdf.streaming else pdf.content))
    assert squeeze(NOTE.replace(THIN, " ")) in printed
    workbook = client.get(reverse("scoring:match-protocol-xlsx", args=[match.pk]))
    sheets = load_workbook(io.BytesIO(b"".join(workbook.streaming_content) if workbook.streaming else workbook.content))
    remarks = [row for row in sheets["Anmärkningar"].iter_rows(values_only=True)]
    assert remarks[1:] == [(3, NOTE)]

    # `protocol check` of the exported file: the same note, and the file goes in (exit status 0).
    exported = tmp_path / "protokoll.csv"
    call_command("protocol", "export", "--match", str(match.pk), "-o", str(exported), stdout=io.StringIO())
    out = io.StringIO()
    try:
        call_command("protocol", "check", str(exported), "--json", stdout=out)
    finally:
        translation.deactivate()
    report = json.loads(out.getvalue())
    assert report["errors"] == 0
    notes = [(deal["deal"], w["code"], w["message"]) for deal in report["deals"] for w in deal["warnings"]]
    assert notes == [(3, "total-mismatch", NOTE)]


def test_the_correction_shows_the_note_it_leaves_on_a_later_deal_while_it_is_typed(client, s):
    match = s["match"]
    for deal in CORRECTED_PAPER[:3]:
        type_deal(client, match, **deal)
    typed = {**CORRECTED_PAPER[1], "away_cards": 320, "away_score": 320, "away_total": 1250, "correct_number": "2"}
    response = client.post(
        reverse("scoring:match-protocol-check", args=[match.pk]),
        {key: str(value) for key, value in typed.items()},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count(NOTE) == 1
    # Typed as stored, the correction changes nothing later: no note.
    unchanged = {**CORRECTED_PAPER[1], "correct_number": "2"}
    html = client.post(
        reverse("scoring:match-protocol-check", args=[match.pk]),
        {key: str(value) for key, value in unchanged.items()},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Giv 3" not in html


def test_an_uploaded_file_with_an_addition_slip_goes_in_with_its_note(client, s):
    match = s["match"]
    content = (
        "deal,home_cards,home_natural,away_cards,out,home_total,away_total,home_min\n"
        "1,300,1,-40,home,900,-40,50\n"
        "2,95,1,-30,,1500,-70,50\n"  # 900 + 595 = 1 495, written 1 500: the slip
        "3,45,1,-10,home,2145,-80,90\n"  # written on from 1 500, minimum by the written total
    ).encode()
    preview = check(client, match, content).content.decode()
    note = f"Giv 2, hemmalaget, summa: 900 och givpoängen 595 blir 1{THIN}495, inte 1{THIN}500 som det står."
    assert sheet_of(preview).count(note) == 1
    assert 'name="checked"' in preview  # it may be saved

    assert upload(client, match, content).status_code == 302
    match.refresh_from_db()
    assert (match.deal_count, match.home_total) == (3, 2140)
    assert note_codes(match) == [(2, "total-mismatch", "home")]
