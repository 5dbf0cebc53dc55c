"""Pages anyone may see without logging in: the start page, competitions and their standings,
rounds and results, match protocols, teams, players and clubs."""

from urllib.parse import urlencode

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring import permissions, selectors
from scoring.selectors import public as public_selectors
from scoring.exports.listings import competition_facts
from scoring.models import Match, Team
from scoring.selectors.protocols import end_text, match_protocol, result_text, round_matches_with_keepers, status_text
from scoring.selectors import championships, editions, history
from scoring.selectors import figures
from scoring.site_address import absolute_reverse
from scoring.listings import PlayerStatisticsTable, ResultsTable, StandingsTable, paginate_bounded


class StartPageView(TemplateView):
    template_name = "scoring/public/home.html"
    drawn_from = editions.everything  # no result, but never older than the site's news


# ---- Competitions, rounds, matches, teams, players and clubs (no login) ------------------------
# Non-public competitions answer 404 to the public (scoring.selectors.public.visible_competitions);
# team, player and club pages show only what belongs to public competitions. Views stay thin: the
# reads are scoring.selectors (scoring.selectors.public, scoring.selectors.protocols), the tables scoring.listings.

# Seconds between two looks for news while a round is played (htmx polling); tests set 1.
DEFAULT_LIVE_POLL_SECONDS = 20
# How many of a team's latest results make its "recent form".
FORM_LENGTH = 5
# A national competition's table has six hundred teams and its round three hundred tables: a
# phone is given a hundred rows at a time, each with its own pages (a league's fit on one).
LIVE_TABLE_ROWS = 100


def live_poll_seconds() -> int:
    return int(getattr(settings, "SCORING_LIVE_POLL_SECONDS", DEFAULT_LIVE_POLL_SECONDS))


class PublicPageMixin:
    """Context every public page uses: how often live parts poll."""

    drawn_from = editions.everything  # what its ETag is made of (scoring.web.public_cache), if no less

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["poll_seconds"] = live_poll_seconds()
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
    drawn_from = editions.competition

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
                prefix="results-",
            )
            paginate_bounded(self.request, results, per_page=LIVE_TABLE_ROWS)
        standings = StandingsTable(
            selectors.competition_standings(competition, up_to_round=after),
            points_rules=competition.points_rules,
            caption=self.standings_caption(after),
            link_target=self.link_target(),
            prefix="standings-",
        )
        paginate_bounded(self.request, standings, per_page=LIVE_TABLE_ROWS)
        return {
            "competition": competition,
            "rounds": rounds,
            "after": after,
            "live_query": self.live_query(after, [table for table in (standings, results) if table is not None]),
            "preliminary_count": selectors.standings_preliminary_count(competition, up_to_round=after),
            "standings": standings,
            # How ties are broken, in the words the printed standings use.
            "standings_order": competition_facts(competition)["order"],
            "current_round": current,
            "current_results": results,
            "current_byes": selectors.round_byes(current) if current is not None else [],
            "live": live,
            "changed_at": public_selectors.last_change(competition=competition) if live else None,
            "embed": self.embed,
        }

    def live_query(self, after, tables) -> str:
        """The live part's query, for its polls: what it shows as the page showed it (the standings
        after a round, the embed, the page of each table)."""
        query = [("after", after)] if after else []
        if self.embed:
            query.append(("embed", "1"))
        for table in tables:
            for field in (table.prefixed_page_field, table.prefixed_per_page_field):
                if self.request.GET.get(field):
                    query.append((field, self.request.GET[field]))
        return urlencode(query)

    def standings_caption(self, after):
        if after is None:
            return _("Standings")
        return _("Standings after round %(number)s") % {"number": after}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.live_context())
        return context


class CompetitionDetailView(CompetitionMixin, TemplateView):
    """The standings (after any round), the current round's results, links to every round."""

    template_name = "scoring/public/competition_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        pk, rounds = self.competition.pk, context["rounds"]
        context["round_links"] = [(r, reverse("scoring:round-detail", args=[pk, r.number])) for r in rounds]
        context["embed_url"] = absolute_reverse("scoring:competition-embed", pk)
        # The places round by round, worked out from every round's table (selectors.history).
        context["places"] = history.places_by_round(self.competition)
        context["heat_of"] = championships.heat_championship(self.competition)  # a championship's heat
        context["competition_figures"] = figures.competition_figures(self.competition)
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
        """What the live part shows: the results, the byes and whether the round is played."""
        round_ = self.round
        live, changed_at = public_selectors.round_live_state(round_)
        return {
            "results": ResultsTable(selectors.round_result_rows(round_), caption=_("Results")),
            "byes": selectors.round_byes(round_),
            "live": live,
            "changed_at": changed_at,
        }


