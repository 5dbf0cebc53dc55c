"""Pages anyone may see without logging in: the start page, and later standings, results and
protocols."""

from django.views.generic import TemplateView


class StartPageView(TemplateView):
    template_name = "scoring/public/home.html"
