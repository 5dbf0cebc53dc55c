"""The data a protocol document shows, built from the models and the engine, ready to print.

A *protocol* (protokoll) is the deal-by-deal record of one match (parti): for each deal (giv) and
side (lag) the opening minimum before the deal, card points (kortpoäng), canasta bonuses, red threes,
going out (utgång), penalties (straff), the deal score and the running total. The played protocol
is the one read model of selectors.protocols (the stored deals replayed once by the engine), so
every number and its breakdown is the engine's; the blank protocol carries only the header, for the table to fill in by hand.

Both the PDF and the spreadsheet exporters read these objects. Numbers stay numbers: the PDF
templates format them with the site's template filters (scoring.templatetags.public_format, thin
wrappers of scoring.formatting), as the pages do.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _, pgettext

from scoring.engine.match import MatchState
from scoring.engine.rules import RuleSet
from scoring.formatting import iso_date
from scoring.models import Match, Team
from scoring.selectors.protocols import ProtocolDeal, end_text, match_protocol, result_text, status_text
from scoring.protocol_layout import paper_columns
from scoring.site_address import absolute_reverse, site_url


# Enough rows for a 60-minute match (the engine warns above 15 deals in a timed match), and few
# enough that the form, the reference table and the signatures fit one A4 page.
BLANK_DEAL_ROWS = 18


def user_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def table_link_url(code: str) -> str:
    """The address of a table link, printed on the match's blank protocol and its table card."""
    return site_url() + reverse("scoring:table", args=[code])


@dataclass
class SideCode:
    """One team's own code of a match's table link, as shown on that team's side of a table card,
    the blank protocol and the secretary's page: each team signs its own deals with it, so each
    code is named with its team and says in words what it opens."""

    side: str  # "home" or "away"
    side_label: str  # "Home team", a heading
    team: str
    code: str
    url: str
    label: str  # "Home team's code"
    opens: str  # what the address and its QR code open
    qr: str = ""  # the QR code, where the page or document draws one


def side_codes(link, match: Match) -> list[SideCode]:
    """The home team's code, then the away team's, of the table link `link` of `match`."""
    texts = {
        "home": (pgettext("side, as a heading", "Home team"), _("Home team's code"),
                 _("opens the table's page for the home team")),
        "away": (pgettext("side, as a heading", "Away team"), _("Away team's code"),
                 _("opens the table's page for the away team")),
    }  # fmt: skip
    codes = []
    for side, (side_label, label, opens) in texts.items():
        code = link.code_for(side)
        codes.append(SideCode(side, side_label, match.team(side).name, code, table_link_url(code), label, opens))
    return codes


def match_record_url(match: Match) -> str:
    """The address of the match's page on the site, printed as a link and a QR code."""
    try:
        return absolute_reverse("scoring:match-detail", match.pk)
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
    # The team's own table code (SideCode), on the blank protocol only, which only the secretaries
    # print; never on a public document.
    table_code: SideCode | None = None


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
    # The template says how the match is timed: "60 + 10 minutes", or "No clock: played to 5 000".
    has_clock: bool
    clock_main_minutes: int
    clock_extra_minutes: int
    target: int
    match_id: int
    home: TeamBlock
    away: TeamBlock
    # The public page of the rule set ("Så räknas det"), printed so the players can look it up.
    rules_url: str = ""

    @property
    def teams(self) -> tuple[TeamBlock, TeamBlock]:
        return (self.home, self.away)


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
        has_clock=rules.has_clock,
        clock_main_minutes=rules.clock_main_minutes,
        clock_extra_minutes=rules.clock_extra_minutes,
        target=rules.target,
        match_id=match.pk,
        home=team_block(match, "home"),
        away=team_block(match, "away"),
        rules_url=absolute_reverse("scoring:rules", rules.key),
    )


@dataclass
class OpeningStep:
    """A step of the opening-minimum table: totals from `low` to `high` (None: open-ended)."""

    low: int | None
    high: int | None
    minimum: int


def opening_table(rules: RuleSet) -> list[OpeningStep]:
    """The rule set's opening minimums by a side's total before the deal, as ranges to print."""
    steps = rules.opening_table
    rows = []
    for index, (low, minimum) in enumerate(steps):
        next_low = steps[index + 1][0] if index + 1 < len(steps) else None
        # Scores are multiples of 5: a step ends 5 below the next one.
        rows.append(OpeningStep(low=low, high=None if next_low is None else next_low - 5, minimum=minimum))
    return rows


# -- the played protocol ------------------------------------------------------------------------


def deal_end_labels() -> dict[str, tuple[str, str]]:
    """How a deal ended: (one letter for the table, words for the legend)."""
    return {
        "out": (pgettext("deal end, one letter", "O"), _("going out")),
        "stock": (pgettext("deal end, one letter", "S"), _("the stock ran out")),
        "clock": (pgettext("deal end, one letter", "C"), _("the clock")),
    }


@dataclass
class ProtocolDocument:
    """The played protocol as the official PDF prints it. `remarks` are the read model's notes
    (selectors.protocols.MatchProtocol.notes), worded as every page words them."""

    header: ProtocolHeader
    rows: tuple[ProtocolDeal, ...]  # the read model's deals (selectors.protocols), as the screen shows them
    end_letters: dict[str, str]  # a deal's end ("out", "stock", "clock") as the table's one letter
    show_red_threes: bool
    columns: tuple  # a side's columns (scoring.protocol_layout.paper_columns)
    state: MatchState
    home_total: int
    away_total: int
    home_points: Decimal | None
    away_points: Decimal | None
    home_for: int | None
    away_for: int | None
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

    @property
    def dealt_minutes(self) -> bool:
        """Whether any deal's minute was recorded: the table then prints a column of them."""
        return any(row.dealt_minute is not None for row in self.rows)


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


def protocol_document(match: Match) -> ProtocolDocument:
    """The played protocol as the PDF prints it, from the one read model (selectors.protocols)."""
    read = match_protocol(match)
    state = read.state
    rules = state.rules
    labels = deal_end_labels()
    home_total, away_total = read.home_total, read.away_total
    counted = match.home_for is not None and match.away_for is not None
    return ProtocolDocument(
        header=protocol_header(match, rules),
        rows=read.deals,
        end_letters={end: letter for end, (letter, words) in labels.items()},
        show_red_threes=rules.red_three != 0,
        columns=paper_columns(rules),
        state=state,
        home_total=home_total,
        away_total=away_total,
        home_points=match.home_points,
        away_points=match.away_points,
        home_for=match.home_for,
        away_for=match.away_for,
        show_table_points=counted and (match.home_for, match.away_for) != (home_total, away_total),
        result=result_text(read),
        ended=end_text(read),
        reason=read.closing_reason,
        status=_status_text(match),
        remarks=[note.message for note in read.notes],
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
    first_minimum: int
    target: int
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
        first_minimum=rules.opening_minimum(0),
        target=rules.target,
        has_clock=rules.has_clock,
    )
