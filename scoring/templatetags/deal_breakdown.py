"""How a deal ended and how its score is made up, under each deal of a match's protocol (the match
page and its live part): drawn here in one pass rather than by the template engine once per deal
(a match has up to twenty deals, each a table of six rows), the labels translated once per protocol.

It draws, to the byte, what the template it replaces drew: texts it translated with
`{% translate %}` and the values escaped, its `{% blocktranslate %}` texts not (their values are),
numbers by scoring.formatting."""

from __future__ import annotations

import html

from django import template
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext, pgettext

from scoring.formatting import format_points

register = template.Library()


def escaped(value) -> str:
    """conditional_escape, a plain string by html.escape (what django.utils.html.escape does)."""
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(value)


def counted(singular: str, plural: str, count) -> str:
    """`{% blocktranslate count counter=count %}` of "{{ counter }} …": the count drawn as
    `{{ counter }}` draws it, the text itself not escaped."""
    return ngettext(singular, plural, count) % {"counter": escaped(localize(count))}


class Labels:
    """The texts every deal's breakdown shares, translated once."""

    def __init__(self, match):
        self.home = escaped(match.home_team.name)
        self.away = escaped(match.away_team.name)
        self.cards = escaped(gettext("Card points"))
        self.canastas = escaped(gettext("Canastas"))
        self.red_threes = escaped(gettext("Red threes"))
        self.going_out = escaped(gettext("Going out"))
        self.penalties = escaped(gettext("Penalties"))
        self.score = escaped(gettext("Deal score"))
        self.concealed = escaped(pgettext("going out", "concealed"))
        self.not_melded = escaped(gettext("did not meld in this deal."))


def points_cell(value) -> str:
    return f'<td class="num">{escaped(format_points(value))}</td>'


def canastas_cell(side) -> str:
    count = ""
    if side.natural or side.mixed:
        parts = []
        if side.natural:
            parts.append(counted("%(counter)s natural", "%(counter)s natural", side.natural))
        if side.natural and side.mixed:
            parts.append(", ")
        if side.mixed:
            parts.append(counted("%(counter)s mixed", "%(counter)s mixed", side.mixed))
        count = f'<span class="breakdown__count">{"".join(parts)}</span> '
    return f'<td class="num">{count}{escaped(format_points(side.breakdown.canastas))}</td>'


def red_threes_cell(side) -> str:
    count = ""
    if side.red3:
        count = f'<span class="breakdown__count">{counted("%(counter)s red three", "%(counter)s red threes", side.red3)}</span> '
    return f'<td class="num">{count}{escaped(format_points(side.breakdown.red_threes))}</td>'


def going_out_cell(side, labels: Labels) -> str:
    count = f'<span class="breakdown__count">{labels.concealed}</span> ' if side.concealed else ""
    return f'<td class="num">{count}{escaped(format_points(side.breakdown.going_out))}</td>'


@register.simple_tag(takes_context=True)
def deal_breakdown(context, deal, match):
    """The breakdown of `deal` (a protocol's deal: its sides' breakdowns, counts and notes) of `match`."""
    cache = context.render_context
    labels = cache.get(("deal_breakdown", match.pk))
    if labels is None:
        labels = cache[("deal_breakdown", match.pk)] = Labels(match)
    sides = deal.sides
    caption = gettext("How the score of deal %(number)s is made up") % {"number": escaped(localize(deal.number))}
    not_melded = "".join(
        f'<p class="breakdown__note">{labels.home if side.side == "home" else labels.away}: {labels.not_melded}</p>'
        for side in sides
        if not side.melded
    )
    notes = "".join(
        f'<p class="breakdown__note breakdown__note--warning">⚠&#xFE0E; {escaped(note.message)}</p>' for note in deal.notes
    )
    return SafeString(  # every part escaped
        "\n"
        '<table class="breakdown">\n'
        f'  <caption class="visually-hidden">{caption}</caption>\n'
        "  <thead>\n"
        "    <tr>\n"
        "      <td></td>\n"
        f'      <th scope="col" class="num">{labels.home}</th>\n'
        f'      <th scope="col" class="num">{labels.away}</th>\n'
        "    </tr>\n"
        "  </thead>\n"
        "  <tbody>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.cards}</th>\n'
        f'      {"".join(points_cell(side.breakdown.cards) for side in sides)}\n'
        "    </tr>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.canastas}</th>\n'
        f'      {"".join(canastas_cell(side) for side in sides)}\n'
        "    </tr>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.red_threes}</th>\n'
        f'      {"".join(red_threes_cell(side) for side in sides)}\n'
        "    </tr>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.going_out}</th>\n'
        f'      {"".join(going_out_cell(side, labels) for side in sides)}\n'
        "    </tr>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.penalties}</th>\n'
        f'      {"".join(points_cell(side.breakdown.penalties) for side in sides)}\n'
        "    </tr>\n"
        "  </tbody>\n"
        "  <tfoot>\n"
        "    <tr>\n"
        f'      <th scope="row">{labels.score}</th>\n'
        f'      {"".join(points_cell(side.score) for side in sides)}\n'
        "    </tr>\n"
        "  </tfoot>\n"
        "</table>\n"
        f"{not_melded}\n"
        f"{notes}\n"
    )


@register.simple_tag
def deal_end(deal, match):
    """How `deal` of `match` ended, in a line (what its summary shows), and whether the match ended
    with it; a newline after it, as the template it replaces drew."""
    if deal.end == "out":
        team = match.home_team.name if deal.out == "home" else match.away_team.name
        text = gettext("%(team)s went out") % {"team": escaped(team)}
        if deal.concealed:
            text += f" ({escaped(pgettext('going out', 'concealed'))})"
    elif deal.end == "stock":
        text = escaped(gettext("The stock ran out"))
    else:
        text = escaped(gettext("Ended by the final signal"))
    if deal.ends_match:
        text += f" · {escaped(gettext('the match ended here'))}"
    return SafeString(f"{text}\n")  # every part escaped
