"""django-tables2 tables of the federation pages: ranking lists, the matches behind a ranking row,
club tables of an inter-club series.

Like the standings (scoring.listings) they are never user-sortable: the rank is the order, and tied
rows show as "3=". Numbers are formatted by scoring.formatting; they come from the
selectors (scoring.selectors.rankings, scoring.selectors.club_standings) and the engine.
"""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _, ngettext, pgettext_lazy

from scoring.formatting import breakable_name, figure_text, format_match_points, format_points, rating_text
from scoring.selectors.figures import FIGURES
from scoring.selectors.standings import standings_column
from scoring.listings import (
    NUM, SECONDARY_NUM, AbbrColumn, LegendMixin, MatchPointsColumn, PointsColumn,
    SignedPointsColumn, SiteTable, escaped, labels, object_address, row_href,
)

RANK = {"th": {"class": "num standings__rank"}, "td": {"class": "num standings__rank"}}
RANK_NAME = standings_column("rank").full


def _rank(record):
    if record.tied:
        return format_html('{}<span class="visually-hidden"> {}</span>', record.rank_label, _("(shared)"))
    return record.rank_label


class RankingTable(LegendMixin, SiteTable):
    """Rows are selectors.rankings.RankingRow; `list_kind` is "players" or "pairs"."""

    rank = tables.Column(accessor="rank_label", verbose_name=RANK_NAME, attrs=RANK)
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "standings__team"}})
    club = tables.Column(verbose_name=_("Club"), attrs={"th": {"class": "col-secondary"}, "td": {"class": "col-secondary"}})
    matches = AbbrColumn(short=standings_column("played").short, full=_("Matches"))
    won = AbbrColumn(**labels("won"), attrs=SECONDARY_NUM)
    points = MatchPointsColumn(
        **labels("points"),
        attrs={"th": {"class": "num standings__points"}, "td": {"class": "num standings__points"}},
    )
    card_points = PointsColumn(**labels("card_points_for"), attrs=SECONDARY_NUM)
    rating = AbbrColumn(short=pgettext_lazy("ranking column, short", "Rtg"), full=_("Rating"))

    class Meta:
        orderable = False
        attrs = {"class": "data-table standings rankings"}
        row_attrs = {"data-id": lambda record: record.id}

    def __init__(self, data, *, list_kind="players", filter_query=None, **kwargs):
        super().__init__(data, **kwargs)
        self.list_kind = list_kind
        self.query = urlencode(filter_query or {})
        self.query_html = escaped(f"?{self.query}") if self.query else ""
        if list_kind == "pairs":
            self.columns["name"].column.verbose_name = _("Pair")

    def render_rank(self, record):
        return _rank(record)

    def render_name(self, record):
        page = "scoring:team-detail" if self.list_kind == "pairs" else "scoring:player-detail"
        return SafeString(f'<a href="{row_href(page, record.id)}">{escaped(record.name)}</a>')  # every part escaped

    def render_club(self, record):
        href = row_href("scoring:club-detail", record.club_id)
        return SafeString(f'<a href="{href}">{escaped(record.club)}</a>')  # every part escaped

    def _behind(self, record, text, label):
        page = "scoring:ranking-pair" if self.list_kind == "pairs" else "scoring:ranking-player"
        href = row_href(page, record.id) + self.query_html
        return SafeString(f'<a href="{href}" aria-label="{escaped(label)}">{escaped(text)}</a>')  # every part escaped

    def render_matches(self, record):
        label = _("%(name)s: %(count)s matches, the matches behind the figures") % {"name": record.name, "count": record.matches}
        return self._behind(record, record.matches, label)

    def render_points(self, record):
        text = format_match_points(record.points)
        label = _("%(name)s: %(points)s match points, the matches behind them") % {"name": record.name, "points": text}
        return self._behind(record, text, label)

    def render_card_points(self, record):
        return format_points(record.card_points)

    def render_rating(self, record):
        return rating_text(record.rating)


