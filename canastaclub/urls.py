"""Root URLs: language switch, admin, login/logout, health check, and the scoring app at the root."""

from django.contrib import admin
from django.urls import include, path

from scoring.views.health import healthz

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("scoring.urls", namespace="scoring")),
]
