"""The client's address behind a reverse proxy.

Behind nginx (deploy/nginx.conf.template) every request reaches an app server from the proxy's
own address; the proxy names the client in `X-Forwarded-For`. That header is believed only when
the request comes from one of `settings.TRUSTED_PROXIES` (addresses or networks): anyone else
could write any address into it, and login throttling (django-axes, which locks a username per
address) would then lock out the wrong people or nobody. The header is read from the right,
past every trusted proxy, so an address a client put in front of it is never taken.

`ForwardedClientMiddleware` puts the client's address in `REMOTE_ADDR`, first thing, so axes,
the logs and everything after see the real client.
"""

from __future__ import annotations

import functools
import ipaddress

from django.conf import settings


@functools.lru_cache(maxsize=1)
def trusted_networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def is_trusted(address: str, networks) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_ip(meta: dict) -> str:
    """The client's address from a request's META (module docstring)."""
    remote = meta.get("REMOTE_ADDR", "")
    networks = trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not networks or not is_trusted(remote, networks):
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    client = remote
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # not an address: nothing left of it can be believed
        client = hop
        if not is_trusted(hop, networks):
            break
    return client


class ForwardedClientMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META["REMOTE_ADDR"] = client_ip(request.META)
        return self.get_response(request)
