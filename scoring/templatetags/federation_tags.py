"""Parts of the public pages about seasons, the rating and a table's history, with their charts:

- `{% season_history seasons player=player rating_points=points %}` (or `team=`, `club=`): every
  season's figures in a table, closed seasons marked as archives; for a player also the rating's
  history as a chart and a table; for a club its match points per season as a chart.
- `{% places_chart competition places %}`: each team's place in the table round by round, as charts
  and a table.

The figures are read by the page's view (scoring.selectors.history: player_seasons, team_seasons,
club_seasons, rating_points, places_by_round) and handed in; a tag reads nothing from the database.
The charts are drawn by scoring.charts.svg.
"""

from __future__ import annotations

from django import template
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.charts.svg import Chart, bar_chart, line_chart
from scoring.engine.rating import START
from scoring.formatting import format_match_points, rating_text

register = template.Library()


def rating_chart(player, points) -> str | None:
    if len(points) < 2:
        return None
    # The start (1500) is drawn before the first match, so the first match's change shows too.
    values = [START] + [p.rating for p in points]
    return line_chart(
        Chart(
            title=_("Rating of %(name)s, match by match") % {"name": player.name},
            description=_(
                "%(count)s rated matches. The rating went from %(first)s after the first to %(last)s after "
                "the latest; lowest %(low)s, highest %(high)s."
            ) % {
                "count": len(points), "first": rating_text(values[1]), "last": rating_text(values[-1]),
                "low": rating_text(min(values)), "high": rating_text(max(values)),
            },
            x_label=_("Date of the match"),
            y_label=_("Rating"),
            # The day each match was played (the start, 1500, before the first), its year on a
            # second line where it changes: a history spans seasons, "26 dec" then "16 okt" would
            # read backwards without it.
            labels=[_("start")] + [date_format(p.when, "j b") if p.when else "" for p in points],
            x_sublabels=[""] + [date_format(p.when, "Y") if p.when else "" for p in points],
            values=values,
            ident=f"rating-{player.pk}",
        )
    )


def club_chart(club, seasons) -> str | None:
    if not seasons:
        return None
    ordered = list(reversed(seasons))
    return bar_chart(
        Chart(
            title=_("Match points of %(name)s per season") % {"name": club.name},
            description=", ".join(
                _("%(season)s: %(points)s match points in %(matches)s matches")
                % {"season": s.season, "points": format_match_points(s.points), "matches": s.matches}
                for s in ordered
            ),
            x_label=_("Season"),
            y_label=_("Match points"),
            labels=[s.season for s in ordered],
            values=[float(s.points) for s in ordered],
            value_format="{:g}",
            ident=f"club-{club.pk}",
        )
    )


@register.inclusion_tag("scoring/federation/_season_history.html")
def season_history(seasons, player=None, team=None, club=None, rating_points=()):
    if player is not None:
        return {
            "kind": "player", "seasons": seasons, "show_rating": True, "subject": player,
            "rating_points": rating_points, "chart": rating_chart(player, rating_points),
        }
    if team is not None:
        return {"kind": "team", "seasons": seasons, "show_rating": True, "subject": team}
    return {"kind": "club", "seasons": seasons, "show_rating": False, "subject": club, "chart": club_chart(club, seasons)}


def team_places_chart(competition, team, rounds, team_count) -> str:
    known = [p for p in team.places if p is not None]
    return line_chart(
        Chart(
            title=_("%(team)s: place after each round") % {"team": team.name},
            description=_("Place %(first)s after round %(first_round)s, place %(last)s after round %(last_round)s, of %(count)s teams; best %(best)s, worst %(worst)s.")
            % {
                "first": known[0], "first_round": rounds[0], "last": known[-1], "last_round": rounds[-1],
                "count": team_count, "best": min(known), "worst": max(known),
            },
            x_label=_("Round"),
            y_label=_("Place"),
            labels=[str(n) for n in rounds],
            values=team.places,
            invert=True,
            y_min=1,
            y_max=team_count,
            ident=f"places-{competition.pk}-{team.team_id}",
        )
    )


@register.inclusion_tag("scoring/federation/_places.html")
def places_chart(competition, places, open=False):
    if places is None:
        return {"places": None}
    charts = [(team, team_places_chart(competition, team, places.rounds, places.team_count)) for team in places.teams]
    return {"places": places, "charts": charts, "competition": competition, "open": open}


@register.inclusion_tag("scoring/federation/_places_print.html")
def places_chart_print(competition, places):
    """The same charts and table for the competition's PDF: no links, no disclosure."""
    return places_chart(competition, places, open=True)
