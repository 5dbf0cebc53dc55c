"""URLs of the scoring app, namespace "scoring"; names are kebab-case.

One list, grouped by area. Add a route under its area's comment, importing the area's view module
(public, secretary, manage, exports) from scoring.views.
"""

from django.urls import path

from scoring.views import public
from scoring.views import schedules as schedule_views

app_name = "scoring"

urlpatterns = [
    # public: anyone, no login
    path("", public.StartPageView.as_view(), name="home"),
    # secretary: enter and confirm protocols
    # manage: set up clubs, competitions, rounds and matches
    # exports: PDF and Excel downloads
    # -- schedules (issue 4): generate a league schedule, pair a tournament round, import fixtures
    path("manage/competitions/<int:pk>/schedule/generate/", schedule_views.ScheduleGenerateView.as_view(), name="manage-schedule-generate"),
    path("manage/competitions/<int:pk>/schedule/pair/", schedule_views.SchedulePairRoundView.as_view(), name="manage-schedule-pair"),
    path("manage/competitions/<int:pk>/schedule/import/", schedule_views.FixturesImportView.as_view(), name="manage-fixtures-import"),
    # -- end of schedules
]
