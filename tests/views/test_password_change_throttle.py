"""Changing one's password is throttled as the login is: wrong old passwords count as failed logins
of that name from that address, and after AXES_FAILURE_LIMIT of them the form is paused (429)
even for the right one, while the same user elsewhere is not."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import factories as f

CHANGE = "/accounts/password_change/"
pytestmark = pytest.mark.django_db


def change(client, old, *, ip="198.51.100.66"):
    return client.post(CHANGE, {"old_password": old, "new_password1": "Nytt-lösen-4711", "new_password2": "Nytt-lösen-4711"},
                       REMOTE_ADDR=ip)  # fmt: skip


def test_wrong_old_passwords_are_paused_as_logins_are(settings):
    user = f.make_user("sekreterare", password="rätt-lösenord-123")
    thief = Client()
    thief.force_login(user)
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        response = change(thief, f"fel{attempt}")
        assert response.status_code == 200 and "old_password" in response.context["form"].errors
    assert change(thief, "fel-igen").status_code == 429
    # Paused: not even the right old password changes it from here now.
    assert change(thief, "rätt-lösenord-123").status_code == 429
    user.refresh_from_db()
    assert user.check_password("rätt-lösenord-123")
    # The user at home, another address, still changes it.
    home = Client()
    home.force_login(user)
    assert change(home, "rätt-lösenord-123", ip="203.0.113.7").status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nytt-lösen-4711")


def test_a_right_old_password_changes_it(client):
    user = f.make_user("kapten", password="rätt-lösenord-123")
    client.force_login(user)
    assert change(client, "rätt-lösenord-123").status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nytt-lösen-4711")


def test_the_admins_password_change_goes_to_the_throttled_page(client):
    admin = f.make_admin("admin", password="rätt-lösenord-123")
    client.force_login(admin)
    response = client.post("/admin/password_change/", {"old_password": "fel", "new_password1": "Nytt-lösen-4711",
                                                        "new_password2": "Nytt-lösen-4711"})
    assert response.status_code in (301, 302) and response["Location"] == CHANGE
    admin.refresh_from_db()
    assert admin.check_password("rätt-lösenord-123")
