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


# -- read once; the rules it was checked under ---------------------------------------------------


def test_the_file_is_read_once_for_the_preview_and_the_save(client, s, monkeypatch):
    from scoring.views import secretary_upload

    reads = []
    real = secretary_upload.read_protocol_file
    monkeypatch.setattr(secretary_upload, "read_protocol_file", lambda *args: reads.append(args) or real(*args))

    response = upload(client, s["match"], GOOD_CSV.encode())

    assert response.status_code == 302
    assert len(reads) == 1
    assert Deal.objects.filter(match=s["match"]).count() == 2


def test_a_thousand_deals_travel_in_a_token_well_inside_the_post_limit(client, s, settings):
    lines = ["deal,home_cards,away_cards,home_total,away_total"]
    lines += [f"{n},0,0,0,0" for n in range(1, 1001)]
    response = check(client, s["match"], "\n".join(lines).encode())

    token = response.context["save_form"]["checked"].value()
    assert len(token) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 10


def test_a_change_of_the_competitions_rules_after_the_check_refuses_the_save(client, s):
    match = s["match"]
    checked = check(client, match, GOOD_CSV.encode())
    save_form = checked.context["save_form"]
    competition = match.competition
    competition.rules_key = "sv-hem"
    competition.save()

    data = {name: save_form[name].value() or "" for name in ("version", "checked", "reason")}
    response = client.post(reverse("scoring:match-protocol-upload-save", args=[match.pk]), data)

    assert response.status_code == 409
    html = response.content.decode()
    assert "Tävlingens regler ändrades efter att filen kontrollerades" in html
    assert "Svensk tävlingscanasta" in html and "Svenska hemmaregler" in html
    match.refresh_from_db()
    assert match.deal_count == 0 and Deal.objects.count() == 0


def test_a_change_of_a_rule_value_alone_also_refuses_the_save(client, s):
    match = s["match"]
    save_form = check(client, match, GOOD_CSV.encode()).context["save_form"]
    competition = match.competition
    competition.rules_overrides = {"target": 3000}
    competition.save()

    data = {name: save_form[name].value() or "" for name in ("version", "checked", "reason")}
    response = client.post(reverse("scoring:match-protocol-upload-save", args=[match.pk]), data)

    assert response.status_code == 409
    assert "Tävlingens regler ändrades efter att filen kontrollerades. Inget sparades" in response.content.decode()
    assert Deal.objects.count() == 0


def test_rules_the_match_already_plays_under_are_not_a_change(client, s):
    """A match keeps the rules it started under: the competition's change does not reach it."""
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    save_form = check(client, match, GOOD_CSV.encode(), reason="Hela protokollet").context["save_form"]
    match.competition.rules_key = "sv-hem"
    match.competition.save()

    data = {name: save_form[name].value() or "" for name in ("version", "checked", "reason")}
    response = client.post(reverse("scoring:match-protocol-upload-save", args=[match.pk]), data)

    assert response.status_code == 302
    assert Deal.objects.filter(match=match).count() == 2


# -- the file names another match --------------------------------------------------------------


def exported_workbook(match, language="sv") -> bytes:
    from django.utils import translation

    from scoring.exports.xlsx import match_protocol_xlsx

    with translation.override(language):
        return match_protocol_xlsx(match).content


def secretarys_other_match(s, **extra):
    """Another match of the secretary's club, in another competition."""
    return f.make_match(home=f.make_team(club=s["home"].club), **extra)


def test_a_workbook_of_another_match_is_shown_as_such_and_saved_only_when_confirmed(client, s):
    other = secretarys_other_match(s, round_number=8)
    other = services.match_import_deals(
        match=other, user=s["secretary"], entries=[f.winning_deal(1), f.winning_deal(2)], expected_version=other.version
    )
    match = s["match"]
    data = exported_workbook(other)

    checked = check(client, match, data, name="protokoll.xlsx")

    html = checked.content.decode()
    assert "Filen gäller en annan match" in html
    assert other.home_team.name in html and other.away_team.name in html
    assert "Hemmalaget" in html and "Omgång" in html and ">8<" in html
    save_form = checked.context["save_form"]
    fields = {name: save_form[name].value() or "" for name in ("version", "checked", "reason")}
    url = reverse("scoring:match-protocol-upload-save", args=[match.pk])

    refused = client.post(url, fields)
    assert refused.status_code == 200
    assert "Kryssa i rutan om den ändå är den här matchens protokoll" in refused.content.decode()
    assert "Filen gäller en annan match" in refused.content.decode()  # shown again, with the question
    assert Deal.objects.filter(match=match).count() == 0

    saved = client.post(url, {**fields, "this_match": "on"})
    assert saved.status_code == 302
    assert Deal.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_workbook_exported_from_the_same_match_asks_nothing(client, s, language):
    match = services.match_import_deals(
        match=s["match"], user=s["secretary"], entries=[f.winning_deal(1)], expected_version=s["match"].version
    )

    checked = check(client, match, exported_workbook(match, language), name="protokoll.xlsx", reason="Igen")

    assert checked.context["other_match"] == []
    assert "Filen gäller en annan match" not in checked.content.decode()
    assert checked.context["save_form"] is not None


