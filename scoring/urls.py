"""URLs of the scoring app, namespace "scoring"; names are kebab-case.

One list, grouped by area. Add a route under its area's comment, importing the area's view module
(public, secretary, manage, exports) from scoring.views.
"""

from django.urls import path

from scoring.views import exports, public
from scoring.views import schedules as schedule_views

app_name = "scoring"

urlpatterns = [
    # public: anyone, no login
    path("", public.StartPageView.as_view(), name="home"),
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
