"""The site's URLs and the benchmarks' references: the minimal view, a minimal Django view served
by the same gunicorn through the same middleware, answering a few bytes without a query; and two
views that read what a match's live part reads and draw one line of template, for what plain
Django costs before a page draws anything of its own (tests/benchmarks/pages.py, "the floor")."""

from django.http import HttpResponse
from django.template import engines
from django.urls import path

from canastaclub.urls import urlpatterns as site_urlpatterns
from scoring.selectors.protocols import stored_deals
from scoring.selectors.public import get_visible_match

ONE_LINE = engines["django"].from_string(
    "<p>{{ match.home_team.name }} {{ match.home_total }}, {{ match.away_team.name }} {{ match.away_total }}: "
    "{{ deals|length }}</p>"
)


def minimal_view(request):
    return HttpResponse(b"ok", content_type="text/plain")


def match_row_view(request, pk):
    """A public match's row as its pages read it (one query), and one line of template."""
    match = get_visible_match(pk, request.user)
    return HttpResponse(ONE_LINE.render({"match": match, "deals": ()}, request))


def match_deals_view(request, pk):
    """The same, and the match's deals (a second query)."""
    match = get_visible_match(pk, request.user)
    return HttpResponse(ONE_LINE.render({"match": match, "deals": stored_deals(match)}, request))


# The site's own list (its i18n_patterns may not be included, only added).
urlpatterns = [
    path("bench/minimal/", minimal_view, name="bench-minimal"),
    path("bench/match-row/<int:pk>/", match_row_view, name="bench-match-row"),
    path("bench/match-deals/<int:pk>/", match_deals_view, name="bench-match-deals"),
    *site_urlpatterns,
]
