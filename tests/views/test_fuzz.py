"""Hostile input, driven by Hypothesis: the protocol form, the live check, the file upload and the
file import get random and hostile values. Never a server error, never a partial save (the deals
before and after agree with what the answer says), every refusal with a message the user sees.

Written for about 10 000 inputs in all on SQLite and 5 000 on PostgreSQL, which TEST_DEPTH=deep
(make test-deep) runs; `make test` runs a tenth of them, at least 50 per test (tests/support/depth.py).
FUZZ_SCALE, when set, stands for the database's share (FUZZ_SCALE=2 doubles the SQLite counts, 0.1
for a quick look), before the depth's. Each example runs in a savepoint that is rolled back, so every
one starts from the same match: two deals played, in progress.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import zipfile
from html import escape

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings, strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter

from scoring import services
from scoring.files.protocol_file import ProtocolFileError, read_protocol
from scoring.forms.protocol import DealEntryForm
from scoring.messages import file_error_message, problem_message
from scoring.models import Deal, Match
from tests import factories as f

from tests.support.depth import examples as at_depth
from tests.support.hostile_files import HOSTILE_NAMES, hostile_file, xlsx_bytes

# The slowest property tests: left out of `make test-fast`, run by `make test`.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# CI runs the suite on SQLite and again on PostgreSQL: half as many inputs on the second (whose
# round trips are slower) keep both runs alike in time.
SCALE = float(os.environ.get("FUZZ_SCALE") or (1 if connection.vendor == "sqlite" else 0.5))


def examples(n: int):
    """`n` examples on SQLite under TEST_DEPTH=deep; scaled for the database, FUZZ_SCALE and the depth."""
    return settings(
        max_examples=at_depth(n * SCALE),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# -- values a person (or an attacker) might type -----------------------------------------------
# Strategies are kept cheap to draw (a few choices each, then a few mutations), so that most of the
# time goes into the code under test.

HOSTILE_VALUES = [
    "=1+1", "=HYPERLINK(\"http://evil.example\",\"x\")", "@SUM(A1)", "+5", "-0", "1e5", "1E3", "NaN", "nan",
    "inf", "-inf", "0x10", "0b11", "1_000", "1 000", "1\u202f000", "\u2212 40", "١٢٣", "²", "5.0", "5,0", " 5 ",
    "99999999999999999999999999", "-99999999999999999999", "2147483648", "-2147483649", "9223372036854775808",
    "1000000", "1000005", "-1000005", "32768", "65536", "<script>alert(1)</script>", "'; DROP TABLE scoring_deal; --",
    "\x00", "5\x00", "\ud7ff", "\ufeff5", "\u200b5", "None", "null", "true", "[]", "{}", "%s", "%(value)s", "{0}",
    # and values that are right somewhere, in the wrong place or not
    "", " ", "0", "1", "2", "3", "4", "5", "7", "11", "12", "-1", "-5", "35", "50", "90", "100", "120", "500",
    "785", "1180", "1185", "-1180", "3000", "5000", "yes", "no", "ja", "nej", "on", "home", "away", "out",
    "stock", "clock", "19:40", "23:59", "00:00", "25:99", "19:40:61",
]  # fmt: skip

any_value = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.sampled_from(HOSTILE_VALUES),
    st.integers(-(10**30), 10**30).map(str),
    st.text(max_size=8),
)

DEAL_FIELDS = [
    *(f"{side}_{name}" for side in ("home", "away")
      for name in ("cards", "natural", "mixed", "red3", "penalty", "melded", "min", "score", "total")),
    "out", "concealed", "end", "dealt",
]  # fmt: skip


# Strategies are built once, here: building them inside a composite costs more than drawing.
_kind = st.integers(0, 3)
_cards = st.integers(-236, 236)
_out_cards = st.integers(0, 80)
_mutations = st.lists(st.tuples(st.sampled_from(DEAL_FIELDS), any_value), max_size=4)
_left_out = st.lists(st.sampled_from(DEAL_FIELDS), max_size=2)


@st.composite
def deal_post(draw):
    """A plausible deal (often one the engine accepts), then up to four fields set to anything and
    up to two left out."""
    kind = draw(_kind)
    data = {"home_cards": str(draw(_cards) * 5), "away_cards": str(draw(_cards) * 5)}
    if kind == 0:
        data["end"] = "stock"
    elif kind in (1, 2):
        side = "home" if kind == 1 else "away"
        data.update({"out": side, f"{side}_natural": "1", f"{side}_cards": str(35 + draw(_out_cards) * 5)})
    for name, value in draw(_mutations):
        data[name] = value
    for name in draw(_left_out):
        data.pop(name, None)
    return data


# None: the version the page was loaded with (the usual case); otherwise a stale or hostile one.
version_value = st.one_of(st.none(), st.none(), st.none(), st.integers(-3, 10).map(str), any_value)


# -- protocol files ---------------------------------------------------------------------------

HEADERS = [
    ["deal", "home_cards", "away_cards", "end"],
    ["deal", "home_cards", "away_cards", "home_natural", "out", "end"],
    ["end", "away_cards", "deal", "home_cards"],
    ["deal", "home_cards", "away_cards", "end", "home_score", "away_score", "home_total", "away_total"],
]


_header = st.sampled_from(HEADERS)
_row_count = st.integers(0, 8)
_row_cards = st.integers(-40, 100)
_cell_edits = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 8), any_value), max_size=3)
_delimiter = st.sampled_from([",", ",", ";", "\t", "|"])
_line_end = st.sampled_from(["\n", "\r\n"])
_encoding = st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "cp1252", "utf-16"])


@st.composite
def protocol_rows(draw):
    """Rows of a protocol file: plausible deals ended by the stock, then a few cells (or header
    names) replaced by anything."""
    header = list(draw(_header))
    rows = []
    home_total = away_total = 0
    for number in range(1, draw(_row_count) + 1):
        home, away = draw(_row_cards) * 5, draw(_row_cards) * 5
        home_total, away_total = home_total + home, away_total + away
        values = {"deal": str(number), "home_cards": str(home), "away_cards": str(away), "end": "stock",
                  "home_natural": "", "out": "", "home_score": str(home), "away_score": str(away),
                  "home_total": str(home_total), "away_total": str(away_total)}  # fmt: skip
        rows.append([values[name] for name in header])
    table = [header, *rows]
    for row, column, value in draw(_cell_edits):
        cells = table[row % len(table)]
        if column < len(cells):
            cells[column] = value
        else:
            cells.append(value)
    return table


@st.composite
def csv_file(draw):
    table = draw(protocol_rows())
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=draw(_delimiter), lineterminator=draw(_line_end)).writerows(table)
    return buffer.getvalue().encode(draw(_encoding), errors="replace")


SMALL_HOSTILE_NAMES = [
    name for name in HOSTILE_NAMES
    if not any(big in name for big in ("10000", "million", "billion", "bomb", "giant", "over-1-mb", "dimension"))
]  # fmt: skip

_XLSX_PARTS: dict[str, bytes] = {}


def fast_xlsx(rows) -> bytes:
    """A workbook written directly (openpyxl's writer is slow for thousands of examples): numbers as
    numbers, text inline, "=..." as a formula without a saved value, "==..." as one with a value."""
    if not _XLSX_PARTS:
        template = zipfile.ZipFile(io.BytesIO(xlsx_bytes([["deal"]])))
        _XLSX_PARTS.update({name: template.read(name) for name in template.namelist()})
    cells_xml = []
    for r, row in enumerate(rows, start=1):
        cells = []
        for c, value in enumerate(row, start=1):
            ref = f"{get_column_letter(c)}{r}"
            text = ILLEGAL_CHARACTERS_RE.sub("?", str(value))
            number = text.lstrip("-")
            if number.isascii() and number.isdigit() and len(number) < 16:
                cells.append(f'<c r="{ref}" t="n"><v>{text}</v></c>')
            elif text.startswith("=="):
                cells.append(f'<c r="{ref}"><f>{escape(text[2:])}</f><v>5</v></c>')
            elif text.startswith("="):
                cells.append(f'<c r="{ref}"><f>{escape(text[1:])}</f></c>')
            elif text:
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{escape(text)}</t></is></c>')
        cells_xml.append(f'<row r="{r}">{"".join(cells)}</row>')
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        + "".join(cells_xml)
        + "</sheetData></worksheet>"
    ).encode("utf-8", errors="replace")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, content in _XLSX_PARTS.items():
            archive.writestr(name, sheet if name == "xl/worksheets/sheet1.xml" else content)
    return out.getvalue()


protocol_file = st.one_of(
    st.tuples(st.sampled_from(["p.csv", "p.csv", "protokoll.txt", ""]), csv_file()),
    st.tuples(st.sampled_from(["p.csv", "p.csv", "protokoll.txt", ""]), csv_file()),
    st.tuples(st.sampled_from(["p.xlsx", "p.xlsx", "p.csv"]), protocol_rows().map(fast_xlsx)),
    st.tuples(st.sampled_from(["p.csv", "p.xlsx", "p.bin"]), st.binary(max_size=300)),
    # The big ones (zip bomb, 10 000 rows, ...) are read once each in test_hostile_files.py.
    st.sampled_from(SMALL_HOSTILE_NAMES).map(lambda name: hostile_file(name)[:2]),
)


# -- the match every example starts from ------------------------------------------------------


@pytest.fixture
def played():
    s = f.protocol_setup()
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    return s, match


def stored(match: Match):
    row = Match.objects.filter(pk=match.pk).values("version", "deal_count", "home_total", "away_total").get()
    return row, list(Deal.objects.filter(match=match).order_by("number").values())


@contextlib.contextmanager
def rolled_back():
    """Each example starts from the same database: its writes are undone afterwards."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def shown(response, message) -> bool:
    return escape(str(message)) in response.content.decode()


def refused_for_a_nul(response, post: dict) -> bool:
    """A NUL in a posted value is refused before any view reads the form: the site's bad-request
    page (scoring.web.middleware.NulCharacterMiddleware)."""
    if not any("\x00" in str(value) for value in post.values()):
        return False
    assert response.status_code == 400 and "Felaktig begäran" in response.content.decode()
    return True


# -- the protocol form, through the view ------------------------------------------------------


def test_protocol_form_post(client, played):
    s, match = played
    client.force_login(s["secretary"])
    url = reverse("scoring:match-protocol", args=[match.pk])
    start = stored(match)

    @examples(250)
    @given(data=deal_post(), version=version_value)
    def run(data, version):
        with rolled_back():
            post = {**data, "version": str(start[0]["version"]) if version is None else version}
            response = client.post(url, post)
            assert response.status_code < 500
            after = stored(match)
            if refused_for_a_nul(response, post):
                assert after == start, "refused, but something was written"
            elif response.status_code == 302:
                assert after[0]["deal_count"] == 3 and after[0]["version"] == start[0]["version"] + 1
                assert after[1][:2] == start[1] and after[1][2]["number"] == 3
            else:
                assert response.status_code in (200, 409), response.status_code
                assert after == start, "refused, but something was written"
                error = response.context["error"]
                assert error and shown(response, error)
                placed = response.context["placed"]
                for name, messages in placed.by_field.items():
                    if name != "version":  # a hidden field: only a tampered form gets it wrong
                        assert all(shown(response, message) for message in messages)
                assert all(shown(response, message) for message in placed.general)

    run()


# -- the same form and service without the page around them (many more inputs) ----------------


def test_protocol_form_and_service(played):
    s, match = played
    start = stored(match)
    # Every example starts from this same row (rolled_back), so it is read once; the service
    # locks and reads the row itself.
    loaded_version, has_clock = start[0]["version"], match.rules.has_clock

    @examples(3000)
    @given(data=deal_post(), version=version_value)
    def run(data, version):
        with rolled_back(), translation.override("sv"):
            form = DealEntryForm({**data, "version": str(loaded_version) if version is None else version},
                                 initial={"version": loaded_version}, has_clock=has_clock)
            if not form.is_valid():
                assert form.errors and all(str(e) for errors in form.errors.values() for e in errors)
                assert stored(match) == start
                return
            try:
                services.deals_record(match=match, user=s["secretary"], entry=form.entry(3),
                                      expected_version=form.cleaned_data["version"])
            except services.DealProblemsError as refusal:
                assert refusal.problems and all(problem_message(p, n) for n, p in refusal.problems)
                assert str(refusal.message) and stored(match) == start
            except services.DomainError as refusal:
                assert str(refusal.message) and stored(match) == start
            else:
                after = stored(match)
                assert after[0]["deal_count"] == 3 and after[1][:2] == start[1]

    run()


# -- the live check -----------------------------------------------------------------------------


def test_live_check(client, played):
    s, match = played
    client.force_login(s["secretary"])
    url = reverse("scoring:match-protocol-check", args=[match.pk])
    start = stored(match)

    @examples(750)
    @given(data=deal_post(), version=version_value, correct=st.one_of(st.none(), st.sampled_from(["1", "2", "3", "0", "-1", "x", "99999999999999999999"])))
    def run(data, version, correct):
        post = {**data, "version": str(start[0]["version"]) if version is None else version}
        if correct is not None:
            post["correct_number"] = correct
            post["reason"] = "fuzz"
        with rolled_back():
            response = client.post(url, post, HTTP_HX_REQUEST="true")
            assert response.status_code < 500
            assert stored(match) == start, "the live check wrote something"
            if not refused_for_a_nul(response, post) and response.status_code == 200:
                placed = response.context["placed"]
                if response.context["preview"] is None:
                    assert placed, "a refused deal without a message"
                for name, messages in placed.by_field.items():
                    if name != "version":
                        assert all(shown(response, message) for message in messages)
                assert all(shown(response, message) for message in placed.general)

    run()


# -- uploading a protocol file, through the view -------------------------------------------------


def test_protocol_upload(client, played):
    from django.core.files.uploadedfile import SimpleUploadedFile

    s, match = played
    client.force_login(s["secretary"])
    url = reverse("scoring:match-protocol-upload", args=[match.pk])
    start = stored(match)

    @examples(250)
    @given(upload=protocol_file, reason=st.one_of(st.just("rättelse"), st.just(""), st.text(max_size=20)))
    def run(upload, reason):
        filename, content = upload
        with rolled_back():
            response = client.post(
                url,
                {"version": str(start[0]["version"]), "reason": reason, "file": SimpleUploadedFile(filename or "p", content)},
            )
            assert response.status_code < 500
            after = stored(match)
            if refused_for_a_nul(response, {"reason": reason}):
                assert after == start, "refused, but something was written"
                return
            # Checking a file writes nothing; a file without errors is offered for saving.
            assert response.status_code in (200, 409)
            assert after == start, "checked, but something was written"
            if response.context.get("save_form") is not None:
                entries = read_protocol(content, filename or "p")
                assert len(response.context["sheet"].rows) == len(entries)
            else:
                error = response.context["error"]
                assert error and shown(response, error)
                for message in response.context["file_errors"]:
                    assert shown(response, message)
                for _number, messages in response.context.get("deal_problems") or ():
                    for message in messages:
                        assert shown(response, message)

    run()


# -- importing a protocol file (reader and service, no page): many more files -------------------


def test_protocol_file_import(played):
    s, match = played
    start = stored(match)

    @examples(5800)
    @given(upload=protocol_file)
    def run(upload):
        filename, content = upload
        with translation.override("sv"):
            try:
                entries = read_protocol(content, filename)
            except ProtocolFileError as error:
                assert file_error_message(error).strip()
                return  # refused before any database access: nothing can have been written
        # Every example starts from the same row (rolled_back): the version it was loaded with.
        with rolled_back(), translation.override("sv"):
            try:
                services.match_import_deals(match=match, user=s["secretary"], entries=entries, expected_version=start[0]["version"])
            except services.DealProblemsError as refusal:
                assert refusal.problems and all(problem_message(p, n) for n, p in refusal.problems)
                assert stored(match) == start
            except services.DomainError as refusal:
                assert str(refusal.message) and stored(match) == start
            else:
                after = stored(match)
                assert after[0]["deal_count"] == len(entries) == len(after[1])
                assert [row["number"] for row in after[1]] == list(range(1, len(entries) + 1))

    run()
