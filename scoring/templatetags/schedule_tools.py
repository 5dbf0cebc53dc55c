"""`{% schedule_state competition as state %}`: what the schedule tools can offer for a competition."""

from __future__ import annotations

from django import template

from scoring.models import Competition
from scoring.services.schedules import competition_has_play, round_is_complete

register = template.Library()


@register.simple_tag
def schedule_state(competition: Competition) -> dict:
    last = competition.rounds.order_by("-number").first()
    return {
        "team_count": competition.teams.count(),
        "match_count": competition.matches.count(),
        "has_play": competition_has_play(competition),
        "next_round": (last.number if last else 0) + 1,
        "previous_complete": last is None or round_is_complete(last),
        "is_tournament": competition.kind == Competition.Kind.TOURNAMENT,
    }
