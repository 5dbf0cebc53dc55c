"""What other sites and calendars read: a competition's embeddable page (for an iframe on a club's
website), its read-only JSON feed (standings and results), and a team's fixtures as iCalendar.

Only public competitions appear here, whoever asks. The embeddable page lifts the site's framing
ban for itself alone (X-Frame-Options and the CSP frame-ancestors); the JSON feed may be read from
any origin (CORS).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from csp.decorators import csp_replace
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.generic import TemplateView

from scoring import selectors
from scoring.selectors import editions, public as public_selectors
from scoring.feeds.calendar import CalendarEvent, calendar
from scoring.models import Match
from scoring.selectors.protocols import has_score
from scoring.site_address import absolute_reverse, site_host

from .public import CompetitionMixin

# A calendar entry for a match without a known length: long enough for an untimed game to 5000.
UNTIMED_MATCH_MINUTES = 120


@method_decorator(xframe_options_exempt, name="dispatch")
@method_decorator(csp_replace({"frame-ancestors": ["*"]}), name="dispatch")
class CompetitionEmbedView(CompetitionMixin, TemplateView):
    """Standings and the latest round's results with minimal chrome, for an iframe."""

    template_name = "scoring/public/embed.html"
    embed = True


def _team(team_id, name) -> dict:
    return {"id": team_id, "name": name}


def _match_json(request, match: Match) -> dict:
    return {
        "id": match.pk,
        "table": match.table,
        "home": _team(match.home_team_id, match.home_team.name),
        "away": _team(match.away_team_id, match.away_team.name),
        "status": match.status,
        "deals": match.deal_count,
        "home_total": match.home_total,
        "away_total": match.away_total,
        "end": match.end or None,
        "winner": match.winner or None,
        "home_points": None if match.home_points is None else selectors.number(match.home_points),
        "away_points": None if match.away_points is None else selectors.number(match.away_points),
        "counts": bool(getattr(match, "counts", False)),
        "preliminary": bool(getattr(match, "preliminary", False)),
        "url": absolute_reverse("scoring:match-detail", match.pk),
    }


class CompetitionFeedView(View):
    """GET: {"competition", "generated_at", "standings": [...], "preliminary_results", "rounds": [...]}."""

    drawn_from = editions.competition

    def get(self, request, pk):
        competition = public_selectors.get_visible_competition(pk, None)
        rows = selectors.competition_standings(competition)
        live_numbers = public_selectors.live_round_numbers(competition)
        data = {
            "competition": {
                "id": competition.pk,
                "name": competition.name,
                "season": competition.season,
                "kind": competition.kind,
                "card_points": competition.points_rules.card_points,
                "url": absolute_reverse("scoring:competition-detail", competition.pk),
            },
            "generated_at": timezone.now().isoformat(timespec="seconds"),
            "standings": [
                {**selectors.standing_values(row), "team": _team(row.record.team_id, row.record.name)}
                for row in rows
            ],
            "preliminary_results": selectors.standings_preliminary_count(competition),
            "rounds": [
                {
                    "number": round_.number,
                    "date": round_.date.isoformat() if round_.date else None,
                    "live": round_.number in live_numbers,
                    "matches": [_match_json(request, m) for m in selectors.round_results(round_)],
                    "byes": [_team(bye.team_id, bye.team.name) for bye in selectors.round_byes(round_)],
                }
                for round_ in public_selectors.competition_rounds(competition)
            ],
        }
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
        response["Access-Control-Allow-Origin"] = "*"
        return response


def _fixture_event(request, match: Match, host: str) -> CalendarEvent | None:
    start: datetime | object
    if match.scheduled_start is not None:
        start = match.scheduled_start
        minutes = match.rules.clock_final_minutes or UNTIMED_MATCH_MINUTES
        end = start + timedelta(minutes=minutes)
    elif match.round is not None and match.round.date is not None:
        start = match.round.date
        end = start + timedelta(days=1)
    else:
        return None  # nothing to put in a calendar yet
    summary = f"{match.home_team.name} – {match.away_team.name}"
    details = [str(match.competition)]
    if match.round is not None:
        details.append(str(match.round))
    if match.table:
        details.append(_("Table %(number)s") % {"number": match.table})
    if has_score(match):
        result = f"{match.home_total}–{match.away_total}"
        summary = f"{summary} {result}"
        details.append(_("Result: %(result)s") % {"result": result})
    url = absolute_reverse("scoring:match-detail", match.pk)
    club = match.home_team.club
    status = {Match.Status.VOID: "CANCELLED", Match.Status.POSTPONED: "TENTATIVE"}.get(match.status, "CONFIRMED")
    return CalendarEvent(
        uid=f"match-{match.pk}@{host}",
        start=start,
        end=end,
        summary=summary,
        description="\n".join([*details, url]),
        # A match moved by agreement to another hall is played there (services.moves).
        location=match.hall or ", ".join(part for part in (club.name, club.city) if part),
        url=url,
        status=status,
        last_modified=match.updated_at,
    )


class TeamCalendarView(View):
    """A team's fixtures in public competitions as an iCalendar feed (text/calendar)."""

    drawn_from = editions.everything

    def get(self, request, pk):
        team = get_object_or_404(public_selectors.teams(), pk=pk)
        host = site_host()
        events = [
            event
            for match in public_selectors.team_fixtures(team)
            if (event := _fixture_event(request, match, host)) is not None
        ]
        body = calendar(
            events,
            name=_("%(team)s: fixtures") % {"team": team.name},
            prodid="-//Canasta scoring//Fixtures//SV",
            stamp=timezone.now(),
        )
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="team-{team.pk}.ics"'
        return response
