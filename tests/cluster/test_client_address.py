"""The client's address behind the proxy (scoring/proxy.py): X-Forwarded-For is believed only
from TRUSTED_PROXIES, and read from the right, so a client cannot put an address of its choice
in front of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from scoring.proxy import client_ip

BASE_DIR = Path(__file__).resolve().parent.parent.parent

CASES = [
    # (trusted proxies, REMOTE_ADDR, X-Forwarded-For, the client)
    ([], "10.0.0.5", "203.0.113.9", "10.0.0.5"),
    (["127.0.0.1"], "127.0.0.1", "198.51.100.7", "198.51.100.7"),
    (["127.0.0.1"], "127.0.0.1", "", "127.0.0.1"),
    (["127.0.0.1"], "10.0.0.5", "203.0.113.9", "10.0.0.5"),  # not from the proxy: header ignored
    (["127.0.0.1"], "127.0.0.1", "203.0.113.9, 198.51.100.7", "198.51.100.7"),  # forged in front
    (["127.0.0.1", "10.1.0.0/16"], "127.0.0.1", "198.51.100.7, 10.1.2.3", "198.51.100.7"),  # two proxies
    (["127.0.0.1"], "127.0.0.1", "not-an-address", "127.0.0.1"),
    (["127.0.0.1"], "127.0.0.1", "198.51.100.7, garbage", "127.0.0.1"),
    (["::1"], "::1", "2001:db8::5", "2001:db8::5"),
]


@pytest.mark.parametrize(("trusted", "remote", "forwarded", "client"), CASES)
def test_the_client_address(trusted, remote, forwarded, client):
    with override_settings(TRUSTED_PROXIES=trusted):
        assert client_ip({"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": forwarded}) == client


@pytest.mark.django_db
def test_the_middleware_gives_every_view_the_client_address(client, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    response = client.post(
        "/accounts/login/", {"username": "nobody", "password": "wrong"},
        REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7",
    )  # fmt: skip
    assert response.status_code == 200
    from axes.models import AccessAttempt

    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["198.51.100.7"]


def test_a_wrong_proxy_address_stops_the_site_from_starting():
    env = {**os.environ, "TRUSTED_PROXIES": "127.0.0.1, nginx.local"}
    result = subprocess.run(
        [sys.executable, "-c", "import canastaclub.settings"], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "TRUSTED_PROXIES: 'nginx.local' is not an address or network." in result.stderr
