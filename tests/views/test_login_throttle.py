"""Password guessing is counted by the client's real address (X-Forwarded-For, believed only from a
trusted proxy) with the user name, and by address across user names; the right password from
another address still gets in."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from axes.models import AccessAttempt

from scoring.web.client_address import client_address
from tests import factories as f

LOGIN = "/accounts/login/"
PROXY = "10.0.0.5"
pytestmark = pytest.mark.django_db


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]


def login(client, username, password, *, client_ip, via_proxy=True):
    if via_proxy:
        return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=PROXY,
                           HTTP_X_FORWARDED_FOR=client_ip)  # fmt: skip
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=client_ip)


def test_behind_a_proxy_a_guesser_does_not_lock_the_real_user_out(client, behind_proxy):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    for attempt in range(5):
        login(client, "sekreterare", f"fel{attempt}", client_ip="198.51.100.66")
    assert login(client, "sekreterare", "rätt-lösenord-123", client_ip="198.51.100.66").status_code == 429
    # The real user, at home, comes through the same proxy.
    assert login(client, "sekreterare", "rätt-lösenord-123", client_ip="203.0.113.7").status_code == 302


def test_a_forwarded_header_is_not_believed_from_anyone_but_the_proxy(client, behind_proxy):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    for attempt in range(5):
        client.post(LOGIN, {"username": "sekreterare", "password": f"fel{attempt}"}, REMOTE_ADDR="198.51.100.66",
                    HTTP_X_FORWARDED_FOR=f"192.0.2.{attempt}")  # fmt: skip
    response = client.post(LOGIN, {"username": "sekreterare", "password": "rätt-lösenord-123"},
                           REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR="192.0.2.99")  # fmt: skip
    assert response.status_code == 429


def test_one_password_tried_on_many_names_is_limited_per_address(client, settings):
    f.make_user("sekreterare", password="rätt-lösenord-123")
    limit = settings.LOGIN_FAILURES_PER_ADDRESS
    for number in range(limit):
        response = login(client, f"namn{number}", "sommar2026", client_ip="198.51.100.66", via_proxy=False)
        assert response.status_code == (429 if number == limit - 1 else 200), number
    # From that address nothing gets in for now, not even a right password ...
    assert login(client, "sekreterare", "rätt-lösenord-123", client_ip="198.51.100.66", via_proxy=False).status_code == 429
    # ... and from any other address the right password does.
    assert login(client, "sekreterare", "rätt-lösenord-123", client_ip="203.0.113.7", via_proxy=False).status_code == 302


def test_a_hall_of_secretaries_on_one_address_is_not_paused_by_a_few_typos(client, settings):
    """Below the address's limit, each name has its own count."""
    f.make_user("sekreterare", password="rätt-lösenord-123")
    for number in range(settings.LOGIN_FAILURES_PER_ADDRESS - 1):
        login(client, f"kollega{number % 4}", f"fel{number}", client_ip="198.51.100.66", via_proxy=False)
    assert login(client, "sekreterare", "rätt-lösenord-123", client_ip="198.51.100.66", via_proxy=False).status_code == 302


def test_logging_in_to_ones_own_account_does_not_reset_the_addresss_count(client, settings):
    f.make_user("angripare", password="eget-lösenord-789")
    limit = settings.LOGIN_FAILURES_PER_ADDRESS
    for number in range(limit - 1):
        login(client, f"namn{number}", "sommar2026", client_ip="198.51.100.66", via_proxy=False)
    assert login(client, "angripare", "eget-lösenord-789", client_ip="198.51.100.66", via_proxy=False).status_code == 302
    client.logout()
    assert login(client, "namn-x", "sommar2026", client_ip="198.51.100.66", via_proxy=False).status_code == 429


@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        ("198.51.100.66", "192.0.2.1", "198.51.100.66"),  # not from the proxy: the header is ignored
        (PROXY, "192.0.2.1", "192.0.2.1"),
        (PROXY, "6.6.6.6, 192.0.2.1", "192.0.2.1"),  # the client's own forged entry is left of the real one
        (PROXY, "192.0.2.1, 10.0.0.7", "192.0.2.1"),  # two proxies of ours
        (PROXY, "not-an-address", PROXY),
        (PROXY, "", PROXY),
    ],
)
def test_the_client_address(settings, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


@pytest.mark.parametrize("length", [255, 256, 300, 5000])
def test_an_over_long_user_name_is_a_wrong_guess_not_a_server_error(client, length):
    """Axes keeps the name in a column of 255 characters; on PostgreSQL a longer one failed to be
    written and the login answered 500. It is refused as a wrong password is, and counted."""
    wrong_password = login(client, "sekreterare", "fel", client_ip="198.51.100.66", via_proxy=False)

    response = login(client, "n" * length, "fel", client_ip="198.51.100.66", via_proxy=False)

    assert response.status_code == wrong_password.status_code == 200
    assert response.context["form"].errors == wrong_password.context["form"].errors
    assert list(AccessAttempt.objects.filter(username__startswith="n").values_list("username", flat=True)) == [
        "n" * min(length, 255)
    ]
