"""Pages anyone may see without logging in: the start page, competitions and their standings,
rounds and results, match protocols, teams, players and clubs."""

from django.conf import settings
from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring import permissions, selectors
from scoring.selectors import public as public_selectors
from scoring.exports.tables import competition_facts
from scoring.models import Match, Team
from scoring.selectors.protocols import end_text, match_protocol, result_text, round_matches_with_keepers, status_text
from scoring.selectors import history
from scoring.selectors.history import season_history_stamp
from scoring.selectors.stamps import (
    competition_outline_stamp,
    competition_page_stamp,
    competition_results_stamp,
    public_match_page_stamp,
    round_page_stamp,
    team_page_stamps,
)
from scoring.site_address import absolute_reverse
from scoring.tables import PlayerStatisticsTable, ResultsTable, StandingsTable


class StartPageView(TemplateView):
    template_name = "scoring/public/home.html"


# ---- Competitions, rounds, matches, teams, players and clubs (no login) ------------------------
# Non-public competitions answer 404 to the public (scoring.selectors.public.visible_competitions);
# team, player and club pages show only what belongs to public competitions. Views stay thin: the
# reads are scoring.selectors (scoring.selectors.public, scoring.selectors.protocols), the tables scoring.tables.

# Seconds between two looks for news while a round is played (htmx polling); tests set 1.
DEFAULT_LIVE_POLL_SECONDS = 20
# How many of a team's latest results make its "recent form".
FORM_LENGTH = 5


def live_poll_seconds() -> int:
    return int(getattr(settings, "SCORING_LIVE_POLL_SECONDS", DEFAULT_LIVE_POLL_SECONDS))


class PublicPageMixin:
    """Context every public page uses: how often live parts poll."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["poll_seconds"] = live_poll_seconds()
        return context


class KeptBodyMixin:
    """A public page whose body (all below the breadcrumbs) is kept in the "template_fragments"
    cache under the stamp of what it shows (`page_stamp`, scoring.selectors.stamps), the address
    with its query, who looks, the poll interval and the day (a round is live on its day). Its
    template wraps the body in `{% cache 86400 public_page page_key LANGUAGE_CODE %}`; the view looks
    the same key up first, so a look at an unchanged page reads the stamp and the kept body only, and
    the body's own reads (`body_context`) are made only when it is drawn. A change shows on the next
    look: it changes the stamp, and so the key; nothing is ever deleted from the cache.

    A view using it defines `page_stamp()` and `body_context()` and ends its get_context_data
    with `with_body(context)`."""

    def with_body(self, context: dict) -> dict:
        """The page's frame `context` (PublicPageMixin's, and what the title and breadcrumbs name)
        with the kept body, or with what drawing the body needs."""
        request = self.request
        viewer = request.user.pk if request.user.is_authenticated else None
        page_key = repr(
            [self.page_stamp(), request.get_full_path(), viewer, context["poll_seconds"], timezone.localdate()]
        )
        kept = caches["template_fragments"].get(make_template_fragment_key("public_page", [page_key, get_language()]))
        if kept is not None:
            # The HTML this site drew itself (the {% cache %} tag kept it as the template made it).
            context["kept_body"] = mark_safe(kept)
        else:
            context.update(self.body_context(), page_key=page_key)
        return context


class CompetitionListView(PublicPageMixin, TemplateView):
    template_name = "scoring/public/competition_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        competitions = public_selectors.competitions_newest_first(self.request.user)
        live_ids = public_selectors.competition_ids_in_play(competitions)
        context["competitions"] = [(competition, competition.pk in live_ids) for competition in competitions]
        return context


def _round_number(value, rounds) -> int | None:
    """The ?after= round of the standings; anything not a round number means "all rounds"."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number in {r.number for r in rounds} else None


