"""The site's own absolute addresses, built from settings.SITE_URL.

A request's Host header is chosen by whoever sends the request, so nothing the site prints, mails or
offers to copy (printed protocols, e-mails, the embed code, the feeds) takes its host from it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import translation


def site_url() -> str:
    """The site's public address without a trailing slash, e.g. https://canasta.example.org."""
    return settings.SITE_URL.rstrip("/")


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
