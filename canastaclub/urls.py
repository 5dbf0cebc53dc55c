"""Root URLs: admin, login/logout, health check, and the scoring app at the root.

The language is in the address (i18n_patterns): Swedish at the bare addresses, English under /en/.
So a page is the same for everyone who opens its address, and browsers and proxies may keep it
(scoring.web.public_cache)."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from scoring.web.login_throttle import ThrottledPasswordChangeView
from scoring.views.health import healthz

# The admin is discovered here rather than at start-up (settings, INSTALLED_APPS): the first request
# and the system checks load this URLconf; a command that serves no page does not.
admin.autodiscover()

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The language switch of earlier versions posted here; it now answers with the address of the
    # page in the chosen language (django.views.i18n.set_language with i18n_patterns).
    path("i18n/", include("django.conf.urls.i18n")),
]

urlpatterns += i18n_patterns(
    # The admin's own password change asks for the old password unthrottled: its users change
    # theirs on the site's page, throttled as the login is (scoring.web.login_throttle).
    path("admin/password_change/", RedirectView.as_view(pattern_name="password_change"), name="admin-password-change"),
    path("admin/", admin.site.urls),
    # Log in and out, and change one's own password. No password reset by e-mail: the site sends
    # no mail (a reset form would fail, or leak reset links into a log); an administrator sets a
    # new password in the admin or with `manage.py changepassword`.
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The old password is a guess like a login's: throttled the same way (scoring.web.login_throttle).
    path("accounts/password_change/", ThrottledPasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("", include("scoring.urls", namespace="scoring")),
    prefix_default_language=False,
)