class RankingMatchesTable(LegendMixin, SiteTable):
    """Rows are selectors.rankings.MatchFigures: the matches behind a ranking row."""

    match = tables.Column(empty_values=(), verbose_name=_("Match"), attrs={"td": {"class": "ranking-matches__match"}})
    result = tables.Column(
        empty_values=(), verbose_name=_("Result"),
        attrs={"th": {"class": "num"}, "td": {"class": "num ranking-matches__result"}},
    )
    points = MatchPointsColumn(**labels("points"), attrs=SECONDARY_NUM)
    card_points = PointsColumn(
        **labels("card_points_for"), attrs=SECONDARY_NUM
    )
    rating = tables.Column(empty_values=(), verbose_name=_("Rating after"), attrs=NUM)

    class Meta:
        orderable = False
        attrs = {"class": "data-table results ranking-matches"}
        row_attrs = {"data-match-id": lambda record: record.match.pk}

    def __init__(self, data, *, show_rating=True, **kwargs):
        if not show_rating:
            kwargs.setdefault("exclude", ("rating",))
        super().__init__(data, **kwargs)

    def render_match(self, record):
        match = record.match
        when = [f"{match.competition.name} {match.competition.season}"]
        if match.round is not None:
            when.append(str(match.round))
            if match.round.date:
                when.append(date_format(match.round.date, "j b Y"))
        return format_html(
            '<span class="ranking-matches__teams">{}\u00a0– {}</span><span class="ranking-matches__when">{}</span>',
            match.home_team.name, match.away_team.name, " · ".join(when),
        )

    def render_result(self, record):
        match = record.match
        text = format_html("{}\u2009–\u2009{}", format_points(match.home_total), format_points(match.away_total))
        link = format_html('<a href="{}">{}</a>', object_address("scoring:match-detail", match.pk), text)
        if match.end in ("forfeit", "warnings"):
            return format_html('{}<span class="ranking-matches__end">{}</span>', link, match.get_end_display())
        return link

    def render_rating(self, record):
        if record.rating_after is None:
            return format_html('<span title="{}">–</span>', _("Not rated"))
        change = record.rating_after - record.rating_before
        return format_html(
            '{}<span class="ranking-matches__change">{}</span>',
            rating_text(record.rating_after), format_points(round(change), signed=True),
        )


class ClubStandingsTable(LegendMixin, SiteTable):
    """Rows are engine StandingRows whose record is a club's sum (selectors.club_standings)."""

    rank = tables.Column(accessor="rank_label", verbose_name=RANK_NAME, attrs=RANK)
    club = tables.Column(accessor="record__name", verbose_name=_("Club"), attrs={"td": {"class": "standings__team"}})
    teams = AbbrColumn(accessor="extra__teams", short=pgettext_lazy("club table column, short", "Pairs"), full=_("Pairs"), attrs=SECONDARY_NUM)
    played = AbbrColumn(accessor="record__played", **labels("played"))
    won = AbbrColumn(accessor="record__won", **labels("won"), attrs=SECONDARY_NUM)
    drawn = AbbrColumn(accessor="record__drawn", **labels("drawn"), attrs=SECONDARY_NUM)
    lost = AbbrColumn(accessor="record__lost", **labels("lost"), attrs=SECONDARY_NUM)
    points = MatchPointsColumn(
        accessor="record__points", **labels("points"),
        attrs={"th": {"class": "num standings__points"}, "td": {"class": "num standings__points"}},
    )
    card_points_for = PointsColumn(accessor="record__card_points_for", **labels("card_points_for"))
    difference = SignedPointsColumn(accessor="record__difference", **labels("difference"), attrs=SECONDARY_NUM)

    class Meta:
        orderable = False
        attrs = {"class": "data-table standings club-table"}
        row_attrs = {"data-club-id": lambda record: record.record.team_id}

    def render_rank(self, record):
        return _rank(record)

    def render_club(self, record):
        href = row_href("scoring:club-detail", record.record.team_id)
        return SafeString(f'<a href="{href}">{escaped(record.record.name)}</a>')  # every part escaped


class IndividualTable(LegendMixin, SiteTable):
    """Rows are selectors.individual.PlayerTableRow (record: an engine BuchholzRecord)."""

    rank = tables.Column(accessor="rank_label", verbose_name=RANK_NAME, attrs=RANK)
    player = tables.Column(accessor="record__name", verbose_name=_("Player"), attrs={"td": {"class": "standings__team"}})
    played = AbbrColumn(accessor="record__played", **labels("played"))
    won = AbbrColumn(accessor="record__won", **labels("won"), attrs=SECONDARY_NUM)
    points = MatchPointsColumn(
        accessor="record__points", **labels("points"),
        attrs={"th": {"class": "num standings__points"}, "td": {"class": "num standings__points"}},
    )
    card_points_for = PointsColumn(accessor="record__card_points_for", **labels("card_points_for"))
    buchholz = MatchPointsColumn(
        accessor="record__buchholz", short=pgettext_lazy("standings column, short", "Bh"),
        full=_("Buchholz (the opponents' match points)"),
    )

    class Meta:
        orderable = False
        attrs = {"class": "data-table individual-table"}
        row_attrs = {"data-player-id": lambda record: record.record.team_id}

    def render_rank(self, record):
        return _rank(record)

    def render_player(self, record):
        href = row_href("scoring:player-detail", record.record.team_id)
        return SafeString(  # every part escaped
            f'<a href="{href}">{escaped(record.record.name)}</a> '
            f'<span class="individual-table__club">{escaped(record.club)}</span>'
        )


