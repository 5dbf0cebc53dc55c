"""django-tables2 tables of the site: standings (tabell) and results of matches (partier).

Standings are never user-sortable: the rank is the order, and tied teams show as "3=". Column
headers are short (Sp, V, O, F) with the full word in an <abbr> title and in a legend under the
table, so nothing depends on hovering. Numbers are formatted by scoring.formatting (thin space
between thousands, a true minus sign); the numbers themselves come from the engine and the
selectors.
"""

from __future__ import annotations

import html

import django_tables2 as tables
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import date_format
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from scoring.formatting import breakable_name, format_match_points, format_points
from scoring.models import Match
from scoring.selectors.protocols import has_score, is_disputed, status_text
from scoring.selectors.standings import STANDINGS_COLUMNS, standings_column, standings_columns

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
# Figures a phone can do without: site.css hides columns marked `col-secondary` on a narrow screen
# (never in print; the exports have tables of their own), so that the names and the main figures
# fit side by side without scrolling sideways.
SECONDARY_NUM = {"th": {"class": "num col-secondary"}, "td": {"class": "num col-secondary"}}


class AbbrColumn(tables.Column):
    """A column whose header is a short abbreviation with the full name as its title."""

    def __init__(self, *args, short, full, **kwargs):
        self.short = short
        self.full = full
        kwargs.setdefault("verbose_name", full)
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)

    @property
    def header(self):
        return format_html('<abbr title="{}">{}</abbr>', self.full, self.short)


class PointsColumn(AbbrColumn):
    def render(self, value):
        return format_points(value)


class SignedPointsColumn(AbbrColumn):
    def render(self, value):
        return format_points(value, signed=True)


class MatchPointsColumn(AbbrColumn):
    def render(self, value):
        return format_match_points(value)


def labels(key: str) -> dict:
    """The short and the full header of the standings column `key` (selectors.standings.STANDINGS_COLUMNS),
    as an AbbrColumn takes them."""
    column = standings_column(key)
    return {"short": column.short, "full": column.full}


class LegendMixin:
    """The abbreviations of the table's shown columns, for the legend under it (a column whose
    short header is its whole name needs none)."""

    @property
    def legend(self):
        pairs = []
        for column in self.columns:
            short, full = getattr(column.column, "short", None), getattr(column.column, "full", None)
            if short and str(short) != str(full):
                pairs.append((short, full))
        return pairs


# A row's link is one of a few addresses with its row's id in it: each is reversed once, with this
# id in its place, for the language, the script prefix and the URL conf it was reversed under.
ADDRESS_MARKER = 918273645
ADDRESS_PARTS: dict = {}


