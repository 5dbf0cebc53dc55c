"""URLs of the scoring app, namespace "scoring"; names are kebab-case.

One list, grouped by area. Add a route under its area's comment, importing the area's view module
(public, secretary, manage, exports) from scoring.views.
"""

from django.urls import path

from scoring.views import exports, public, public_clock, public_feeds
from scoring.views import schedules as schedule_views

app_name = "scoring"

urlpatterns = [
    # public: anyone, no login
    path("", public.StartPageView.as_view(), name="home"),
    # -- public: competitions, rounds, matches, teams, players, clubs; embeds and feeds; hall clock
    path("competitions/", public.CompetitionListView.as_view(), name="competition-list"),
    path("competitions/<int:pk>/", public.CompetitionDetailView.as_view(), name="competition-detail"),
    path("competitions/<int:pk>/live/", public.CompetitionLiveView.as_view(), name="competition-live"),
    path("competitions/<int:pk>/rounds/", public.CompetitionRoundsView.as_view(), name="competition-rounds"),
    path("competitions/<int:pk>/embed/", public_feeds.CompetitionEmbedView.as_view(), name="competition-embed"),
    path("competitions/<int:pk>/feed.json", public_feeds.CompetitionFeedView.as_view(), name="competition-feed"),
    path("competitions/<int:pk>/rounds/<int:number>/", public.RoundDetailView.as_view(), name="round-detail"),
    path("competitions/<int:pk>/rounds/<int:number>/live/", public.RoundLiveView.as_view(), name="round-live"),
    path("competitions/<int:pk>/rounds/<int:number>/clock/", public_clock.HallClockView.as_view(), name="round-clock"),
    path(
        "competitions/<int:pk>/rounds/<int:number>/clock/live/",
        public_clock.HallClockPartialView.as_view(),
        name="round-clock-live",
    ),
    path(
        "competitions/<int:pk>/rounds/<int:number>/clock/start/",
        public_clock.HallClockStartView.as_view(),
        name="round-clock-start",
    ),
    path("matches/<int:pk>/", public.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:pk>/live/", public.MatchLiveView.as_view(), name="match-live"),
    path("teams/<int:pk>/", public.TeamDetailView.as_view(), name="team-detail"),
    path("teams/<int:pk>/fixtures.ics", public_feeds.TeamCalendarView.as_view(), name="team-calendar"),
    path("players/<int:pk>/", public.PlayerDetailView.as_view(), name="player-detail"),
    path("clubs/", public.ClubListView.as_view(), name="club-list"),
    path("clubs/<int:pk>/", public.ClubDetailView.as_view(), name="club-detail"),
    # -- end of public
    # secretary: enter and confirm protocols
    # manage: set up clubs, competitions, rounds and matches
    # exports: PDF and Excel downloads
    # -- exports (issue 5): documents of a match, a round, the standings and a whole competition
    path("matches/<int:pk>/protocol.pdf", exports.MatchProtocolPdfView.as_view(), name="match-protocol-pdf"),
    path("matches/<int:pk>/protocol.xlsx", exports.MatchProtocolXlsxView.as_view(), name="match-protocol-xlsx"),
    path("competitions/<int:pk>/standings.pdf", exports.StandingsPdfView.as_view(), name="standings-pdf"),
    path("competitions/<int:pk>/standings.xlsx", exports.StandingsXlsxView.as_view(), name="standings-xlsx"),
    path("competitions/<int:pk>/competition.pdf", exports.CompetitionPdfView.as_view(), name="competition-pdf"),
    path("competitions/<int:pk>/competition.xlsx", exports.CompetitionXlsxView.as_view(), name="competition-xlsx"),
    path("competitions/<int:pk>/rounds/<int:number>/results.pdf", exports.RoundResultsPdfView.as_view(), name="round-results-pdf"),
    path("competitions/<int:pk>/rounds/<int:number>/results.xlsx", exports.RoundResultsXlsxView.as_view(), name="round-results-xlsx"),
    path(
        "competitions/<int:pk>/rounds/<int:number>/protocols.pdf",
        exports.RoundBlankProtocolsPdfView.as_view(),
        name="round-protocols-pdf",
    ),
    # -- end of exports
    # -- schedules (issue 4): generate a league schedule, pair a tournament round, import fixtures
    path("manage/competitions/<int:pk>/schedule/generate/", schedule_views.ScheduleGenerateView.as_view(), name="manage-schedule-generate"),
    path("manage/competitions/<int:pk>/schedule/pair/", schedule_views.SchedulePairRoundView.as_view(), name="manage-schedule-pair"),
    path("manage/competitions/<int:pk>/schedule/import/", schedule_views.FixturesImportView.as_view(), name="manage-fixtures-import"),
    # -- end of schedules
]
