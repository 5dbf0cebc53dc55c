"""URLs of the scoring app, namespace "scoring"; names are kebab-case.

One list, grouped by area. Add a route under its area's comment, importing the area's view module
(public, secretary, manage, exports) from scoring.views.
"""

from django.urls import path, register_converter

from scoring.web.converters import IdConverter, NumberConverter

from scoring.views import exports, manage, manage_delete, manage_merge, public, public_clock, public_feeds, secretary, secretary_actions, secretary_upload
from scoring.views import chores, federation
from scoring.views import table as table_views
from scoring.views import table_manage
from scoring.views import figures as figures_views
from scoring.views import rules as rules_views
from scoring.views import help as help_views
from scoring.views import schedules as schedule_views
from scoring.views import championship_manage, championships
from scoring.views import manage_members

app_name = "scoring"

# Numbers in paths are bounded to their database columns (scoring/web/converters.py): a number beyond
# them is 404, not a server error. Use <id:pk> and <number:number>, never <int:...>.
register_converter(IdConverter, "id")
register_converter(NumberConverter, "number")

urlpatterns = [
    # -- table: entry at the table through a match's table link (no account). First of all: an open
    # table page asks for its state every few seconds, and a request's address is compared with the
    # patterns in their order (the state's 304 tried some hundred before these).
    path("t/sw.js", table_views.TableServiceWorkerView.as_view(), name="table-sw"),
    path("t/<str:code>/", table_views.TablePageView.as_view(), name="table"),
    path("t/<str:code>/state/", table_views.TableStateView.as_view(), name="table-state"),
    path("t/<str:code>/check/", table_views.TableCheckView.as_view(), name="table-check"),
    path("t/<str:code>/deals/", table_views.TableProposeView.as_view(), name="table-propose"),
    path("t/<str:code>/answer/", table_views.TableAnswerView.as_view(), name="table-answer"),
    path("t/<str:code>/confirm/", table_views.TableConfirmView.as_view(), name="table-confirm"),
    path("t/<str:code>/photo/", table_views.TablePhotoView.as_view(), name="table-photo"),
    # public: anyone, no login
    path("", public.StartPageView.as_view(), name="home"),
    # -- public: competitions, rounds, matches, teams, players, clubs; embeds and feeds; hall clock
    path("competitions/", public.CompetitionListView.as_view(), name="competition-list"),
    path("competitions/<id:pk>/", public.CompetitionDetailView.as_view(), name="competition-detail"),
    path("competitions/<id:pk>/live/", public.CompetitionLiveView.as_view(), name="competition-live"),
    path("competitions/<id:pk>/rounds/", public.CompetitionRoundsView.as_view(), name="competition-rounds"),
    path("competitions/<id:pk>/embed/", public_feeds.CompetitionEmbedView.as_view(), name="competition-embed"),
    path("competitions/<id:pk>/feed.json", public_feeds.CompetitionFeedView.as_view(), name="competition-feed"),
    path("competitions/<id:pk>/rounds/<number:number>/", public.RoundDetailView.as_view(), name="round-detail"),
    path("competitions/<id:pk>/rounds/<number:number>/live/", public.RoundLiveView.as_view(), name="round-live"),
    path("competitions/<id:pk>/rounds/<number:number>/clock/", public_clock.HallClockView.as_view(), name="round-clock"),
    path(
        "competitions/<id:pk>/rounds/<number:number>/clock/live/",
        public_clock.HallClockPartialView.as_view(),
        name="round-clock-live",
    ),
    path(
        "competitions/<id:pk>/rounds/<number:number>/clock/start/",
        public_clock.HallClockStartView.as_view(),
        name="round-clock-start",
    ),
    path("matches/<id:pk>/", public.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<id:pk>/live/", public.MatchLiveView.as_view(), name="match-live"),
    path("teams/<id:pk>/", public.TeamDetailView.as_view(), name="team-detail"),
    path("teams/<id:pk>/fixtures.ics", public_feeds.TeamCalendarView.as_view(), name="team-calendar"),
    path("players/<id:pk>/", public.PlayerDetailView.as_view(), name="player-detail"),
    path("clubs/", public.ClubListView.as_view(), name="club-list"),
    path("clubs/<id:pk>/", public.ClubDetailView.as_view(), name="club-detail"),
    path("rules/", rules_views.RulesIndexView.as_view(), name="rules-index"),
    path("rules/<slug:key>/", rules_views.RulesView.as_view(), name="rules"),
    path("help/", help_views.HelpIndexView.as_view(), name="help-index"),
    path("help/<slug:page>/", help_views.HelpPageView.as_view(), name="help"),
    # -- end of public
    # secretary: enter and confirm protocols
    # -- secretary: my matches, the protocol page, its live check and the match lifecycle
    path("my-matches/", secretary.MyMatchesView.as_view(), name="my-matches"),
    path("matches/<id:pk>/protocol/", secretary.MatchProtocolView.as_view(), name="match-protocol"),
    path("matches/<id:pk>/protocol/check/", secretary.DealLiveCheckView.as_view(), name="match-protocol-check"),
    path("matches/<id:pk>/protocol/upload/", secretary_upload.ProtocolUploadView.as_view(), name="match-protocol-upload"),
    path("matches/<id:pk>/protocol/upload/save/", secretary_upload.ProtocolUploadSaveView.as_view(), name="match-protocol-upload-save"),
    path("matches/<id:pk>/deals/<number:number>/correct/", secretary.DealCorrectView.as_view(), name="deal-correct"),
    path("matches/<id:pk>/deals/remove-last/", secretary.DealDeleteLastView.as_view(), name="deal-delete-last"),
    path("matches/<id:pk>/start/", secretary_actions.MatchStartView.as_view(), name="match-start"),
    path("matches/<id:pk>/clock/", secretary_actions.MatchClockView.as_view(), name="match-clock"),
    path("matches/<id:pk>/walk-over/", secretary_actions.MatchForfeitView.as_view(), name="match-forfeit"),
    path("matches/<id:pk>/postpone/", secretary_actions.MatchPostponeView.as_view(), name="match-postpone"),
    path("matches/<id:pk>/void/", secretary_actions.MatchVoidView.as_view(), name="match-void"),
    path("matches/<id:pk>/submit/", secretary_actions.MatchSubmitView.as_view(), name="match-submit"),
    path("matches/<id:pk>/confirm/", secretary_actions.MatchConfirmView.as_view(), name="match-confirm"),
    path("matches/<id:pk>/dispute/", secretary_actions.MatchDisputeView.as_view(), name="match-dispute"),
    path("matches/<id:pk>/reopen/", secretary_actions.MatchReopenView.as_view(), name="match-reopen"),
    # -- the season's chores: a match moved by agreement (chores.py)
    path("matches/<id:pk>/move/", chores.MatchMoveView.as_view(), name="match-move"),
    path("matches/<id:pk>/move/answer/", chores.MoveAnswerView.as_view(), name="match-move-answer"),
    path("matches/<id:pk>/move/approve/", chores.MoveApproveView.as_view(), name="match-move-approve"),
    # -- end of secretary
    # manage: set up clubs, competitions, rounds and matches
    # -- manage: a club's players and teams, its competitions, their rounds and matches
    path("manage/", manage.ManageHomeView.as_view(), name="manage-home"),
    path("manage/clubs/<id:pk>/", manage.ClubManageView.as_view(), name="manage-club"),
    path("manage/clubs/<id:pk>/players/new/", manage.PlayerCreateView.as_view(), name="manage-player-create"),
    path("manage/players/<id:pk>/", manage.PlayerUpdateView.as_view(), name="manage-player-edit"),
    path("manage/clubs/<id:pk>/teams/new/", manage.TeamCreateView.as_view(), name="manage-team-create"),
    path("manage/teams/<id:pk>/", manage.TeamUpdateView.as_view(), name="manage-team-edit"),
    path("manage/clubs/<id:pk>/competitions/new/", manage.CompetitionCreateView.as_view(), name="manage-competition-create"),
    path("manage/competitions/<id:pk>/", manage.CompetitionManageView.as_view(), name="manage-competition"),
    path("manage/competitions/<id:pk>/edit/", manage.CompetitionUpdateView.as_view(), name="manage-competition-edit"),
    path("manage/competitions/<id:pk>/rounds/new/", manage.RoundCreateView.as_view(), name="manage-round-create"),
    path("manage/rounds/<id:pk>/", manage.RoundUpdateView.as_view(), name="manage-round-edit"),
    path("manage/competitions/<id:pk>/matches/new/", manage.MatchCreateView.as_view(), name="manage-match-create"),
    path("manage/matches/<id:pk>/", manage.MatchUpdateView.as_view(), name="manage-match-edit"),
    path("manage/players/<id:pk>/delete/", manage_delete.PlayerDeleteView.as_view(), name="manage-player-delete"),
    path("manage/teams/<id:pk>/delete/", manage_delete.TeamDeleteView.as_view(), name="manage-team-delete"),
    path("manage/players/<id:pk>/merge/", manage_merge.PlayerMergeView.as_view(), name="manage-player-merge"),
    path("manage/teams/<id:pk>/merge/", manage_merge.TeamMergeView.as_view(), name="manage-team-merge"),
    path("manage/rounds/<id:pk>/delete/", manage_delete.RoundDeleteView.as_view(), name="manage-round-delete"),
    path("manage/matches/<id:pk>/delete/", manage_delete.MatchDeleteView.as_view(), name="manage-match-delete"),
    path("manage/invitations/", manage.InvitationListView.as_view(), name="manage-invitations"),
    # the club's member list: its file out, a file in (checked, kept, saved all or nothing)
    path("manage/clubs/<id:pk>/members/", manage_members.MemberListView.as_view(), name="manage-members"),
    path("manage/clubs/<id:pk>/members/save/", manage_members.MemberListSaveView.as_view(), name="manage-members-save"),
    path("manage/clubs/<id:pk>/members/discard/", manage_members.MemberListDiscardView.as_view(), name="manage-members-discard"),
    path("manage/clubs/<id:pk>/members.csv", manage_members.MemberFileView.as_view(kind="csv"), name="manage-members-csv"),
    path("manage/clubs/<id:pk>/members.xlsx", manage_members.MemberFileView.as_view(kind="xlsx"), name="manage-members-xlsx"),
    path("manage/competitions/<id:pk>/check-in/", chores.CheckInView.as_view(), name="manage-check-in"),
    # -- end of manage
    # exports: PDF and Excel downloads
    # -- exports: documents of a match, a round, the standings and a whole competition
    path("matches/<id:pk>/protocol.pdf", exports.MatchProtocolPdfView.as_view(), name="match-protocol-pdf"),
    path("matches/<id:pk>/protocol.xlsx", exports.MatchProtocolXlsxView.as_view(), name="match-protocol-xlsx"),
    path("matches/<id:pk>/protocol.csv", exports.MatchProtocolCsvView.as_view(), name="match-protocol-csv"),
    path("competitions/<id:pk>/standings.pdf", exports.StandingsPdfView.as_view(), name="standings-pdf"),
    path("competitions/<id:pk>/standings.xlsx", exports.StandingsXlsxView.as_view(), name="standings-xlsx"),
    path("competitions/<id:pk>/competition.pdf", exports.CompetitionPdfView.as_view(), name="competition-pdf"),
    path("competitions/<id:pk>/competition.xlsx", exports.CompetitionXlsxView.as_view(), name="competition-xlsx"),
    path("competitions/<id:pk>/rounds/<number:number>/results.pdf", exports.RoundResultsPdfView.as_view(), name="round-results-pdf"),
    path("competitions/<id:pk>/rounds/<number:number>/results.xlsx", exports.RoundResultsXlsxView.as_view(), name="round-results-xlsx"),
    path(
        "competitions/<id:pk>/rounds/<number:number>/protocols.pdf",
        exports.RoundBlankProtocolsPdfView.as_view(),
        name="round-protocols-pdf",
    ),
    # -- end of exports
    # -- schedules: generate a league schedule, pair a tournament round, import fixtures
    path("manage/competitions/<id:pk>/schedule/generate/", schedule_views.ScheduleGenerateView.as_view(), name="manage-schedule-generate"),
    path("manage/competitions/<id:pk>/schedule/pair/", schedule_views.SchedulePairRoundView.as_view(), name="manage-schedule-pair"),
    path("manage/competitions/<id:pk>/schedule/import/", schedule_views.FixturesImportView.as_view(), name="manage-fixtures-import"),
    # -- end of schedules
    # -- federation: ranking lists, the rating, club tables
    path("rankings/", federation.RankingsView.as_view(), name="rankings"),
    path("rankings/players/<id:pk>/", federation.RankingMatchesView.as_view(list_kind="players"), name="ranking-player"),
    path("rankings/pairs/<id:pk>/", federation.RankingMatchesView.as_view(list_kind="pairs"), name="ranking-pair"),
    path("rankings/rating/", federation.RatingExplainedView.as_view(), name="rating-explained"),
    path("records/", figures_views.FederationRecordsView.as_view(), name="records"),
    path("competitions/<id:pk>/records/", figures_views.CompetitionRecordsView.as_view(), name="competition-records"),
    path("clubs/<id:pk>/records/", figures_views.ClubRecordsView.as_view(), name="club-records"),
    path("competitions/<id:pk>/clubs/", federation.CompetitionClubsView.as_view(), name="competition-clubs"),
    path("competitions/<id:pk>/players/", federation.CompetitionPlayersView.as_view(), name="competition-players"),
    path("manage/competitions/<id:pk>/individual/", federation.IndividualManageView.as_view(), name="manage-individual"),
    # -- end of federation
    # -- championships: the road to the final (public), its qualified lists, the organiser's pages
    path("championships/", championships.ChampionshipListView.as_view(), name="championship-list"),
    path("championships/<id:pk>/", championships.ChampionshipDetailView.as_view(), name="championship-detail"),
    path("stages/<id:pk>/qualified.pdf", championships.StageQualifiedPdfView.as_view(), name="stage-qualified-pdf"),
    path("stages/<id:pk>/qualified.xlsx", championships.StageQualifiedXlsxView.as_view(), name="stage-qualified-xlsx"),
    path("manage/clubs/<id:pk>/championships/new/", championship_manage.ChampionshipCreateView.as_view(), name="manage-championship-create"),
    path("manage/championships/<id:pk>/", championship_manage.ChampionshipManageView.as_view(), name="manage-championship"),
    path("manage/championships/<id:pk>/edit/", championship_manage.ChampionshipUpdateView.as_view(), name="manage-championship-edit"),
    path("manage/championships/<id:pk>/stages/new/", championship_manage.StageCreateView.as_view(), name="manage-stage-create"),
    path("manage/stages/<id:pk>/", championship_manage.StageUpdateView.as_view(), name="manage-stage-edit"),
    path("manage/stages/<id:pk>/heats/new/", championship_manage.HeatAddView.as_view(), name="manage-heat-add"),
    path("manage/stages/<id:pk>/qualified/", championship_manage.StageQualifiedView.as_view(), name="manage-stage-qualified"),
    path("manage/stages/<id:pk>/withdrawals/", championship_manage.StageWithdrawalView.as_view(), name="manage-stage-withdrawal"),
    # -- end of championships
    path("matches/<id:pk>/table-link/", table_manage.MatchTableLinkView.as_view(), name="match-table-link"),
    path(
        "matches/<id:pk>/table-conflicts/<id:proposal>/set-aside/",
        secretary.TableConflictSetAsideView.as_view(),
        name="table-conflict-set-aside",
    ),
    path("matches/<id:pk>/photos/", table_manage.MatchPhotosView.as_view(), name="match-photos"),
    path("matches/<id:pk>/photos/<id:photo>/", table_manage.MatchPhotoView.as_view(), name="match-photo"),
    path("competitions/<id:pk>/rounds/<number:number>/tables/", table_manage.RoundTablesView.as_view(), name="round-tables"),
    path(
        "competitions/<id:pk>/rounds/<number:number>/tables/live/",
        table_manage.RoundTablesLiveView.as_view(),
        name="round-tables-live",
    ),
    path(
        "competitions/<id:pk>/rounds/<number:number>/table-cards/",
        table_manage.RoundTableCardsView.as_view(),
        name="round-table-cards",
    ),
    # -- end of table
]