class CompetitionMixin(PublicPageMixin):
    """A visible competition from the URL, its rounds, and the live part of its page."""

    embed = False

    def dispatch(self, request, *args, **kwargs):
        # Embeds are for other sites: public competitions only, whoever is signed in.
        user = None if self.embed else request.user
        self.competition = public_selectors.get_visible_competition(kwargs["pk"], user)
        return super().dispatch(request, *args, **kwargs)

    def link_target(self):
        # Inside an iframe a link opens the full site in a new tab, not inside the frame.
        return "_blank" if self.embed else None

    def live_context(self) -> dict:
        competition = self.competition
        rounds = public_selectors.rounds_with_state(competition)
        after = _round_number(self.request.GET.get("after"), rounds)
        # With the standings after round N, that round's results; else the round being played.
        current = next((r for r in rounds if r.number == after), None) or public_selectors.current_round(rounds)
        live_numbers = {r.number for r in rounds if r.live}
        # A look back ("after round 2") does not change while a later round is played.
        live = bool(live_numbers) and (after is None or after >= min(live_numbers))
        results = None
        if current is not None:
            results = ResultsTable(
                selectors.round_result_rows(current),
                caption=current,
                link_target=self.link_target(),
            )
        return {
            "competition": competition,
            "rounds": rounds,
            "after": after,
            # The standings part is kept under the results' stamp and the count of results awaiting
            # confirmation (templates/scoring/public/_competition_live.html): a deal saved in a
            # match being played changes neither, so the table is read and drawn only when a result
            # that counts changes; until then these are not read.
            "results_stamp": competition_results_stamp(competition),
            "preliminary_count": selectors.standings_preliminary_count(competition, up_to_round=after),
            "standings": SimpleLazyObject(
                lambda: StandingsTable(
                    selectors.competition_standings(competition, up_to_round=after),
                    card_points=competition.points_rules.card_points,
                    caption=self.standings_caption(after),
                    link_target=self.link_target(),
                )
            ),
            # How ties are broken, in the words the printed standings use.
            "standings_order": SimpleLazyObject(lambda: competition_facts(competition)["order"]),
            "current_round": current,
            "current_results": results,
            "current_byes": selectors.round_byes(current) if current is not None else [],
            "live": live,
            "changed_at": public_selectors.last_change(competition=competition) if live else None,
            "embed": self.embed,
        }

    def standings_caption(self, after):
        if after is None:
            return _("Standings")
        return _("Standings after round %(number)s") % {"number": after}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.live_context())
        return context


class CompetitionDetailView(KeptBodyMixin, CompetitionMixin, TemplateView):
    """The standings (after any round), the current round's results, links to every round."""

    template_name = "scoring/public/competition_detail.html"

    def page_stamp(self) -> str:
        return competition_page_stamp(self.competition)

    def get_context_data(self, **kwargs):
        # The frame names the competition only; the live part is the kept body's (body_context).
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        context["competition"] = self.competition
        return self.with_body(context)

    def body_context(self) -> dict:
        context = self.live_context()
        pk, rounds = self.competition.pk, context["rounds"]
        context["outline_key"] = competition_outline_stamp(self.competition, rounds)
        # Made only if the outline is drawn (it is kept under outline_key).
        context["round_links"] = lambda: [(r, reverse("scoring:round-detail", args=[pk, r.number])) for r in rounds]
        context["embed_url"] = lambda: absolute_reverse("scoring:competition-embed", pk)
        # The places round by round are worked out from every round's table: kept, as the
        # standings, until a result that counts changes (results_stamp, in the template's cache key);
        # read only when that part is drawn.
        competition = self.competition
        context["places"] = lambda: history.places_by_round(competition)
        return context


class CompetitionLiveView(CompetitionMixin, TemplateView):
    """The live part of the competition page (standings and the current round), for htmx polling."""

    template_name = "scoring/public/_competition_live.html"

    def dispatch(self, request, *args, **kwargs):
        self.embed = request.GET.get("embed") == "1"
        return super().dispatch(request, *args, **kwargs)