class RoundDetailView(RoundMixin, TemplateView):
    template_name = "scoring/public/round_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.round
        # Around the live part: the hall clock's link and the rounds before and after.
        context["clock"] = public_selectors.hall_clock(round_)
        context.update(public_selectors.neighbour_rounds(round_))
        context["may_print_blank_protocols"] = permissions.can_print_blank_protocols(
            self.request.user, round_, round_matches_with_keepers(round_)
        )
        return context


class RoundLiveView(RoundMixin, TemplateView):
    """The results of a round, for htmx polling while it is played."""

    template_name = "scoring/public/_round_live.html"


class MatchDetailView(PublicPageMixin, TemplateView):
    """The protocol of a match deal by deal, each deal's breakdown on demand, and how it ended."""

    template_name = "scoring/public/match_detail.html"
    drawn_from = editions.match

    def get_match(self):
        return public_selectors.get_visible_match(self.kwargs["pk"], self.request.user)

    def get(self, request, *args, **kwargs):
        self.match = self.get_match()
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(match=self.match, competition=self.match.competition, **self.body_context())
        return context

    def body_context(self) -> dict:
        match = self.match
        protocol = match_protocol(match)
        return {
            "protocol": protocol,
            "rules": match.rules,
            "live": match.status == Match.Status.IN_PROGRESS,
            "changed_at": match.updated_at,
            "sides": [
                ("home", match.home_team, match.home_substitute, match.home_total),
                ("away", match.away_team, match.away_substitute, match.away_total),
            ],
            "end_text": end_text(protocol),
            "result_text": result_text(protocol),
            "status_text": status_text(match),
        }


class MatchLiveView(MatchDetailView):
    """The scoreboard and protocol for htmx polling, which sends the part's validator and gets 304
    while nothing changed (scoring.web.public_cache)."""

    template_name = "scoring/public/_match_live.html"


def _form_letter(match: Match, team: Team) -> str | None:
    """"win", "draw" or "loss" for `team`, or None when the match has no result."""
    if match.winner == "draw":
        return "draw"
    if match.winner in ("home", "away"):
        side = "home" if match.home_team_id == team.pk else "away"
        return "win" if match.winner == side else "loss"
    return None


def _one_competition(matches: list[Match]) -> bool:
    return len({match.competition_id for match in matches}) == 1


class TeamDetailView(PublicPageMixin, TemplateView):
    """A team: its players, its results and fixtures in public competitions, its recent form."""

    template_name = "scoring/public/team_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = public_selectors.team_page_team(kwargs["pk"])
        played, to_play = public_selectors.team_public_results_and_fixtures(team)
        context.update(
            team=team,
            results=ResultsTable(played[::-1], caption=_("Results"), across_rounds=True) if played else None,
            fixtures=ResultsTable(to_play, caption=_("Fixtures"), across_rounds=True),
            # A phone leaves the competition's name out of a table's rows when all share it.
            results_one_competition=_one_competition(played),
            fixtures_one_competition=_one_competition(to_play),
            has_fixtures=bool(to_play),
            form=[
                {"match": m, "outcome": _form_letter(m, team),
                 "opponent": m.away_team if m.home_team_id == team.pk else m.home_team}
                for m in played[-FORM_LENGTH:]
            ],  # fmt: skip
            competitions=public_selectors.team_public_competitions(team),
            seasons=history.team_seasons(team),
            road=championships.team_road(team),  # its road through championships
            canasta_figures=figures.team_figures(team),
        )
        return context


class PlayerDetailView(PublicPageMixin, TemplateView):
    """A player: teams, matches and figures (deals, average deal score, canastas, goings out, wins)."""

    template_name = "scoring/public/player_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player = get_object_or_404(public_selectors.players(), pk=kwargs["pk"])
        teams = list(public_selectors.player_teams(player))
        pairs = [team.pk for team in teams]
        matches = public_selectors.player_matches(player, pairs)
        per_competition = public_selectors.public_player_statistics(player, matches)
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
            results_one_competition=_one_competition(matches),
            seasons=history.player_seasons(player, pairs),
            canasta_figures=figures.player_figures(player),
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
        teams = public_selectors.club_teams(club)
        context.update(
            club=club,
            teams=teams,
            players=public_selectors.club_players(club),
            competitions=public_selectors.club_competitions(club, self.request.user),
            seasons=history.club_seasons(club, [team.pk for team in teams]),
            canasta_figures=figures.club_figures(club),
        )
        return context
