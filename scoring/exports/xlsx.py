"""Excel workbooks (openpyxl, write-only): standings, round results, a match protocol, a whole competition.

One writer (`write_sheet`) makes every sheet: the rows it is given (the first row is the table's
header, shown bold and frozen), optional heading rows above the table (the competition header),
numbers stored as numbers, column widths fitted to the content, and a sheet name Excel accepts
(31 characters at most, none of [ ] : * ? / \\, unique in the workbook). Workbooks are written in
write-only mode, so a sheet of 100 000 deals streams through without being held in memory.

The match protocol sheet uses the interchange columns of docs/protocol-file.md (engine protocol_file.deal_rows),
so an exported protocol imports again; the competition's deals sheet has the same columns after the
match's own (match, round, table, home_team, away_team). In Swedish the deal columns are headed
and filled in Swedish (Hemma kortpoäng, ja, hemma, talong), which the protocol reader accepts too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from itertools import islice
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, gettext as _, pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from scoring import selectors
from scoring.adapters import minutes_between
from scoring.engine import DealEntry, SideEntry
from scoring.files.protocol_file import SWEDISH_HEADERS, SWEDISH_WORDS, WRITE_COLUMNS, deal_rows, write_csv
from scoring.formatting import figure_number, file_name, iso_date, plain_number
from scoring.models import Competition, Match, Round
from scoring.selectors.protocols import (
    competition_deal_values,
    match_protocol,
    protocol_document_match,
    status_text,
)
from scoring.selectors.figures import FIGURES, competition_figures
from scoring.selectors.public import competition_rounds
from scoring.selectors.records import competition_records
from scoring.site_address import absolute_reverse

from . import CSV, XLSX, Export
from .documents import match_record_url
from .federation import club_standings_listing, club_standings_note, individual_table
from .listings import RoundResultsExportTable, competition_facts, round_result_rows, standings_table

MAX_SHEET_NAME = 31
_FORBIDDEN_IN_SHEET_NAME = re.compile(r"[\[\]:*?/\\]")
# Widths are fitted on the first rows; a long sheet's later rows look the same.
WIDTH_SAMPLE_ROWS = 500
MIN_WIDTH, MAX_WIDTH = 6, 60
_PLAIN_TYPES = (int, float, str, type(None))

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
WRAP = Alignment(wrap_text=True, vertical="top")


def sheet_name(title: str, taken: Iterable[str] = ()) -> str:
    """A name Excel accepts: no [ ] : * ? / \\, no apostrophe at either end, ≤ 31 characters, unique."""
    name = _FORBIDDEN_IN_SHEET_NAME.sub("-", str(title)).strip().strip("'").strip() or _("Sheet")
    name = name[:MAX_SHEET_NAME]
    used = {existing.casefold() for existing in taken}
    candidate, number = name, 2
    while candidate.casefold() in used:
        suffix = f" ({number})"
        candidate = name[: MAX_SHEET_NAME - len(suffix)] + suffix
        number += 1
    return candidate


def cell_value(value: Any) -> Any:
    """A value a spreadsheet stores as it is meant: numbers as numbers, text as text."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Decimal):
        return plain_number(value)
    if isinstance(value, datetime):
        return timezone.localtime(value).replace(tzinfo=None) if timezone.is_aware(value) else value
    if isinstance(value, (int, float, str, date)) or value is None:
        return value
    return str(value)


def text_cell(sheet: WriteOnlyWorksheet, text: str) -> WriteOnlyCell:
    """A cell that holds `text` as text. openpyxl would store a text that begins with "=" as a
    formula and "#N/A" as an error: a team named =HYPERLINK(...) would become a live link in every
    workbook. Text that users typed is shown as typed, never evaluated."""
    cell = WriteOnlyCell(sheet, value=None)
    cell.value = text
    cell.data_type = "s"
    return cell


def _needs_text_cell(value: Any) -> bool:
    return type(value) is str and (value[:1] == "=" or value in ERROR_CODES)


def _as_text(sheet: WriteOnlyWorksheet, row: Sequence[Any]) -> Sequence[Any]:
    """The row with every text that a spreadsheet would evaluate wrapped as a text cell."""
    if any(_needs_text_cell(value) for value in row):
        return [text_cell(sheet, value) if _needs_text_cell(value) else value for value in row]
    return row


