"""Forwarded address: behind nginx, an app server believes X-Forwarded-For only from nginx itself,
not from any process that can reach it on the proxy's address (127.0.0.1): nginx proves itself with
a secret (DJANGO_PROXY_SECRET in the X-Canasta-Proxy header) that `make cluster` gives both."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from deploy.cluster import Cluster
from scoring.web.client_address import client_address


@pytest.fixture
def behind_nginx(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.PROXY_SECRET = "nginx-alone-knows-this"


def request(**meta):
    return RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9", **meta)


def test_another_local_process_cannot_claim_an_address(behind_nginx):
    assert client_address(request()) == "127.0.0.1"
    assert client_address(request(HTTP_X_CANASTA_PROXY="a guess")) == "127.0.0.1"
    assert client_address(request(HTTP_X_CANASTA_PROXY="")) == "127.0.0.1"


def test_nginx_with_the_secret_is_believed(behind_nginx):
    assert client_address(request(HTTP_X_CANASTA_PROXY="nginx-alone-knows-this")) == "203.0.113.9"


def test_the_secret_does_not_make_a_stranger_a_proxy(behind_nginx):
    stranger = RequestFactory().get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.9",
                                    HTTP_X_CANASTA_PROXY="nginx-alone-knows-this")
    assert client_address(stranger) == "198.51.100.7"


def test_make_cluster_gives_nginx_and_the_app_servers_the_same_secret(tmp_path):
    cluster = Cluster(run_dir=tmp_path, database_url="", app_ports=(18001, 18002))
    secret = cluster.env["DJANGO_PROXY_SECRET"]
    assert len(secret) >= 32
    conf = cluster.nginx_conf()
    assert f'proxy_set_header X-Canasta-Proxy "{secret}";' in conf.read_text()
    assert conf.stat().st_mode & 0o077 == 0  # readable by its owner alone
    assert (tmp_path / "proxy_secret").stat().st_mode & 0o077 == 0
