"""The start page, the language switch, the health check and the login page."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_start_page_is_swedish_by_default(client):
    response = client.get(reverse("scoring:home"))

    assert response.status_code == 200
    content = response.content.decode()
    assert '<html lang="sv">' in content
    assert "Canastaklubben" in content
    assert "giv för giv" in content


def test_swedish_first_whatever_the_browser_prefers(client):
    response = client.get(reverse("scoring:home"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")

    assert '<html lang="sv">' in response.content.decode()


def test_start_page_in_english_after_switching_language(client):
    # The switch is a link to the same page in the other language (its address under /en/).
    page = client.get(reverse("scoring:home")).content.decode()
    assert 'href="/en/" lang="en" hreflang="en"' in page

    response = client.get("/en/")

    assert response.status_code == 200
    content = response.content.decode()
    assert '<html lang="en">' in content
    assert "deal by deal" in content
    assert "giv för giv" not in content


def test_the_old_language_switch_leads_to_the_english_address_and_a_cookie_changes_nothing(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/competitions/?x=1"})
    assert response.status_code == 302
    assert response["Location"] == "/en/competitions/?x=1"
    # The cookie it leaves is ignored: the bare address is Swedish for everyone.
    assert '<html lang="sv">' in client.get(reverse("scoring:home")).content.decode()
    assert "Vary" not in client.get(reverse("scoring:home"))


def test_start_page_sends_a_content_security_policy(client):
    response = client.get(reverse("scoring:home"))

    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_healthz_answers_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")


def test_login_page(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    content = response.content.decode()
    assert 'name="username"' in content
    assert 'name="password"' in content
    assert "Logga in" in content


def test_logged_in_user_sees_a_logout_form(client, django_user_model):
    user = django_user_model.objects.create_user(username="sekreterare", password="hemligt-123")
    client.force_login(user)

    content = client.get(reverse("scoring:home")).content.decode()

    assert f'action="{reverse("logout")}" method="post"' in content
    assert "sekreterare" in content


def test_login_is_paused_after_five_wrong_passwords(client, django_user_model):
    django_user_model.objects.create_user(username="sekreterare", password="hemligt-123")
    wrong = {"username": "sekreterare", "password": "fel"}

    for _ in range(4):
        assert client.post(reverse("login"), wrong).status_code == 200
    response = client.post(reverse("login"), wrong)

    assert response.status_code == 429
    assert "Inloggningen är pausad" in response.content.decode()
    # Even the right password is refused until the pause is over.
    right = {"username": "sekreterare", "password": "hemligt-123"}
    assert client.post(reverse("login"), right).status_code == 429