def address_parts(name: str, *, escaped: bool = False) -> list[str]:
    """reverse(name, args=[ADDRESS_MARKER]) split at the marker: the text before and after a row's
    id (one part when the marker is not found whole in it); `escaped` for an attribute."""
    key = (name, get_language(), get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    found = ADDRESS_PARTS.get(key)
    if found is None:
        parts = reverse(name, args=[ADDRESS_MARKER]).split(str(ADDRESS_MARKER))
        found = ADDRESS_PARTS[key] = (parts, [html.escape(part) for part in parts])
    return found[1] if escaped else found[0]


def object_address(name: str, pk) -> str:
    """reverse(name, args=[pk]) for the many rows of a table, at the cost of a string join."""
    parts = address_parts(name)
    if len(parts) != 2:
        return reverse(name, args=[pk])
    return f"{parts[0]}{int(pk)}{parts[1]}"


def escaped(value) -> str:
    """conditional_escape(value), with a plain string escaped as django.utils.html.escape does it
    (html.escape) without the checks each call of those makes: a cell's many texts."""
    if hasattr(value, "__html__"):
        return value.__html__()
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(value)


def breakable_html(name) -> str:
    """scoring.formatting.breakable_name, for a table's many names."""
    return "/<wbr>".join([html.escape(part) for part in str(name).split("/")])


def row_href(name: str, pk) -> str:
    """object_address(name, pk) escaped for an attribute: a row's address is a string join (an
    id's digits need no escaping)."""
    parts = address_parts(name, escaped=True)
    if len(parts) != 2:
        return html.escape(reverse(name, args=[pk]))
    return f"{parts[0]}{int(pk)}{parts[1]}"


def team_link_html(href: str, name, link_target: str | None = None) -> SafeString:
    """A team's link: `href` already escaped, the name breakable after its slashes."""
    if link_target:
        return SafeString(  # every part escaped
            f'<a href="{href}" target="{escaped(link_target)}" rel="noopener">{breakable_html(name)}</a>'
        )
    return SafeString(f'<a href="{href}">{breakable_html(name)}</a>')  # every part escaped


def _team_link(team_id, name, link_target: str | None = None):
    return team_link_html(row_href("scoring:team-detail", team_id), name, link_target)


class SiteTable(tables.Table):
    """A table of the public pages: an optional caption (the site's table template prints it above
    the rows), and where its links open (a new tab in an embed)."""

    def __init__(self, data, *, caption=None, link_target=None, **kwargs):
        super().__init__(data, **kwargs)
        self.caption = caption
        self.link_target = link_target


class StandingsTable(LegendMixin, SiteTable):
    """Rows are engine StandingRow objects (rank, tied, rank_label, record). The columns are the
    standings' (selectors.standings.STANDINGS_COLUMNS, one column here for each, by its key), those
    of the competition's points preset shown; how each looks on the page is said here."""

    rank = tables.Column(
        accessor="rank_label",
        verbose_name=standings_column("rank").full,
        attrs={"th": {"class": "num standings__rank"}, "td": {"class": "num standings__rank"}},
    )
    team = tables.Column(
        accessor="record__name",
        verbose_name=standings_column("team").full,
        attrs={"th": {"class": "standings__team"}, "td": {"class": "standings__team"}},
    )
    played = AbbrColumn(accessor="record__played", **labels("played"))
    won = AbbrColumn(accessor="record__won", **labels("won"), attrs=SECONDARY_NUM)
    drawn = AbbrColumn(accessor="record__drawn", **labels("drawn"), attrs=SECONDARY_NUM)
    lost = AbbrColumn(accessor="record__lost", **labels("lost"), attrs=SECONDARY_NUM)
    points = MatchPointsColumn(
        accessor="record__points",
        **labels("points"),
        attrs={"th": {"class": "num standings__points"}, "td": {"class": "num standings__points"}},
    )
    card_points_for = PointsColumn(accessor="record__card_points_for", **labels("card_points_for"), attrs=SECONDARY_NUM)
    card_points_against = PointsColumn(
        accessor="record__card_points_against", **labels("card_points_against"), attrs=SECONDARY_NUM
    )
    difference = SignedPointsColumn(accessor="record__difference", **labels("difference"))

    class Meta:
        orderable = False
        attrs = {"class": "data-table standings"}
        row_attrs = {
            "data-team-id": lambda record: record.record.team_id,
            "class": lambda record: "standings__row--tied" if record.tied else "",
        }

    def __init__(self, data, *, points_rules=None, **kwargs):
        shown = {column.key for column in (standings_columns(points_rules) if points_rules else STANDINGS_COLUMNS)}
        kwargs.setdefault("exclude", tuple(name for name in self.base_columns if name not in shown))
        super().__init__(data, **kwargs)

    def render_rank(self, record):
        if record.tied:
            return format_html(
                '{}<span class="visually-hidden"> {}</span>', record.rank_label, _("(shared)")
            )
        return record.rank_label

    def render_team(self, record):
        team = record.record
        return team_link_html(row_href("scoring:team-detail", team.team_id), team.name, self.link_target)

    def row_key(self, record):
        return repr(record)  # an engine dataclass: every field, the team's name among them


# -- results ---------------------------------------------------------------------------------------

class ResultsTable(SiteTable):
    """Rows are Match objects (with competition, home_team and away_team selected); rows from
    selectors.round_results carry `preliminary`, marked with a word."""

    when = tables.Column(
        empty_values=(),
        verbose_name=_("When"),
        attrs={"td": {"class": "results__when"}},
    )
    table = tables.Column(
        verbose_name=pgettext_lazy("playing table", "Table"),
        attrs={"th": {"class": "num results__table"}, "td": {"class": "num results__table"}},
        default="",
    )
    teams = tables.Column(
        empty_values=(),
        verbose_name=_("Match"),
        attrs={"td": {"class": "results__teams"}},
    )
    result = tables.Column(
        empty_values=(),
        verbose_name=_("Result"),
        attrs={"th": {"class": "num"}, "td": {"class": "num results__result"}},
    )


    # What a row shows: the score and state (a service's every change moves `version`), the teams,
    # where and when, and what the status text reads.

    class Meta:
        orderable = False
        attrs = {"class": "data-table results"}
        row_attrs = {
            "data-match-id": lambda record: record.pk,
            "data-status": lambda record: record.status,
        }

    def __init__(self, data, *, across_rounds=False, **kwargs):
        # One round's results show the playing table; a team's or a player's, when and where.
        kwargs.setdefault("exclude", ("table",) if across_rounds else ("when",))
        super().__init__(data, **kwargs)
        # Texts that many rows share (a round's name and date, a status), made once per table.
        self._shared: dict = {}

    def _once(self, key, make):
        try:
            return self._shared[key]
        except KeyError:
            value = self._shared[key] = make()
            return value

    def render_when(self, record):
        return self._once(("when", record.round_id, record.competition_id), lambda: self._when(record))

    def _when(self, record):
        competition = record.competition
        url = object_address("scoring:competition-detail", competition.pk)
        parts = []
        if record.round is not None:
            parts.append(str(record.round))
            if record.round.date:
                parts.append(date_format(record.round.date, "MONTH_DAY_FORMAT"))
        return format_html(
            '{}<span class="results__competition"><a href="{}">{}</a></span>',
            " · ".join(parts),
            url,
            competition.name,
        )

    def _link(self, href, text, css=""):
        """A link: `href` already escaped, `text` and `css` escaped here."""
        if self.link_target:
            return SafeString(  # every part escaped
                f'<a href="{href}" class="{escaped(css)}" target="{escaped(self.link_target)}" rel="noopener">'
                f"{escaped(text)}</a>"
            )
        return SafeString(f'<a href="{href}" class="{escaped(css)}">{escaped(text)}</a>')  # every part escaped

    def team_link(self, team):
        """A team's link, made once per table: a team's or a player's matches name it in every row."""
        return self._once(
            ("team", team.pk, team.name),
            lambda: team_link_html(row_href("scoring:team-detail", team.pk), team.name, self.link_target),
        )

    def render_teams(self, record):
        home = self.team_link(record.home_team)
        away = self.team_link(record.away_team)
        against = self._once("against", lambda: escaped(str(pgettext_lazy("match between", "against"))))
        return SafeString(  # every part escaped
            # The dash is joined to the home team by a no-break space: it ends the home team's
            # line on a phone (two lines) and never starts a line or stands alone.
            f'<span class="results__home">{home}<span class="results__dash" aria-hidden="true">\u00a0– </span></span>'
            f'<span class="visually-hidden"> {against} </span><span class="results__away">{away}</span>'
            f'<span class="results__status">{escaped(self.status_text(record))}</span>'
        )

    def render_result(self, record):
        href = row_href("scoring:match-detail", record.pk)
        if not has_score(record):
            return self._link(href, _("Protocol"), "results__protocol")
        text = SafeString(  # every part escaped
            f'<span class="results__total">{escaped(format_points(record.home_total))}</span>\u2009–\u2009'
            f'<span class="results__total">{escaped(format_points(record.away_total))}</span>'
        )
        return self._link(href, text, "results__score")

    def status_text(self, record):
        # What the text depends on: the deal number only in progress, the competition's
        # confirmation only when finished (its row is read once per table, not once per match).
        key = (
            "status", record.status, record.end, getattr(record, "preliminary", False),
            record.deal_count if record.status == Match.Status.IN_PROGRESS else None,
            record.competition_id if record.status == Match.Status.FINISHED else None,
            is_disputed(record),
            record.scheduled_start if record.status == Match.Status.POSTPONED else None,
        )
        return self._once(key, lambda: self._status_text(record))

    def _status_text(self, record):
        text = status_text(record)
        if record.status == Match.Status.POSTPONED and record.scheduled_start:
            # The players need the new day more than the word.
            when = date_format(timezone.localtime(record.scheduled_start), "j F H:i")
            text = _("Postponed to %(when)s") % {"when": when}
        # A walk over says how it was lost; an abandoned match's status says it all already.
        if record.end in (Match.End.FORFEIT, Match.End.WARNINGS):
            text = f"{text} · {record.get_end_display()}"
        if getattr(record, "preliminary", False):
            return format_html('{} <span class="badge badge--preliminary">{}</span>', text, _("preliminary"))
        return text


# -- a player's figures per competition ------------------------------------------------------------


class PlayerStatisticsTable(SiteTable):
    """Rows are (competition, selectors.PlayerStatistics) pairs."""

    competition = tables.Column(accessor="0", verbose_name=_("Competition"))
    matches = tables.Column(accessor="1__matches", verbose_name=_("Matches"), attrs=NUM)
    won = tables.Column(accessor="1__won", verbose_name=_("Won"), attrs=SECONDARY_NUM)
    deals = tables.Column(accessor="1__deals", verbose_name=_("Deals"), attrs=SECONDARY_NUM)
    average = tables.Column(
        accessor="1__average_deal_score", verbose_name=_("Average deal score"), attrs=NUM, default="–"
    )
    canastas = tables.Column(accessor="1__canastas", verbose_name=_("Canastas"), attrs=SECONDARY_NUM)
    goings_out = tables.Column(accessor="1__goings_out", verbose_name=_("Goings out"), attrs=SECONDARY_NUM)

    class Meta:
        orderable = False
        attrs = {"class": "data-table player-statistics"}

    def render_competition(self, value):
        url = object_address("scoring:competition-detail", value.pk)
        return format_html('<a href="{}">{} {}</a>', url, value.name, value.season)

    def render_average(self, value):
        return format_points(round(value))


# -- paging: every paging parameter bounded -------------------------------------------------------

# The most rows a page may be asked for (?per_page=): beyond it a page costs more than it shows.
MAX_PER_PAGE = 200
# A page or size number longer than this is not a number a visitor meant.
MAX_PAGING_DIGITS = 6


def bounded_number(raw, *, default: int, low: int, high: int) -> int:
    """A paging parameter from the query string: digits only (no sign, no spaces), at most
    MAX_PAGING_DIGITS of them, held within [low, high]; anything else is `default`."""
    raw = (raw or "").strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_PAGING_DIGITS:
        return default
    return min(max(int(raw), low), high)


def paginate_bounded(request, table, *, per_page: int, max_per_page: int = MAX_PER_PAGE) -> None:
    """Order the table as the request asks (django-tables2's RequestConfig) and page it with the
    request's ?per_page= and ?page= held to 1..max_per_page and 1..the last page: a negative or
    huge size, or a page past the end, is never an error and never a page of a million rows."""
    tables.RequestConfig(request, paginate=False).configure(table)
    size = bounded_number(request.GET.get(table.prefixed_per_page_field), default=per_page, low=1, high=max_per_page)
    last = max(1, -(-len(table.rows) // size))
    page = bounded_number(request.GET.get(table.prefixed_page_field), default=1, low=1, high=last)
    table.paginate(page=page, per_page=size)


# -- championships (selectors.championships) -------------------------------------------------------


class CombinedStandingsTable(StandingsTable):
    """All heats of a championship stage ranked together: rows are selectors.championships
    CombinedRow (the engine's StandingRow, its heat and its place there), each heat linked."""

    heat = tables.Column(empty_values=(), verbose_name=_("Heat"), attrs={"td": {"class": "standings__heat"}})

    class Meta(StandingsTable.Meta):
        sequence = ("rank", "team", "heat", "...")
        row_attrs = {
            "data-team-id": lambda record: record.row.record.team_id,
            "class": lambda record: "standings__row--tied" if record.row.tied else "",
        }

    def __init__(self, data, *, points_rules=None, **kwargs):
        shown = {column.key for column in (standings_columns(points_rules) if points_rules else STANDINGS_COLUMNS)}
        kwargs.setdefault("exclude", tuple(name for name in self.base_columns if name not in shown | {"heat"}))
        super().__init__([CombinedLine(line) for line in data], points_rules=points_rules, **kwargs)

    def render_heat(self, record):
        url = reverse("scoring:competition-detail", args=[record.heat.pk])
        return format_html('<a href="{}">{}</a><span class="standings__heat-place"> ({})</span>', url, record.heat.name,
                           _("place %(place)s") % {"place": record.heat_rank_label})


class CombinedLine:
    """A CombinedRow read as the StandingsTable reads a StandingRow (rank_label, tied, record)."""

    def __init__(self, line):
        self.row, self.heat, self.heat_rank_label = line.row, line.heat, line.heat_rank_label
        self.rank_label, self.tied, self.record, self.rank = line.row.rank_label, line.row.tied, line.row.record, line.row.rank

    def __repr__(self) -> str:
        return f"CombinedLine({self.row!r}, {self.heat.pk})"


class QualifiedTable(SiteTable):
    """Who goes on from a championship stage (or is next in line): rows are
    selectors.championships.QualifiedLine, the pair with why under its name."""

    order = tables.Column(verbose_name=_("No."), attrs=NUM)
    team = tables.Column(verbose_name=_("Pair"), attrs={"td": {"class": "qualified__team"}})
    # On a phone what is carried is a line under the pair (render_team), not a column of its own.
    carried = tables.Column(empty_values=(), verbose_name=_("Carried to the next stage"), attrs=SECONDARY_NUM)
    # The next stage's section names its heats' pairs too: a phone leaves the column out.
    entered = tables.Column(empty_values=(), verbose_name=_("Entered in"),
                            attrs={"th": {"class": "col-secondary"}, "td": {"class": "col-secondary"}})

    class Meta:
        orderable = False
        attrs = {"class": "data-table qualified"}
        row_attrs = {"data-team-id": lambda record: record.team_id}

    def __init__(self, data, *, carries=(False, False), entered=False, **kwargs):
        """`carries`: whether match points, and card points, are carried on (a share stated as 0 is not shown)."""
        exclude = tuple(name for name, shown in (("carried", any(carries)), ("entered", entered)) if not shown)
        super().__init__(data, exclude=exclude, **kwargs)
        self.carries = carries

    def render_team(self, record):
        carried = ""
        if "carried" not in self.exclude:
            carried = format_html('<span class="qualified__carried-line">{}: {}</span>', _("Carried to the next stage"),
                                  self.carried_text(record, " · "))
        return format_html('{}<span class="qualified__why">{}</span>{}', _team_link(record.team_id, record.team),
                           record.reason, carried)

    def carried_text(self, record, between):
        carried = record.carried
        points, cards = self.carries
        parts = [
            _("%(points)s match points") % {"points": format_match_points(carried.points)} if points else "",
            _("card points %(for)s / %(against)s") % {"for": format_points(carried.card_points_for),
                                                      "against": format_points(carried.card_points_against)}
            if cards else "",
        ]
        return format_html_join(between, "{}", ((part,) for part in parts if part))

    def render_carried(self, record):
        return format_html('<span class="qualified__cards">{}</span>', self.carried_text(record, mark_safe("<br>")))

    def render_entered(self, record):
        if record.entered is None:
            return ""
        url = reverse("scoring:competition-detail", args=[record.entered.pk])
        return format_html('<a href="{}">{}</a>', url, record.entered.name)
