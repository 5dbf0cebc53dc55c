"""The error pages as production shows them (DEBUG off): 404 and 403 in the site's layout and the
visitor's language, and 400 and 500 as self-contained pages that need no request context."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import path, reverse
from django.views import defaults

from tests import factories as f

pytestmark = pytest.mark.django_db


def _raise_an_error(request):
    raise RuntimeError("a bug in a view")


# A URL configuration of this module's own, for the test that a view's crash shows 500.html.
urlpatterns = [path("crash/", _raise_an_error)]


@pytest.fixture(autouse=True)
def production(settings):
    """As in production: error pages instead of Django's debug pages."""
    settings.DEBUG = False


def in_english(path: str) -> str:
    """The English address of a page: the language is in the address (i18n_patterns)."""
    return "/en" + path


@pytest.fixture
def other_club_secretary_at_a_protocol(client):
    """A secretary of a third club, logged in, and the protocol of a match their club is not in."""
    s = f.protocol_setup()
    outsider = f.make_user("annan-sekreterare")
    f.make_club("Tredje klubben", secretary=outsider)
    client.force_login(outsider)
    return reverse("scoring:match-protocol", args=[s["match"].pk])


# -- 404 ---------------------------------------------------------------------------------------


def test_a_missing_page_is_a_swedish_404_in_the_sites_layout(client):
    response = client.get("/finns-inte/")

    assert response.status_code == 404
    page = response.content.decode()
    assert '<html lang="sv">' in page
    assert "Sidan finns inte" in page
    assert "Till startsidan" in page
    # The site's own navigation, so the visitor can go on from here.
    assert 'class="site-nav"' in page
    for name in ("scoring:home", "scoring:competition-list", "scoring:club-list"):
        assert f'href="{reverse(name)}"' in page
    # Not Django's bare page, and nothing English.
    assert "Not Found" not in page
    assert "Page not found" not in page
    # Signed out: the log-in button comes back here, and there is no "My matches".
    assert f'href="{reverse("login")}?next=/finns-inte/"' in page
    assert "Mina matcher" not in page


def test_a_match_that_does_not_exist_gets_the_same_page(client):
    response = client.get(reverse("scoring:match-detail", args=[987654]))

    assert response.status_code == 404
    page = response.content.decode()
    assert "Sidan finns inte" in page
    # Django's own message for a missing object is English and technical: not shown.
    assert "matches the given query" not in page


def test_a_signed_in_user_is_offered_my_matches_on_a_404(client):
    client.force_login(f.make_user("sekreterare"))

    page = client.get("/finns-inte/").content.decode()

    assert f'href="{reverse("scoring:my-matches")}"' in page
    assert "Mina matcher" in page


def test_the_404_page_is_in_english_after_switching_language(client):
    response = client.get(in_english("/does-not-exist/"))

    assert response.status_code == 404
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "Page not found" in page
    assert "To the start page" in page
    assert "Sidan finns inte" not in page


# -- 403 ---------------------------------------------------------------------------------------


def test_another_clubs_secretary_gets_a_swedish_403_page(client, other_club_secretary_at_a_protocol):
    url = other_club_secretary_at_a_protocol

    response = client.get(url)

    assert response.status_code == 403
    page = response.content.decode()
    assert '<html lang="sv">' in page
    assert "Du har inte behörighet till den här sidan" in page
    assert "Du är inloggad som annan-sekreterare." in page
    assert 'class="site-nav"' in page
    assert f'href="{reverse("scoring:my-matches")}"' in page
    assert f'href="{reverse("scoring:home")}"' in page
    # Another account may have access: logging in with it comes back to this protocol.
    assert f'href="{reverse("login")}?next={url}"' in page
    assert "Logga in med ett annat konto" in page
    assert "403 Forbidden" not in page


def test_the_403_page_is_in_english_after_switching_language(client, other_club_secretary_at_a_protocol):
    response = client.get(in_english(other_club_secretary_at_a_protocol))

    assert response.status_code == 403
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "You do not have access to this page" in page
    assert "My matches" in page
    assert "behörighet" not in page


def test_the_403_page_says_why_when_the_view_does(client):
    """A view that raises PermissionDenied with a sentence for the user gets it shown."""
    competition = f.make_competition()
    f.make_round(competition, 1)
    client.force_login(f.make_user("utan-roll"))

    response = client.post(reverse("scoring:round-clock-start", args=[competition.pk, 1]))

    assert response.status_code == 403
    assert "Du får inte starta klockan för den här omgången." in response.content.decode()


def test_a_signed_out_visitor_on_a_403_page_is_offered_to_log_in(rf):
    request = rf.get("/skyddad/sida/")

    response = defaults.permission_denied(request, PermissionDenied())

    assert response.status_code == 403
    page = response.content.decode()
    assert f'href="{reverse("login")}?next=/skyddad/sida/"' in page
    assert "Du behöver logga in för att öppna den här sidan." in page
    assert "Mina matcher" not in page


# -- 500 and 400: no request context -----------------------------------------------------------


def test_the_500_page_renders_without_any_context(rf):
    response = defaults.server_error(rf.get("/"))

    assert response.status_code == 500
    page = response.content.decode()
    assert '<html lang="sv">' in page
    assert "Något gick fel" in page
    assert "Something went wrong" in page
    assert 'href="/"' in page
    # The stylesheet's fixed address is a file the site serves.
    assert '<link rel="stylesheet" href="/static/scoring/css/site.css">' in page
    assert finders.find("scoring/css/site.css")
    # Nothing the template engine left unrendered, and no inline style the CSP would block.
    assert "{%" not in page and "{{" not in page
    assert "<style" not in page and "style=" not in page


def test_a_crashing_view_shows_the_500_page(settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)

    response = client.get("/crash/")

    assert response.status_code == 500
    assert "Något gick fel" in response.content.decode()


def test_a_request_for_an_unknown_host_gets_the_400_page():
    client = Client(raise_request_exception=False)

    response = client.get("/", HTTP_HOST="okand.example")

    assert response.status_code == 400
    page = response.content.decode()
    assert "Felaktig begäran" in page
    assert "Bad request" in page
    assert "{%" not in page and "{{" not in page


def test_a_form_sent_with_an_old_token_gets_a_plain_page_saying_nothing_was_saved():
    s = f.protocol_setup()
    client = Client(enforce_csrf_checks=True)
    client.force_login(s["secretary"])
    response = client.post(reverse("scoring:match-protocol", args=[s["match"].pk]), {"home_cards": "120"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Formuläret var för gammalt" in html and "Ingenting sparades" in html
    assert "CSRF token" not in html and "Referer" not in html  # Django's technical reasons are not shown
    assert s["match"].deals.count() == 0
