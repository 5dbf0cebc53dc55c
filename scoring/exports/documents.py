"""The data a protocol document shows, built from the models and the engine, ready to print.

A *protocol* (protokoll) is the deal-by-deal record of one match (parti): for each deal (giv) and
side (lag) the opening minimum before the deal, card points (kortpoäng), canasta bonuses, red threes,
going out (utgång), penalties (straff), the deal score and the running total. The played protocol
is the one read model of selectors.protocols (the stored deals replayed once by the engine), so
every number and its breakdown is the engine's; the blank protocol carries only the header, for the table to fill in by hand.

Both the PDF and the spreadsheet exporters read these objects; templates only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _, pgettext

from scoring.engine.match import MatchState
from scoring.engine.rules import RuleSet
from scoring.messages import problem_message
from scoring.models import Match, Team
from scoring.selectors.protocols import end_text, match_protocol as read_protocol, result_text, status_text
from scoring.protocol_layout import paper_columns
from scoring.site_address import site_url

from .formatting import format_number, iso_date

# Enough rows for a 60-minute match (the engine warns above 15 deals in a timed match), and few
# enough that the form, the reference table and the signatures fit one A4 page.
BLANK_DEAL_ROWS = 18


def user_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def match_record_url(match: Match) -> str:
    """The address of the match's page on the site, printed as a link and a QR code."""
    try:
        return site_url() + reverse("scoring:match-detail", kwargs={"pk": match.pk})
    except NoReverseMatch:  # the public pages are not installed: the site's start page
        return site_url() + "/"


# -- the header of every protocol ---------------------------------------------------------------


@dataclass
class TeamBlock:
    side_label: str
    name: str
    club: str
    players: list[str]
    substitute: str
    captain: str


def team_block(match: Match, side: str) -> TeamBlock:
    team: Team = match.team(side)
    substitute = match.home_substitute if side == "home" else match.away_substitute
    return TeamBlock(
        side_label=pgettext("side", "Home team") if side == "home" else pgettext("side", "Away team"),
        name=team.name,
        club=team.club.name,
        players=[team.player_one.name, team.player_two.name],
        substitute=substitute.name if substitute else "",
        captain=user_name(team.captain),
    )


@dataclass
class ProtocolHeader:
    competition: str
    organiser: str
    round_label: str
    date: str
    table: str
    rules_name: str
    clock: str
    match_id: int
    home: TeamBlock
    away: TeamBlock

    @property
    def teams(self) -> tuple[TeamBlock, TeamBlock]:
        return (self.home, self.away)


def clock_text(rules: RuleSet) -> str:
    if not rules.has_clock:
        return _("No clock: played to %(target)s") % {"target": format_number(rules.target)}
    return _("%(main)s + %(extra)s minutes") % {
        "main": rules.clock_main_minutes,
        "extra": rules.clock_extra_minutes,
    }


def protocol_header(match: Match, rules: RuleSet, *, played: bool = True) -> ProtocolHeader:
    round_ = match.round
    when = round_.date if round_ and round_.date else None
    if match.scheduled_start:
        when = match.scheduled_start
    # A protocol records the day the match was played, which a postponed or early match does not
    # share with its round; the blank protocol, for the table to fill in, has the planned day.
    if played and match.started_at:
        when = match.started_at
    return ProtocolHeader(
        competition=str(match.competition),
        organiser=match.competition.organiser.name,
        round_label=(_("Round %(number)s") % {"number": round_.number}) if round_ else "",
        date=iso_date(when),
        table=str(match.table) if match.table else "",
        rules_name=rules.name,
        clock=clock_text(rules),
        match_id=match.pk,
        home=team_block(match, "home"),
        away=team_block(match, "away"),
    )


@dataclass
class OpeningStep:
    totals: str
    minimum: str


def opening_table(rules: RuleSet) -> list[OpeningStep]:
    """The rule set's opening minimums by a side's total before the deal, as printed ranges."""
    steps = rules.opening_table
    rows = []
    for index, (low, minimum) in enumerate(steps):
        next_low = steps[index + 1][0] if index + 1 < len(steps) else None
        if low is None:
            label = _("below %(value)s") % {"value": format_number(next_low)}
        elif next_low is None:
            label = _("%(value)s and more") % {"value": format_number(low)}
        else:
            # Scores are multiples of 5: the step ends 5 below the next one.
            label = f"{format_number(low)}–{format_number(next_low - 5)}"
        rows.append(OpeningStep(totals=label, minimum=format_number(minimum)))
    return rows


# -- the played protocol ------------------------------------------------------------------------


@dataclass
class SideCells:
    min_before: str
    cards: str
    canastas: str
    red_threes: str
    going_out: str
    penalties: str
    score: str
    total: str
    # The counts as typed from the paper (scoring.protocol_layout): canastas and red threes.
    natural: str = ""
    mixed: str = ""
    red3: str = ""

    def cell(self, key: str) -> str:
        """The printed cell of the protocol column `key` (scoring.protocol_layout.COLUMNS)."""
        return {
            "min": self.min_before, "cards": self.cards, "natural": self.natural, "mixed": self.mixed,
            "red3": self.red3, "out": self.going_out, "penalty": self.penalties, "score": self.score,
            "total": self.total,
        }[key]  # fmt: skip


