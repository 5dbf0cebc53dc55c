"""The address of the client that sent a request: the one thing login throttling and the document
limits count by.

Behind a reverse proxy every request comes from the proxy's address (REMOTE_ADDR), and the client's
own address is in the X-Forwarded-For header the proxy adds. Anyone can send that header, so it is
believed only when the request comes from an address in settings.TRUSTED_PROXIES (none by default):
the header is read from the right, skipping the trusted proxies, and the first other address is the
client. Without a trusted proxy in front the header is ignored and REMOTE_ADDR is the client.

A trusted proxy's address is often 127.0.0.1, which every process on the machine can connect from.
With settings.PROXY_SECRET set, the proxy proves itself: the header is believed only from a request
that carries the secret in X-Canasta-Proxy, which nginx sets (replacing whatever a client sent).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.utils.crypto import constant_time_compare

# The header nginx sets to the proxy secret (deploy/nginx.conf.template, deploy/nginx-site.conf).
PROXY_SECRET_HEADER = "HTTP_X_CANASTA_PROXY"


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def is_trusted_proxy(address) -> bool:
    return address is not None and any(address in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def is_from_proxy(request, address) -> bool:
    """Whether the request came straight from a trusted proxy: its address, and the proxy's secret
    when one is set."""
    if not is_trusted_proxy(address):
        return False
    secret = settings.PROXY_SECRET
    return not secret or constant_time_compare(request.META.get(PROXY_SECRET_HEADER, ""), secret)


def client_address(request) -> str:
    """The client's address as text (REMOTE_ADDR when nothing better is known)."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    address = _address(remote)
    if not is_from_proxy(request, address):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for hop in reversed(forwarded.split(",")):
        hop_address = _address(hop)
        if hop_address is None:
            # A malformed entry: everything left of it may be forged; the last good hop stands.
            break
        address = hop_address
        if not is_trusted_proxy(hop_address):
            break
    return str(address)