class CompetitionRoundsView(CompetitionMixin, TemplateView):
    """Every round of the competition with its results."""

    template_name = "scoring/public/competition_rounds.html"

    def get_context_data(self, **kwargs):
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        context.update(
            competition=self.competition,
            rounds=[
                {
                    "round": round_,
                    "live": round_.live,
                    "results": ResultsTable(selectors.round_result_rows(round_), caption=round_),
                    "byes": selectors.round_byes(round_),
                }
                for round_ in public_selectors.rounds_with_state(self.competition)
            ],
        )
        return context


class RoundMixin(CompetitionMixin):
    def dispatch(self, request, *args, **kwargs):
        self.competition = public_selectors.get_visible_competition(kwargs["pk"], request.user)
        self.round = public_selectors.get_visible_round(self.competition, kwargs["number"])
        return super(CompetitionMixin, self).dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        context.update(competition=self.competition, round=self.round)
        context.update(self.body_context())
        return context

    def body_context(self) -> dict:
        round_ = self.round
        live, changed_at = public_selectors.round_live_state(round_)
        return {
            "results": ResultsTable(selectors.round_result_rows(round_), caption=_("Results")),
            "byes": selectors.round_byes(round_),
            "live": live,
            "clock": public_selectors.hall_clock(round_),
            "changed_at": changed_at,
            **public_selectors.neighbour_rounds(round_),
        }


class RoundDetailView(KeptBodyMixin, RoundMixin, TemplateView):
    template_name = "scoring/public/round_detail.html"

    def page_stamp(self) -> str:
        return round_page_stamp(self.round)

    def get_context_data(self, **kwargs):
        context = super(CompetitionMixin, self).get_context_data(**kwargs)
        context.update(competition=self.competition, round=self.round)
        return self.with_body(context)

    def body_context(self) -> dict:
        round_ = self.round
        may_print = permissions.can_print_blank_protocols(self.request.user, round_, round_matches_with_keepers(round_))
        return {**super().body_context(), "may_print_blank_protocols": may_print}


class RoundLiveView(RoundMixin, TemplateView):
    """The results of a round, for htmx polling while it is played."""

    template_name = "scoring/public/_round_live.html"


class MatchDetailView(KeptBodyMixin, PublicPageMixin, TemplateView):
    """The protocol of a match deal by deal, each deal's breakdown on demand, and how it ended."""

    template_name = "scoring/public/match_detail.html"

    def get_match(self):
        return public_selectors.get_visible_match(self.kwargs["pk"], self.request.user)

    def get(self, request, *args, **kwargs):
        self.match = self.get_match()
        return super().get(request, *args, **kwargs)

    def page_stamp(self) -> str:
        return public_match_page_stamp(self.match)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(match=self.match, competition=self.match.competition)
        return self.with_body(context)

    def body_context(self) -> dict:
        match = self.match
        # Replayed only if the template draws the protocol (it keeps it until the match changes).
        protocol = SimpleLazyObject(lambda: match_protocol(match))
        return {
            "protocol": protocol,
            "rules": match.rules,
            "live": match.status == Match.Status.IN_PROGRESS,
            "changed_at": match.updated_at,
            "sides": [
                ("home", match.home_team, match.home_substitute, match.home_total),
                ("away", match.away_team, match.away_substitute, match.away_total),
            ],
            # Put in words only if the template draws them (as the protocol above).
            "end_text": lambda: end_text(protocol),
            "result_text": lambda: result_text(protocol),
            "status_text": status_text(match),
        }