@dataclass
class ProtocolRow:
    number: int
    home: SideCells
    away: SideCells
    end: str
    end_short: str
    remarks: list[str] = field(default_factory=list)

    @property
    def sides(self) -> tuple[SideCells, SideCells]:
        return (self.home, self.away)


def deal_end_labels() -> dict[str, tuple[str, str]]:
    """How a deal ended: (one letter for the table, words for the legend)."""
    return {
        "out": (pgettext("deal end, one letter", "O"), _("going out")),
        "stock": (pgettext("deal end, one letter", "S"), _("the stock ran out")),
        "clock": (pgettext("deal end, one letter", "C"), _("the clock")),
    }


def _side_cells(replayed, side: str) -> SideCells:
    score = replayed.score.side(side)
    entry = replayed.entry.side(side)
    return SideCells(
        min_before=format_number(replayed.min_before(side)),
        cards=format_number(score.cards),
        canastas=format_number(score.canastas, blank_zero=True),
        red_threes=format_number(score.red_threes, blank_zero=True),
        going_out=format_number(score.going_out, blank_zero=True),
        penalties=format_number(score.penalties, blank_zero=True),
        score=format_number(score.score),
        total=format_number(replayed.total(side)),
        natural=format_number(entry.natural, blank_zero=True),
        mixed=format_number(entry.mixed, blank_zero=True),
        red3=format_number(entry.red3, blank_zero=True),
    )


@dataclass
class MatchProtocol:
    header: ProtocolHeader
    rows: list[ProtocolRow]
    show_red_threes: bool
    columns: tuple  # a side's columns (scoring.protocol_layout.paper_columns)
    state: MatchState
    home_total: str
    away_total: str
    home_points: str
    away_points: str
    home_for: str
    away_for: str
    show_table_points: bool
    result: str
    ended: str
    reason: str
    status: str
    remarks: list[str]
    record_url: str
    end_legend: list[tuple[str, str]]
    finished: bool
    qr_code: str = ""


def _status_text(match: Match) -> str:
    text = status_text(match)
    if match.status == Match.Status.CONFIRMED and match.confirmed_by_id:
        text = _("Confirmed by %(name)s, %(when)s") % {
            "name": user_name(match.confirmed_by),
            "when": iso_date(match.confirmed_at),
        }
    elif match.status == Match.Status.SUBMITTED and match.submitted_at:
        text = _("Submitted %(when)s, awaiting the other captain's confirmation") % {
            "when": iso_date(match.submitted_at)
        }
    return text


def match_protocol(match: Match) -> MatchProtocol:
    """The played protocol as the PDF prints it, from the one read model (selectors.protocols)."""
    read = read_protocol(match)
    state = read.state
    rules = state.rules
    labels = deal_end_labels()
    rows = []
    remarks = []
    for replayed in state.deals:
        end = replayed.entry.effective_end
        problems = [*replayed.errors, *replayed.warnings]
        row_remarks = [problem_message(problem, replayed.number) for problem in problems]
        remarks.extend(row_remarks)
        rows.append(
            ProtocolRow(
                number=replayed.number,
                home=_side_cells(replayed, "home"),
                away=_side_cells(replayed, "away"),
                end=end,
                end_short=labels.get(end, (end, end))[0],
                remarks=row_remarks,
            )
        )
    home_total, away_total = read.home_total, read.away_total
    counted = match.home_for is not None and match.away_for is not None
    return MatchProtocol(
        header=protocol_header(match, rules),
        rows=rows,
        show_red_threes=rules.red_three != 0,
        columns=paper_columns(rules),
        state=state,
        home_total=format_number(home_total),
        away_total=format_number(away_total),
        home_points=format_number(match.home_points),
        away_points=format_number(match.away_points),
        home_for=format_number(match.home_for),
        away_for=format_number(match.away_for),
        show_table_points=counted and (match.home_for, match.away_for) != (home_total, away_total),
        result=result_text(read),
        ended=end_text(read),
        reason=read.closing_reason,
        status=_status_text(match),
        remarks=remarks,
        record_url=match_record_url(match),
        end_legend=[labels[key] for key in ("out", "stock", "clock") if key != "clock" or rules.has_clock],
        finished=read.finished,
    )


# -- the blank protocol -------------------------------------------------------------------------


@dataclass
class BlankProtocol:
    header: ProtocolHeader
    rows: range
    show_red_threes: bool
    columns: tuple  # a side's columns (scoring.protocol_layout.paper_columns)
    opening_steps: list[OpeningStep]
    end_legend: list[tuple[str, str]]
    record_url: str
    # Both sides start at 0: the first deal's opening minimum is known before play.
    first_minimum: str
    target_label: str
    has_clock: bool
    qr_code: str = ""
    grid_svg: str = ""


def blank_protocol(match: Match, rows: int = BLANK_DEAL_ROWS) -> BlankProtocol:
    rules = match.rules
    labels = deal_end_labels()
    return BlankProtocol(
        header=protocol_header(match, rules, played=False),
        rows=range(1, rows + 1),
        show_red_threes=rules.red_three != 0,
        columns=paper_columns(rules),
        opening_steps=opening_table(rules),
        end_legend=[labels[key] for key in ("out", "stock", "clock") if key != "clock" or rules.has_clock],
        record_url=match_record_url(match),
        first_minimum=format_number(rules.opening_minimum(0)),
        target_label=_("%(target)s reached") % {"target": format_number(rules.target)},
        has_clock=rules.has_clock,
    )