def test_an_english_workbook_of_another_match_is_shown_as_such(client, s):
    other = secretarys_other_match(s)
    other = services.match_import_deals(
        match=other, user=s["secretary"], entries=[f.winning_deal(1)], expected_version=other.version
    )

    checked = check(client, s["match"], exported_workbook(other, "en"), name="protocol.xlsx")

    differences = {what: (written, actual) for what, written, actual in checked.context["other_match"]}
    assert differences["Hemmalaget"] == (other.home_team.name, "Hemmalaget")
    assert set(differences) >= {"Tävling", "Hemmalaget", "Bortalaget"}


# -- messages, as the secretary sees the file ----------------------------------------------------


def test_an_unreadable_value_is_named_by_deal_and_swedish_heading(client, s):
    response = check(client, s["match"], b"deal,home_cards,away_cards\n1,5,0\n\n2,femtio,0\n")

    html = response.content.decode()
    assert "Giv 2, Hemma kortpoäng: ”femtio” är inte ett heltal." in html
    assert "home_cards" not in html and "Rad 4" not in html


def test_an_unreadable_value_is_named_in_the_readers_language():
    from django.utils import translation

    from scoring.files.protocol_file import ProtocolFileError, read_protocol
    from scoring.views.secretary_upload import upload_error_message

    with pytest.raises(ProtocolFileError) as info:
        read_protocol("Giv,Hemma kortpoäng,Borta kortpoäng\n1,5,ja\n".encode(), "p.csv")
    with translation.override("en"):
        assert upload_error_message(info.value) == "Deal 1, away_cards: “ja” is not a whole number."
    with translation.override("sv"):
        assert upload_error_message(info.value) == "Giv 1, Borta kortpoäng: ”ja” är inte ett heltal."


def test_a_formula_in_a_workbook_is_named_by_deal_and_heading(client, s):
    from tests.support.upload_files import formula_with_saved_value

    html = check(client, s["match"], formula_with_saved_value(), name="p.xlsx").content.decode()

    assert "Giv 1, Hemma kortpoäng: Cellen innehåller en formel (=2+3)" in html


# -- downloads ------------------------------------------------------------------------------------


def test_the_secretarys_protocol_page_links_to_pdf_excel_and_csv(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)

    html = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()

    for name in ("match-protocol-pdf", "match-protocol-xlsx", "match-protocol-csv"):
        assert reverse(f"scoring:{name}", args=[match.pk]) in html


def test_the_protocol_as_csv_uploads_again_with_the_same_totals(client, s):
    match = s["match"]
    assert upload(client, match, GOOD_CSV.encode()).status_code == 302
    match.refresh_from_db()

    response = client.get(reverse("scoring:match-protocol-csv", args=[match.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;") and ".csv" in response["Content-Disposition"]
    content = b"".join(response) if response.streaming else response.content
    assert content.startswith(b"deal,home_cards,")
    other = secretarys_other_match(s)
    assert upload(client, other, content, name="protokoll.csv").status_code == 302
    other.refresh_from_db()
    assert (other.home_total, other.away_total) == (match.home_total, match.away_total) == (3770, -80)


def test_a_token_of_deals_the_site_no_longer_reads_is_refused_as_expired(client, s):
    from django.core import signing

    from scoring.views.secretary_upload import SIGNING_SALT

    match = s["match"]
    token = signing.dumps(
        {"match": match.pk, "name": "p.csv", "deals": [[1, 2]], "rules": {}, "points": {}, "other_match": []},
        salt=SIGNING_SALT, compress=True,
    )  # fmt: skip

    response = client.post(
        reverse("scoring:match-protocol-upload-save", args=[match.pk]), {"version": match.version, "checked": token}
    )

    assert response.status_code == 200
    assert "Den kontrollerade filen" in response.content.decode()
    assert Deal.objects.count() == 0


def test_a_deal_out_of_sequence_names_the_column_as_headed(client, s):
    html = check(client, s["match"], b"deal,home_cards,away_cards\n1,5,0\n3,5,0\n").content.decode()

    assert "Rad 3, Giv: Givnummer 3; 2 väntades" in html
