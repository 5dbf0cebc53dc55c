"""Uploading a CSV or xlsx protocol on the match page: checked and shown as it would be saved,
saved only when the secretary confirms; all or nothing, problems listed by deal."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from scoring import services
from scoring.models import AuditEntry, Deal
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Users are made in every test; PBKDF2's deliberate slowness buys nothing here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

GOOD_CSV = (
    "deal,home_cards,home_natural,home_mixed,away_cards,out\n"
    "1,485,2,1,-40,home\n"
    "2,485,2,1,-40,home\n"
)
BAD_CSV = (
    "deal,home_cards,home_natural,home_mixed,away_cards,out,home_total\n"
    "1,485,2,1,-40,home,1885\n"
    "2,287,0,0,-40,,\n"
    "3,485,2,1,-40,home,9999\n"
)


@pytest.fixture
def s(client):
    setup = f.protocol_setup()
    client.force_login(setup["secretary"])
    return setup


def check(client, match, content, name="protokoll.csv", **extra):
    """The first step: the file checked and shown; nothing saved."""
    url = reverse("scoring:match-protocol-upload", args=[match.pk])
    data = {"version": match.version, "file": SimpleUploadedFile(name, content), **extra}
    return client.post(url, data)


def upload(client, match, content, name="protokoll.csv", **extra):
    """Both steps: check the file, then save it as the checked page's form does. A refusal at the
    check is returned as it is."""
    checked = check(client, match, content, name, **extra)
    save_form = checked.context["save_form"] if checked.context and "save_form" in checked.context else None
    if checked.status_code != 200 or save_form is None:
        return checked
    assert Deal.objects.filter(match=match).count() == match.deal_count  # nothing saved yet
    data = {name: save_form[name].value() for name in ("version", "checked", "reason")}
    data["reason"] = data["reason"] or ""
    return client.post(reverse("scoring:match-protocol-upload-save", args=[match.pk]), data)


def test_a_good_csv_file_is_imported(client, s):
    match = s["match"]

    response = upload(client, match, GOOD_CSV.encode())

    assert response.status_code == 302
    match.refresh_from_db()
    assert match.deal_count == 2
    assert (match.home_total, match.away_total) == (3770, -80)
    assert AuditEntry.objects.filter(action="deals_import").count() == 1


def test_an_xlsx_file_is_imported(client, s):
    workbook = Workbook()
    sheet = workbook.active
    for row in GOOD_CSV.strip().splitlines():
        sheet.append([int(v) if v.lstrip("-").isdigit() else v for v in row.split(",")])
    buffer = io.BytesIO()
    workbook.save(buffer)

    response = upload(client, s["match"], buffer.getvalue(), name="protokoll.xlsx")

    assert response.status_code == 302
    assert Deal.objects.count() == 2


def test_a_file_with_errors_saves_nothing_and_lists_problems_by_deal(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)

    response = upload(client, match, BAD_CSV.encode(), reason="Hela protokollet")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Giv 2" in html and "Giv 3" in html
    assert "287" in html and "9\u202f999" in html  # numbers in messages look as in the tables
    match.refresh_from_db()
    assert match.deal_count == 1  # untouched: all or nothing
    assert list(match.deals.values_list("home_cards", flat=True)) == [485]


def test_an_unreadable_file_gets_the_file_error_message(client, s):
    response = upload(client, s["match"], b"deal,home_cards,away_cards,colour\n1,50,0,red\n")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Okänd kolumn" in html and "colour" in html
    assert Deal.objects.count() == 0


def test_a_file_over_1_mb_is_refused(client, s):
    big = GOOD_CSV.encode() + b"#" * (1024 * 1024)

    response = upload(client, s["match"], big)

    assert response.status_code == 200
    assert "1 MB" in response.content.decode()
    assert Deal.objects.count() == 0


def test_replacing_deals_needs_a_reason(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)

    refused = upload(client, match, GOOD_CSV.encode())
    assert refused.status_code == 200
    assert match.deals.count() == 1

    done = upload(client, match, GOOD_CSV.encode(), reason="Pappersprotokollet inläst")
    assert done.status_code == 302
    assert match.deals.count() == 2
    assert AuditEntry.objects.get(action="deals_import").reason == "Pappersprotokollet inläst"


def test_a_stale_upload_is_refused(client, s):
    match = s["match"]
    old = match.version
    services.match_start(match=match, user=s["secretary"], expected_version=old)
    match.version = old

    response = upload(client, match, GOOD_CSV.encode())

    assert response.status_code == 409
    assert Deal.objects.count() == 0


def test_a_checked_file_is_shown_as_it_would_be_saved_and_not_saved(client, s):
    from datetime import date, timedelta

    match = s["match"]
    match.round.date = date.today() + timedelta(days=7)
    match.round.save()

    response = check(client, match, GOOD_CSV.encode())

    html = response.content.decode()
    assert response.status_code == 200
    assert "protokoll.csv" in html and "som den skulle sparas" in html
    assert 'id="deal-2"' in html and "3\u202f770" in html  # the deals and totals, as the sheet shows them
    assert "Spara dessa 2 givar" in html
    assert "Den här matchen är planerad till" in html  # the same notice as typing
    assert "Välj en fil" not in html
    assert Deal.objects.count() == 0


def test_a_refused_file_does_not_ask_to_choose_a_file(client, s):
    response = check(client, s["match"], BAD_CSV.encode())

    html = response.content.decode()
    assert "Giv 2" in html and "Välj en fil" not in html
    assert "Spara dessa" not in html
    unreadable = check(client, s["match"], b"deal,home_cards,away_cards,colour\n1,50,0,red\n").content.decode()
    assert "Okänd kolumn" in unreadable and "Välj en fil" not in unreadable


def test_a_forged_checked_file_is_refused(client, s):
    match = s["match"]
    response = client.post(
        reverse("scoring:match-protocol-upload-save", args=[match.pk]),
        {"version": match.version, "checked": "forged", "reason": ""},
    )

    assert response.status_code == 200
    assert Deal.objects.count() == 0