def _width(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, float):
        return len(f"{value:g}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def write_sheet(
    workbook: Workbook,
    title: str,
    rows: Iterable[Sequence[Any]],
    *,
    heading: Sequence[Sequence[Any]] = (),
    convert: bool = True,
) -> Any:  # the workbook's write-only sheet
    """Write one sheet: `heading` rows (the first in large bold type), then `rows`, whose first
    row is the table header (bold, frozen). Returns the sheet. `convert=False`: the rows hold only
    numbers, text and None, and stream to the sheet untouched (a 100 000-row sheet)."""
    sheet = workbook.create_sheet(title=sheet_name(title, workbook.sheetnames))
    rows = iter(rows)
    header = [cell_value(value) for value in next(rows, [])]
    sample = [[cell_value(value) for value in row] for row in islice(rows, WIDTH_SAMPLE_ROWS)]

    widths: dict[int, int] = {}
    for row in [header, *sample]:
        for index, value in enumerate(row):
            widths[index] = max(widths.get(index, 0), _width(value))
    for index, width in widths.items():
        sheet.column_dimensions[get_column_letter(index + 1)].width = min(
            max(width + 2, MIN_WIDTH), MAX_WIDTH
        )
    header_row = len(heading) + 1
    sheet.freeze_panes = f"A{header_row + 1}"

    for line, row in enumerate(heading):
        cells = []
        for value in row:
            value = cell_value(value)
            cell = text_cell(sheet, value) if _needs_text_cell(value) else WriteOnlyCell(sheet, value=value)
            if line == 0:
                cell.font = TITLE
            cells.append(cell)
        sheet.append(cells)
    header_cells = []
    for value in header:
        cell = text_cell(sheet, value) if _needs_text_cell(value) else WriteOnlyCell(sheet, value=value)
        cell.font = BOLD
        cell.alignment = WRAP
        header_cells.append(cell)
    sheet.append(header_cells)
    for row in sample:
        sheet.append(_as_text(sheet, row))
    if not convert:
        for row in rows:
            sheet.append(_as_text(sheet, row))
        return sheet
    for row in rows:
        sheet.append(_as_text(sheet, [value if type(value) in _PLAIN_TYPES else cell_value(value) for value in row]))
    return sheet


def new_workbook() -> Workbook:
    return Workbook(write_only=True)


