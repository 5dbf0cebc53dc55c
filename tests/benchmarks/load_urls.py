"""The site's URLs and the load test's baseline: a minimal Django view, served by the same
gunicorn through the same middleware, answering a few bytes without a query."""

from django.http import HttpResponse
from django.urls import path

from canastaclub.urls import urlpatterns as site_urlpatterns


def minimal_view(request):
    return HttpResponse(b"ok", content_type="text/plain")


# The site's own list (its i18n_patterns may not be included, only added).
urlpatterns = [path("bench/minimal/", minimal_view, name="bench-minimal"), *site_urlpatterns]