class MatchLiveView(MatchDetailView):
    """The scoreboard and protocol for htmx polling; 204 (nothing to swap) while nothing changed."""

    template_name = "scoring/public/_match_live.html"

    def get(self, request, *args, **kwargs):
        self.match = self.get_match()
        if request.GET.get("version") == str(self.match.version) and self.match.status == Match.Status.IN_PROGRESS:
            return HttpResponse(status=204)
        return super(MatchDetailView, self).get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        # The live part only, drawn whole (it keeps its own parts, templates/scoring/public/_match_live.html).
        context = super(KeptBodyMixin, self).get_context_data(**kwargs)
        context.update(match=self.match, competition=self.match.competition, **self.body_context())
        return context


def _form_letter(match: Match, team: Team) -> str | None:
    """"win", "draw" or "loss" for `team`, or None when the match has no result."""
    if match.winner == "draw":
        return "draw"
    if match.winner in ("home", "away"):
        side = "home" if match.home_team_id == team.pk else "away"
        return "win" if match.winner == side else "loss"
    return None


class TeamDetailView(KeptBodyMixin, PublicPageMixin, TemplateView):
    """A team: its players, its results and fixtures in public competitions, its recent form."""

    template_name = "scoring/public/team_detail.html"

    def page_stamp(self) -> str:
        self.history_stamp = season_history_stamp()
        page, self.results_stamp = team_page_stamps(self.team, self.history_stamp)
        return page

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        self.team = public_selectors.team_page_team(kwargs["pk"])
        context["team"] = self.team
        return self.with_body(context)

    def body_context(self) -> dict:
        team = self.team
        # The results and the recent form are kept under their own stamp (results_stamp): the
        # matches with a result are read only when those are drawn, the others every time.
        played = SimpleLazyObject(lambda: public_selectors.team_public_results(team))
        return {
            "results": SimpleLazyObject(
                lambda: ResultsTable(played[::-1], caption=_("Results"), across_rounds=True) if played else None
            ),
            "fixtures": ResultsTable(
                public_selectors.team_public_fixtures(team), caption=_("Fixtures"), across_rounds=True
            ),
            "form": SimpleLazyObject(lambda: [
                {"match": m, "outcome": _form_letter(m, team),
                 "opponent": m.away_team if m.home_team_id == team.pk else m.home_team}
                for m in played[-FORM_LENGTH:]
            ]),  # fmt: skip
            "competitions": public_selectors.team_public_competitions(team),
            "history_stamp": self.history_stamp,
            "results_stamp": self.results_stamp,
            # Read only when the season table is drawn (it is kept under history_stamp).
            "seasons": lambda: history.team_seasons(team),
        }


class PlayerDetailView(PublicPageMixin, TemplateView):
    """A player: teams, matches and figures (deals, average deal score, canastas, goings out, wins)."""

    template_name = "scoring/public/player_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player = get_object_or_404(public_selectors.players(), pk=kwargs["pk"])
        matches = public_selectors.player_matches(player)
        per_competition = public_selectors.public_player_statistics(player, matches)
        teams = public_selectors.player_teams(player)
        context.update(
            player=player,
            statistics=public_selectors.sum_statistics([stats for _c, stats in per_competition]),
            per_competition=(
                PlayerStatisticsTable(per_competition, caption=_("Per competition"))
                if len(per_competition) > 1
                else None
            ),
            teams=teams,
            results=ResultsTable(matches, caption=_("Matches"), across_rounds=True) if matches else None,
            seasons=history.player_seasons(player),
            rating_points=history.rating_points(player),
        )
        return context


class ClubListView(PublicPageMixin, TemplateView):
    template_name = "scoring/public/club_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["clubs"] = public_selectors.clubs_by_name()
        return context


class ClubDetailView(PublicPageMixin, TemplateView):
    """A club: its teams, its players, the public competitions it organises."""

    template_name = "scoring/public/club_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        club = get_object_or_404(public_selectors.clubs(), pk=kwargs["pk"])
        context.update(
            club=club,
            teams=public_selectors.club_teams(club),
            players=public_selectors.club_players(club),
            competitions=public_selectors.club_competitions(club, self.request.user),
            seasons=history.club_seasons(club),
        )
        return context
