"""URLs of the scoring app, namespace "scoring"; names are kebab-case.

One list, grouped by area. Add a route under its area's comment, importing the area's view module
(public, secretary, manage, exports) from scoring.views.
"""

from django.urls import path

from scoring.views import public

app_name = "scoring"

urlpatterns = [
    # public: anyone, no login
    path("", public.StartPageView.as_view(), name="home"),
    # secretary: enter and confirm protocols
    # manage: set up clubs, competitions, rounds and matches
    # exports: PDF and Excel downloads
]
