"""The site's own absolute addresses, built from settings.SITE_URL.

A request's Host header is chosen by whoever sends the request, so nothing the site prints, mails or
offers to copy (printed protocols, e-mails, the embed code, the feeds) takes its host from it.
The one exception is debug without SITE_URL (settings.SITE_URL_FOLLOWS_REQUEST): a developer's
own server, reached at whatever host and port it was started on, links to that address
(follow_request, set by scoring.web.middleware.SiteAddressFromRequestMiddleware for one request).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import translation


# The address the current request reached the site at, while follow_request holds it.
request_origin: ContextVar[str] = ContextVar("request_origin", default="")


def site_url() -> str:
    """The site's public address without a trailing slash, e.g. https://canasta.example.org."""
    return (request_origin.get() or settings.SITE_URL).rstrip("/")


def follows_request() -> bool:
    """Whether links follow the request's host and port: only in debug without SITE_URL."""
    return settings.DEBUG and getattr(settings, "SITE_URL_FOLLOWS_REQUEST", False)


@contextmanager
def follow_request(request):
    """Within the block, site_url() is the scheme, host and port the request came to (debug only;
    Django's get_host() still checks the host against ALLOWED_HOSTS)."""
    token = request_origin.set(request.build_absolute_uri("/").rstrip("/")) if follows_request() else None
    try:
        yield
    finally:
        if token is not None:
            request_origin.reset(token)


def site_host() -> str:
    """The host name of the site's public address (calendar events' identifiers use it)."""
    return urlsplit(site_url()).hostname or "canasta"


def absolute(path: str) -> str:
    """The absolute address of a path on this site, e.g. '/matches/3/'."""
    return site_url() + path


def absolute_reverse(viewname: str, *args, **kwargs) -> str:
    """reverse() as an absolute address on the public site: the bare address (the site's own
    language, i18n_patterns), which stays the same whatever language a document is printed in."""
    with translation.override(settings.LANGUAGE_CODE):
        return absolute(reverse(viewname, args=args or None, kwargs=kwargs or None))
