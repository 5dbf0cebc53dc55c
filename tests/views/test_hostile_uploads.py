"""Hostile protocol files: each is refused with a clear message naming the problem, and nothing is
saved (the match keeps the deals it had)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import services
from scoring.files.protocol_file import MAX_FILE_BYTES, ProtocolFileError, read_protocol
from scoring.messages import FILE_ERROR_TEXTS, file_error_message
from scoring.models import AuditEntry, Deal
from tests import factories as f

from tests.support.hostile_files import HOSTILE_NAMES, csv_bytes, hostile_file, xlsx_bytes


def match_with_two_deals():
    s = f.protocol_setup()
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(
            match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version
        )
    return s, match


def rows_of(match):
    return list(match.deals.order_by("number").values())


def import_file(*, match, user, data: bytes, filename: str) -> str | None:
    """What the import page does: read the file, import all or nothing; the message if refused."""
    try:
        entries = read_protocol(data, filename)
        services.match_import_deals(match=match, user=user, entries=entries, expected_version=match.version)
    except ProtocolFileError as error:
        return file_error_message(error)
    except services.DealProblemsError as error:
        return str(error.message)
    return None


@pytest.mark.django_db
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_file_is_refused_with_a_message_and_saves_nothing(name):
    filename, data, code = hostile_file(name)
    s, match = match_with_two_deals()
    before = rows_of(match)
    audit_before = AuditEntry.objects.count()

    with pytest.raises(ProtocolFileError) as info:
        read_protocol(data, filename)
    assert info.value.code == code
    with translation.override("sv"):
        message = import_file(match=match, user=s["secretary"], data=data, filename=filename)

    assert message, "refused without a message"
    assert message != code and code in FILE_ERROR_TEXTS  # a sentence, not a code
    match.refresh_from_db()
    assert match.version == 3 and match.deal_count == 2
    assert rows_of(match) == before
    assert AuditEntry.objects.count() == audit_before


def test_every_file_error_has_a_swedish_message():
    params = {"value": "x", "limit": 1000, "detail": "x", "expected": "yes/no"}
    for code in sorted({hostile_file(name)[2] for name in HOSTILE_NAMES}):
        error = ProtocolFileError(code, 2, "home_cards", params)
        with translation.override("en"):
            english = file_error_message(error)
        with translation.override("sv"):
            swedish = file_error_message(error)
        assert english.startswith("Line 2, column home_cards: "), english
        assert swedish.startswith("Rad 2, kolumn home_cards: "), swedish
        assert english.split(": ", 1)[1] != swedish.split(": ", 1)[1], f"{code} is not translated"


@pytest.mark.parametrize(
    ("data", "filename"),
    [
        (csv_bytes("deal,home_cards,away_cards,home_natural", "1,5,0,"), "p.csv"),
        (xlsx_bytes([("deal", "home_cards", "away_cards", "home_natural", "spare"), (1, 5, 0, None)]), "p.xlsx"),
    ],
)
def test_the_engine_reader_names_a_formula_not_an_empty_cell(data, filename):
    """Control: the hostile cases above fail for their hostility, not for the shape of the file."""
    if filename.endswith(".xlsx"):
        with pytest.raises(ProtocolFileError) as info:
            read_protocol(data, filename)
        assert (info.value.code, info.value.column) == ("unknown-column", "spare")
    else:
        (entry,) = read_protocol(data, filename)
        assert entry.home.cards == 5 and entry.home.natural == 0


def test_a_workbook_whose_dimension_is_wider_than_its_cells_is_read():
    """Spreadsheet programs pad rows to the used width; trailing empty header cells are no column."""
    from tests.support.hostile_files import SHEET, patch_xlsx

    data = xlsx_bytes([("deal", "home_cards", "away_cards"), (1, 5, 0), (2, 10, 0)])
    wide = patch_xlsx(
        data, SHEET, lambda xml: xml.replace(b'<dimension ref="A1:C3" />', b'<dimension ref="A1:H3" />')
    )
    assert wide != data
    assert [deal.home.cards for deal in read_protocol(wide, "p.xlsx")] == [5, 10]


def test_a_formula_with_a_saved_value_is_refused():
    """What Excel or LibreOffice save: the formula and its last computed value. The value is what
    the program computed, not what the secretary wrote, so the cell is refused and named."""
    from tests.support.hostile_files import SHEET, patch_xlsx

    data = xlsx_bytes([("deal", "home_cards", "away_cards"), (1, 5, 0)])
    cached = patch_xlsx(
        data, SHEET, lambda xml: xml.replace(b'<c r="B2" t="n"><v>5</v></c>', b'<c r="B2"><f>2+3</f><v>5</v></c>')
    )
    assert cached != data
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(cached, "p.xlsx")
    assert (info.value.code, info.value.line, info.value.column) == ("formula", 2, "home_cards")
    with translation.override("en"):
        assert "formula (=2+3)" in file_error_message(info.value)


def test_the_upload_limit_is_one_megabyte():
    from django.conf import settings

    assert MAX_FILE_BYTES == 1024 * 1024
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= MAX_FILE_BYTES
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= MAX_FILE_BYTES
    with pytest.raises(ProtocolFileError) as info:
        read_protocol(b"x" * (MAX_FILE_BYTES + 1), "p.csv")
    assert info.value.code == "too-large"


@pytest.mark.django_db
def test_a_readable_file_with_rule_errors_saves_nothing():
    s, match = match_with_two_deals()
    before = rows_of(match)
    data = csv_bytes("deal,home_cards,away_cards", "1,100,0", "2,287,0")
    with translation.override("sv"):
        message = import_file(match=match, user=s["secretary"], data=data, filename="p.csv")
    assert message == "Filen importerades inte: den innehåller fel. Inget sparades."
    match.refresh_from_db()
    assert rows_of(match) == before and Deal.objects.filter(match=match).count() == 2