# -- Canasta figures and records (selectors.figures, selectors.records) ---------------------------


class RecordsTable(SiteTable):
    """Rows are selectors.records.Record: what the record is, with the pair that set it and the match
    (and deal) it was set in under it, linked; and its value. Two columns, so a phone shows all."""

    label = tables.Column(empty_values=(), verbose_name=_("Record"), attrs={"td": {"class": "records__record"}})
    value = tables.Column(verbose_name=_("Value"), attrs=NUM)

    class Meta:
        orderable = False
        attrs = {"class": "data-table records"}
        row_attrs = {"data-record": lambda record: record.key}

    def render_value(self, record):
        if record.kind.unit == "deals":
            return ngettext("%(count)s deal", "%(count)s deals", record.value) % {"count": format_points(record.value)}
        if record.kind.unit == "matches":
            return ngettext("%(count)s win", "%(count)s wins", record.value) % {"count": format_points(record.value)}
        return format_points(record.value)

    def render_label(self, record):
        url = reverse("scoring:match-detail", args=[record.match_id])
        where = _("against %(opponent)s, %(competition)s") % {"opponent": record.opponent, "competition": record.competition}
        if record.key == "win_run":
            where = _("the last win: against %(opponent)s, %(competition)s") % {
                "opponent": record.opponent, "competition": record.competition,
            }
        if record.deal_number is not None:
            url += f"#deal-{record.deal_number}"
            where = _("%(where)s, deal %(number)s") % {"where": where, "number": record.deal_number}
        return format_html(
            '<strong class="records__label">{}</strong><span class="records__team"><a href="{}">{}</a></span>'
            '<span class="records__where"><a href="{}">{}</a></span>',
            record.label, reverse("scoring:team-detail", args=[record.team_id]), breakable_name(record.team), url, where,
        )


class FigureColumn(AbbrColumn):
    """A figure of selectors.figures (`key`) of a row's Figures, written as its kind says."""

    def __init__(self, key, *, secondary=False, **kwargs):
        figure = next(f for f in FIGURES if f.key == key)
        self.kind = figure.kind
        kwargs.setdefault("attrs", SECONDARY_NUM if secondary else NUM)
        super().__init__(accessor=f"figures__{key}", empty_values=(), full=figure.label, **kwargs)

    def render(self, value):
        return figure_text(value, self.kind)


class TeamFiguresTable(LegendMixin, SiteTable):
    """Rows are selectors.figures.TeamFigures: every pair of a competition, the whole competition
    first (a row without a team)."""

    name = tables.Column(verbose_name=_("Pair"), attrs={"td": {"class": "standings__team"}})
    deals = FigureColumn("deals", short=pgettext_lazy("figures column, short", "Deals"))
    natural = FigureColumn("natural_per_deal", short=pgettext_lazy("figures column, short", "Nat."))
    mixed = FigureColumn("mixed_per_deal", short=pgettext_lazy("figures column, short", "Mix."), secondary=True)
    went_out = FigureColumn("went_out_share", short=pgettext_lazy("figures column, short", "Out"))
    concealed = FigureColumn("concealed_share", short=pgettext_lazy("figures column, short", "Conc."), secondary=True)
    red_threes = FigureColumn("red_threes_per_deal", short=pgettext_lazy("figures column, short", "R3"), secondary=True)
    average = FigureColumn("average_score", short=pgettext_lazy("figures column, short", "Avg."))
    spread = FigureColumn("score_spread", short=pgettext_lazy("figures column, short", "Spr."), secondary=True)

    class Meta:
        orderable = False
        attrs = {"class": "data-table standings figures-pairs"}
        row_attrs = {
            "data-team-id": lambda record: record.team_id or "",
            "class": lambda record: "" if record.team_id else "figures-pairs__whole",
        }

    def render_name(self, record):
        if not record.team_id:
            return format_html("<strong>{}</strong>", record.name)
        return format_html('<a href="{}">{}</a>', reverse("scoring:team-detail", args=[record.team_id]), breakable_name(record.name))
