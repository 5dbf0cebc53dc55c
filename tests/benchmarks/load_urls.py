"""The site's URLs and the load test's baseline: a minimal Django view, served by the same
gunicorn through the same middleware, answering a few bytes without a query."""

from django.http import HttpResponse
from django.urls import include, path


def minimal_view(request):
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/minimal/", minimal_view, name="bench-minimal"),
    path("", include("canastaclub.urls")),
]