def save(workbook: Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# -- headings -----------------------------------------------------------------------------------


def competition_heading(competition: Competition, subtitle: str) -> list[list[Any]]:
    facts = competition_facts(competition)
    return [
        [str(competition)],
        [subtitle],
        [_("Organiser"), facts["organiser"]],
        [_("Rule set"), facts["rules_name"]],
        [_("Scoring of matches"), facts["points_name"]],
        [_("Printed"), iso_date(timezone.now())],
        [],
    ]


# -- standings and results ----------------------------------------------------------------------


def _standings_subtitle(up_to_round: int | None) -> str:
    if up_to_round:
        return _("Standings after round %(number)s") % {"number": up_to_round}
    return _("Standings")


def write_standings_sheet(workbook: Workbook, competition: Competition, up_to_round: int | None = None):
    rows = selectors.competition_standings(competition, up_to_round=up_to_round)
    table = standings_table(competition, rows)
    return write_sheet(
        workbook,
        _("Standings"),
        table.as_values(),
        heading=competition_heading(competition, _standings_subtitle(up_to_round)),
    )


def standings_xlsx(competition: Competition, up_to_round: int | None = None) -> Export:
    workbook = new_workbook()
    write_standings_sheet(workbook, competition, up_to_round)
    round_part = _("after round %(number)s") % {"number": up_to_round} if up_to_round else ""
    name = file_name(_("standings"), competition.name, competition.season, round_part, extension="xlsx")
    return Export(name, XLSX, save(workbook))


def round_title(round: Round) -> str:
    return _("Round %(number)s") % {"number": round.number}


def write_round_sheet(workbook: Workbook, round: Round, *, heading: bool = True, matches=None):
    """A round's results; `matches` if the caller has them (competition_results), else a query."""
    if matches is None:
        matches = selectors.round_results(round)
    table = RoundResultsExportTable(round_result_rows(matches))
    subtitle = round_title(round) + (f", {iso_date(round.date)}" if round.date else "")
    return write_sheet(
        workbook,
        round_title(round),
        table.as_values(),
        heading=competition_heading(round.competition, subtitle) if heading else [[subtitle], []],
    )


def round_results_xlsx(round: Round) -> Export:
    workbook = new_workbook()
    write_round_sheet(workbook, round)
    competition = round.competition
    name = file_name(
        _("results"), competition.name, competition.season, _("round %(number)s") % {"number": round.number},
        extension="xlsx",
    )
    return Export(name, XLSX, save(workbook))


# -- a match protocol ---------------------------------------------------------------------------


def _match_facts(match: Match, state) -> list[list[Any]]:
    def points(value):
        return plain_number(value)

    return [
        [_("Field"), _("Value")],
        [_("Competition"), str(match.competition)],
        [_("Round"), match.round.number if match.round_id else None],
        [_("Date"), iso_date(match.round.date) if match.round_id and match.round.date else ""],
        [pgettext("playing table", "Table"), match.table],
        [_("Home team"), match.home_team.name],
        [_("Away team"), match.away_team.name],
        [_("Rule set"), state.rules.name],
        [_("Deals"), len(state.deals)],
        [_("Home total"), state.home_total if state.deals else match.home_total],
        [_("Away total"), state.away_total if state.deals else match.away_total],
        [_("Home match points"), points(match.home_points)],
        [_("Away match points"), points(match.away_points)],
        [_("How the match ended"), str(match.get_end_display()) if match.end else ""],
        [_("Status"), status_text(match)],
        [_("Online record"), match_record_url(match)],
    ]


_WORDED_COLUMNS = {"home_melded", "away_melded", "out", "concealed", "end", "time_up"}


def readable_deal_rows(rows: Iterable[Sequence[Any]], prefix: Sequence[str] = ()) -> Iterator[list[Any]]:
    """Deal rows (header first, interchange columns after the `prefix` columns) as a person reads
    them: in Swedish, Swedish headings and words (engine protocol_file.SWEDISH_HEADERS, which its
    reader accepts); in another language, the interchange columns as they are."""
    rows = iter(rows)
    header = list(next(rows, []))
    if not (get_language() or "").startswith("sv"):
        yield header
        yield from (list(row) for row in rows)
        return
    words = {"yes": "ja", "no": "nej", **SWEDISH_WORDS}
    yield [*prefix, *(SWEDISH_HEADERS.get(name, name) for name in header[len(prefix):])]
    worded = [index for index, name in enumerate(header) if name in _WORDED_COLUMNS]
    for row in rows:
        row = list(row)
        for index in worded:
            value = row[index]
            if isinstance(value, str):
                row[index] = words.get(value, value)
        yield row


def match_protocol_xlsx(match: Match) -> Export:
    """The protocol in the interchange columns (first sheet: it imports again), the match facts,
    and the protocol's notes as every page and the PDF's remarks list them (selectors.protocols)."""
    match = protocol_document_match(match.pk)
    protocol = match_protocol(match)
    state = protocol.state
    workbook = new_workbook()
    write_sheet(workbook, _("Protocol"), readable_deal_rows(deal_rows(state)))
    write_sheet(workbook, _("Match"), _match_facts(match, state))
    if protocol.notes:
        write_sheet(workbook, _("Remarks"), [[_("Deal"), _("Remark")], *([note.number, note.message] for note in protocol.notes)])
    return Export(match_file_name(match, "xlsx"), XLSX, save(workbook))


def match_file_name(match: Match, extension: str) -> str:
    """'protokoll-serie-a-2026-27-omgang-8-bord-3-412.xlsx': what a match's protocol file is called."""
    round_part = _("round %(number)s") % {"number": match.round.number} if match.round_id else ""
    return file_name(
        _("protocol"), match.competition.name, match.competition.season, round_part,
        _("table %(number)s") % {"number": match.table} if match.table else "", match.pk,
        extension=extension,
    )  # fmt: skip


def match_protocol_csv(match: Match) -> Export:
    """The protocol as a CSV file in the interchange columns of docs/protocol-file.md (engine write_csv): the
    format the upload and `protocol import` read, for programs other than a spreadsheet."""
    match = protocol_document_match(match.pk)
    state = match_protocol(match).state
    return Export(match_file_name(match, "csv"), CSV, write_csv(state).encode("utf-8"))


# -- the whole competition ----------------------------------------------------------------------

DEALS_PREFIX_COLUMNS = ("match", "round", "table", "home_team", "away_team")
_DEAL_FIELDS = (
    "match_id", "match__round__number", "match__table", "match__home_team__name", "match__away_team__name",
    "number",
    "home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty", "home_melded",
    "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty", "away_melded",
    "out", "concealed", "end", "match__end", "match__deal_count", "match__started_at", "dealt_at",
    "home_min_before", "away_min_before", "home_score", "away_score", "home_total", "away_total",
)  # fmt: skip


def _minute(minute: float | None) -> int | float | None:
    if minute is None:
        return None
    return int(minute) if float(minute).is_integer() else minute


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def competition_deal_rows(competition: Competition, chunk_size: int = 2000) -> Iterator[list[Any]]:
    """Every deal of the competition: the match's columns, then the interchange columns.

    The computed columns (min, score, total) are the engine's, as the services stored them; whether
    a side melded, when the protocol did not say, is the engine's rule (DealEntry.melded).
    """
    yield [*DEALS_PREFIX_COLUMNS, *WRITE_COLUMNS]
    deals = competition_deal_values(competition, _DEAL_FIELDS, chunk_size=chunk_size)
    for (
        match_id, round_number, table, home_team, away_team, number,
        home_cards, home_natural, home_mixed, home_red3, home_penalty, home_melded,
        away_cards, away_natural, away_mixed, away_red3, away_penalty, away_melded,
        out, concealed, end, match_end, deal_count, started_at, dealt_at,
        home_min, away_min, home_score, away_score, home_total, away_total,
    ) in deals:  # fmt: skip
        entry = DealEntry(
            number=number,
            home=SideEntry(cards=home_cards, natural=home_natural, mixed=home_mixed, melded=home_melded),
            away=SideEntry(cards=away_cards, natural=away_natural, mixed=away_mixed, melded=away_melded),
            out=out or None,
            end=end or None,
        )
        yield [
            match_id, round_number, table, home_team, away_team, number,
            home_cards, home_natural, home_mixed, home_red3, home_penalty, _yes_no(entry.melded("home")),
            away_cards, away_natural, away_mixed, away_red3, away_penalty, _yes_no(entry.melded("away")),
            out, "yes" if concealed else "", entry.effective_end,
            # The time ran out after the last deal, between deals (docs/rules.md, "The end of a match").
            "yes" if match_end == "clock" and number == deal_count and end != "clock" else "",
            _minute(minutes_between(started_at, dealt_at)),
            home_min, away_min, home_score, away_score, home_total, away_total,
        ]  # fmt: skip


def figures_rows(competition: Competition) -> Iterator[list[Any]]:
    """The competition's Canasta figures (selectors.figures, as its records page shows them): the
    whole competition, then every pair; shares in per cent."""
    figures = competition_figures(competition, teams=True)
    yield [_("Pair"), *(f"{f.label} (%)" if f.kind == "share" else f.label for f in FIGURES)]
    for name, values in [(_("The whole competition"), figures.total), *((t.name, t.figures) for t in figures.teams)]:
        yield [name, *(figure_number(values.value(f.key), f.kind) for f in FIGURES)]


def records_rows(competition: Competition) -> Iterator[list[Any]]:
    """The competition's records, each with its match's address (and its deal's)."""
    yield [_("Record"), _("Value"), _("Pair"), _("Against"), _("Competition"), _("Match"), _("Deal")]
    for record in competition_records(competition):
        address = absolute_reverse("scoring:match-detail", record.match_id)
        if record.deal_number is not None:
            address += f"#deal-{record.deal_number}"
        yield [record.label, record.value, record.team, record.opponent, record.competition, address, record.deal_number]


def competition_xlsx(competition: Competition) -> Export:
    """The standings, a results sheet per round, the Canasta figures and records, and every deal of
    the competition."""
    workbook = new_workbook()
    write_standings_sheet(workbook, competition)
    clubs = club_standings_listing(competition)
    if clubs is not None:
        heading = competition_heading(competition, club_standings_note(competition))
        write_sheet(workbook, _("Club table"), clubs.as_values(), heading=heading)
    players = individual_table(competition)
    if players is not None:
        write_sheet(workbook, _("Players' table"), players.as_values(),
                    heading=competition_heading(competition, _("Players' table")))
    results = selectors.competition_results(competition)
    for round in competition_rounds(competition):
        write_round_sheet(workbook, round, heading=False, matches=results.get(round.pk, []))
    write_sheet(workbook, _("Figures"), figures_rows(competition), heading=competition_heading(competition, _("Figures")))
    write_sheet(workbook, _("Records"), records_rows(competition), heading=competition_heading(competition, _("Records")))
    # The deal rows are ints, text and None already: they go to the sheet as they are.
    prefix = [_("Match"), _("Round"), pgettext("card table", "Table"), _("Home team"), _("Away team")]
    rows = readable_deal_rows(competition_deal_rows(competition), prefix=prefix)
    write_sheet(workbook, _("Deals"), rows, convert=False)
    name = file_name(competition.name, competition.season, extension="xlsx")
    return Export(name, XLSX, save(workbook))
